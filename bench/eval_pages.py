"""What bench/markdown.py, bench/html_output.py and bench/prune.py share: their command
line (``--sets``, ``--quick``), the pages of the sets asked for, each tool's plain and
formatted outputs timed in alternating passes, and the cost of our formatting alone on pages
already extracted."""
from __future__ import annotations

import argparse
import logging
import time
import warnings
from pathlib import Path
from typing import Callable

Page = tuple[str, str, str, str]      # (set/id, html, url, gold)


def arguments(description: str, argv: list[str] | None) -> argparse.Namespace:
    """``--sets`` (the extraction benchmark's evaluation sets by default; ``unseen``: the
    project's unseen folders) and ``--quick N``; logging and warnings silenced."""
    from extraction.datasets import EVAL_SETS

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--sets", default=",".join(EVAL_SETS))
    ap.add_argument("--quick", type=int, default=None, help="at most N pages per set")
    args = ap.parse_args(argv)
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    return args


def load_pages(sets: str, quick: int | None) -> tuple[list[str], list[Page]]:
    """The set folders named in ``sets`` (comma-separated; ``unseen`` = the project's unseen
    folders) and their pages, at most ``quick`` per set."""
    from extraction.datasets import load, project_folders

    names: list[str] = []
    for name in sets.split(","):
        names += project_folders("unseen") if name == "unseen" else [name]
    pages = [(f"{Path(n).name}/{p.id}", p.html(), p.url, p.gold)
             for n in names for p in load(n, limit=quick).pages]
    return names, pages


def timed_outputs(run: Callable[[str, str, bool], str], pages: list[Page]
                  ) -> tuple[dict[bool, float], dict[bool, list[str]]]:
    """ms per page and outputs of ``run(html, url, formatted)`` for plain (False) and
    formatted (True) output: after a warm-up pass (imports, models, codecs), the faster of
    two alternating passes each."""
    run(pages[0][1], pages[0][2], True)
    for _key, html, url, _gold in pages:
        run(html, url, False)
    timings: dict[bool, list[float]] = {False: [], True: []}
    outputs: dict[bool, list[str]] = {}
    for formatted in (False, True, False, True):
        started = time.perf_counter()
        outputs[formatted] = [run(html, url, formatted) for _key, html, url, _gold in pages]
        timings[formatted].append(time.perf_counter() - started)
    return {k: 1000 * min(v) / len(pages) for k, v in timings.items()}, outputs


def conversion_ms(pages: list[Page], convert: Callable) -> float:
    """ms per page of ``convert(doc, result)`` on pages already parsed and extracted (the
    faster of two passes)."""
    from extraction import extract_document, parse
    from extraction.document import ParseError

    done = []
    for _key, html, url, _gold in pages:
        try:
            doc = parse(html, url)
        except ParseError:
            continue
        done.append((doc, extract_document(doc)))
    best = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        for doc, result in done:
            convert(doc, result)
        best = min(best, time.perf_counter() - started)
    return 1000 * best / len(pages)
