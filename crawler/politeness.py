"""Per-host politeness beyond Scrapy's own: robots.txt ``Crawl-delay`` / ``Request-rate``, and
which downloader slots are full.

Scrapy's RobotsTxtMiddleware honours ``Allow``/``Disallow`` only.  :class:`CrawlDelayMiddleware`
reads the delay a host's robots.txt asks of our user agent (``Crawl-delay: 5``, or
``Request-rate: 1/10s``: ten seconds per request; the longer when both are given) and makes it
the delay of that host's downloader slot, without jitter (AutoThrottle leaves that host's delay
alone).  A host that asks for more than
``ROBOTSTXT_MAX_CRAWL_DELAY`` seconds (default 30, the cap Nutch and StormCrawler use) is not
crawled at all: waiting that long per page would hold a focused crawl's best links hostage.

:func:`slot_full` tells the frontier (:class:`crawler.frontier.RescoringPriorityQueue`) that a
host already holds as many requests in the downloader as it may download at once, so the
next-best link of another host goes first instead of waiting behind it.
"""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from protego import Protego
from scrapy import Request, signals
from scrapy.http import Response
from scrapy.utils.httpobj import urlparse_cached

from .middlewares import _CrawlerMiddleware, is_robots_request

log = logging.getLogger(__name__)

MAX_CRAWL_DELAY = 30.0   # seconds; above this a host is skipped (ROBOTSTXT_MAX_CRAWL_DELAY)


def robots_delay(body: bytes | str, user_agent: str) -> float | None:
    """Seconds a robots.txt asks ``user_agent`` to leave between two requests: its
    ``Crawl-delay``, or the seconds per request of its ``Request-rate``, the longer when both
    are given; None when it asks for neither (or for nothing positive)."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        parser = Protego.parse(text)
        delay = parser.crawl_delay(user_agent)
        rate = parser.request_rate(user_agent)
    except Exception:  # noqa: BLE001 - a robots.txt is untrusted input: no delay then
        return None
    candidates = [float(delay)] if delay is not None else []
    if rate is not None and rate.requests > 0:
        candidates.append(rate.seconds / rate.requests)
    best = max(candidates, default=0.0)
    return best if best > 0 else None


def _robots_host(request: Request) -> str:
    """The host a robots.txt request was made for (before any redirect)."""
    return urlsplit((request.meta.get("redirect_urls") or [request.url])[0]).hostname or ""


def slot_full(downloader, request: Request) -> bool:
    """The downloader slot ``request`` would go to already holds as many requests (queued or
    in transfer) as it may download at once."""
    slots = downloader.slots
    if not slots:
        return False
    slot = slots.get(downloader.get_slot_key(request))
    return slot is not None and len(slot.active) >= max(1, slot.concurrency)


class CrawlDelayMiddleware(_CrawlerMiddleware):
    """Applies robots.txt ``Crawl-delay`` / ``Request-rate`` per host (``ROBOTSTXT_CRAWL_DELAY``,
    on by default with ``ROBOTSTXT_OBEY``); drops the requests of a host asking for more than
    ``ROBOTSTXT_MAX_CRAWL_DELAY`` seconds.  Sits after Scrapy's RobotsTxtMiddleware, so a
    host's robots.txt has been read when its first request gets here."""

    def __init__(self, crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.enabled = settings.getbool("ROBOTSTXT_OBEY") and \
            settings.getbool("ROBOTSTXT_CRAWL_DELAY", True)
        self.max_delay = settings.getfloat("ROBOTSTXT_MAX_CRAWL_DELAY", MAX_CRAWL_DELAY)
        self.min_delay = settings.getfloat("DOWNLOAD_DELAY")
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT") \
            or "*"
        self.delays: dict[str, float] = {}
        if self.enabled:
            crawler.signals.connect(self._robots_received, signal=signals.response_received)

    def _robots_received(self, response: Response, request: Request, spider=None) -> None:
        if response.status != 200 or not is_robots_request(request):
            return
        delay = robots_delay(response.body, self.user_agent)
        host = _robots_host(request)
        if delay is None or not host:
            return
        self.delays[host] = delay
        stats = self.crawler.stats
        stats.max_value("robotstxt/crawl_delay/max", delay)
        if delay > self.max_delay:
            stats.inc_value("robotstxt/crawl_delay/hosts_skipped")
            log.warning("%s asks for %.1f s between requests (robots.txt), more than "
                        "ROBOTSTXT_MAX_CRAWL_DELAY=%.1f: its pages are not crawled",
                        host, delay, self.max_delay)
            return
        stats.inc_value("robotstxt/crawl_delay/hosts")
        log.info("%s: robots.txt asks for %.2f s between requests", host, delay)

    def _apply(self, request: Request, delay: float) -> None:
        """The slot ``request`` goes to gets at least ``delay`` without jitter, now and when
        Scrapy creates it again after collecting it idle (its ``DOWNLOAD_SLOTS`` entry)."""
        downloader = self.crawler.engine.downloader
        key = downloader.get_slot_key(request)
        per_slot = downloader.per_slot_settings
        entry = per_slot.get(key) or {}
        if entry.get("delay", 0.0) < delay or entry.get("jitter") != 0.0:
            entry = per_slot[key] = {**entry, "delay": max(delay, entry.get("delay", 0.0)),
                                     "jitter": 0.0}
        slot = downloader.slots.get(key)
        if slot is not None and (slot.delay < entry["delay"] or slot.jitter):
            slot.delay = max(slot.delay, entry["delay"])
            slot.jitter = 0.0

    def process_request(self, request: Request, spider=None):
        if not self.delays or is_robots_request(request):
            return None
        host = urlparse_cached(request).hostname or ""
        delay = self.delays.get(host)
        if delay is None:
            return None
        if delay > self.max_delay:      # a later run with another cap may fetch it
            self._drop_unfetched(request, "robotstxt/crawl_delay/requests_dropped",
                                 f"robots.txt Crawl-delay {delay:g} s over "
                                 f"ROBOTSTXT_MAX_CRAWL_DELAY: {request.url}")
        self._apply(request, max(delay, self.min_delay))
        # AutoThrottle would move the delay towards the latency, below the robots.txt one
        request.meta["autothrottle_dont_adjust_delay"] = True
        return None
