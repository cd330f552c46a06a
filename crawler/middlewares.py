"""Downloader middlewares: the crawl log's view of every fetch, the WARC archive's, the
fetch-once guard, the crawl's scope and redirects resolved as RFC 3986 says."""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import NoReturn

from scrapy import Request, signals
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware as ScrapyRedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from w3lib.url import safe_url_string

from . import links

from .extensions import end_crawl
from .journal import OUTPUTS_JOURNALED
from .scope import host_name
from .warc import RawResponse

log = logging.getLogger(__name__)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def is_html(response: Response) -> bool:
    ctype = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
    if ctype:
        return "html" in ctype or "xml" in ctype and "xhtml" in ctype
    return response.body[:1024].lstrip()[:1] == b"<"


def maybe_html(response: Response) -> bool:
    """:func:`is_html` for a response as the downloader gave it: without a Content-Type the
    body is sniffed, which an encoded body (``Content-Encoding: gzip``) does not allow before
    Scrapy decodes it, so such a response may be HTML (the spider decides)."""
    if is_html(response):
        return True
    encoding = response.headers.get(b"Content-Encoding", b"").strip().lower()
    return not response.headers.get(b"Content-Type") and encoding not in (b"", b"identity")


def is_robots_request(request: Request) -> bool:
    """The robots.txt request Scrapy's RobotsTxtMiddleware makes for a host (a redirect of
    it included: Scrapy follows it with the same meta)."""
    return bool(request.meta.get("dont_obey_robotstxt")) \
        and scheduled_url(request).endswith("/robots.txt")


def scheduled_url(request: Request) -> str:
    """The URL ``request`` was scheduled with, before any redirect."""
    return (request.meta.get("redirect_urls") or [request.url])[0]


def redirect_target(url: str, location: bytes) -> str:
    """Where a redirect from ``url`` goes: its ``Location`` made a safe URL as Scrapy does
    (UTF-8 bytes percent-encoded) and resolved as RFC 3986 says (:func:`crawler.links.join`,
    empty path segments kept).  ValueError for a malformed one."""
    return links.join(url, safe_url_string(location))     # ("//host/p" takes url's scheme)


def _entry(request: Request, **fields) -> dict:
    meta = request.meta
    scheduled = scheduled_url(request)
    entry = {"url": scheduled, "final_url": request.url, "status": None,
             "depth": meta.get("depth", 0), "parent": meta.get("parent"),
             "score": meta.get("link_score"), "components": meta.get("link_components"),
             "relevance": None, "on_topic": None, "accepted": False, "fetched_at": now_iso()}
    if is_robots_request(request):
        entry["robots"] = True
    entry.update(fields)
    return entry


class AlreadyFetched(IgnoreRequest):
    """A request dropped because its URL was already fetched (a stale copy)."""


def _first_fetch(request: Request) -> bool:
    """Not a robots.txt request and not a retry: a request that may cost a new fetch."""
    return not (request.meta.get("dont_obey_robotstxt") or request.meta.get("retry_times"))


class _CrawlerMiddleware:
    """A downloader middleware that keeps its crawler (stats, spider, crawl state)."""

    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def _drop_unfetched(self, request: Request, stat: str, why: str) -> NoReturn:
        """Drop ``request`` before its download: the job's seen-URL filter forgets it (not
        fetched after all, so a later link may queue it again) and ``stat`` counts it."""
        df = getattr(self.crawler, "priority_dupefilter", None)
        if df is not None:
            df.forget(request)
        self.crawler.stats.inc_value(stat)
        raise IgnoreRequest(why)


class FetchLogMiddleware(_CrawlerMiddleware):
    """Gives every response a crawl-log sequence number as it arrives.

    Sits next to the downloader, so it sees redirects and errors before other middlewares act
    on them.  Responses that the pipelines will not judge are logged complete at once (a
    sitemap's or feed's by the spider, with what it found).
    """

    @classmethod
    def from_crawler(cls, crawler):
        mw = cls(crawler)
        crawler.signals.connect(mw._request_scheduled, signal=signals.request_scheduled)
        return mw

    @property
    def crawl_log(self):
        spider = self.crawler.spider
        return getattr(spider, "crawl_log", None)

    def _request_scheduled(self, request: Request, spider=None) -> None:
        """A page left for the spider to judge that Scrapy's MetaRefreshMiddleware turned into
        a redirect never reaches the spider: its line is complete when the redirect is
        scheduled (else it would hold back every later line, and the journal's "done",
        until it expired)."""
        meta = request.meta
        reasons = meta.get("redirect_reasons")
        crawl_log = self.crawl_log
        if reasons and reasons[-1] == "meta refresh" and crawl_log is not None:
            crawl_log.complete(meta.get("log_seq"), note="meta refresh")

    def _finished(self, request: Request, parties: int = 1):
        """What logs the download of ``request`` as done with in the frontier's journal
        (``crawler/journal.py``), called when its crawl-log line is written (and, with
        ``parties=2``, once what the response led to is journaled)."""
        df = getattr(self.crawler, "priority_dupefilter", None)
        if df is None or df.path is None or is_robots_request(request):
            return None        # (no JOBDIR: no journal)
        return df.finished(request, parties)

    def process_response(self, request: Request, response: Response, spider=None):
        crawl_log = self.crawl_log
        if crawl_log is None:
            if (done := self._finished(request)) is not None:
                done()
            return response
        # done with once its line is written and the requests it leads to (its links, a
        # redirect, a retry) are journaled: the spider's JournalOutputMiddleware or the
        # scheduler calls the second part (a response that leads nowhere journaled, a
        # redirect dropped as offsite say, is not done with: a kill fetches it again)
        done = self._finished(request, parties=2)
        if done is not None:
            request.meta[OUTPUTS_JOURNALED] = done
        entry = _entry(request, final_url=response.url, status=response.status)
        if 300 <= response.status < 400:
            location = response.headers.get(b"Location")
            if location:
                try:                    # the URL the redirect goes to (RedirectMiddleware)
                    entry["final_url"] = redirect_target(request.url, location)
                except ValueError:      # "http://[::1": logged as it came, the redirect fails
                    entry["final_url"] = location.decode("latin-1")
        seq = crawl_log.open_entry(entry, done)
        request.meta["log_seq"] = seq
        stats = self.crawler.stats
        if entry.get("robots"):
            crawl_log.complete(seq)
            return response
        stats.inc_value("fetch/responses")
        stats.inc_value(f"fetch/status/{response.status}")
        if response.status != 200 or not (maybe_html(response) or request.meta.get("listing")):
            reason = "not HTML" if response.status == 200 else f"HTTP {response.status}"
            crawl_log.complete(seq, note=reason)
        return response

    def process_exception(self, request: Request, exception: Exception, spider=None):
        crawl_log = self.crawl_log
        if crawl_log is not None and not isinstance(exception, IgnoreRequest):
            seq = crawl_log.open_entry(_entry(request, error=f"{type(exception).__name__}: "
                                                             f"{exception}"),
                                       self._finished(request))
            crawl_log.complete(seq)
            self.crawler.stats.inc_value("fetch/errors")
        return None


class AlreadyFetchedMiddleware(_CrawlerMiddleware):
    """Drops a request for a URL that was already downloaded (a stale lower-priority copy left
    in the queue by a priority upgrade, a redirect to a URL fetched meanwhile, or a URL
    fetched by an earlier run of the same job), unless it is a retry, a revisit of a seed or
    hub (``REVISIT_AFTER``) or a page whose fetch failed in an earlier run
    (``RETRY_FAILED_AFTER``)."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.again: set[str] = set()    # URLs fetched again in this run (revisits, retries)

    def process_request(self, request: Request, spider=None):
        df = getattr(self.crawler, "priority_dupefilter", None)
        if df is None or not _first_fetch(request):
            return None
        meta = request.meta
        if meta.get("revisit") or meta.get("retry_failed"):
            # passes once per run: a copy an earlier run left in JOBDIR's queue and the one
            # this run's start adds are the same fetch
            first = request.url not in self.again
            self.again.add(request.url)
            df.mark_fetched(request)
            if first:
                return None
        elif df.mark_fetched(request):
            # a redirect too: its target fetched by another copy is not fetched again
            return None
        self.crawler.stats.inc_value("frontier/stale_duplicates_dropped")
        df.dropped_copy(request)
        raise AlreadyFetched(f"already fetched: {request.url}")

    def process_exception(self, request: Request, exception: Exception, spider=None):
        """A request marked fetched and then refused before its download (robots.txt, the
        offsite filter): the crawl is done with it, so a kill does not bring it back."""
        df = getattr(self.crawler, "priority_dupefilter", None)
        if df is not None and df.path is not None and isinstance(exception, IgnoreRequest) \
                and not isinstance(exception, AlreadyFetched) and _first_fetch(request):
            df.finished(request)()
        return None


class ScopeMiddleware(_CrawlerMiddleware):
    """Drops a queued request outside the spider's :class:`~crawler.scope.Scope` (URL patterns,
    a redirect's target included) or to a host that has had its ``MAX_PAGES_PER_HOST``
    requests, and counts the requests sent per host (``spider.host_requests``).  Runs after
    the fetch-once guard, so a stale duplicate costs no share of a host's cap; robots.txt and
    retries are not counted.  Also drops a sitemap of a host whose ``SITEMAP_MAX_URLS``
    allowance is spent (a big site's index lists up to 50 files of up to 50 MB each)."""

    def process_request(self, request: Request, spider=None):
        spider = self.crawler.spider
        meta = request.meta
        budget = getattr(spider, "sitemaps", None)
        if meta.get("listing") == "sitemap" and budget is not None \
                and not budget.left(meta["sitemap_of"]):
            self._drop_unfetched(request, "sitemaps/not_fetched_allowance_spent",
                                 f"sitemap not fetched, its host's allowance is spent: "
                                 f"{request.url}")
        scope = getattr(spider, "scope", None)
        if scope is None or not scope.active or not _first_fetch(request):
            return None
        why = scope.refusal(request.url)
        if why is None and scope.max_per_host:
            host, counts = host_name(request.url), spider.host_requests
            if scope.capped(host, counts):
                why = "host cap"
            else:
                counts[host] = counts.get(host, 0) + 1
        if why is None:
            return None
        self._drop_unfetched(request, f"scope/requests_dropped/{why}",
                             f"outside the crawl's scope ({why}): {request.url}")


class JournalOutputMiddleware:
    """Spider middleware next to the engine (``SPIDER_MIDDLEWARES`` order 0): tells the
    frontier's journal when the requests a response led to are all journaled, so that the
    download counts as done with (``D``) only then, however long its links take.

    Scrapy's scraper takes a callback's output in order and schedules each request as it
    takes it, so once the last request is journaled all of them are: the last request
    carries the response's :data:`~crawler.journal.OUTPUTS_JOURNALED` callable, which the
    scheduler (:class:`~crawler.frontier.JournalScheduler`) calls after journaling it; with
    no request, the output's end calls it (requests that ``DEPTH_LIMIT`` or the URL length
    drop never get here).  When the last request is dropped after it (the offsite filter at
    scheduling) or the callback fails, the call is lost: the download is never done with and
    a kill fetches it again, the safe side."""

    async def process_spider_output(self, response, result, spider=None):
        meta = getattr(response, "meta", None)     # (AttributeError: a response with no request)
        journaled = meta.pop(OUTPUTS_JOURNALED, None) if meta is not None else None
        if journaled is None:
            async for out in result:
                yield out
            return
        last = None
        try:
            async for out in result:
                if isinstance(out, Request):
                    if last is not None:
                        yield last
                    last = out
                else:
                    yield out
        except Exception:
            if last is not None:
                yield last          # not lost with the callback's error (never done with)
            raise
        if last is None:
            journaled()
        else:
            last.meta[OUTPUTS_JOURNALED] = journaled
            yield last


class WarcMiddleware(_CrawlerMiddleware):
    """Hands responses to the spider's WARC archive (``CORPUS_WARC``, :mod:`crawler.warc`) as
    received, before Scrapy decodes a ``Content-Encoding`` or follows a redirect: with
    ``all`` every response is archived at once (its place in ``meta["warc"]``); with
    ``written`` an HTML page's raw response waits in ``meta["warc_raw"]`` for the corpus
    writer, which archives it if the page is written."""

    _failed = False

    def process_response(self, request: Request, response: Response, spider=None):
        archive = getattr(self.crawler.spider, "warc", None)
        if archive is None or self._failed:
            return response
        if archive.mode == "all":
            try:
                request.meta["warc"] = archive.write(RawResponse.of(response)).to_dict()
            except OSError as err:  # a full disk: the crawl ends rather than lose responses
                self._failed = True
                self.crawler.stats.inc_value("warc/write_errors")
                end_crawl(self.crawler, f"WARC write failed: {err}", "WARC write failed",
                          logging.ERROR)
                return response
            self.crawler.stats.inc_value("warc/records")
        elif response.status == 200 and maybe_html(response):
            request.meta["warc_raw"] = RawResponse.of(response)
        return response


class RedirectMiddleware(ScrapyRedirectMiddleware):
    """Scrapy's redirect handling with the ``Location`` resolved as links are
    (:func:`crawler.links.join`, RFC 3986 §5.2): Scrapy's ``urljoin`` drops empty path segments
    of a relative reference or its base (``a//b`` becomes ``a/b``; ``q`` on an archive's page
    ``/web/2020/http://b.test/p`` becomes ``/web/2020/http:/b.test/q``), so the redirect went
    to another URL than the server named."""

    def process_response(self, request: Request, response: Response, spider=None):
        result = super().process_response(request, response)
        if not isinstance(result, Request) or result is request:
            return result
        try:
            target = redirect_target(request.url, response.headers[b"Location"])
        except ValueError:
            return result
        target, _, fragment = target.partition("#")
        url, _, kept = result.url.partition("#")
        if target == url:
            return result
        return result.replace(url=f"{target}#{fragment or kept}" if fragment or kept else target)
