"""Crawl supervision: stop reasons (empty frontier, stall), periodic state checkpoints and the
garbage collector's thresholds."""
from __future__ import annotations

import gc
import logging
import pickle
import time
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.job import job_dir
from scrapy.utils.reactor import CallLaterOnce

from .relevance.frequencies import atomic_write_bytes
from .setting_values import number_setting

log = logging.getLogger(__name__)
CHECK_EVERY = 10.0
# the start of crawl/stop_reason when no seed answered: `scrapy crawl` exits with status 1
NO_SEED_FETCHED = "frontier empty: no seed could be fetched"
STALL_TIMEOUT = 300.0       # the setting's default; also how long a page may wait to be judged
# [ours] a checkpoint waits, besides the interval, at least this many times the duration of the
# previous one: saving never takes more than 1/20 of the crawl's time, however large the state
SAVE_SPACING = 20.0


class StallMonitor:
    """Ends a crawl that receives nothing for ``STALL_TIMEOUT`` seconds (0: never), records
    why a crawl ended in the stats (``crawl/stop_reason``) and checkpoints the state at the
    first response after every ``STATE_SAVE_INTERVAL`` seconds (0: only when the crawl
    closes).  A checkpoint writes the whole state (IDF statistics, feature library, ...), a
    cost that grows with it: by time, not by a count of responses, so a fast crawl does not
    spend its time saving, and never sooner than ``SAVE_SPACING`` times the last checkpoint's
    duration after it, so a large state (a long crawl) is not saved more than about 1/20 of
    the time (while checkpoints take about as long as the one before).  Stats:
    ``state/checkpoints``, ``state/checkpoint_seconds``."""

    def __init__(self, crawler, timeout: float, save_interval: float):
        self.crawler = crawler
        self.timeout = timeout
        self.save_interval = save_interval
        self.last = self.saved = time.monotonic()
        self.save_seconds = 0.0    # duration of the last checkpoint
        self._task = None

    @classmethod
    def from_crawler(cls, crawler):
        # 0 turns off the stall check only: checkpoints, stop reasons and the expiry of crawl-log
        # lines still need the monitor
        timeout = number_setting(crawler.settings, "STALL_TIMEOUT", STALL_TIMEOUT)
        ext = cls(crawler, timeout, number_setting(crawler.settings, "STATE_SAVE_INTERVAL", 60))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(ext.response_received, signal=signals.response_received)
        # a response a retry takes (a 503 storm under back-off) is never "received" by the
        # engine, but the host answers: no stall
        crawler.signals.connect(ext.response_downloaded, signal=signals.response_downloaded)
        crawler.signals.connect(ext.spider_idle, signal=signals.spider_idle)
        return ext

    def spider_opened(self, spider=None):
        self.last = self.saved = time.monotonic()
        self._task = CallLaterOnce(self._check)
        self._task.schedule(CHECK_EVERY)

    def spider_closed(self, spider=None, reason=None):
        if self._task is not None:
            self._task.cancel()
        stats = self.crawler.stats
        if stats.get_value("crawl/stop_reason") is None:
            stats.set_value("crawl/stop_reason", reason)

    def response_downloaded(self, response=None, request=None, spider=None):
        self.last = time.monotonic()

    def response_received(self, response=None, request=None, spider=None):
        self.last = now = time.monotonic()
        wait = max(self.save_interval, SAVE_SPACING * self.save_seconds)
        if self.save_interval > 0 and now - self.saved >= wait:
            self.saved = now
            state = getattr(self.crawler.spider, "crawl_state", None)
            if state is None:
                return
            try:
                state.save()
                save_spider_state(self.crawler)
            finally:        # a failed save (disk full) is not retried at every response
                self.saved = time.monotonic()
                self.save_seconds = self.saved - now
            stats = getattr(self.crawler, "stats", None)
            if stats is not None:
                stats.inc_value("state/checkpoints")
                stats.inc_value("state/checkpoint_seconds", round(self.save_seconds, 3))

    def spider_idle(self, spider=None):
        engine = self.crawler.engine
        scheduler = getattr(engine, "scheduler", None)
        if scheduler is not None and not scheduler.has_pending_requests():
            stats = self.crawler.stats
            reason, level = "frontier empty: no link left to follow", logging.INFO
            if not stats.get_value("fetch/status/200"):       # (a seed's redirect is a response)
                refused, unreachable = (stats.get_value(f"seeds/{k}", 0)
                                        for k in ("refused", "unreachable"))
                if refused or unreachable:
                    reason = (f"{NO_SEED_FETCHED} ({unreachable} "
                              f"unreachable, {refused} refused by robots.txt or the scope)")
                    level = logging.WARNING
            log.log(level, "crawl ends: %s", reason)
            stats.set_value("crawl/stop_reason", reason)

    def _check(self):
        idle = time.monotonic() - self.last
        spider = self.crawler.spider
        crawl_log = getattr(spider, "crawl_log", None)
        if crawl_log is not None:
            crawl_log.expire(max(60.0, self.timeout or STALL_TIMEOUT))
        if 0 < self.timeout < idle:
            end_crawl(self.crawler, f"stalled: no response for {idle:.0f}s", "stalled")
            return
        self._task.schedule(CHECK_EVERY)


def end_crawl(crawler, reason: str, close_reason: str, level: int = logging.WARNING) -> None:
    """Close the spider now, saying why in the log and in the stats (``crawl/stop_reason``:
    ``reason``); ``close_reason`` is Scrapy's own, short, close reason."""
    log.log(level, "crawl ends: %s", reason)
    crawler.stats.set_value("crawl/stop_reason", reason)
    deferred_from_coro(crawler.engine.close_spider_async(reason=close_reason))


def save_spider_state(crawler) -> None:
    """``JOBDIR/spider.state`` as Scrapy's SpiderState extension writes it when the spider
    closes (a pickled ``spider.state``), written atomically at each checkpoint too: a job
    killed hard resumes with its per-host request counts (``MAX_PAGES_PER_HOST``) as of its
    last checkpoint, not of its last clean close."""
    directory = job_dir(crawler.settings)
    state = getattr(crawler.spider, "state", None)
    if directory and isinstance(state, dict):
        atomic_write_bytes(Path(directory, "spider.state"), pickle.dumps(state, protocol=4))


GC_THRESHOLDS = (50_000, 50, 100)


def gc_thresholds(value) -> tuple[int, ...] | None:
    """``GC_THRESHOLDS``: three positive integers (``"50000,50,100"`` or a sequence), or
    ``"python"`` / empty for the interpreter's own.  Raises ``ValueError`` naming the setting."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "python")):
        return None
    parts = value.split(",") if isinstance(value, str) else list(value)
    try:
        out = tuple(int(str(p).strip()) for p in parts)
    except ValueError:
        out = ()
    if len(out) != 3 or min(out) <= 0 or max(out) > 2 ** 31 - 1:     # gc takes C ints
        raise ValueError(f"GC_THRESHOLDS: expected three positive integers such as "
                         f"'50000,50,100' (or 'python'), got {value!r}")
    return out


class GarbageCollection:
    """Python's cyclic garbage collector set for a crawl.  With the interpreter's thresholds
    (700, 10, 10) a 2,000-page crawl of the benchmark ran 2,500-2,700 collections costing 4.5-6 s
    of its 30-40 s (the frontier, the crawl state and the request metas are long-lived objects
    that every older-generation collection walks again).  At the engine's start the objects
    that exist (modules, loaded state) are frozen out of the collector's walks
    (``gc.freeze``) and ``GC_THRESHOLDS`` (default 50000,50,100: 24 collections, 0.6-0.8 s) are
    set; both are undone when the engine stops.  Memory stays put: a 4,000-page crawl peaked
    at 457 MB resident against 452 MB with the interpreter's thresholds (58.4 s against 64.6 s).
    Stats: ``gc/collections``, ``gc/seconds``."""

    def __init__(self, crawler, thresholds: tuple[int, ...]):
        self.crawler = crawler
        self.thresholds = thresholds
        self.previous: tuple[int, ...] | None = None
        self._started = 0.0
        self.collections = 0
        self.seconds = 0.0

    @classmethod
    def from_crawler(cls, crawler):
        thresholds = gc_thresholds(crawler.settings.get("GC_THRESHOLDS", GC_THRESHOLDS))
        if thresholds is None:
            raise NotConfigured
        ext = cls(crawler, thresholds)
        crawler.signals.connect(ext.engine_started, signal=signals.engine_started)
        crawler.signals.connect(ext.engine_stopped, signal=signals.engine_stopped)
        return ext

    def _timed(self, phase: str, info: dict) -> None:
        """A ``gc.callbacks`` hook: each collection's count and duration into the stats (kept
        current, so a summary written while the spider closes has them)."""
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.collections += 1
        self.seconds += time.perf_counter() - self._started
        stats = self.crawler.stats
        stats.set_value("gc/collections", self.collections)
        stats.set_value("gc/seconds", round(self.seconds, 3))

    def engine_started(self) -> None:
        self.previous = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*self.thresholds)
        gc.callbacks.append(self._timed)

    def engine_stopped(self) -> None:
        if self.previous is not None:
            gc.set_threshold(*self.previous)
            gc.unfreeze()
            self.previous = None
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)
