"""RSS and Atom feeds a seed page announces (``FOLLOW_FEEDS``): a site's newest items.

A page may announce feeds in its head (``<link rel="alternate" type="application/rss+xml"
href=...>``, or ``application/atom+xml``).  For a seed page the spider fetches them and queues
their entries like the page's own links: the entry's title is the anchor, its summary the
context, the seed page's relevance the parent's, and the entry counts as in-content.  Unlike a
sitemap's bare URLs a feed brings words the link score can weigh, and on a recurring crawl
(``REVISIT_AFTER``) a seed's feeds are read again, so new items are found even where no hub
links them yet.  Every feed fetch counts as a fetch.

Parsing is feedparser's (RSS 0.9x/1.0/2.0, Atom; it never fetches anything when given bytes);
this module only finds the announced feeds and turns entries into links, as pure functions.
"""
from __future__ import annotations

from dataclasses import dataclass

import feedparser
from w3lib.html import remove_tags, replace_entities

FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/rdf+xml"})
MAX_FEEDS_PER_PAGE = 4
MAX_ENTRIES = 500
SUMMARY_CHARS = 1000


def announced_feeds(root) -> list[str]:
    """The ``href`` of every ``<link rel="alternate">`` of a feed type in an lxml tree, in
    order, once each (relative; the caller resolves them)."""
    out: list[str] = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").split(";", 1)[0].strip().lower()
        href = (link.get("href") or "").strip()
        if "alternate" in rel and kind in FEED_TYPES and href and href not in out:
            out.append(href)
    return out[:MAX_FEEDS_PER_PAGE]


@dataclass(frozen=True)
class FeedEntry:
    link: str
    title: str = ""
    summary: str = ""


@dataclass
class Feed:
    """A fetched feed: its ``entries`` (at most :data:`MAX_ENTRIES`), or none and ``reason``
    saying why it is not a feed."""

    entries: list[FeedEntry]
    reason: str = ""


def _text(html: str, limit: int) -> str:
    return " ".join(replace_entities(remove_tags(html or "")).split())[:limit]


def read_feed(body: bytes) -> Feed:
    """Parse an RSS or Atom body.  Never raises on bad input."""
    try:
        parsed = feedparser.parse(bytes(body), sanitize_html=False, resolve_relative_uris=False)
    except Exception as err:            # feedparser reports most problems as bozo instead
        return Feed([], reason=f"not a feed ({type(err).__name__})")
    if not parsed.get("version") and not parsed.entries:
        problem = parsed.get("bozo_exception")
        return Feed([], reason="not a feed" + (f" ({type(problem).__name__})" if problem else ""))
    entries = []
    for entry in parsed.entries[:MAX_ENTRIES]:
        link = (entry.get("link") or "").strip()
        if link:
            entries.append(FeedEntry(link, _text(entry.get("title", ""), 300),
                                     _text(entry.get("summary", ""), SUMMARY_CHARS)))
    return Feed(entries)
