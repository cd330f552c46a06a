"""The topic spider's listings: the seed hosts' sitemaps and the seed pages' feeds.

A mixin of :class:`crawler.spiders.topic.TopicSpider` (it uses the spider's crawl state, log,
scope and request helpers).  Sitemaps (``FOLLOW_SITEMAPS``, ``-a sitemap=``) queue a host's
listed URLs scored on the URL alone; feeds (``FOLLOW_FEEDS``) queue their entries as links of
the seed or on-topic page that announced them.  The parsing lives in ``crawler/sitemaps.py`` and
``crawler/feeds.py``.
"""
from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

from scrapy import Request
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads
from twisted.internet.defer import DeferredLock

from ..feeds import Feed, announced_feeds, read_feed
from ..items import PageItem
from ..links import Link, page_base, resolve
from ..middlewares import is_robots_request, scheduled_url
from ..scope import host_name
from ..sitemaps import SitemapFile, candidates, listed_urls, read_sitemap, sitemaps_in_robots


# what an XML or JSON feed opens with, after a byte order mark and white space (or UTF-16's
# zero bytes)
_FEED_START = re.compile(rb"(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?[\s\x00]*[<{]")


def _read_listed(body: bytes, max_size: int, url: str, hosts: tuple[str, ...]
                 ) -> tuple[SitemapFile, list[str]]:
    """A sitemap parsed, and the URLs of ``hosts`` it lists (those of the first host first):
    run in a worker thread."""
    found = read_sitemap(body, max_size)
    if found.kind is None:
        return found, []
    lists = [listed_urls(found, url, host) for host in dict.fromkeys(hosts)]
    return found, list(dict.fromkeys(u for urls in lists for u in urls))


@asynccontextmanager
async def holding(lock: DeferredLock) -> AsyncIterator[None]:
    """Hold ``lock`` for the body.  It is released only if it was granted to this holder: a
    holder cancelled while waiting leaves the queue (DeferredLock's canceller) and releases
    nothing; one cancelled after the grant, before it resumed, still releases it."""
    granted: list[bool] = []
    waiting = lock.acquire().addCallback(lambda held: granted.append(True) or held)
    try:
        await maybe_deferred_to_future(waiting)
        yield
    finally:
        if granted:
            lock.release()


async def _read_off_loop(body: bytes, max_size: int, url: str, hosts: tuple[str, ...]
                         ) -> tuple[SitemapFile, list[str]]:
    """:func:`_read_listed` in the reactor's thread pool: a 50,000-URL sitemap takes the
    best part of a second to parse, which would stall every download meanwhile."""
    return await maybe_deferred_to_future(
        threads.deferToThread(_read_listed, body, max_size, url, hosts))


async def _read_feed_off_loop(body: bytes) -> Feed:
    """:func:`read_feed` in the reactor's thread pool (a feed of thousands of entries takes
    feedparser seconds), and not at all for a body that does not open like XML or JSON:
    feedparser spent about 30 s on a 9 MB binary seed body (a PDF without ``.pdf``)."""
    if _FEED_START.match(body) is None:
        return Feed([], reason="not a feed (neither XML nor JSON)")
    return await maybe_deferred_to_future(threads.deferToThread(read_feed, body))


class ListingsMixin:
    # ------------------------------------------------------------------ sitemaps
    def _robots_received(self, response, request, spider=None) -> None:
        """A seed host's robots.txt (fetched by Scrapy's RobotsTxtMiddleware): request the
        sitemaps it names (``FOLLOW_SITEMAPS``; ``crawler/sitemaps.py``)."""
        if response.status != 200 or not is_robots_request(request):
            return
        # a seed host's robots.txt may redirect (bare domain to www.): the seed is matched on
        # the host asked, the sitemaps belong to the host that answered
        seed_host, host = host_name(scheduled_url(request)), host_name(response.url)
        if seed_host not in self.seed_hosts:
            return
        again = seed_host in self.revisited_hosts
        for url in sitemaps_in_robots(response.body, response.url):
            if self.sitemaps.take_file(host, url):
                self.crawler.engine.crawl(self._sitemap_request(url, host, again=again))

    def _sitemap_request(self, url: str, host: str, again: bool | None = None) -> Request:
        """A sitemap of ``host``; fetched again past the job's seen-URL filter in a run that
        revisits the host's seeds (``REVISIT_AFTER``; ``again`` overrides)."""
        if again is None:
            again = host in self.revisited_hosts
        return self._fixed_request(url, self.parse_sitemap, again, listing="sitemap",
                                   sitemap_of=host, download_maxsize=self.sitemap_max_bytes)

    async def parse_sitemap(self, response):
        """Queue the URLs of the seed host a sitemap lists, or the sitemaps a sitemap index
        lists.  A listed URL is scored on the URL alone: no anchor, no context, parent
        relevance 0 (no page vouches for it; with the neutral 0.5 of an unknown parent, listed
        URLs outranked a seed page's links from the sixth fetch on) and no in-link.  A host's
        sitemaps are read one at a time, and none once the host's allowance is spent (an
        index read then would only list sitemaps ScopeMiddleware drops)."""
        meta, host = response.meta, response.meta["sitemap_of"]
        self.fetched_urls.add(response.url)
        if response.status != 200:
            self.crawl_log.complete(meta.get("log_seq"),
                                    note=f"sitemap: status {response.status}")
            return
        async with holding(self.sitemap_locks.setdefault(host, DeferredLock())):
            requests = await self._read_sitemap(response, host)
        for request in requests:
            yield request

    async def _read_sitemap(self, response, host: str) -> list[Request]:
        """The requests for one fetched sitemap of ``host`` (under the host's lock)."""
        stats, seq = self.crawler.stats, response.meta.get("log_seq")
        if not self.sitemaps.left(host):
            stats.inc_value("sitemaps/not_read_allowance_spent")
            self.crawl_log.complete(seq, note="sitemap: not read, the host's allowance is spent")
            return []
        # the URLs of the host the sitemap was asked for, and of the host that served it
        # (one that redirects, bare domain to www., lists the URLs of the second)
        found, urls = await _read_off_loop(response.body, self.sitemap_max_bytes,
                                           response.url, (host_name(response.url), host))
        if found.kind is None:
            stats.inc_value("sitemaps/files")
            stats.inc_value("sitemaps/invalid")
            self.crawl_log.complete(seq, note=f"not a sitemap: {found.reason}")
            return []
        return self._sitemap_found(response, host, found, urls)

    def _sitemap_found(self, response, host: str, found: SitemapFile,
                       urls: list[str]) -> list[Request]:
        """The requests for a parsed sitemap (``found``) of ``host`` listing ``urls``."""
        meta, stats, seq = response.meta, self.crawler.stats, response.meta.get("log_seq")
        stats.inc_value("sitemaps/files")
        if found.kind == "sitemapindex":
            self.crawl_log.complete(seq, note=f"sitemap index: {len(urls)} sitemaps")
            again = bool(meta.get("revisit"))
            return [self._sitemap_request(url, host, again=again)
                    for url in urls if self.sitemaps.take_file(host, url)]
        stats.inc_value("sitemaps/urls_listed", len(urls))
        # the allowance goes to URLs the job does not know yet (a queued URL's links already
        # scored it higher than its bare URL would)
        left, queued = self.sitemaps.left(host), self.queued_priority
        fresh = (u for u in urls if u not in queued and not self._job_knows(u))
        links = [Link(url) for url in candidates(fresh, left)]
        if self.scope.active:
            links = self._in_scope(links)
        # over the allowance: the best-scored fill it (one batch, in the reactor's thread:
        # the scores depend on the crawl state, which must not change in between)
        requests = self._requests_for(links, response.url, 0.0, 0, inlinks="none", keep=left)
        self.sitemaps.take(host, min(left, len(links)))
        if len(links) > left:
            stats.inc_value("sitemaps/urls_passed_over", len(links) - left)
        stats.inc_value("sitemaps/urls_queued", len(requests))
        self.crawl_log.complete(seq, note=f"sitemap: {len(urls)} URLs, {len(requests)} queued")
        return requests

    def _job_knows(self, url: str) -> bool:
        """``url`` was fetched in this run, or fetched or queued by an earlier run of the job
        (``JOBDIR``: looked up in its seen-URL filter)."""
        if url in self.fetched_urls:
            return True
        df = getattr(self.crawler, "priority_dupefilter", None)
        return df is not None and getattr(df, "resumed", False) and df.known(url)

    # ------------------------------------------------------------------ feeds
    def _feed_requests(self, item: PageItem, response) -> list[Request]:
        """The RSS / Atom / JSON feeds a seed page or an on-topic page announces
        (``FOLLOW_FEEDS``; ``crawler/feeds.py``), at most ``FEEDS_PER_HOST`` per host of the
        announcing page and run, fetched again past the seen-URL filter when a seed is
        revisited."""
        again = bool(response.meta.get("revisit"))
        host = host_name(response.url)
        base = page_base(item.doc.root, response.url)
        requests = []
        for href in announced_feeds(item.doc.root):
            url = resolve(base, href, any_type=True)      # ".rss" is a feed here
            if url is None or (self.scope.active and self.scope.refusal(url)):
                continue
            if not again and self._job_knows(url):
                continue
            if not self.feeds.take_file(host, url):
                continue
            requests.append(self._fixed_request(url, self.parse_feed, again, listing="feed",
                                                parent=response.url,
                                                feed_relevance=item.relevance))
        return requests

    async def parse_feed(self, response):
        """Queue a feed's entries as links of the page that announced it: title as the
        anchor, summary as the context, the page's relevance as the parent's, in content, no
        in-link (the page's own links already count)."""
        meta, stats, seq = response.meta, self.crawler.stats, response.meta.get("log_seq")
        self.fetched_urls.add(response.url)
        if response.status != 200:
            self.crawl_log.complete(seq, note=f"feed: status {response.status}")
            return
        feed = await _read_feed_off_loop(response.body)
        if not feed.entries:
            stats.inc_value("feeds/files")
            stats.inc_value("feeds/invalid" if feed.reason else "feeds/empty")
            self.crawl_log.complete(seq, note=feed.reason or "feed: no entries")
            return
        for request in self._feed_found(response, feed, meta.get("feed_relevance"),
                                        max(0, meta.get("depth", 1) - 1)):
            yield request

    def _feed_found(self, response, feed, relevance: float | None,
                    depth: int) -> Iterator[Request]:
        """The requests for a parsed feed with entries, as links of a page of ``relevance``
        at ``depth``."""
        stats, seq = self.crawler.stats, response.meta.get("log_seq")
        stats.inc_value("feeds/files")
        links: dict[str, Link] = {}
        for entry in feed.entries:
            url = resolve(response.url, entry.link)
            # (as a sitemap's: not one this run fetched or an earlier run of the job knew)
            if url is not None and url not in links and not self._job_knows(url):
                links[url] = Link(url, entry.title, entry.summary, in_content=True)
        found = list(links.values())
        if self.scope.active:
            found = self._in_scope(found)
        requests = self._requests_for(found, response.url, relevance, depth, inlinks="none")
        stats.inc_value("feeds/entries", len(feed.entries))
        stats.inc_value("feeds/queued", len(requests))
        self.crawl_log.complete(seq, note=f"feed: {len(feed.entries)} entries, "
                                          f"{len(requests)} queued")
        for request in requests:
            yield request

    # ------------------------------------------------------------------ seeds
    async def listing_seed(self, response) -> AsyncIterator[Request]:
        """A seed that is a sitemap or a feed rather than a page (``-a seed=.../feed.xml``):
        its URLs or entries are queued as :meth:`parse_sitemap` and :meth:`parse_feed` would
        (a feed's entries with no parent relevance); anything else is logged as not HTML."""
        host = host_name(response.url)
        found, urls = await _read_off_loop(response.body, self.sitemap_max_bytes,
                                           response.url, (host,))
        if found.kind is not None:
            for request in self._sitemap_found(response, host, found, urls):
                yield request
            return
        feed = await _read_feed_off_loop(response.body)
        if feed.entries:
            for request in self._feed_found(response, feed, None, 0):
                yield request
            return
        self.crawl_log.complete(response.meta.get("log_seq"),
                                note="not HTML, nor a sitemap or feed")
