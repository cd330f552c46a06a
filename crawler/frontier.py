"""Seen-URL bookkeeping for best-first crawling.

:class:`PriorityDupeFilter` replaces Scrapy's fingerprint filter: a URL seen again is let back
into the queue when its new priority is higher than any it was queued with, so a page first
found from an off-topic page moves up when an on-topic page links it.  The copy left behind in
the queue is dropped before download by :class:`crawler.middlewares.AlreadyFetchedMiddleware`
(a URL is fetched at most once).  With ``JOBDIR`` both the queued priorities and the fetched
set are appended to ``JOBDIR/frontier.log``, so a resumed crawl never refetches a page.
"""
from __future__ import annotations

import logging
from pathlib import Path

from scrapy import Request
from scrapy.dupefilters import BaseDupeFilter
from scrapy.pqueues import ScrapyPriorityQueue
from scrapy.utils.job import job_dir

log = logging.getLogger(__name__)
UPGRADE_MARGIN = 5   # a rediscovery must beat the queued priority by this much


class PriorityDupeFilter(BaseDupeFilter):
    def __init__(self, path: str | None = None, fingerprinter=None, stats=None):
        self.fingerprinter = fingerprinter
        self.stats = stats
        self.best: dict[bytes, int] = {}
        self.fetched: set[bytes] = set()
        self.file = None
        if path:
            log_path = Path(path, "frontier.log")
            if log_path.is_file():
                self._replay(log_path.read_text(encoding="ascii", errors="ignore"))
            self.file = open(log_path, "a", encoding="ascii")

    @classmethod
    def from_crawler(cls, crawler):
        df = cls(job_dir(crawler.settings), crawler.request_fingerprinter, crawler.stats)
        crawler.priority_dupefilter = df
        return df

    def _replay(self, text: str) -> None:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == "Q":
                self.best[bytes.fromhex(parts[1])] = int(parts[2])
            elif len(parts) == 2 and parts[0] == "F":
                self.fetched.add(bytes.fromhex(parts[1]))

    def fingerprint(self, request: Request) -> bytes:
        return self.fingerprinter.fingerprint(request)

    def request_seen(self, request: Request) -> bool:
        fp = self.fingerprint(request)
        if fp in self.fetched:
            return True
        old = self.best.get(fp)
        if old is not None and request.priority < old + UPGRADE_MARGIN:
            return True
        if old is not None and self.stats is not None:
            self.stats.inc_value("frontier/priority_upgrades")
        self.best[fp] = request.priority
        if self.file:
            self.file.write(f"Q {fp.hex()} {request.priority}\n")
        return False

    def mark_fetched(self, request: Request) -> bool:
        """Record a download; False when the URL was already fetched (a stale copy)."""
        fp = self.fingerprint(request)
        if fp in self.fetched:
            return False
        self.fetched.add(fp)
        if self.file:
            self.file.write(f"F {fp.hex()}\n")
            self.file.flush()
        return True

    def log(self, request: Request, spider=None) -> None:
        """Called by the scheduler for every request this filter refused."""
        if self.stats is not None:
            self.stats.inc_value("dupefilter/filtered")

    def close(self, reason: str) -> None:
        if self.file:
            self.file.close()
            self.file = None


class RescoringPriorityQueue(ScrapyPriorityQueue):
    """Global best-first queue (``ScrapyPriorityQueue``: highest priority first, across all
    domains) that re-scores a link when it reaches the head of the queue.

    A link queued early was scored before the crawl learned anything; when it is popped its
    score is recomputed from the components and features kept in its meta
    (``LinkScorer.rescore``).  If it has fallen below the next queued priority it goes back
    into the queue with its new priority.  A link is re-scored at most once per
    ``RESCORE_EVERY`` judged fetches, so a pop costs a bounded amount of work.
    """

    RESCORE_EVERY = 25
    MAX_ROUNDS = 64

    def _scorer_and_traps(self):
        state = getattr(self.crawler.spider, "crawl_state", None)
        return (state.scorer, state.traps) if state is not None else (None, None)

    def pop(self) -> Request | None:
        scorer, traps = self._scorer_and_traps()
        for _ in range(self.MAX_ROUNDS):
            request = super().pop()
            if request is None or scorer is None:
                return request
            meta = request.meta
            features, components = meta.get("link_features"), meta.get("link_components")
            seen = scorer.learner.seen
            if features is None or components is None or \
                    seen - meta.get("rescored_at", -self.RESCORE_EVERY) < self.RESCORE_EVERY:
                return request
            new = scorer.rescore(request.url, components, features,
                                 max(0, meta.get("depth", 1) - 1), traps.factor(request.url))
            meta["rescored_at"] = seen
            meta["link_score"] = round(new.score, 4)
            meta["link_components"] = new.components
            head = -self.curprio if self.curprio is not None else None
            demoted = head is not None and new.priority < head and new.priority < request.priority
            request.priority = new.priority     # in place: a popped request is ours alone
            if demoted:
                self.crawler.stats.inc_value("frontier/rescored_down")
                super().push(request)
                continue
            return request
        return super().pop()
