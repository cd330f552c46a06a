"""``scrapy crawl`` that reports a bad crawl setup in one line instead of a traceback.

A malformed topic file, a bad seed or a bad setting stops the crawl before it starts with
a ``ValueError`` (``TopicError`` included) or an ``OSError`` (an unwritable ``CORPUS_DIR``)
whose message names the file, key or setting and the problem.  Scrapy leaves it to asyncio,
which prints it as "Task exception was never retrieved" with a traceback.  This command logs
``the crawl could not start: MESSAGE`` at ERROR instead (the traceback at DEBUG) and exits
with status 1, as Scrapy does.  Any other exception keeps its traceback.
"""
from __future__ import annotations

import asyncio
import logging

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from ..extensions import NO_SEED_FETCHED
from ..setting_values import number_setting

log = logging.getLogger(__name__)

SETUP_ERRORS = (ValueError, OSError)
# Scrapy's own number settings, checked before Scrapy reads them: Scrapy's own error names no
# setting ("could not convert string to float: 'abc'"); (name, whole number, minimum)
SCRAPY_NUMBERS = (
    ("DOWNLOAD_DELAY", False, 0), ("DOWNLOAD_TIMEOUT", False, 0),
    ("CONCURRENT_REQUESTS", True, 1), ("CONCURRENT_REQUESTS_PER_DOMAIN", True, 1),
    ("CONCURRENT_REQUESTS_PER_IP", True, 0), ("DEPTH_LIMIT", True, 0),
    ("CLOSESPIDER_PAGECOUNT", True, 0), ("CLOSESPIDER_ITEMCOUNT", True, 0),
    ("CLOSESPIDER_ERRORCOUNT", True, 0), ("CLOSESPIDER_TIMEOUT", False, 0),
    ("RETRY_TIMES", True, 0), ("REDIRECT_MAX_TIMES", True, 0),
    ("AUTOTHROTTLE_START_DELAY", False, 0), ("AUTOTHROTTLE_MAX_DELAY", False, 0),
    ("AUTOTHROTTLE_TARGET_CONCURRENCY", False, 0),
)


def check_scrapy_numbers(settings) -> None:
    """``ValueError`` naming the first of :data:`SCRAPY_NUMBERS` that is no number in its
    range."""
    for name, integer, minimum in SCRAPY_NUMBERS:
        number_setting(settings, name, 0, integer=integer, minimum=minimum)


def report_setup_error(error: BaseException) -> bool:
    """Report ``error`` in one line when it is a bad crawl setup; False for anything else."""
    if not isinstance(error, SETUP_ERRORS):
        return False
    log.debug("the crawl could not start", exc_info=error)
    log.error("the crawl could not start: %s", error)
    return True


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts) -> None:
        if len(args) < 1:
            raise UsageError
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        assert self.crawler_process
        try:
            check_scrapy_numbers(self.settings)
        except ValueError as error:
            report_setup_error(error)
            self.exitcode = 1
            return
        crawler = self._create_crawler(args[0])
        started = self.crawler_process.crawl(crawler, **opts.spargs)
        if isinstance(started, asyncio.Future):
            started.add_done_callback(_retrieve_setup_error)
        elif isinstance(started, Deferred):
            started.addErrback(_consume_setup_error)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed or failed_run(crawler):
            self.exitcode = 1


def failed_run(crawler) -> bool:
    """The run fetched nothing: no seed could be fetched (all unreachable or refused), or
    it tried and received no response at all, only download errors (the network down on a
    resumed job, whose seeds are fetched already; a run stopped by a time limit or Ctrl-C
    before anything answered).  A failed run for cron and scripts, which see the exit status
    only; a run with nothing to do is not one."""
    stats = getattr(crawler, "stats", None)
    if stats is None:
        return False
    reason = stats.get_value("crawl/stop_reason")
    if isinstance(reason, str) and reason.startswith(NO_SEED_FETCHED):
        return True
    return bool(stats.get_value("downloader/exception_count")) and \
        not stats.get_value("response_received_count")


def _retrieve_setup_error(task: asyncio.Future) -> None:
    if task.cancelled():
        return
    error = task.exception()        # retrieved: asyncio no longer prints it
    if error is not None and not report_setup_error(error):
        log.error("the crawl failed", exc_info=error)


def _consume_setup_error(failure: Failure) -> Failure | None:
    return None if report_setup_error(failure.value) else failure
