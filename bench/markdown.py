"""Markdown output: ours (``extract(..., markdown=True)``, auto) against trafilatura's
(``output_format="markdown"``, formatting and tables on) on the same pages.

    python bench/markdown.py [--sets cleaneval-dev,...|unseen] [--quick N]

For each tool, over every page of the sets (the extraction benchmark's evaluation sets by
default), in one process, one tool after the other:
- ms per page for the plain text and for Markdown (extraction included; the faster of two
  alternating passes), and their ratio; for ours also the Markdown conversion alone;
- token F1 against the gold text (shared/extraction/README.md's metric) of the plain text
  and of what a CommonMark reader (markdown-it-py, GitHub tables) shows of the Markdown;
- the pages whose Markdown, so read, has the same words in the same order as the tool's
  plain text;
- what the reader finds in the Markdown: headings, list items, tables, code blocks, emphasis.
Needs the bench extras (trafilatura) and markdown-it-py (test extras).
"""
from __future__ import annotations

import argparse
import logging
import re
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = re.compile(r"\w+")
STRUCTURE = {"headings": "h1|h2|h3|h4|h5|h6", "list items": "li", "tables": "table",
             "code blocks": "pre", "emphasis": "strong|em"}


def _tools():
    from extraction import extract
    import trafilatura

    def ours(html, url, markdown):
        result = extract(html, url, markdown=markdown)
        return result.markdown if markdown else result.text

    def theirs(html, url, markdown):
        if markdown:
            return trafilatura.extract(html, url=url, output_format="markdown",
                                       include_formatting=True, include_tables=True) or ""
        return trafilatura.extract(html, url=url) or ""
    return {"auto": ours, "trafilatura": theirs}


def main(argv: list[str] | None = None) -> int:
    from extraction.datasets import EVAL_SETS, load, project_folders

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(EVAL_SETS))
    ap.add_argument("--quick", type=int, default=None, help="at most N pages per set")
    args = ap.parse_args(argv)
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    import lxml.html
    from markdown_it import MarkdownIt

    from extraction.evaluation import score

    names = []
    for name in args.sets.split(","):
        if name == "unseen":
            names += project_folders("unseen")
        else:
            names.append(name)
    pages = [(f"{Path(n).name}/{p.id}", p.html(), p.url, p.gold)
             for n in names for p in load(n, limit=args.quick).pages]
    reader = MarkdownIt("commonmark").enable("table")
    rows = []
    for tool, run in _tools().items():
        run(pages[0][1], pages[0][2], True)             # warm-up: imports, models
        for _key, html, url, _gold in pages:          # lazy loads (language models, codecs)
            run(html, url, False)
        timings, outputs = {False: [], True: []}, {}
        for markdown in (False, True, False, True):     # alternating; the faster of two
            started = time.perf_counter()
            outputs[markdown] = [run(html, url, markdown) for _key, html, url, _gold in pages]
            timings[markdown].append(time.perf_counter() - started)
        timings = {k: min(v) for k, v in timings.items()}
        gold = {key: g for key, _html, _url, g in pages}
        shown, same, counts = {}, 0, dict.fromkeys(STRUCTURE, 0)
        for (key, *_), text, md in zip(pages, outputs[False], outputs[True]):
            tree = lxml.html.fromstring("<div>" + reader.render(md) + "</div>")
            shown[key] = tree.text_content()
            same += WORDS.findall(shown[key]) == WORDS.findall(text)
            for name, tags in STRUCTURE.items():
                counts[name] += len(tree.xpath("|".join(f".//{t}" for t in tags.split("|"))))
        plain = score(gold, dict(zip(gold, outputs[False])))
        read = score(gold, shown)
        rows.append((tool, 1000 * timings[False] / len(pages), 1000 * timings[True] / len(pages),
                     plain.f1, read.f1, same, counts))
    print(f"{len(pages)} pages ({', '.join(Path(n).name for n in names)})\n")
    print(f"ours, the Markdown of an extracted page alone: {_conversion_ms(pages):.2f} ms/page\n")
    print("| tool | text ms/page | Markdown ms/page | ratio | F1 text | F1 Markdown read "
          "| same words | " + " | ".join(STRUCTURE) + " |")
    print("|---" * (7 + len(STRUCTURE)) + "|")
    for tool, t_text, t_md, f_text, f_md, same, counts in rows:
        print(f"| {tool} | {t_text:.2f} | {t_md:.2f} | {t_md / t_text:.2f} | {f_text:.3f} | "
              f"{f_md:.3f} | {same} / {len(pages)} | "
              + " | ".join(str(counts[k]) for k in STRUCTURE) + " |")
    return 0


def _conversion_ms(pages) -> float:
    """ms per page of :func:`extraction.markdown_of` on pages already parsed and extracted
    (the faster of two passes)."""
    from extraction import extract_document, markdown_of, parse
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
            markdown_of(doc, result)
        best = min(best, time.perf_counter() - started)
    return 1000 * best / len(pages)


if __name__ == "__main__":
    sys.exit(main())
