"""Sitemaps of the seeds' hosts (``FOLLOW_SITEMAPS``): URLs the crawl may never reach by links.

A host's ``robots.txt`` may name its sitemaps (``Sitemap:`` lines, sitemaps.org protocol 0.9).
For each seed host the spider reads those lines from the ``robots.txt`` response Scrapy's
``RobotsTxtMiddleware`` fetches anyway, fetches the sitemaps (a sitemap index leads to more of
them; gzip-compressed files are read too), and queues the listed URLs of the host like links
with no anchor, no context, a parent of relevance 0 and no linking page: their scores rest on
the URL alone (S1 similarity, the site's harvest so far, the learned model's URL words), so
they wait below the links that on-topic pages point to, and rise when the whole queue is
re-scored as the crawl learns which URLs pay.  Every sitemap fetch counts as a fetch.

A host queues at most ``SITEMAP_MAX_URLS`` listed URLs.  When a file lists more than the
host's remaining allowance, the first ``RANK_FACTOR`` x allowance of them are scored and the
best-scored fill it (a crawl seeded with a site's section keeps the section's URLs, not the
first the sitemap happens to list).

Parsing is Scrapy's own (``scrapy.utils.sitemap``: lxml, entities not resolved); this module
only adds the limits and the checks, as pure functions.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice

from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

from .links import is_web_url, resolve
from .scope import host_name

MAX_FILES_PER_HOST = 50       # sitemap files fetched per seed host (indexes included)
MAX_URLS_PER_HOST = 10_000    # ``SITEMAP_MAX_URLS`` default: listed URLs queued per host
RANK_FACTOR = 5               # listed URLs scored per URL of a host's remaining allowance
MAX_BYTES = 52_428_800        # the protocol's size limit of one uncompressed sitemap file
_GZIP_MAGIC = b"\x1f\x8b"


def size_cap(download_maxsize: int) -> int:
    """The byte cap of a sitemap download and of its expanded body: ``DOWNLOAD_MAXSIZE``
    raised to the protocol's 50 MB (0, no cap, stays 0)."""
    return 0 if download_maxsize <= 0 else max(download_maxsize, MAX_BYTES)


def sitemaps_in_robots(body: bytes, robots_url: str) -> list[str]:
    """The absolute ``http(s)`` sitemap URLs a ``robots.txt`` body names, in order, once each."""
    out: list[str] = []
    for line in body.splitlines():          # one line at a time: a bad one costs only itself
        name, colon, value = line.decode("utf-8", "ignore").partition(":")
        if not colon or name.strip().lower() != "sitemap" or not value.strip():
            continue
        try:
            urls = list(sitemap_urls_from_robots(line, base_url=robots_url))
        except ValueError:          # "Sitemap: http://[::1"
            continue
        out.extend(url for url in urls if is_web_url(url) and url not in out)
    return out


@dataclass
class SitemapFile:
    """One fetched sitemap: ``kind`` ``urlset`` or ``sitemapindex`` and the ``locs`` it lists,
    or ``kind`` None and ``reason`` saying why it is not a sitemap."""

    kind: str | None
    locs: list[str] = field(default_factory=list)
    reason: str = ""


def read_sitemap(body: bytes, max_size: int = 0) -> SitemapFile:
    """Parse a sitemap or sitemap index, gzip-compressed or not (``max_size``: the most bytes
    a compressed body may expand to, 0 for no limit).  Never raises on bad input."""
    if body[:2] == _GZIP_MAGIC:
        try:
            body = gunzip(body, max_size=max_size)
        except Exception as err:        # truncated stream, or bigger than max_size
            return SitemapFile(None, reason=f"bad gzip body ({type(err).__name__})")
    if not body.strip():
        return SitemapFile(None, reason="empty body")
    try:
        sitemap = Sitemap(body)
        kind = sitemap.type
        locs = [entry["loc"] for entry in sitemap if entry.get("loc")]
    except Exception as err:            # lxml.etree.XMLSyntaxError, StopIteration, ...
        return SitemapFile(None, reason=f"not XML ({type(err).__name__})")
    if kind not in ("urlset", "sitemapindex"):
        return SitemapFile(None, reason=f"root element {kind!r} is not urlset or sitemapindex")
    return SitemapFile(kind, [loc for loc in locs if is_web_url(loc)])


def listed_urls(found: SitemapFile, sitemap_url: str, host: str) -> list[str]:
    """The canonical crawlable URLs on ``host`` that ``found`` (read from ``sitemap_url``)
    lists, in order, once each."""
    child_sitemaps = found.kind == "sitemapindex"     # ".xml.gz" is a sitemap there
    urls = (resolve(sitemap_url, loc, any_type=child_sitemaps) for loc in found.locs)
    return list(dict.fromkeys(u for u in urls if u is not None and host_name(u) == host))


class ListingBudget:
    """What the crawl still takes from each host's listings: at most ``max_files`` listing
    files (sitemaps, or feeds) and ``max_urls`` listed URLs per host."""

    def __init__(self, max_files: int = MAX_FILES_PER_HOST, max_urls: int = MAX_URLS_PER_HOST):
        self.max_files, self.max_urls = max_files, max_urls
        self.files: dict[str, int] = {}
        self.urls: dict[str, int] = {}
        self.requested: set[str] = set()

    def take_file(self, host: str, url: str) -> bool:
        """Whether listing file ``url`` of ``host`` may be fetched (each one once per run)."""
        if url in self.requested or self.files.get(host, 0) >= self.max_files:
            return False
        self.requested.add(url)
        self.files[host] = self.files.get(host, 0) + 1
        return True

    def left(self, host: str) -> int:
        """``host``'s remaining URL allowance."""
        return max(0, self.max_urls - self.urls.get(host, 0))

    def take(self, host: str, n: int) -> None:
        """Count ``n`` listed URLs of ``host`` against its allowance."""
        self.urls[host] = self.urls.get(host, 0) + n


def candidates(urls: Iterable[str], left: int, factor: int = RANK_FACTOR) -> list[str]:
    """The listed URLs a sitemap host scores for its remaining allowance ``left``: the first
    ``factor`` x ``left`` (bounded work: a file lists up to 50,000; ``urls`` is read no
    further, so a lazy filter costs nothing past them)."""
    return list(islice(urls, max(0, factor * left)))


def best_scored(scored: list, keep: int) -> list:
    """The ``keep`` highest-scored of ``scored`` (objects with a ``score``), in their order;
    ties go to the earlier listed."""
    if len(scored) <= keep:
        return scored
    if keep <= 0:
        return []
    cut = heapq.nlargest(keep, range(len(scored)), key=lambda i: (scored[i].score, -i))
    return [scored[i] for i in sorted(cut)]
