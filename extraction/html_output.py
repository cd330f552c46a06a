"""The main text as HTML, for a reader view or a downstream job that keeps structure.

The HTML is the Markdown of :mod:`extraction.markdown` (headings, lists, quotes, code, data
tables, emphasis, the text's links and images) rendered by markdown-it-py as CommonMark with
GitHub's tables.  Nothing of the page's own markup passes through: no attribute but a link's
``href`` and an image's ``src``/``alt``, no script, style or event handler, and markdown-it's
link check drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` URLs.
So the fragment can be shown in another page as it is.  [ours: no source paper]
"""
from __future__ import annotations

import html
import logging
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

log = logging.getLogger(__name__)

# markdown-it stops at its nesting limit (20 in its CommonMark preset) and drops the rest of
# the page; a page's lists and quotes may nest deeper, so the limit is far above any page's
# and a page that still fails falls back to paragraphs of escaped text (:func:`to_html`)
MAX_NESTING = 10_000


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING}).enable("table")


def to_html(markdown: str, text: str = "") -> str:
    """The HTML fragment of ``markdown`` (the Markdown of a page's main text); when it cannot
    be rendered (nesting too deep for Python's stack), the paragraphs of ``text`` (the same
    main text, plain) as escaped ``<p>`` elements, so no text is lost.  "" for ""."""
    if not markdown.strip():
        return ""
    try:
        return _renderer().render(markdown)
    except RecursionError:
        log.info("Markdown nested too deep to render, HTML as plain paragraphs")
        return paragraphs_html(text or markdown)


def paragraphs_html(text: str) -> str:
    """Each non-empty line of ``text`` as an escaped ``<p>``."""
    return "".join(f"<p>{html.escape(line.strip(), quote=False)}</p>\n"
                   for line in text.split("\n") if line.strip())


def html_page(fragment: str, title: str | None = None, language: str | None = None,
              metadata: dict[str, Any] | None = None, url: str | None = None,
              comments: str | None = None) -> str:
    """A whole HTML5 page holding ``fragment`` in its ``<article>``: ``title`` as its
    ``<title>``, ``language`` as ``<html lang>``, the page's URL as its canonical link,
    ``metadata``'s author, description and date as ``<meta>`` elements and ``comments``
    (plain text, :mod:`extraction.comments`) as paragraphs of an ``<aside>`` after it."""
    def attr(value: Any) -> str:
        return html.escape(str(value), quote=True)

    head = ['<meta charset="utf-8">']
    if title:
        head.append(f"<title>{html.escape(title, quote=False)}</title>")
    if url:
        head.append(f'<link rel="canonical" href="{attr(url)}">')
    meta = metadata or {}
    for key in ("author", "description", "date"):
        value = meta.get(key)
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        if value:
            head.append(f'<meta name="{key}" content="{attr(value)}">')
    lang = f' lang="{attr(language)}"' if language else ""
    aside = f'<aside class="comments">\n{paragraphs_html(comments)}</aside>\n' \
        if comments and comments.strip() else ""
    return ("<!DOCTYPE html>\n"
            f"<html{lang}>\n<head>\n" + "\n".join(head) + "\n</head>\n<body>\n<article>\n"
            + fragment + "</article>\n" + aside + "</body>\n</html>\n")
