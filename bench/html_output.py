"""HTML output: ours (``extract(..., html_output=True)``, auto) against trafilatura's
(``output_format="html"``, formatting, tables, links and images on) and readability-lxml's
``Document.summary(html_partial=True)`` on the same pages.

    python bench/html_output.py [--sets cleaneval-dev,...|unseen] [--quick N]

For each tool, over every page of the sets (the extraction benchmark's evaluation sets by
default), in one process, one tool after the other:
- ms per page for the plain text and for the HTML (extraction included; the faster of two
  alternating passes); for ours also the HTML of an extracted page alone;
- token F1 against the gold text (shared/extraction/README.md's metric) of the plain text
  and of the HTML's text (lxml's ``text_content``);
- the pages whose HTML has the same words in the same order as the tool's plain text;
- the pages whose HTML holds markup of the page beyond structure: an attribute other than
  a link's ``href``, an image's ``src``/``alt``/``title``, a list's ``start`` or a cell's span
  (``class``, ``id``, ``style``, ``on...``, ``data-...``), or a ``<script>``, ``<style>``,
  ``<iframe>``, ``<form>``, ``<object>`` or ``<embed>``; and the pages with a link or image
  of a ``javascript:``, ``vbscript:`` or ``file:`` URL;
- what the HTML holds: headings, list items, tables, code blocks, links, images.
Needs the bench extras (trafilatura, readability-lxml).
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
             "code blocks": "pre", "links": "a[@href]", "images": "img"}
STRUCTURAL_ATTRIBUTES = {("a", "href"), ("a", "title"), ("img", "src"), ("img", "alt"),
                         ("img", "title"), ("ol", "start"), ("td", "colspan"),
                         ("td", "rowspan"), ("th", "colspan"), ("th", "rowspan")}
ACTIVE_TAGS = frozenset(("script", "style", "iframe", "form", "object", "embed"))
SCRIPT_URL = re.compile(r"\s*(?:javascript|vbscript|file):", re.I)


def _tools():
    import trafilatura
    from readability import Document

    from extraction import extract

    def ours(html, url, as_html):
        result = extract(html, url, html_output=as_html)
        return result.html if as_html else result.text

    def trafilatura_html(html, url, as_html):
        if as_html:
            return trafilatura.extract(html, url=url, output_format="html",
                                       include_formatting=True, include_tables=True,
                                       include_links=True, include_images=True) or ""
        return trafilatura.extract(html, url=url) or ""

    def readability_html(html, url, as_html):
        try:
            summary = Document(html, url=url).summary(html_partial=True)
        except Exception:       # noqa: BLE001 - it raises on some pages; count them as empty
            return ""
        if as_html:
            return summary
        import lxml.html
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
    return {"auto": ours, "trafilatura": trafilatura_html, "readability": readability_html}


def inspect_html(html: str) -> tuple[str, bool, bool, dict]:
    """(text, page markup beyond structure?, a script URL?, structure counts) of ``html``."""
    import lxml.etree
    import lxml.html

    if not html.strip():
        return "", False, False, dict.fromkeys(STRUCTURE, 0)
    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div")
    except (AssertionError, ValueError, lxml.etree.ParserError):   # a whole document
        root = lxml.html.document_fromstring(html)
    markup = script = False
    for el in root.iter():
        if el is root or not isinstance(el.tag, str):
            continue
        tag = el.tag.lower()
        if tag in ACTIVE_TAGS:
            markup = True
        for name, value in el.attrib.items():
            if (tag, name.lower()) not in STRUCTURAL_ATTRIBUTES:
                if not (tag == "code" and name == "class" and value.startswith("language-")):
                    markup = True
            if name.lower() in ("href", "src") and SCRIPT_URL.match(value):
                script = True
    counts = {name: len(root.xpath("|".join(f".//{t}" for t in tags.split("|"))))
              for name, tags in STRUCTURE.items()}
    return root.text_content(), markup, script, counts


def main(argv: list[str] | None = None) -> int:
    from extraction import html_of
    from extraction.evaluation import score

    args = arguments(__doc__.split("\n")[0], argv)

    names, pages = load_pages(args.sets, args.quick)
    gold = {key: g for key, _html, _url, g in pages}
    rows = []
    for tool, run in _tools().items():
        ms, outputs = timed_outputs(run, pages)
        shown, same, markup, script = {}, 0, 0, 0
        counts = dict.fromkeys(STRUCTURE, 0)
        for (key, *_), text, html in zip(pages, outputs[False], outputs[True]):
            shown[key], has_markup, has_script, found = inspect_html(html)
            same += WORDS.findall(shown[key]) == WORDS.findall(text)
            markup += has_markup
            script += has_script
            for name, n in found.items():
                counts[name] += n
        plain = score(gold, dict(zip(gold, outputs[False]))).f1
        rows.append((tool, ms[False], ms[True], plain, score(gold, shown).f1,
                     same, markup, script, counts))
    print(f"{len(pages)} pages ({', '.join(Path(n).name for n in names)})\n")
    alone = conversion_ms(pages, html_of)
    print(f"ours, the HTML of an extracted page alone: {alone:.2f} ms/page\n")
    print("| tool | text ms/page | HTML ms/page | F1 text | F1 HTML text | same words "
          "| page markup | script URLs | " + " | ".join(STRUCTURE) + " |")
    print("|---" * (8 + len(STRUCTURE)) + "|")
    n = len(pages)
    for tool, t_text, t_html, f_text, f_html, same, markup, script, counts in rows:
        print(f"| {tool} | {t_text:.2f} | {t_html:.2f} | {f_text:.3f} | {f_html:.3f} | "
              f"{same} / {n} | {markup} / {n} | {script} / {n} | "
              + " | ".join(str(counts[k]) for k in STRUCTURE) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
