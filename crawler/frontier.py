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

    def close(self, reason: str) -> None:
        if self.file:
            self.file.close()
            self.file = None
