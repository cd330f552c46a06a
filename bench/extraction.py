"""Extraction benchmark: every method and three reference tools on the same pages.

    python bench/extraction.py [--tools auto,e1,...,trafilatura] [--sets ...] [--quick N]
    python bench/extraction.py --sets unseen --warm --no-pathological   # bench/extraction_unseen
    python bench/extraction.py --sets heldout --warm --no-pathological  # bench/extraction_heldout
    python bench/extraction.py --sets heldout2 --warm --no-pathological # bench/extraction_heldout2
    python bench/extraction.py --tools auto-precision,auto,auto-recall --no-pathological

Each tool runs in its own process, one after the other (single core, no contention), over
every evaluation set (the dev split where a set's other part trains a model).  For each tool
and set it reports the metric of shared/extraction/README.md (P, R, F1, cjk tokens), pages/s,
and the ratio of its time to the bare ``lxml.html.fromstring`` parse of the same pages.  A
second table gives the cost of pathological pages (a 20 MB page, 100,000-deep nesting) and a
third the paper comparisons for E1 and E2.  Results also go to bench/out/extraction.json.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OURS = ("auto", "e1", "e2", "e2-trained", "e3", "e4", "e5", "e6")
REFERENCES = ("trafilatura", "readability", "resiliparse")
# the trade-offs, on request: auto's favor= and trafilatura's favor_precision / favor_recall
FAVORED = ("auto-precision", "auto-recall", "trafilatura-precision", "trafilatura-recall")


def _tool(name: str):
    """A function bytes -> text for a tool (imports happen in the worker process)."""
    tool, _, favor = name.partition("-") if name in FAVORED else (name, "", "")
    if tool in OURS:
        from extraction import extract

        options = {"favor": favor} if favor else {}

        def run(html: bytes, url: str | None, siblings: list[bytes]) -> str:
            return extract(html, url, method=tool, siblings=siblings, **options).text
        return run
    if tool == "trafilatura":
        import trafilatura

        options = {f"favor_{favor}": True} if favor else {}

        def run(html, url, siblings):
            return trafilatura.extract(html, url=url, **options) or ""
        return run
    if name == "readability":
        import lxml.html
        from readability import Document

        def run(html, url, siblings):
            try:
                summary = Document(html, url=url).summary(html_partial=True)
                return lxml.html.fromstring(summary).text_content()
            except Exception:  # readability raises on some pages: an empty answer
                return ""
        return run
    if name == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def run(html, url, siblings):
            return extract_plain_text(bytes_to_str(html, detect_encoding(html)),
                                      main_content=True)
        return run
    if name == "lxml":
        import lxml.html

        def run(html, url, siblings):
            lxml.html.fromstring(html)
            return ""
        return run
    raise ValueError(f"unknown tool {name}")


def _pages(sets: list[str], quick: int | None):
    from extraction.datasets import load

    out = {}
    for name in sets:
        ds = load(name, limit=quick)
        out[name] = [(p.id, p.html(), p.url, [s.read_bytes() for s in p.siblings[:1]], p.gold)
                     for p in ds.pages]
    return out


def _expand(name: str) -> list[str]:
    """'unseen' / 'heldout' / 'heldout2' is every page folder of bench/extraction_unseen /
    bench/extraction_heldout / bench/extraction_heldout2; any other name is itself."""
    from extraction.datasets import PROJECT_SETS, project_folders

    return project_folders(name) if name in PROJECT_SETS else [name]


def _worker(tool: str, sets: list[str], quick: int | None, warm: bool, queue) -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import logging
    import warnings

    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    from extraction.evaluation import score

    run = _tool(tool)
    data = _pages(sets, quick)
    first = next(iter(data.values()))
    if first:
        run(first[0][1], first[0][2], first[0][3])  # warm-up: imports, model loading
    if warm:       # every page once: lazy loads (a language model, a codec) before timing
        for pages in data.values():
            for _pid, html, url, sibs, _gold in pages:
                run(html, url, sibs)
    results = {}
    for name, pages in data.items():
        pred, gold = {}, {}
        started = time.perf_counter()
        for pid, html, url, sibs, gold_text in pages:
            pred[pid] = run(html, url, sibs)
            gold[pid] = gold_text
        elapsed = time.perf_counter() - started
        s = score(gold, pred)
        results[name] = {"pages": len(pages), "seconds": elapsed, "precision": s.precision,
                         "recall": s.recall, "f1": s.f1,
                         "per_page": [(r["id"], r["precision"], r["recall"], r["f1"])
                                      for r in s.per_page]}
    queue.put(results)


def _pathological(tool: str, queue) -> None:
    import logging

    logging.disable(logging.CRITICAL)
    run = _tool(tool)
    para = "<p>" + "A sentence of the article, with some words. " * 20 + "</p>"
    big = ("<html><body><div id=nav>" + "<a href=/x>link</a> " * 5000 + "</div><div>"
           + para * 22000 + "</div></body></html>").encode()
    deep = ("<html><body>" + "<div>" * 100_000 + para + "</div>" * 100_000
            + "</body></html>").encode()
    out = {}
    for label, html in (("20 MB page", big), ("100,000-deep nesting", deep)):
        started = time.perf_counter()
        try:
            text = run(html, None, [])
            note = f"{len(text)} chars"
        except Exception as err:  # a reference tool may fail: report it
            note = f"error: {type(err).__name__}"
        out[label] = {"seconds": time.perf_counter() - started, "mb": len(html) / 1e6,
                      "note": note}
    queue.put(out)


def _in_process(target, *args):
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(*args, queue))
    proc.start()
    result = queue.get()
    proc.join()
    return result


def paper_comparison(results: dict) -> list[str]:
    rows = ["| method | paper figure | our comparable measure | value |", "|---|---|---|---|"]
    e1 = results.get("e1")
    if e1:
        pages = [p for r in e1.values() for p in r["per_page"]]
        correct = sum(1 for _, p, r, _f in pages if r >= 0.95 and p >= 0.90) / max(1, len(pages))
        zh = e1.get("zh-wce-dev")
        rows.append(f"| E1 | precision 95.12% (pages judged correct by hand, 3,018 pages of "
                    f"7 sites) | pages with R >= 0.95 and P >= 0.90, all sets | "
                    f"{100 * correct:.1f}% |")
        if zh:
            rows.append(f"| E1 | same | token F1 on zh-wce-dev (Chinese news) | "
                        f"{100 * zh['f1']:.1f} |")
    for name, label in (("e2", "paper parameters"), ("e2-trained", "re-trained by PSO")):
        zh = results.get(name, {}).get("zh-wce-dev")
        if zh:
            rows.append(f"| E2 ({label}) | P 86.7 / R 95.8 / F 91.04 (characters, CWT70th, "
                        f"Chinese) | token P / R / F1 on zh-wce-dev | {100 * zh['precision']:.1f}"
                        f" / {100 * zh['recall']:.1f} / {100 * zh['f1']:.1f} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    from extraction.datasets import EVAL_SETS, FULLTEXT_SETS

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", default=",".join(OURS + REFERENCES))
    ap.add_argument("--sets", default=",".join(EVAL_SETS),
                    help="set names of shared/extraction, folders holding a gold.jsonl, "
                         "'unseen' (bench/extraction_unseen), 'heldout' "
                         "(bench/extraction_heldout) or 'heldout2' (bench/extraction_heldout2)")
    ap.add_argument("--quick", type=int, default=None, help="only the first N pages of a set")
    ap.add_argument("--no-pathological", action="store_true")
    ap.add_argument("--warm", action="store_true",
                    help="run every page once before the timed pass (small sets, where a "
                         "tool's one-off loads would weigh on pages/s)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "extraction.json"))
    args = ap.parse_args(argv)
    tools = [t for t in args.tools.split(",") if t]
    sets = [folder for s in args.sets.split(",") if s for folder in _expand(s)]
    results = {}
    baseline = _in_process(_worker, "lxml", sets, args.quick, args.warm)
    for tool in tools:
        print(f"running {tool} ...", file=sys.stderr, flush=True)
        results[tool] = _in_process(_worker, tool, sets, args.quick, args.warm)

    header = "| tool | " + " | ".join(Path(s).name for s in sets) + " | mean F1 | full-text mean F1 | pages/s | " \
             "time / lxml parse |"
    lines = [header, "|" + "---|" * (len(sets) + 5)]
    total_pages = sum(baseline[s]["pages"] for s in sets)
    lxml_time = sum(baseline[s]["seconds"] for s in sets)
    for tool in tools:
        r = results[tool]
        f1s = [r[s]["f1"] for s in sets]
        ft = [r[s]["f1"] for s in sets if s in FULLTEXT_SETS]
        seconds = sum(r[s]["seconds"] for s in sets)
        cells = [f"{r[s]['f1']:.3f} ({r[s]['precision']:.2f}/{r[s]['recall']:.2f})" for s in sets]
        lines.append(f"| {tool} | " + " | ".join(cells) + f" | {sum(f1s) / len(f1s):.3f} | "
                     f"{f'{sum(ft) / len(ft):.3f}' if ft else ''} | "
                     f"{total_pages / seconds:.1f} | {seconds / lxml_time:.1f}x |")
    lines.append("| lxml.html.fromstring (parse only) | " + " | ".join("" for _ in sets)
                 + f" | | | {total_pages / lxml_time:.1f} | 1.0x |")
    print("\nF1 (P/R) per set, cjk tokens; pages/s over all sets, single core:\n")
    print("\n".join(lines))

    report = {"tools": results, "lxml": baseline, "sets": sets}
    if not args.no_pathological:
        patho = {t: _in_process(_pathological, t) for t in tools}
        report["pathological"] = patho
        print("\nPathological pages (seconds; what came out):\n")
        print("| tool | 20 MB page | 100,000-deep nesting |\n|---|---|---|")
        for t in tools:
            big, deep = patho[t]["20 MB page"], patho[t]["100,000-deep nesting"]
            print(f"| {t} | {big['seconds']:.2f} s ({big['note']}) | "
                  f"{deep['seconds']:.2f} s ({deep['note']}) |")
    comparison = paper_comparison(results)
    if len(comparison) > 2:
        print("\nPaper figures and our comparable measures:\n")
        print("\n".join(comparison))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
