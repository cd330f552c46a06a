"""Pruning: the parts of a page its reader names, removed before the page is read.

A caller who knows a site (its related-links box, its newsletter sign-up, its comment
thread) names those elements by CSS selector (``div.related``, ``#comments``,
``aside[data-ad]``) or, when the selector starts with ``/`` or ``(``, by XPath
(``//div[@id='share']``).  :func:`parse <extraction.document.parse>` removes every element
matched, with its subtree, before anything else reads the tree: extraction, title, metadata
from the page's body, links and, in the crawler, relevance.  The text that follows a removed
element inside its parent (its tail) stays.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from cssselect import HTMLTranslator, SelectorError
from lxml import etree

from .result import OptionError

_TRANSLATOR = HTMLTranslator()


class PruneError(OptionError):
    """A prune selector that is neither valid CSS nor valid XPath (the caller's error)."""


def prune_selectors(selectors: str | Iterable[str] | None) -> tuple[str, ...]:
    """``selectors`` as a tuple of non-empty selectors: one string is one selector (a CSS
    group ``a, b`` included); ``None`` is none.  Raises :class:`PruneError` for a value that
    is not a string or strings."""
    if selectors is None:
        return ()
    if isinstance(selectors, str):
        selectors = (selectors,)
    elif isinstance(selectors, Mapping):
        raise PruneError("prune: a selector or a list of selectors, not a mapping (selectors "
                         "per site are the crawler's EXTRACTION_PRUNE)")
    elif isinstance(selectors, (bytes, bytearray)) or not isinstance(selectors, Iterable):
        raise PruneError(f"prune: a selector or a list of selectors, not "
                         f"{type(selectors).__name__}")
    out = []
    for selector in selectors:
        if not isinstance(selector, str):
            raise PruneError(f"prune: selector {selector!r} is not a string")
        if selector.strip():
            out.append(selector.strip())
    return tuple(out)


def _xpath_of(selector: str) -> str:
    if selector.startswith(("/", "(")):
        try:
            etree.XPath(selector)
        except etree.XPathSyntaxError as err:
            raise PruneError(f"prune: invalid XPath {selector!r}: {err}") from None
        return selector
    try:
        return _TRANSLATOR.css_to_xpath(selector, prefix="descendant-or-self::")
    except SelectorError as err:
        raise PruneError(f"prune: invalid CSS selector {selector!r}: {err}") from None
    except NotImplementedError as err:      # a pseudo-class that needs a browser (:hover)
        raise PruneError(f"prune: unsupported CSS selector {selector!r}: {err}") from None


@lru_cache(maxsize=64)
def compile_prune(selectors: tuple[str, ...]) -> etree.XPath | None:
    """One compiled XPath matching any of ``selectors`` (see :func:`prune_selectors`); None
    for none.  Raises :class:`PruneError` naming the first invalid selector."""
    if not selectors:
        return None
    expression = " | ".join(_xpath_of(selector) for selector in selectors)
    try:
        matcher = etree.XPath(expression)
    except etree.XPathSyntaxError as err:       # (each part compiled alone: not expected)
        raise PruneError(f"prune: invalid selectors {selectors!r}: {err}") from None
    _matches(matcher, _PROBE)   # an XPath of a number or an unknown function fails here, once
    return matcher


_PROBE = etree.fromstring("<html><body><p class='a' id='b'>x</p></body></html>",
                          etree.HTMLParser())


def _matches(matcher: etree.XPath, root: etree._Element) -> list:
    try:
        found = matcher(root)
    except etree.XPathEvalError as err:
        raise PruneError(f"prune: cannot evaluate the selectors: {err}") from None
    if not isinstance(found, list):
        raise PruneError("prune: an XPath selector must select elements, not a "
                         f"{type(found).__name__}")
    return found


def check_prune(selectors: str | Iterable[str] | None) -> etree.XPath | None:
    """:func:`compile_prune` of :func:`prune_selectors` (the caller's errors raised at once)."""
    return compile_prune(prune_selectors(selectors))


def prune_tree(root: etree._Element, matcher: etree.XPath) -> int:
    """Remove from ``root`` every element ``matcher`` matches (not ``root`` itself), the text
    after each kept in its parent.  Returns how many subtrees were removed (a match inside
    another counts once)."""
    found = _matches(matcher, root)
    removed: set = set()
    for el in found:
        if not isinstance(el, etree._Element) or not isinstance(el.tag, str) \
                or el.getparent() is None:          # the root
            continue
        if removed and any(ancestor in removed for ancestor in el.iterancestors()):
            continue                                # inside a subtree already removed
        remove_keeping_tail(el)
        removed.add(el)
    return len(removed)


def remove_keeping_tail(el: etree._Element) -> None:
    """Remove ``el``; its tail joins the text before it.  (The tree holds no control character
    lxml would refuse in an assigned string: the parser makes them spaces, raw or as a
    character reference.)"""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)

__all__ = ["PruneError", "check_prune", "compile_prune", "prune_selectors", "prune_tree",
           "remove_keeping_tail"]
