"""Seen-URL bookkeeping for best-first crawling.

:class:`PriorityDupeFilter` replaces Scrapy's fingerprint filter: a URL seen again is let back
into the queue when its new priority is higher than any it was queued with, so a page first
found from an off-topic page moves up when an on-topic page links it.  The copy left behind in
the queue is dropped before download by :class:`crawler.middlewares.AlreadyFetchedMiddleware`
(a URL is fetched at most once).  With ``JOBDIR`` both the queued priorities and the fetched
set are appended to ``JOBDIR/frontier.log`` (priorities changed by a re-prioritization of the
queue too; ``U`` lines forget a request dropped by the crawl's scope), so a resumed crawl never
refetches a page.

The log is also the queue's journal (:mod:`crawler.journal`): after a crawl killed hard, the
next run queues again what no run fetched (:attr:`PriorityDupeFilter.recovered`).
"""
from __future__ import annotations

import logging
import shutil
import time
from collections import deque
from pathlib import Path

from scrapy import Request
from scrapy.core.scheduler import Scheduler
from scrapy.dupefilters import BaseDupeFilter
from scrapy.pqueues import ScrapyPriorityQueue
from scrapy.utils.job import job_dir

from .journal import OUTPUTS_JOURNALED, Entry, queue_line, replay
from .jsonl import ends_mid_line
from .link_scoring import PRIORITY_LEVELS, priority_of
from .politeness import slot_full
from .setting_values import number_setting

log = logging.getLogger(__name__)
UPGRADE_MARGIN = 5   # a rediscovery must beat the queued priority by this much


RUNNING_MARK = "frontier.open"
SCRAPY_QUEUE_DIR = "requests.queue"     # Scrapy's disk queue under JOBDIR
# [ours] seconds the "done" line of a download error (or a request refused before its
# download) waits before it is written: its retry is journaled by then.  A response's waits
# for the requests it led to instead (PriorityDupeFilter.finished, OUTPUTS_JOURNALED)
DONE_DELAY = 2.0
# request meta keys of requests that may fetch an already fetched URL again (not a redirect:
# its target, fetched by another copy, would be downloaded twice)
MAY_FETCH_AGAIN = ("dont_obey_robotstxt", "retry_times", "revisit", "retry_failed")


class PriorityDupeFilter(BaseDupeFilter):
    """The seen-URL filter of a best-first crawl, and with ``JOBDIR`` its log and the queue's
    journal (``JOBDIR/frontier.log``, :mod:`crawler.journal`).  ``JOBDIR/frontier.open``
    marks a run under way from its first journal line until it closes: a run that finds it
    follows a killed one, drops Scrapy's unreadable queue and recovers from the journal."""

    def __init__(self, path: str | None = None, fingerprinter=None, stats=None):
        self.fingerprinter = fingerprinter
        self.stats = stats
        self.best: dict[bytes, int] = {}
        self.fetched: set[bytes] = set()
        self.file = None
        self.path: Path | None = None
        self.mark: Path | None = None
        self._header: str | None = None     # this run's first line, written with its first event
        self._done: deque[tuple[float, bytes]] = deque()   # "done" lines waiting DONE_DELAY
        self._queued_again: dict[bytes, int] = {}   # fp -> A lines written for it this run
        # the requests a run killed hard left queued, best first (crawler.journal.Entry)
        self.recovered: list[Entry] = []
        if path:
            self.path = Path(path, "frontier.log")
            self.mark = Path(path, RUNNING_MARK)
            killed = self.mark.is_file() and self.path.is_file()
            if self.path.is_file():
                with open(self.path, encoding="ascii", errors="ignore") as lines:
                    state = replay(lines, killed, self._url_fingerprint)
                self.best, self.fetched, self.recovered = state.best, state.fetched, \
                    state.recovered
            if killed:
                # its index was never written: Scrapy would read a stale one, or none
                shutil.rmtree(Path(path, SCRAPY_QUEUE_DIR), ignore_errors=True)
                log.warning("the previous run of this job did not close (killed?): %d queued "
                            "requests recovered from %s", len(self.recovered), self.path)
                if stats is not None:
                    stats.set_value("frontier/recovered_after_kill", len(self.recovered))
            # a line cut by the kill stays alone
            self._header = ("\n" if ends_mid_line(self.path) else "") + \
                ("K\n" if killed else "R\n")
        self.resumed = bool(self.fetched or self.best)   # JOBDIR held earlier runs' URLs

    @classmethod
    def from_crawler(cls, crawler):
        df = cls(job_dir(crawler.settings), crawler.request_fingerprinter, crawler.stats)
        crawler.priority_dupefilter = df
        return df

    def _url_fingerprint(self, url: str) -> bytes:
        return self.fingerprint(Request(url))

    def _write(self, text: str, flush: bool = False) -> None:
        """Append ``text`` to the journal (nothing without ``JOBDIR``); the run's first write
        marks the run under way and writes its ``R`` / ``K`` line; the "done" lines that have
        waited ``DONE_DELAY`` go first."""
        if self.path is None:
            return
        if self._header is not None:
            self.mark.touch()
            self.file = open(self.path, "a", encoding="ascii", errors="backslashreplace")
            self.file.write(self._header)
            self._header = None
        if self._done:
            old = time.monotonic() - DONE_DELAY
            while self._done and self._done[0][0] <= old:
                self.file.write(f"D {self._done.popleft()[1].hex()}\n")
                flush = True
        self.file.write(text)
        if flush:
            self.file.flush()

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
        self._write(queue_line("Q", fp, request))
        return False

    def queued_again(self, request: Request) -> None:
        """A request queued past this filter (``dont_filter``: a retry, a redirect of such a
        request, a recovered one): journaled, so that a kill before it is done does not lose
        it.  A "done" line still waiting for the URL is dropped: the URL is not done."""
        if self.path is None:
            return
        fp = self.fingerprint(request)
        self._queued_again[fp] = self._queued_again.get(fp, 0) + 1
        if self._done:
            self._done = deque(item for item in self._done if item[1] != fp)
        self._write(queue_line("A", fp, request))

    def stale(self, request: Request) -> bool:
        """``request`` is a queued copy of a URL this job already fetched (left behind by a
        priority upgrade, or a link to a page an earlier run fetched), which the queue drops
        before it costs a download; a redirect to such a URL too.  Never a request that may
        fetch a URL again (robots.txt, retries, revisits, an earlier run's failures): the
        fetch-once guard (:class:`~crawler.middlewares.AlreadyFetchedMiddleware`) judges
        those."""
        meta = request.meta
        if any(meta.get(key) for key in MAY_FETCH_AGAIN):
            return False
        return self.fingerprint(request) in self.fetched

    def dropped_copy(self, request: Request) -> None:
        """A copy of a fetched URL dropped before its download (:meth:`stale`, the fetch-once
        guard): one queued past this filter (``A``) is not to be recovered after a kill."""
        if self.path is not None and request.dont_filter:
            self._write(f"S {self.fingerprint(request).hex()}\n")

    def known(self, url: str) -> bool:
        """``url`` was fetched or queued by this job, this run or an earlier one."""
        fp = self._url_fingerprint(url)
        return fp in self.fetched or fp in self.best

    def requeued(self, request: Request) -> None:
        """The queue changed the priority of a queued request (re-prioritization); logged
        like a queued one, so that a resumed crawl compares rediscoveries with it."""
        fp = self.fingerprint(request)
        if fp not in self.fetched and self.best.get(fp) != request.priority:
            self.best[fp] = request.priority
            self._write(f"Q {fp.hex()} {request.priority}\n")   # URL, depth: on its Q line

    def mark_fetched(self, request: Request) -> bool:
        """Record a download; False when the URL was already fetched (a stale copy)."""
        fp = self.fingerprint(request)
        if fp in self.fetched:
            return False
        self.fetched.add(fp)
        self._write(f"F {fp.hex()}\n", flush=True)
        return True

    def finished(self, request: Request, parties: int = 1):
        """A callable that logs the download of ``request`` as done with (``D``): after a
        kill, downloads not done with are fetched again.  With ``parties=1`` it is called
        when the download's crawl-log line is written and the line waits ``DONE_DELAY``
        (time for what the response led to, a retry say, to be journaled first).  With
        more, each party calls it once (the crawl-log line written, what the response led
        to journaled: :data:`OUTPUTS_JOURNALED`) and the line goes out after the last."""
        fp = self.fingerprint(request)
        generation = self._queued_again.get(fp, 0)
        left = parties

        def done() -> None:
            nonlocal left
            left -= 1
            # not when the URL was queued again meanwhile (a retry of this download, queued
            # before its crawl-log line was written): done is the retry's to say
            if left or self.path is None or self._queued_again.get(fp, 0) != generation:
                return
            if parties == 1:
                self._done.append((time.monotonic(), fp))
            else:
                self._write(f"D {fp.hex()}\n")
        return done

    def forget(self, request: Request) -> None:
        """A request dropped before its download (outside the crawl's scope): neither fetched
        nor queued any more, so a link found later (a resumed job with a higher
        ``MAX_PAGES_PER_HOST``, say) may queue it again."""
        fp = self.fingerprint(request)
        self._forget(fp)
        self._write(f"U {fp.hex()}\n", flush=True)

    def _forget(self, fp: bytes) -> None:
        self.fetched.discard(fp)
        self.best.pop(fp, None)

    def log(self, request: Request, spider=None) -> None:
        """Called by the scheduler for every request this filter refused."""
        if self.stats is not None:
            self.stats.inc_value("dupefilter/filtered")

    def close(self, reason: str) -> None:
        if self.path is None:
            return
        # a closing run always writes its R / K line (K: the downloads the killed run had
        # not done with count as not fetched) and its "done" lines
        self._write("".join(f"D {fp.hex()}\n" for _, fp in self._done), flush=True)
        self._done.clear()
        self.file.close()
        self.file = None
        self.mark.unlink(missing_ok=True)   # Scrapy writes its queue's index on closing
        self.path = None


def issued_by_start(meta: dict) -> bool:
    """A request every run's start issues again while it is due (a seed or hub revisit, a
    retried failure), which the journal leaves to it; what those spawn (a revisited seed's
    feeds and sitemaps, their redirects) is journaled."""
    return bool(meta.get("retry_failed") or meta.get("revisit")
                and meta.get("listing") in (None, "seed") and not meta.get("redirect_times"))


class JournalScheduler(Scheduler):
    """Scrapy's scheduler; a request it queues past the seen-URL filter (``dont_filter``) is
    journaled too (:meth:`PriorityDupeFilter.queued_again`), except robots.txt requests and
    those :func:`issued_by_start`.  A request carrying :data:`OUTPUTS_JOURNALED` (the last
    request a page led to, a redirect, a retry) calls it once journaled: the download that
    led to it is then done with."""

    def enqueue_request(self, request: Request) -> bool:
        meta = request.meta
        journaled = meta.pop(OUTPUTS_JOURNALED, None)    # (never into a disk queue)
        queued = super().enqueue_request(request)
        if queued and request.dont_filter and isinstance(self.df, PriorityDupeFilter) \
                and not meta.get("dont_obey_robotstxt") and not issued_by_start(meta):
            self.df.queued_again(request)
        if journaled is not None:
            journaled()
        return queued


REPRIORITIZE_EVERY = 50    # judged fetches between two re-prioritizations of the whole queue,
REPRIORITIZE_SHARE = 20    # and at least (queued requests / this): at most this many re-scores
                           # per judged fetch on average, whatever the size of the frontier


def reprioritize_due(judged_since: int, queued: int) -> bool:
    """Whether the whole queue should be re-scored, ``judged_since`` judged fetches after the
    last time, with ``queued`` requests in it."""
    return queued > 0 and judged_since >= max(REPRIORITIZE_EVERY, queued / REPRIORITIZE_SHARE)


# [ours] a link of a host with room in the downloader goes before the best waiting link of a
# full host when its score is at most this much lower (FRONTIER_BUSY_HOST_SLACK)
BUSY_HOST_SLACK = 0.05

RESCORE_EVERY = 25         # judged fetches between two re-scorings of one link at the head


def rescorable(meta: dict) -> bool:
    """The queued request carries the link components and features it was scored with."""
    return meta.get("link_features") is not None and meta.get("link_components") is not None


def head_rescore_due(meta: dict, seen: int) -> bool:
    """Whether a popped request should be re-scored, ``seen`` judged fetches into the crawl."""
    return rescorable(meta) and seen - meta.get("rescored_at", -RESCORE_EVERY) >= RESCORE_EVERY


def rescore_queued(scorer, traps, queued: list[tuple[str, dict]]) -> list[int]:
    """Re-score queued requests, given as ``(url, meta)`` with :func:`rescorable` metas, in
    one batch (``LinkScorer.rescore_many``); the new score and components go into each meta.
    Returns the new priorities."""
    seen = scorer.learner.seen
    scores, comps = scorer.rescore_many([
        (url, meta["link_components"], meta["link_features"],
         max(0, meta.get("depth", 1) - 1), traps.factor(url)) for url, meta in queued])
    scores = scores.tolist()
    for (_, meta), score, comp in zip(queued, scores, comps):
        meta["rescored_at"] = seen
        meta["link_score"] = round(score, 4)
        meta["link_components"] = comp
    return [priority_of(score) for score in scores]


def best_copies(requests: list[Request]) -> list[Request]:
    """The highest-priority copy of each URL among ``requests`` (a priority upgrade leaves
    several queued): the one the seen-URL filter must remember, not the last one met."""
    best: dict[str, Request] = {}
    for request in requests:
        kept = best.get(request.url)
        if kept is None or request.priority > kept.priority:
            best[request.url] = request
    return list(best.values())


def busy_host_slack(settings) -> int:
    """``FRONTIER_BUSY_HOST_SLACK`` in priority levels (``ValueError`` naming it when bad; the
    spider reads it at set-up too, so that a bad value stops the crawl before it opens)."""
    return round(number_setting(settings, "FRONTIER_BUSY_HOST_SLACK", BUSY_HOST_SLACK,
                                maximum=1.0) * PRIORITY_LEVELS)


class RescoringPriorityQueue(ScrapyPriorityQueue):
    """Global best-first queue (``ScrapyPriorityQueue``: highest priority first, across all
    domains) whose priorities follow what the crawl learns.

    A link queued early was scored before the crawl learned anything.  Two mechanisms bring
    its priority up to date, both from the components and features kept in its meta
    (``LinkScorer.rescore``):

    * at the head: a popped link is re-scored; if it has fallen below the next queued priority
      it goes back into the queue with its new priority (:func:`head_rescore_due`: at most
      once per ``RESCORE_EVERY`` judged fetches per link, so a pop costs a bounded amount of
      work);
    * the whole queue, every :func:`reprioritize_due` judged fetches, in one batch: a link whose
      score rose since it was queued (its site turned out productive, more on-topic pages link
      it, the learned model came to like it) would otherwise never reach the head.  On the
      deterministic simulation of ``bench/crawl_sim.py`` the queued priorities ranked the
      Science frontier of wikischools at AUC 0.69-0.72 against 0.80-0.87 for the same links
      re-scored.
    """

    MAX_ROUNDS = 64
    HELD_MAX = 64    # requests of full hosts passed over in one pop before waiting

    def __init__(self, crawler, *args, **kwargs):
        super().__init__(crawler, *args, **kwargs)
        self._slack = busy_host_slack(crawler.settings)

    def _reprioritize(self, scorer, traps) -> None:
        """Re-score every queued request carrying link components and queue them again."""
        self._reprioritized_at = scorer.learner.seen
        requests = []
        while (request := super().pop()) is not None:
            if not self._stale(request):
                requests.append(request)
        scorable = [r for r in requests if rescorable(r.meta)]
        try:
            priorities = rescore_queued(scorer, traps, [(r.url, r.meta) for r in scorable])
            for request, priority in zip(scorable, priorities):
                request.priority = priority
        finally:
            for request in requests:        # whatever happened, nothing leaves the queue
                super().push(request)
        dupefilter = getattr(self.crawler, "priority_dupefilter", None)
        queued = getattr(self.crawler.spider, "queued_priority", None)
        # a rediscovery is compared with the priority the URL's best copy has now
        for request in best_copies(scorable):
            if dupefilter is not None:
                dupefilter.requeued(request)
            if queued is not None:
                queued[request.url] = request.priority
        self.crawler.stats.inc_value("frontier/reprioritized")
        self.crawler.stats.inc_value("frontier/reprioritized_requests", len(scorable))

    def _stale(self, request: Request) -> bool:
        """A stale copy (:meth:`PriorityDupeFilter.stale`), counted as dropped."""
        dupefilter = getattr(self.crawler, "priority_dupefilter", None)
        if dupefilter is None or not dupefilter.stale(request):
            return False
        dupefilter.dropped_copy(request)
        self.crawler.stats.inc_value("frontier/stale_duplicates_dropped")
        return True

    def _scorer_and_traps(self):
        state = getattr(self.crawler.spider, "crawl_state", None)
        return (state.scorer, state.traps) if state is not None else (None, None)

    def pop(self) -> Request | None:
        """The best queued request, unless its host's downloader slot is full
        (:func:`~crawler.politeness.slot_full`): then the best request of a host with room whose
        score is within ``FRONTIER_BUSY_HOST_SLACK`` of it, if any among the next
        ``HELD_MAX``; else None, and the engine asks again when a download ends (a full host
        has downloads under way).  The requests passed over go back into the queue."""
        downloader = self._downloader()
        backed_off = getattr(self.crawler, "host_backoffs", ())
        held: list[Request] = []
        try:
            while (request := self._pop_best()) is not None:
                if downloader is None or not slot_full(downloader, request, backed_off):
                    if held and request.priority < held[0].priority - self._slack:
                        held.append(request)     # too far below the waiting best
                        break
                    return request
                held.append(request)
                if len(held) >= self.HELD_MAX:
                    break
            if held:
                self.crawler.stats.inc_value("frontier/waits_for_full_hosts")
            return None
        finally:
            if held:
                self.crawler.stats.inc_value("frontier/passed_full_hosts", len(held))
            for request in held:
                super().push(request)

    def _downloader(self):
        try:
            return self.crawler.engine.downloader
        except (AttributeError, RuntimeError):     # no engine yet (a queue built alone)
            return None


    def _pop_best(self) -> Request | None:
        scorer, traps = self._scorer_and_traps()
        if scorer is not None and reprioritize_due(
                scorer.learner.seen - getattr(self, "_reprioritized_at", 0), len(self)):
            self._reprioritize(scorer, traps)
        rounds = 0
        while rounds < self.MAX_ROUNDS:
            request = super().pop()
            if request is not None and self._stale(request):
                continue         # (bounded: each one leaves the queue for good)
            if request is None or scorer is None:
                return request
            if rescorable(request.meta) and not request.meta.get("retry_failed") \
                    and traps.factor(request.url) == 0.0:
                # a focused-crawl link whose URL template was refused since it was queued
                # (not a page an earlier run found and kept for a retry: its failure list
                # would never hear of it, so it goes out, last, at the score it gets)
                self.crawler.stats.inc_value("frontier/dropped_trap")
                dupefilter = getattr(self.crawler, "priority_dupefilter", None)
                if dupefilter is not None:      # not to be recovered after a kill either
                    dupefilter.forget(request)
                continue
            rounds += 1
            if not head_rescore_due(request.meta, scorer.learner.seen):
                return request
            new = rescore_queued(scorer, traps, [(request.url, request.meta)])[0]
            head = -self.curprio if self.curprio is not None else None
            demoted = head is not None and new < head and new < request.priority
            request.priority = new     # in place: a popped request is ours alone
            if demoted:
                self.crawler.stats.inc_value("frontier/rescored_down")
                super().push(request)
                continue
            return request
        return super().pop()
