"""Crawl supervision: stop reasons (empty frontier, stall) and periodic state checkpoints."""
from __future__ import annotations

import logging
import time

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.reactor import CallLaterOnce

log = logging.getLogger(__name__)
CHECK_EVERY = 10.0
# [ours] a checkpoint waits, besides the interval, at least this many times the duration of the
# previous one: saving never takes more than 1/20 of the crawl's time, however large the state
SAVE_SPACING = 20.0


class StallMonitor:
    """Ends a crawl that receives nothing for ``STALL_TIMEOUT`` seconds, records why a crawl
    ended in the stats (``crawl/stop_reason``) and checkpoints the state at the first response
    after every ``STATE_SAVE_INTERVAL`` seconds (0: only when the crawl closes).  A checkpoint
    writes the whole state (IDF statistics, feature library, ...), a cost that grows with it:
    by time, not by a count of responses, so a fast crawl does not spend its time saving, and
    never sooner than ``SAVE_SPACING`` times the last checkpoint's duration after it, so a large
    state (a long crawl) is not saved more than about 1/20 of the time (while checkpoints take
    about as long as the one before).  Stats: ``state/checkpoints``,
    ``state/checkpoint_seconds``."""

    def __init__(self, crawler, timeout: float, save_interval: float):
        self.crawler = crawler
        self.timeout = timeout
        self.save_interval = save_interval
        self.last = self.saved = time.monotonic()
        self.save_seconds = 0.0    # duration of the last checkpoint
        self._task = None

    @classmethod
    def from_crawler(cls, crawler):
        timeout = crawler.settings.getfloat("STALL_TIMEOUT", 300)
        if timeout <= 0:
            raise NotConfigured
        ext = cls(crawler, timeout, crawler.settings.getfloat("STATE_SAVE_INTERVAL", 60))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(ext.response_received, signal=signals.response_received)
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
            reason = "frontier empty: no link left to follow"
            log.info("crawl ends: %s", reason)
            self.crawler.stats.set_value("crawl/stop_reason", reason)

    def _check(self):
        idle = time.monotonic() - self.last
        spider = self.crawler.spider
        crawl_log = getattr(spider, "crawl_log", None)
        if crawl_log is not None:
            crawl_log.expire(max(60.0, self.timeout))
        if idle > self.timeout:
            reason = f"stalled: no response for {idle:.0f}s"
            log.warning("crawl ends: %s", reason)
            self.crawler.stats.set_value("crawl/stop_reason", reason)
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="stalled"))
            return
        self._task.schedule(CHECK_EVERY)
