"""Page-level robots directives: ``<meta name="robots">`` and the ``X-Robots-Tag`` header.

robots.txt says what may be fetched; these say what a fetched page allows: ``noindex`` (keep
it out of the corpus) and ``nofollow`` (do not follow its links); ``none`` means both.  A
directive addressed to another crawler (``<meta name="otherbot">``, ``X-Robots-Tag: otherbot:
noindex``) does not apply.  Honoured unless ``ROBOTS_META_OBEY`` is off.
"""
from __future__ import annotations

import re
from typing import Iterable

from extraction import Document

GENERIC = "robots"
_SEPARATORS = re.compile(r"[,;\s]+")
# directives that carry a value after a colon (not an agent prefix)
VALUED = frozenset(("unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"))


def _tokens(value: str) -> set[str]:
    """The directives of one value: comma-separated as specified, also spaces or semicolons
    as pages write them (``noindex nofollow``)."""
    out = {t.lower() for t in _SEPARATORS.split(value)}
    if "none" in out:
        out |= {"noindex", "nofollow"}
    return out - {""}


def robots_directives(doc: Document, headers: Iterable[bytes | str] = (),
                      agent: str = "focused-crawler") -> frozenset[str]:
    """Directives (lower case) of the page's robots meta tags and ``X-Robots-Tag`` values
    that address every crawler or ``agent``."""
    agent = agent.lower()
    found: set[str] = set()
    for el in doc.root.iterfind(".//meta"):
        name = (el.get("name") or "").strip().lower()
        if name in (GENERIC, agent):
            found |= _tokens(el.get("content") or "")
    for raw in headers:
        value = raw.decode("latin-1") if isinstance(raw, bytes) else raw
        found |= _header_directives(value, agent)
    return frozenset(found)


def _header_directives(value: str, agent: str) -> set[str]:
    """Directives of one ``X-Robots-Tag`` value for every crawler or ``agent``.  An agent
    prefix (``otherbot: noindex, nofollow``) scopes the items after it, up to the next prefix,
    so a merged header (``noindex, otherbot: nofollow``) keeps each part with its agent."""
    found: set[str] = set()
    scope = GENERIC
    for item in value.split(","):
        head, sep, rest = item.partition(":")
        head = head.strip().lower()
        if sep and head and head not in VALUED and not _SEPARATORS.search(head):
            scope, item = head, rest
        if scope in (GENERIC, agent):
            found |= _tokens(item)
    return found
