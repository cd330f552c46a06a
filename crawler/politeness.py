"""Per-host politeness beyond Scrapy's own: robots.txt ``Crawl-delay`` / ``Request-rate`` and
server errors, back-off from hosts that answer 429 / 503, per-host delay floors under
AutoThrottle, and which downloader slots are full.

Scrapy's RobotsTxtMiddleware honours ``Allow``/``Disallow`` only; :class:`RobotsTxtMiddleware`
replaces it to mend one fault (Scrapy 2.19: every request but the first that waited for a
host's robots.txt went through unchecked).  :class:`RobotsTxtPolicyMiddleware` adds two rules,
per origin (host and port, as RFC 9309 scopes a robots.txt):
- the delay a host's robots.txt asks of our user agent (``Crawl-delay: 5``, or
  ``Request-rate: 1/10s``: ten seconds per request; the longer when both are given) becomes the
  floor of that host's downloader-slot delay, without jitter.  A host that asks for more than
  ``ROBOTSTXT_MAX_CRAWL_DELAY`` seconds (default 30, the cap Nutch and StormCrawler use) is not
  crawled at all: waiting that long per page would hold a focused crawl's best links hostage;
- a host whose robots.txt answers a server error (5xx) or 429 is not crawled in this run
  (RFC 9309, section 2.3.1.4: an unreachable robots.txt means complete disallow), where Scrapy
  would parse the error page as an empty robots.txt and crawl everything.

:class:`PoliteThrottle` replaces Scrapy's AutoThrottle extension.  Scrapy's lowers every slot
towards ``DOWNLOAD_DELAY``, below a host's own ``DOWNLOAD_SLOTS`` delay; here a slot's delay never
goes below its floor (``DOWNLOAD_DELAY``, its ``DOWNLOAD_SLOTS`` / robots.txt delay, a running
back-off).  A host that answers ``BACKOFF_HTTP_CODES`` (429 Too Many Requests, 503 Service
Unavailable) gets no request before its ``Retry-After`` and its delay doubles (at most
``BACKOFF_MAX_DELAY``), halving again with each normal response: Scrapy's AutoThrottle never
slows down for them and its retry middleware asks again at once.

:func:`slot_full` tells the frontier (:class:`crawler.frontier.RescoringPriorityQueue`) that a
host already holds as many requests in the downloader as it may download at once, so the
next-best link of another host goes first instead of waiting behind it.
"""
from __future__ import annotations

import logging
import time
from datetime import timezone
from email.utils import parsedate_to_datetime
from collections.abc import Container
from urllib.parse import urlsplit

from protego import Protego
from scrapy import Request, signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as _ScrapyRobotsTxt
from scrapy.exceptions import NotConfigured
from scrapy.extensions.throttle import AutoThrottle
from scrapy.http import Response
from scrapy.utils.httpobj import urlparse_cached

from .middlewares import _CrawlerMiddleware, is_robots_request, scheduled_url
from .revisit import hours_setting
from .setting_values import bool_setting, number_setting, retry_exceptions, status_codes

log = logging.getLogger(__name__)

MAX_CRAWL_DELAY = 30.0   # seconds; above this a host is skipped (ROBOTSTXT_MAX_CRAWL_DELAY)
BACKOFF_HTTP_CODES = (429, 503)
BACKOFF_START = 1.0      # seconds: the first back-off delay of a host that names no Retry-After
BACKOFF_MAX_DELAY = 60.0  # seconds: the longest wait and delay of a backed-off host
BACKOFF_RETRY_TIMES = 3  # retries of a request answered 429 / 503 (each after the back-off)


def backoff_codes(settings) -> frozenset[int]:
    """The ``BACKOFF_HTTP_CODES`` setting (default :data:`BACKOFF_HTTP_CODES`; empty: none) as
    status codes; ``ValueError`` naming the setting on anything but HTTP statuses."""
    return status_codes(settings, "BACKOFF_HTTP_CODES", BACKOFF_HTTP_CODES)


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


def robots_unavailable(status: int) -> bool:
    """A robots.txt answered with this status counts as unreachable: complete disallow
    (RFC 9309, 2.3.1.4: server errors; 429 is treated like them, as Google does)."""
    return status >= 500 or status == 429


def retry_after(value: bytes | str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header value asks to wait (RFC 9110, 10.2.3): delay-seconds or
    an HTTP-date (0 when it has passed); None when absent or unreadable.  ``now``: Unix time."""
    if value is None:
        return None
    text = (value.decode("latin-1") if isinstance(value, bytes) else value).strip()
    if text.isascii() and text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:         # an HTTP-date is GMT
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _robots_host(request: Request) -> str:
    """The origin a robots.txt request was made for (before any redirect): its host and port
    (the ``netloc`` Scrapy keys its robots.txt parsers by)."""
    return urlsplit(scheduled_url(request)).netloc


class RobotsTxtMiddleware(_ScrapyRobotsTxt):
    """Scrapy's robots.txt middleware, with the parser given to every request that waited for
    its host's robots.txt.  In Scrapy 2.19 the requests of a host met while its robots.txt was
    being fetched wait on one Deferred; the first one's conversion to a future takes the
    parser out of it (its callback returns None), so the others got None and went through
    unchecked: Disallowed pages were fetched when a page linked several of a new host's URLs,
    and at the start of every resumed crawl."""

    async def robot_parser(self, request: Request):
        parser = await super().robot_parser(request)
        if parser is None:      # read again: set (or None for an unreadable one) by now
            parser = self._parsers.get(urlparse_cached(request).netloc)
            if not hasattr(parser, "allowed"):
                return None
        return parser


def slot_full(downloader, request: Request, backed_off: Container[str] = ()) -> bool:
    """The downloader slot ``request`` would go to already holds as many requests as it may
    download at once, or, for a slot in ``backed_off`` (:attr:`PoliteThrottle.backoffs`), one
    request waiting: each request waiting for a slow slot holds one of the crawl's
    ``CONCURRENT_REQUESTS``.  Counted over the downloader's ``active`` requests, which include
    those still in its middlewares: a request reaches its slot an event-loop turn after the
    scheduler hands it over, so the slot alone would let a burst of pops through."""
    key = downloader.get_slot_key(request)
    slot = downloader.slots.get(key)
    active = getattr(downloader, "active", None)
    if active is None:
        if slot is None:
            return False
        mine = len(slot.active)
    else:
        mine = sum(1 for other in active if downloader.get_slot_key(other) == key)
    if not mine:
        return False
    if key in backed_off:
        return mine - (len(slot.transferring) if slot is not None else 0) >= 1
    if slot is not None:
        concurrency = slot.concurrency
    else:
        entry = downloader.per_slot_settings.get(key) or {}
        concurrency = entry.get("concurrency") or downloader.ip_concurrency \
            or downloader.domain_concurrency
    return mine >= max(1, concurrency)


def download_errors(settings) -> tuple[type[BaseException], ...]:
    """The download errors Scrapy retries (``RETRY_EXCEPTIONS``: a refused connection, a
    failed DNS lookup, a timeout...) and a download cancelled (over ``DOWNLOAD_MAXSIZE``)."""
    from twisted.internet.defer import CancelledError

    return (*retry_exceptions(settings), CancelledError)


class RobotsFetchErrorFilter(logging.Filter):
    """Scrapy's RobotsTxtMiddleware logs a robots.txt it could not download (a host that is
    down, a file over ``DOWNLOAD_MAXSIZE``) as an ERROR with a traceback, which reads like a
    crash of the crawl: for a download error (``errors``) it becomes one WARNING line.  The
    crawl goes on as Scrapy decides (no robots.txt: everything allowed; the host's own
    requests then fail and are logged, an unreachable seed as such)."""

    def __init__(self, errors: tuple[type[BaseException], ...]):
        super().__init__()
        self.errors = errors

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and record.levelno >= logging.ERROR and isinstance(exc, self.errors):
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "robots.txt not fetched for %(request)s: %(f_exception)r"
        return True


_ROBOTS_LOGGER = "scrapy.downloadermiddlewares.robotstxt"


def quiet_robots_fetch_errors(errors: tuple[type[BaseException], ...]) -> None:
    """Install :class:`RobotsFetchErrorFilter` once on Scrapy's robots.txt logger."""
    logger = logging.getLogger(_ROBOTS_LOGGER)
    for old in [f for f in logger.filters if isinstance(f, RobotsFetchErrorFilter)]:
        logger.removeFilter(old)
    logger.addFilter(RobotsFetchErrorFilter(errors))


class RobotsTxtPolicyMiddleware(_CrawlerMiddleware):
    """Applies robots.txt ``Crawl-delay`` / ``Request-rate`` per host (``ROBOTSTXT_CRAWL_DELAY``)
    and drops the requests of a host asking for more than ``ROBOTSTXT_MAX_CRAWL_DELAY``
    seconds, or whose robots.txt answered a server error or 429
    (``ROBOTSTXT_UNAVAILABLE_DISALLOW``); both on by default with ``ROBOTSTXT_OBEY``.  Sits
    after Scrapy's RobotsTxtMiddleware, so a host's robots.txt has been read when its first
    request gets here."""

    def __init__(self, crawler):
        super().__init__(crawler)
        settings = crawler.settings
        obey = bool_setting(settings, "ROBOTSTXT_OBEY")
        self.honour_delay = obey and bool_setting(settings, "ROBOTSTXT_CRAWL_DELAY", True)
        self.honour_errors = obey and bool_setting(settings, "ROBOTSTXT_UNAVAILABLE_DISALLOW",
                                                   True)
        self.max_delay = number_setting(settings, "ROBOTSTXT_MAX_CRAWL_DELAY", MAX_CRAWL_DELAY)
        self.min_delay = settings.getfloat("DOWNLOAD_DELAY")
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT") \
            or "*"
        self.delays: dict[str, float] = {}         # host[:port] -> its robots.txt delay
        self.unavailable: dict[str, int] = {}      # host[:port] -> status of its robots.txt
        if obey:
            quiet_robots_fetch_errors(download_errors(settings))
        if self.honour_delay or self.honour_errors:
            crawler.signals.connect(self._robots_received, signal=signals.response_received)

    def _robots_received(self, response: Response, request: Request, spider=None) -> None:
        if not is_robots_request(request):
            return
        host = _robots_host(request)
        if not host:
            return
        if robots_unavailable(response.status):
            if self.honour_errors:
                self.unavailable[host] = response.status
                self.crawler.stats.inc_value("robotstxt/unavailable/hosts")
                log.warning("%s: robots.txt answered HTTP %d; the host is not crawled in this "
                            "run (RFC 9309: an unreachable robots.txt disallows everything)",
                            host, response.status)
            return
        if response.status != 200 or not self.honour_delay:
            return
        delay = robots_delay(response.body, self.user_agent)
        if delay is None:
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
        Scrapy creates it again after collecting it idle (its ``DOWNLOAD_SLOTS`` entry, which
        is also the floor :class:`PoliteThrottle` keeps it above)."""
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
        if not (self.delays or self.unavailable) or is_robots_request(request):
            return None
        host = urlparse_cached(request).netloc
        status = self.unavailable.get(host)
        if status is not None:          # a later run asks for its robots.txt again
            state = getattr(self.crawler.spider, "crawl_state", None)
            meta = request.meta
            if state is not None and not meta.get("revisit") and not meta.get("listing"):
                state.failures.failed_request(scheduled_url(request), time.time(), meta)
            self._drop_unfetched(request, "robotstxt/unavailable/requests_dropped",
                                 f"robots.txt answered HTTP {status}: {request.url}")
        delay = self.delays.get(host)
        if delay is None:
            return None
        if delay > self.max_delay:      # a later run with another cap may fetch it
            self._drop_unfetched(request, "robotstxt/crawl_delay/requests_dropped",
                                 f"robots.txt Crawl-delay {delay:g} s over "
                                 f"ROBOTSTXT_MAX_CRAWL_DELAY: {request.url}")
        self._apply(request, max(delay, self.min_delay))
        return None


class PoliteThrottle(AutoThrottle):
    """Scrapy's AutoThrottle (when ``AUTOTHROTTLE_ENABLED``) with per-slot delay floors, and
    back-off from hosts answering ``BACKOFF_HTTP_CODES`` (default 429, 503; an empty list turns
    it off) up to ``BACKOFF_MAX_DELAY`` seconds (default 60).  Replaces
    ``scrapy.extensions.throttle.AutoThrottle`` in ``EXTENSIONS``.

    A throttling answer sets the host's back-off to the longest of its ``Retry-After``, twice
    the back-off it had or the slot's delay, and ``BACKOFF_START`` (1 s); the host gets no
    request before the ``Retry-After`` (or that back-off) has passed, and its delay stays at
    least the back-off.  Answers to requests sent before the back-off began do not double it
    again.  Each other answer from the host to a request sent since halves the back-off until
    it falls below the delay the slot had before (its floor, or the longer delay AutoThrottle
    had learnt), which it then resumes.  A request answered so may be retried
    ``BACKOFF_RETRY_TIMES`` (default 3) times instead of ``RETRY_TIMES``, each after the
    back-off; not a robots.txt, and, when ``RETRY_FAILED_AFTER`` lets a later run fetch it,
    not at all when its ``Retry-After`` is longer than ``BACKOFF_MAX_DELAY`` (the wait is
    capped there)."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.adaptive = bool_setting(settings, "AUTOTHROTTLE_ENABLED")
        self.backoff_codes = backoff_codes(settings)
        self.backoff_max = number_setting(settings, "BACKOFF_MAX_DELAY", BACKOFF_MAX_DELAY)
        self.backoff_retries = number_setting(settings, "BACKOFF_RETRY_TIMES", BACKOFF_RETRY_TIMES,
                                              integer=True)
        # a page whose server asks for longer than the cap waits for a later run only when
        # later runs fetch failed pages again (RETRY_FAILED_AFTER)
        self.retry_later = hours_setting(settings.get("RETRY_FAILED_AFTER"),
                                         "RETRY_FAILED_AFTER") > 0
        if not self.adaptive and not self.backoff_codes:
            raise NotConfigured
        self.backoffs: dict[str, float] = {}      # slot key -> back-off delay, seconds
        self._since: dict[str, float] = {}        # slot key -> monotonic start of back-off
        self._before: dict[str, float] = {}       # slot key -> its delay when backed off
        self._key: str | None = None
        if self.adaptive:
            super().__init__(crawler)   # connects _response_downloaded (ours) and spider_opened
        else:
            self.crawler = crawler
            self.debug = False
            crawler.signals.connect(self._response_downloaded,
                                    signal=signals.response_downloaded)
        self.mindelay = settings.getfloat("DOWNLOAD_DELAY")
        crawler.host_backoffs = self.backoffs     # read by the frontier (slot_full)

    def floor(self, key: str, backoff: bool = True) -> float:
        """The least delay of slot ``key``: ``DOWNLOAD_DELAY``, its ``DOWNLOAD_SLOTS`` (or
        robots.txt) delay and, with ``backoff``, its running back-off."""
        entry = self.crawler.engine.downloader.per_slot_settings.get(key) or {}
        least = max(self.mindelay, float(entry.get("delay", 0.0)))
        return max(least, self.backoffs.get(key, 0.0)) if backoff else least

    def _response_downloaded(self, response: Response, request: Request, spider=None) -> None:
        key, slot = self._get_slot(request, spider)
        if key is None or slot is None:
            return
        if response.status in self.backoff_codes:
            self._back_off(key, slot, response, request)
            return
        if key in self.backoffs:
            self._recover(key, slot, request)
        if self.adaptive:
            self._key = key
            try:
                super()._response_downloaded(response, request, spider)
            finally:
                self._key = None

    def _adjust_delay(self, slot, latency: float, response: Response) -> None:
        super()._adjust_delay(slot, latency, response)
        if self._key is not None:
            slot.delay = max(slot.delay, self.floor(self._key))

    @staticmethod
    def _sent(request: Request, now: float) -> float:
        """When ``request`` was sent (monotonic): now less its download latency."""
        return now - float(request.meta.get("download_latency") or 0.0)

    def _back_off(self, key: str, slot, response: Response, request: Request) -> None:
        now = time.monotonic()
        asked = retry_after(response.headers.get(b"Retry-After"))
        previous = self.backoffs.get(key, 0.0)
        sent = self._sent(request, now)
        if previous and sent < self._since.get(key, now):
            delay = previous        # sent before the back-off began: no second doubling
        else:
            delay = min(self.backoff_max, max(BACKOFF_START, 2 * max(previous, slot.delay)))
            self._since[key] = now
        wait = min(self.backoff_max, max(asked or 0.0, delay))
        if not previous:                # what AutoThrottle had learned, resumed after it
            self._before[key] = slot.delay
        self.backoffs[key] = max(delay, previous)
        slot.delay = max(slot.delay, self.backoffs[key])
        # no request before now + wait, whatever the slot's jitter draws
        earliest = now + wait - slot.delay * max(0.0, 1.0 - slot.jitter)
        slot.lastseen = max(slot.lastseen, earliest)
        # "come back later", not a failure: Scrapy's retry middleware (which sees the response
        # after this signal) may ask again up to BACKOFF_RETRY_TIMES, each after the back-off;
        # not a robots.txt (every request of the host waits for it, holding the crawl's
        # concurrency, and an unavailable robots.txt disallows the host anyway), nor, when
        # RETRY_FAILED_AFTER lets a later run fetch it, a page whose server asks for longer
        # than BACKOFF_MAX_DELAY
        if asked is not None and asked > self.backoff_max and self.retry_later \
                and request.meta.get("listing") not in ("sitemap", "feed"):
            request.meta["dont_retry"] = True
            log.info("%s asks to wait %g s (Retry-After), more than BACKOFF_MAX_DELAY=%g: "
                     "%s not retried in this run", key, asked, self.backoff_max, request.url)
        elif not is_robots_request(request):
            retries = request.meta.get("max_retry_times")
            request.meta["max_retry_times"] = max(self.backoff_retries,
                                                  retries if retries is not None else 0)
        stats = self.crawler.stats
        stats.inc_value("backoff/responses")
        stats.max_value("backoff/max_delay", self.backoffs[key])
        if not previous:
            stats.inc_value("backoff/hosts")
            log.warning("%s answered HTTP %d%s: backing off, %.1f s before its next request "
                        "and at least %.1f s between requests", key, response.status,
                        f" (Retry-After {asked:g} s)" if asked is not None else "", wait,
                        self.backoffs[key])

    def _recover(self, key: str, slot, request: Request) -> None:
        if self._sent(request, time.monotonic()) < self._since.get(key, 0.0):
            return                  # sent before the back-off began: says nothing of it
        # the pace the host had before: its floor, or the longer delay AutoThrottle had learnt
        least = max(self.floor(key, backoff=False), self._before.get(key, 0.0))
        backoff = self.backoffs[key] / 2
        if backoff <= least or backoff < BACKOFF_START / 2:
            del self.backoffs[key]
            self._since.pop(key, None)
            self._before.pop(key, None)
            log.info("%s: back-off over, %.2f s between requests again", key, least)
            slot.delay = least
        else:
            self.backoffs[key] = backoff
            slot.delay = max(least, backoff)
