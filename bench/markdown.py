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

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_pages import arguments, conversion_ms, load_pages, timed_outputs  # noqa: E402

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
    from extraction import markdown_of

    args = arguments(__doc__.split("\n")[0], argv)
    import lxml.html
    from markdown_it import MarkdownIt

    from extraction.evaluation import score

    names, pages = load_pages(args.sets, args.quick)
    gold = {key: g for key, _html, _url, g in pages}
    reader = MarkdownIt("commonmark").enable("table")
    rows = []
    for tool, run in _tools().items():
        ms, outputs = timed_outputs(run, pages)
        shown, same, counts = {}, 0, dict.fromkeys(STRUCTURE, 0)
        for (key, *_), text, md in zip(pages, outputs[False], outputs[True]):
            tree = lxml.html.fromstring("<div>" + reader.render(md) + "</div>")
            shown[key] = tree.text_content()
            same += WORDS.findall(shown[key]) == WORDS.findall(text)
            for name, tags in STRUCTURE.items():
                counts[name] += len(tree.xpath("|".join(f".//{t}" for t in tags.split("|"))))
        plain = score(gold, dict(zip(gold, outputs[False])))
        read = score(gold, shown)
        rows.append((tool, ms[False], ms[True], plain.f1, read.f1, same, counts))
    print(f"{len(pages)} pages ({', '.join(Path(n).name for n in names)})\n")
    alone = conversion_ms(pages, markdown_of)
    print(f"ours, the Markdown of an extracted page alone: {alone:.2f} ms/page\n")
    print("| tool | text ms/page | Markdown ms/page | ratio | F1 text | F1 Markdown read "
          "| same words | " + " | ".join(STRUCTURE) + " |")
    print("|---" * (7 + len(STRUCTURE)) + "|")
    for tool, t_text, t_md, f_text, f_md, same, counts in rows:
        print(f"| {tool} | {t_text:.2f} | {t_md:.2f} | {t_md / t_text:.2f} | {f_text:.3f} | "
              f"{f_md:.3f} | {same} / {len(pages)} | "
              + " | ".join(str(counts[k]) for k in STRUCTURE) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
