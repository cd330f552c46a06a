"""RSS, Atom and JSON feeds a seed page or an on-topic page announces (``FOLLOW_FEEDS``): a
site's newest items.

A page may announce feeds in its head (``<link rel="alternate" type="application/rss+xml"
href=...>``, ``application/atom+xml`` or JSON Feed's ``application/feed+json``).  For a seed
page, and for a page judged on topic, the spider fetches them (at most ``FEEDS_PER_HOST``
distinct feeds per host and run) and queues their entries like the page's own links: the
entry's title is the anchor, its summary the context, the announcing page's relevance the
parent's, and the entry counts as in-content.  Unlike a sitemap's bare URLs a feed brings words the link score
can weigh, and on a recurring crawl (``REVISIT_AFTER``) a seed's feeds are read again, so new
items are found even where no hub links them yet.  Every feed fetch counts as a fetch.

Parsing is feedparser's (RSS 0.9x/1.0/2.0, Atom; it never fetches anything when given bytes);
JSON Feed (versions 1 and 1.1), which feedparser does not read, is read with :mod:`json`; this
module only finds the announced feeds and turns entries into links, as pure functions.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

import feedparser
from w3lib.html import remove_tags, replace_entities

# JSON Feed's own type only: WordPress announces its REST API as alternate application/json
FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/rdf+xml",
                        "application/feed+json"})
MAX_FEEDS_PER_PAGE = 4
_COMMENTS = re.compile(r"(?<![a-z])comments?(?![a-z])", re.IGNORECASE)
FEEDS_PER_HOST = 4          # ``FEEDS_PER_HOST`` default: distinct feeds fetched per host and run
MAX_ENTRIES = 500
SUMMARY_CHARS = 1000


def announced_feeds(root) -> list[str]:
    """The ``href`` of every ``<link rel="alternate">`` of a feed type in an lxml tree, in
    order, once each (relative; the caller resolves them).  Comment feeds (the word
    ``comment(s)`` in the title or a path segment of the address: WordPress's "... Comments
    Feed", Blogger's ``/comments/default``) are left out: their entries are comments on a page
    already fetched.  A "Commentary" section's feed is kept."""
    out: list[str] = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").split(";", 1)[0].strip().lower()
        href = (link.get("href") or "").strip()
        if "alternate" not in rel or kind not in FEED_TYPES or not href or href in out:
            continue
        if _COMMENTS.search(link.get("title") or "") or _COMMENTS.search(href):
            continue
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


def _json_feed(body: bytes) -> Feed | None:
    """A JSON Feed (https://jsonfeed.org, versions 1 and 1.1; feedparser reads only XML), or
    None when the body is not one."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or "jsonfeed.org/version/" not in str(data.get("version")):
        return None
    items = data.get("items")
    entries = []
    for item in items[:MAX_ENTRIES] if isinstance(items, list) else ():
        if not isinstance(item, dict):
            continue
        link = item.get("url") or item.get("external_url")
        if isinstance(link, str) and link.strip():
            summary = next((v for k in ("summary", "content_text", "content_html")
                            if isinstance(v := item.get(k), str) and v), "")
            title = item.get("title") if isinstance(item.get("title"), str) else ""
            entries.append(FeedEntry(link.strip(), _text(title, 300),
                                     _text(summary, SUMMARY_CHARS)))
    return Feed(entries)


def read_feed(body: bytes) -> Feed:
    """Parse an RSS, Atom or JSON Feed body.  Never raises on bad input."""
    if bytes(body[:64]).lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        feed = _json_feed(bytes(body))
        if feed is not None:
            return feed
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
