"""Pruning: the parts of a page its reader names, removed before the page is read, or the
parts it names kept alone (a target).

A caller who knows a site (its related-links box, its newsletter sign-up, its comment
thread) names those elements by CSS selector (``div.related``, ``#comments``,
``aside[data-ad]``) or, when the selector starts with ``/`` or ``(``, by XPath
(``//div[@id='share']``).  :func:`parse <extraction.document.parse>` removes every element
matched, with its subtree, before anything else reads the tree: extraction, title, metadata
from the page's body, links and, in the crawler, relevance.  The text that follows a removed
element inside its parent (its tail) stays.

A target works the other way round (:func:`keep_only`): when the selectors match an element
of the page's body, only the matched elements (with their subtrees) and the head are kept;
a page where they match nothing is read whole (a site's home page has no article body).
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


def prune_selectors(selectors: str | Iterable[str] | None, what: str = "prune"
                    ) -> tuple[str, ...]:
    """``selectors`` as a tuple of non-empty selectors: one string is one selector (a CSS
    group ``a, b`` included); ``None`` is none.  Raises :class:`PruneError` for a value that
    is not a string or strings."""
    if selectors is None:
        return ()
    if isinstance(selectors, str):
        selectors = (selectors,)
    elif isinstance(selectors, Mapping):
        raise PruneError(f"{what}: a selector or a list of selectors, not a mapping "
                         "(selectors per site are the crawler's EXTRACTION_PRUNE / _TARGET)")
    elif isinstance(selectors, (bytes, bytearray)) or not isinstance(selectors, Iterable):
        raise PruneError(f"{what}: a selector or a list of selectors, not "
                         f"{type(selectors).__name__}")
    out = []
    for selector in selectors:
        if not isinstance(selector, str):
            raise PruneError(f"{what}: selector {selector!r} is not a string")
        if selector.strip():
            out.append(selector.strip())
    return tuple(out)


def _xpath_of(selector: str, what: str) -> str:
    if selector.startswith(("/", "(")):
        try:
            etree.XPath(selector)
        except etree.XPathSyntaxError as err:
            raise PruneError(f"{what}: invalid XPath {selector!r}: {err}") from None
        return selector
    try:
        return _TRANSLATOR.css_to_xpath(selector, prefix="descendant-or-self::")
    except SelectorError as err:
        raise PruneError(f"{what}: invalid CSS selector {selector!r}: {err}") from None
    except NotImplementedError as err:      # a pseudo-class that needs a browser (:hover)
        raise PruneError(f"{what}: unsupported CSS selector {selector!r}: {err}") from None


@lru_cache(maxsize=64)
def compile_prune(selectors: tuple[str, ...], what: str = "prune") -> etree.XPath | None:
    """One compiled XPath matching any of ``selectors`` (see :func:`prune_selectors`); None
    for none.  Raises :class:`PruneError` naming the first invalid selector."""
    if not selectors:
        return None
    expression = " | ".join(_xpath_of(selector, what) for selector in selectors)
    try:
        matcher = etree.XPath(expression)
    except etree.XPathSyntaxError as err:       # (each part compiled alone: not expected)
        raise PruneError(f"{what}: invalid selectors {selectors!r}: {err}") from None
    _matches(matcher, _PROBE, what)   # an XPath of a number or an unknown function fails here, once
    return matcher


_PROBE = etree.fromstring("<html><body><p class='a' id='b'>x</p></body></html>",
                          etree.HTMLParser())


def _matches(matcher: etree.XPath, root: etree._Element, what: str = "prune") -> list:
    try:
        found = matcher(root)
    except etree.XPathEvalError as err:
        raise PruneError(f"{what}: cannot evaluate the selectors: {err}") from None
    if not isinstance(found, list):
        raise PruneError(f"{what}: an XPath selector must select elements, not a "
                         f"{type(found).__name__}")
    return [el for el in found if isinstance(el, etree._Element) and isinstance(el.tag, str)]


def check_prune(selectors: str | Iterable[str] | None, what: str = "prune"
                ) -> etree.XPath | None:
    """:func:`compile_prune` of :func:`prune_selectors` (the caller's errors raised at once,
    their message starting with ``what``: ``prune`` or ``target``)."""
    return compile_prune(prune_selectors(selectors, what), what)


def prune_tree(root: etree._Element, matcher: etree.XPath) -> int:
    """Remove from ``root`` every element ``matcher`` matches (not ``root`` itself), the text
    after each kept in its parent.  Returns how many subtrees were removed (a match inside
    another counts once)."""
    found = _matches(matcher, root)
    removed: set = set()
    for el in found:
        if el.getparent() is None:                  # the root
            continue
        if removed and any(ancestor in removed for ancestor in el.iterancestors()):
            continue                                # inside a subtree already removed
        remove_keeping_tail(el)
        removed.add(el)
    return len(removed)


def keep_only(root: etree._Element, matcher: etree.XPath) -> int:
    """Keep of ``root``'s body (of ``root`` when it has none) only the elements ``matcher``
    matches, with their subtrees, and the elements that hold them, without any text of their
    own; the head stays.  Nothing changes when nothing in the body matches, or the body
    itself does.  Returns how many subtrees were kept (a match inside another counts once)."""
    body = root.find("body")
    scope = body if body is not None else root
    found = [el for el in _matches(matcher, root, "target") if el is not scope]
    kept: set = set()
    holders: set = set()
    for el in found:
        ancestors = list(el.iterancestors())
        if scope not in ancestors or any(a in kept for a in ancestors):
            continue                # outside the body (the head), or inside a kept subtree
        kept.add(el)
        holders.update(ancestors[:ancestors.index(scope) + 1])
    if not kept:
        return 0
    for el in kept:
        el.tail = None
    stack = [scope]
    while stack:
        holder = stack.pop()
        holder.text = None
        for child in list(holder):
            if child in kept:
                continue
            if child in holders:
                child.tail = None
                stack.append(child)
            elif holder is not root or child.tag != "head":
                holder.remove(child)        # (with its tail: text outside the target)
    return len(kept)


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

__all__ = ["PruneError", "check_prune", "compile_prune", "keep_only", "prune_selectors",
           "prune_tree", "remove_keeping_tail"]
