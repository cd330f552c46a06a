"""Main-content extraction: one HTML page in, its main text, title and metadata out.

>>> from extraction import extract
>>> result = extract(html_bytes, url, method="auto")
>>> result.text, result.title, result.confidence

Methods (``method=``): ``auto`` (the product default) and the faithful paper algorithms
``e1`` .. ``e6`` of ALGORITHMS.md (see :data:`extraction.methods.METHOD_NAMES`).
This package never imports Scrapy.
"""
from __future__ import annotations

import inspect
import logging
from functools import lru_cache
from typing import Any, Iterable, Sequence

import numpy as np

from .chars import INVISIBLE
from .document import Document, ParseError, parse
from .comments import comments_text
from .html_output import html_page, to_html
from .markdown import escape, to_markdown
from .metadata import choose_title, detect_language, html_title, read_metadata
from .methods import METHOD_NAMES, canonical, get_method
from .prune import PruneError, prune_selectors
from .result import ExtractionResult, OptionError, Selection

__all__ = ["extract", "extract_document", "markdown_of", "html_of", "html_page", "comments_of",
           "parse", "Document", "ExtractionResult", "Selection", "METHOD_NAMES", "ParseError",
           "OptionError", "PruneError"]

log = logging.getLogger(__name__)


def _parse_siblings(siblings: Iterable[str | bytes | Document] | None,
                    prune: tuple[str, ...] = (), target: tuple[str, ...] = ()
                    ) -> list[Document]:
    if siblings is None:                # (as trafilatura and readability callers pass it)
        return []
    if isinstance(siblings, (str, bytes, bytearray, memoryview, Document)):
        # one page, not a list of pages (iterating a str would give one page per character)
        raise TypeError("siblings must be a list of pages (str, bytes or Document), "
                        f"not one {type(siblings).__name__}")
    docs = []
    for sib in siblings:
        if isinstance(sib, Document):
            docs.append(sib)
            continue
        try:
            docs.append(parse(sib, prune=prune, target=target))
        except ParseError as err:
            log.info("sibling page skipped: %s", err)
    return docs


def extract(html: str | bytes | None, url: str | None = None, *, method: str = "auto",
            siblings: Iterable[str | bytes | Document] | None = (), language: str | None = None,
            content_type: str | None = None, markdown: bool = False,
            markdown_links: bool = False, markdown_images: bool = False,
            html_output: bool = False, comments: bool = False,
            prune: str | Iterable[str] | None = None,
            target: str | Iterable[str] | None = None, **options: Any) -> ExtractionResult:
    """Extract the main text of one page.  Never raises on bad input.

    ``html``: the page, ``str`` or raw ``bytes`` (the encoding is detected: BOM, HTTP
    ``content_type``, in-page declaration, then statistics).  ``siblings``: other pages of the
    same site/template (used by E5 and E6).  ``language``: overrides language detection.
    ``markdown``: also give the main text as Markdown (``result.markdown``, see
    :mod:`extraction.markdown`), with ``markdown_links`` its links as ``[text](url)``, with
    ``markdown_images`` its images as ``![alt](url)``.  ``html_output``: also give it as an
    HTML fragment with its links and images (``result.html``, see :mod:`extraction.html_output`).
    ``comments``: also give the page's reader comments (``result.comments``, see :mod:`extraction.comments`).
    ``prune``: CSS selectors (XPath when one starts with ``/``) of elements removed from the
    page, and from its siblings, before it is read; ``target``: selectors of the elements
    kept alone, with the head, when any matches in the body (:mod:`extraction.prune`; an
    invalid selector raises :class:`PruneError`).
    ``options`` are passed to the method (e.g. ``T=0.3`` for E1; ``favor="precision"`` or
    ``"recall"`` for ``auto``, see :data:`extraction.methods.auto.FAVOR_CUTS`).  An option the
    method does not take raises ``TypeError``, a value it cannot take :class:`OptionError`.
    """
    name = canonical(method)  # an unknown method name is a programming error: it raises
    check_options(name, options)
    # (read once: an iterator serves the siblings too)
    prune, target = prune_selectors(prune), prune_selectors(target, "target")
    try:
        doc = parse(html, url, content_type, prune=prune, target=target)
    except ParseError as err:
        return _failed(name, str(err), url, None, markdown, html_output, comments)
    return extract_document(doc, method=name, siblings=_parse_siblings(siblings, prune, target),
                            language=language, markdown=markdown,
                            markdown_links=markdown_links, markdown_images=markdown_images,
                            html_output=html_output, comments=comments, **options)


@lru_cache(maxsize=None)
def _signature(name: str) -> inspect.Signature:
    return inspect.signature(get_method(name))


def check_options(method: str, options: dict[str, Any]) -> None:
    """Raise ``TypeError`` for an option ``method`` does not take and :class:`OptionError` for
    a value it cannot take (``auto``'s ``favor`` and ``threshold``), before any page is read:
    the caller's errors, whatever the page."""
    if not options:
        return
    try:
        _signature(method).bind(None, [], **options)
    except TypeError as err:
        raise TypeError(f"extraction method {method}: {err}") from None
    if method == "auto":
        from .methods.auto import favor_cut

        favor_cut(options.get("favor"), options.get("threshold"))


def _without_invisible(text: str) -> str:
    """``text`` without invisible characters (:data:`INVISIBLE`); a line that held some loses
    the spaces they leave at its ends, and is dropped when nothing else is left of it (a
    paragraph of one zero-width space or byte-order mark)."""
    lines = []
    for line in text.split("\n"):
        if INVISIBLE.search(line):
            line = INVISIBLE.sub("", line).strip(" ")
            if not line.strip():
                continue
        lines.append(line)
    return "\n".join(lines).strip()


def _failed(method: str, reason: str, url: str | None, encoding: str | None, markdown: bool,
            html_output: bool, comments: bool) -> ExtractionResult:
    """The empty result of a page that could not be read, with ``reason``; the outputs asked
    for are "" (each asked-for output a key of its own in :meth:`ExtractionResult.to_dict`)."""
    return ExtractionResult("", None, method, 0.0, reason=reason, url=url, encoding=encoding,
                            markdown="" if markdown else None, html="" if html_output else None,
                            comments="" if comments else None)


def extract_document(doc: Document, *, method: str = "auto", siblings: list[Document] = (),
                     language: str | None = None, sibling_titles: Sequence[str] = (),
                     markdown: bool = False, markdown_links: bool = False,
                     markdown_images: bool = False, html_output: bool = False,
                     comments: bool = False, **options: Any) -> ExtractionResult:
    """Like :func:`extract` for an already parsed page (the crawler parses once, then reuses).
    ``sibling_titles``: the ``<title>`` of other pages of the site besides ``siblings``'
    (they show the site's title template, :func:`metadata.template_free`)."""
    name = canonical(method)
    check_options(name, options)
    try:
        meta = read_metadata(doc)
        selection = get_method(name)(doc, list(siblings), **options)
    except (RecursionError, MemoryError) as err:
        return _failed(name, f"page too complex: {err!r}", doc.url, doc.encoding, markdown,
                       html_output, comments)
    except OptionError:
        raise  # a wrong option's value: the caller's error
    except Exception as err:  # a bug must not lose the page for a crawl: report it
        log.exception("extraction method %s failed on %s", name, doc.url)
        return _failed(name, f"internal error: {err!r}", doc.url, doc.encoding, markdown,
                       html_output, comments)
    text = selection.text
    if INVISIBLE.search(text):
        text = _without_invisible(text)
    if not text and not selection.reason:
        selection.reason = "no main text found"
    lang = language or detect_language(text or doc.text_of(doc.kind == 1)[:5000],
                                       meta.get("declared_language"))
    result = ExtractionResult(
        text=text, title=choose_title(meta, doc, [*sibling_titles, *filter(None, (
            html_title(s) for s in siblings))]), method=name,
        confidence=round(float(selection.confidence), 4),
        reason=None if text else selection.reason, language=lang, encoding=doc.encoding,
        url=doc.url, metadata=meta, info=selection.info, nodes=selection.nodes,
    )
    if doc.pruned or doc.targeted:
        result.info = {**(result.info or {}), **({"pruned": doc.pruned} if doc.pruned else {}),
                       **({"targeted": doc.targeted} if doc.targeted else {})}
    if markdown:
        result.markdown = markdown_of(doc, result, links=markdown_links,
                                      images=markdown_images)
    if html_output:
        result.html = html_of(doc, result, markdown=result.markdown
                              if markdown_links and markdown_images else None)
    if comments:
        result.comments = comments_of(doc, result)
    return result


def comments_of(doc: Document, result: ExtractionResult) -> str:
    """The reader comments of the page ``doc``, outside the main text of ``result``
    (:mod:`extraction.comments`); "" when it has none or they cannot be read (logged: the
    page's text stays)."""
    try:
        text = comments_text(doc, result.nodes)
    except (RecursionError, MemoryError):
        return ""
    except Exception:   # a bug must not lose the page's text
        log.exception("comments failed on %s", doc.url)
        return ""
    return _without_invisible(text) if INVISIBLE.search(text) else text


def html_of(doc: Document, result: ExtractionResult, markdown: str | None = None) -> str:
    """The main text of ``result``, extracted from ``doc``, as an HTML fragment with its links
    and images (:mod:`extraction.html_output`); ``markdown``: its Markdown with links and
    images when already made.  "" when it has no text."""
    if markdown is None:
        markdown = markdown_of(doc, result, links=True, images=True)
    return to_html(markdown, result.text)


def markdown_of(doc: Document, result: ExtractionResult, links: bool = False,
                images: bool = False) -> str:
    """The main text of ``result``, extracted from ``doc``, as Markdown (headings, lists,
    quotes, code and data tables; :mod:`extraction.markdown`; ``links``: its links as
    ``[text](url)``; ``images``: its images, and the page's own image shown just above
    it); "" when it has no text."""
    if not result.text:
        return ""
    if result.nodes is None:    # a text from no element of the page (a JSON-LD articleBody)
        return "\n\n".join(escape(line) for line in result.text.split("\n") if line.strip())
    keep = np.zeros(doc.size, dtype=bool)
    keep[np.asarray(result.nodes, dtype=np.int64)] = True
    return to_markdown(doc, keep, links, images,
                       lead_image=(result.metadata or {}).get("image") if images else None)
