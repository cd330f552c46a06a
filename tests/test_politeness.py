"""robots.txt Crawl-delay / Request-rate and server errors, back-off from hosts answering 429 /
503, per-slot delay floors under AutoThrottle, and the frontier passing over hosts whose
downloader slot is full: unit tests, and loopback crawls of the demo web whose hosts ask for
delays, throttle or fail their robots.txt."""
import json
import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy import Request
from scrapy.core.downloader import Slot
from scrapy.exceptions import NotConfigured
from scrapy.extensions.throttle import AutoThrottle
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.squeues import PickleFifoDiskQueue
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.test import get_crawler

from crawler.frontier import RescoringPriorityQueue
from crawler.politeness import (PoliteThrottle, backoff_codes, retry_after, robots_delay,
                                robots_unavailable, slot_full)
from crawler.run import FAST_LOCAL, run_crawl
from crawler.testweb.archive import DEMO_DIR, Record, WebArchive, load_web
from crawler.testweb.server import ProxyServer, serve_in_thread

UA = "focused-crawler/0.1 (+https://example.invalid/focused-crawler)"


@pytest.mark.parametrize("body, expected", [
    (b"User-agent: *\nCrawl-delay: 2.5\n", 2.5),
    (b"User-agent: *\nRequest-rate: 1/10s\n", 10.0),
    (b"User-agent: *\nRequest-rate: 3/1m\n", 20.0),
    (b"User-agent: *\nCrawl-delay: 4\nRequest-rate: 1/2s\n", 4.0),     # the longer of both
    (b"User-agent: *\nCrawl-delay: 1\n\nUser-agent: focused-crawler\nCrawl-delay: 7\n", 7.0),
    (b"User-agent: otherbot\nCrawl-delay: 9\n", None),                 # not for us
    (b"User-agent: *\nDisallow: /cart/\n", None),
    (b"User-agent: *\nCrawl-delay: soon\n", None),
    (b"User-agent: *\nCrawl-delay: 0\n", None),
    ("User-agent: *\nCrawl-delay: 3 # vérifié\n", 3.0),
])
def test_robots_delay_reads_crawl_delay_and_request_rate(body, expected):
    assert robots_delay(body, UA) == expected


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_robots_delay_never_raises_on_arbitrary_bytes(body):
    delay = robots_delay(body, UA)
    assert delay is None or delay > 0


class _Downloader:
    """What the frontier reads of Scrapy's downloader: its slots by key, hosts here."""

    def __init__(self, per_domain: int):
        self.per_domain = per_domain
        self.slots: dict[str, Slot] = {}

    def get_slot_key(self, request: Request) -> str:
        return urlparse_cached(request).hostname

    def busy(self, url: str) -> Request:
        request = Request(url)
        slot = self.slots.setdefault(self.get_slot_key(request), Slot(self.per_domain, 0.0, 0))
        slot.active.add(request)
        return request


def _queue_with_downloader(tmp_path, per_domain: int, **settings):
    crawler = get_crawler(settings_dict=settings)
    crawler.engine = SimpleNamespace(downloader=_Downloader(per_domain))
    crawler.spider = SimpleNamespace()
    return crawler, RescoringPriorityQueue(crawler, PickleFifoDiskQueue, str(tmp_path / "q"))


def test_frontier_passes_over_a_host_whose_slot_is_full_and_keeps_its_links(tmp_path):
    crawler, queue = _queue_with_downloader(tmp_path, per_domain=1)
    downloader = crawler.engine.downloader
    for url, priority in [("http://a.test/1", 10), ("http://a.test/2", 9),
                          ("http://b.test/1", 5)]:
        queue.push(Request(url, priority=priority))
    busy = downloader.busy("http://a.test/0")    # a.test may download one at a time
    slot = downloader.slots["a.test"]
    assert slot_full(downloader, Request("http://a.test/1"))
    assert not slot_full(downloader, Request("http://b.test/1"))
    assert queue.pop().url == "http://b.test/1"  # the next best of a host with room
    assert queue.pop() is None and len(queue) == 2   # a.test's links wait in the queue
    slot.active.discard(busy)                     # its download ended
    assert [queue.pop().url, queue.pop().url] == ["http://a.test/1", "http://a.test/2"]
    assert queue.pop() is None
    assert crawler.stats.get_value("frontier/passed_full_hosts") == 4   # twice both
    queue.close()


@pytest.mark.parametrize("slack, expected", [(0.05, "http://b.test/1"), (0.01, None)])
def test_frontier_passes_over_a_full_host_only_for_a_link_nearly_as_good(tmp_path, slack,
                                                                          expected):
    crawler, queue = _queue_with_downloader(tmp_path, per_domain=1,
                                            FRONTIER_BUSY_HOST_SLACK=slack)
    queue.push(Request("http://a.test/1", priority=150))
    queue.push(Request("http://b.test/1", priority=141))   # 9 levels of 200 below
    crawler.engine.downloader.busy("http://a.test/0")
    request = queue.pop()
    assert (request and request.url) == expected
    assert len(queue) == 2 - bool(expected)
    queue.close()


def test_frontier_order_is_unchanged_while_no_slot_is_full(tmp_path):
    crawler, queue = _queue_with_downloader(tmp_path, per_domain=16)
    urls = [f"http://{h}.test/{k}" for k in range(5) for h in "ab"]
    for k, url in enumerate(urls):
        queue.push(Request(url, priority=-k))
    for k in range(15):
        crawler.engine.downloader.busy(f"http://a.test/x{k}")
    assert [queue.pop().url for _ in urls] == urls
    assert crawler.stats.get_value("frontier/passed_full_hosts") is None
    queue.close()


WEEKEND, SUNWIND = "http://www.weekend.test", "http://www.sunwind.test"


def _web_with_delays(web: WebArchive, weekend_delay: str, sunwind_delay: str) -> WebArchive:
    records = dict(web.records)
    for host, line in ((WEEKEND, f"Crawl-delay: {weekend_delay}\n"),
                       (SUNWIND, f"Crawl-delay: {sunwind_delay}\n")):
        robots = records[f"{host}/robots.txt"]
        records[robots.url] = Record(robots.url, 200, "OK", robots.headers,
                                     robots.body + line.encode())
    return WebArchive(records=records, labels=web.labels, seeds=web.seeds)


@pytest.mark.parametrize("obey", [True, False])
def test_crawl_honours_robots_crawl_delay_and_skips_hosts_over_the_cap(tmp_path, obey):
    """www.weekend.test asks for 0.4 s between requests, www.sunwind.test for 60 s (over the
    30 s cap).  At full local speed (no download delay, 16 requests at once) the crawl spaces
    weekend's requests by 0.4 s, fetches nothing of sunwind but its robots.txt, and crawls
    the third host as fast as ever; with ROBOTSTXT_CRAWL_DELAY=False neither is honoured."""
    web = load_web(DEMO_DIR)
    with serve_in_thread(_web_with_delays(web, "0.4", "60")) as server:
        conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                    STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO",
                    ROBOTSTXT_CRAWL_DELAY=str(obey))
        result = run_crawl(DEMO_DIR / "topic.toml", web.seeds, conf, proxy=server.proxy_url,
                           log_file=tmp_path / "scrapy.log", timeout=600)
        served = list(server.server.log)
    text = (tmp_path / "scrapy.log").read_text(encoding="utf-8")
    assert result.returncode == 0, text[-2000:]
    pages = [s for s in served if not s.url.endswith("/robots.txt")]
    weekend = [s.at for s in pages if s.url.startswith(WEEKEND)]
    sunwind = [s for s in pages if s.url.startswith(SUNWIND)]
    assert len(weekend) >= 5 and [s for s in pages if s.url.startswith("http://www.nengyuan")]
    gaps = [b - a for a, b in zip(weekend, weekend[1:])]
    summary = json.loads((tmp_path / "corpus" / "crawl-summary.json").read_text())
    if obey:
        # Scrapy sends them at least 0.4 s apart; the server's clock reads them a little after
        # (its own load), so single gaps may lose a few ms but the span may not
        assert min(gaps) >= 0.3, gaps
        assert weekend[-1] - weekend[0] >= 0.4 * len(gaps) - 0.1, gaps
        assert not sunwind
        assert summary["robotstxt/crawl_delay/hosts"] == 1
        assert summary["robotstxt/crawl_delay/hosts_skipped"] == 1
        assert summary["robotstxt/crawl_delay/requests_dropped"] >= 1
        assert "www.sunwind.test asks for 60.0 s between requests" in text
    else:
        assert min(gaps) < 0.2, gaps
        assert sunwind
        assert not any(k.startswith("robotstxt/crawl_delay") for k in summary)


# -- back-off from 429 / 503, per-slot delay floors, robots.txt server errors ------------------

@pytest.mark.parametrize("value, expected", [
    (b"120", 120.0), (" 5 ", 5.0), ("0", 0.0),
    ("Wed, 25 Nov 2026 00:01:40 GMT", 100.0),         # an HTTP-date 100 s after "now"
    ("Tue, 24 Nov 2026 23:00:00 GMT", 0.0),           # passed
    ("Wednesday, 25-Nov-26 00:00:10 GMT", 10.0),      # RFC 850 form
    ("-5", None), ("1.5", None), ("soon", None), ("", None), (None, None),
])
def test_retry_after_reads_seconds_and_http_dates(value, expected):
    now = 1795564800.0     # Wed, 25 Nov 2026 00:00:00 GMT
    assert retry_after(value, now=now) == expected


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=60), st.text(max_size=60)))
def test_retry_after_never_raises(value):
    wait = retry_after(value, now=0.0)
    assert wait is None or wait >= 0


@pytest.mark.parametrize("status, unavailable", [(200, False), (404, False), (403, False),
                                                 (429, True), (500, True), (503, True)])
def test_robots_unavailable_is_server_errors_and_429(status, unavailable):
    assert robots_unavailable(status) is unavailable


class _SlotDownloader:
    """What the throttle reads of Scrapy's downloader: slots and per-slot settings."""

    def __init__(self, per_slot: dict):
        self.per_slot_settings = per_slot
        self.slots: dict[str, Slot] = {}
        self._delay = 0.0


def _throttle(extension, **settings):
    conf = {"DOWNLOAD_DELAY": 0.25, "AUTOTHROTTLE_ENABLED": True,
            "AUTOTHROTTLE_TARGET_CONCURRENCY": 2.0, **settings}
    crawler = get_crawler(settings_dict=conf)
    per_slot = {k: dict(v) for k, v in crawler.settings.getdict("DOWNLOAD_SLOTS").items()}
    crawler.engine = SimpleNamespace(downloader=_SlotDownloader(per_slot))
    throttle = extension(crawler)
    if conf["AUTOTHROTTLE_ENABLED"]:
        throttle._spider_opened(None)
    return crawler, throttle


def _answer(throttle, slot_key: str, status: int, latency: float = 0.01, path: str = "/page",
            **headers):
    meta = {"download_slot": slot_key, "download_latency": latency}
    if path == "/robots.txt":
        meta["dont_obey_robotstxt"] = True
    request = Request(f"http://{slot_key}{path}", meta=meta)
    response = HtmlResponse(request.url, status=status, headers=headers, body=b"<p>x</p>",
                            request=request)
    throttle._response_downloaded(response, request, None)
    return request


def test_autothrottle_keeps_a_slots_own_delay_as_its_floor():
    """DOWNLOAD_SLOTS gives slow.test 2 s; a fast server would make Scrapy's AutoThrottle
    lower it to DOWNLOAD_DELAY (0.25 s): ours keeps it at 2 s, and still adapts other slots
    and raises a slow one."""
    slots = {"slow.test": {"delay": 2.0}}
    for extension, expected in ((AutoThrottle, 0.25), (PoliteThrottle, 2.0)):
        crawler, throttle = _throttle(extension, DOWNLOAD_SLOTS=slots)
        downloader = crawler.engine.downloader
        downloader.slots["slow.test"] = Slot(4, 2.0, 0)
        downloader.slots["other.test"] = Slot(4, 1.0, 0.5)
        for _ in range(20):
            _answer(throttle, "slow.test", 200)
            _answer(throttle, "other.test", 200)
        assert downloader.slots["slow.test"].delay == pytest.approx(expected, abs=1e-3)
        assert downloader.slots["other.test"].delay == pytest.approx(0.25, abs=1e-3)
    _answer(throttle, "slow.test", 200, latency=10.0)   # 10 s latency, target concurrency 2
    assert downloader.slots["slow.test"].delay == pytest.approx(5.0)


@pytest.mark.parametrize("adaptive", [True, False])
def test_a_host_answering_429_is_backed_off_and_recovers(adaptive):
    crawler, throttle = _throttle(PoliteThrottle, AUTOTHROTTLE_ENABLED=adaptive)
    downloader = crawler.engine.downloader
    slot = downloader.slots["busy.test"] = Slot(4, 0.25, 0.5)
    before = time.monotonic()
    request = _answer(throttle, "busy.test", 429, **{"Retry-After": "5"})
    assert throttle.backoffs["busy.test"] == 1.0 and slot.delay == 1.0
    assert request.meta["max_retry_times"] == 3                # BACKOFF_RETRY_TIMES
    # nothing before the Retry-After, even with the slot's jitter drawing its least delay
    assert slot.lastseen + slot.delay * 0.5 >= before + 5.0
    _answer(throttle, "busy.test", 503, latency=0.0)           # sent after: doubles
    assert throttle.backoffs["busy.test"] == 2.0
    _answer(throttle, "busy.test", 503, latency=60.0)          # sent before it: does not
    assert throttle.backoffs["busy.test"] == 2.0
    _answer(throttle, "busy.test", 200, latency=60.0)          # nor cancels it
    assert throttle.backoffs["busy.test"] == 2.0
    for _ in range(8):
        _answer(throttle, "busy.test", 503, latency=0.0)
    assert throttle.backoffs["busy.test"] == 60.0               # BACKOFF_MAX_DELAY
    delays = []
    while "busy.test" in throttle.backoffs:
        assert "max_retry_times" not in _answer(throttle, "busy.test", 200, latency=0.0).meta
        delays.append(slot.delay)
    assert delays[:3] == [30.0, 15.0, 7.5] and delays[-1] == pytest.approx(0.25, abs=1e-3)
    stats = crawler.stats
    assert stats.get_value("backoff/hosts") == 1 and stats.get_value("backoff/responses") == 11
    assert stats.get_value("backoff/max_delay") == 60.0


def test_a_back_off_resumes_the_delay_autothrottle_had_learnt(monkeypatch):
    """A slow host (4 s latency, target concurrency 2) has taught AutoThrottle a 2 s delay;
    after a 429 and its back-off the slot goes back to 2 s, not to DOWNLOAD_DELAY (0.25 s)."""
    now = [1000.0]
    monkeypatch.setattr("crawler.politeness.time.monotonic", lambda: now[0])
    crawler, throttle = _throttle(PoliteThrottle)
    slot = crawler.engine.downloader.slots["slow.test"] = Slot(4, 0.25, 0.5)
    for _ in range(30):
        _answer(throttle, "slow.test", 200, latency=4.0)
    assert slot.delay == pytest.approx(2.0, abs=1e-3)
    _answer(throttle, "slow.test", 429, latency=4.0)
    assert throttle.backoffs["slow.test"] == 4.0 and slot.delay == 4.0
    now[0] += 10.0                                  # answers to requests sent since
    _answer(throttle, "slow.test", 200, latency=4.0)
    assert "slow.test" not in throttle.backoffs     # halved to 2 s: the learnt pace again
    assert slot.delay == pytest.approx(2.0, abs=1e-3)
    for _ in range(5):
        _answer(throttle, "slow.test", 200, latency=4.0)
    assert slot.delay == pytest.approx(2.0, abs=1e-3)


def test_no_back_off_retries_for_a_robots_txt_or_a_wait_over_the_cap():
    crawler, throttle = _throttle(PoliteThrottle, AUTOTHROTTLE_ENABLED=False,
                                  RETRY_FAILED_AFTER=12)
    downloader = crawler.engine.downloader
    slot = downloader.slots["busy.test"] = Slot(4, 0.0, 0.0)
    robots = _answer(throttle, "busy.test", 503, path="/robots.txt")
    assert "max_retry_times" not in robots.meta and throttle.backoffs["busy.test"] == 1.0
    assert slot.delay == 1.0                                  # the host is backed off all the same
    other = downloader.slots["other.test"] = Slot(4, 0.0, 0.0)
    before = time.monotonic()
    page = _answer(throttle, "other.test", 429, **{"Retry-After": "3600"})
    assert page.meta["dont_retry"] and "max_retry_times" not in page.meta
    assert before + 59 <= other.lastseen + other.delay <= time.monotonic() + 60   # capped
    # a backed-off host's slot is full with one request waiting (not counting transfers):
    # the frontier passes over the host; a slot not backed off takes its 4
    assert crawler.host_backoffs is throttle.backoffs and "other.test" in throttle.backoffs
    downloader.get_slot_key = lambda r: urlparse_cached(r).hostname
    request, backed_off = Request("http://other.test/next"), crawler.host_backoffs
    in_transfer = Request("http://other.test/sent")
    other.active.add(in_transfer)
    other.transferring.add(in_transfer)
    assert not slot_full(downloader, request, backed_off)
    other.active.add(Request("http://other.test/waiting"))
    assert slot_full(downloader, request, backed_off)
    assert not slot_full(downloader, request)                 # without the back-offs: 2 of 4
    fresh = downloader.slots["fresh.test"] = Slot(4, 0.0, 0.0)
    fresh.active.add(Request("http://fresh.test/waiting"))
    assert not slot_full(downloader, Request("http://fresh.test/next"), backed_off)


def test_slot_full_counts_requests_not_yet_in_their_slot():
    """Scrapy's downloader adds a request to ``active`` when the scheduler hands it over and to
    its slot an event-loop turn later (after the downloader middlewares): the frontier's pops
    in one burst must see the earlier ones."""
    downloader = SimpleNamespace(slots={}, active=set(), per_slot_settings={},
                                 ip_concurrency=0, domain_concurrency=4,
                                 get_slot_key=lambda r: urlparse_cached(r).hostname)
    request = Request("http://a.test/next")
    for i in range(3):
        downloader.active.add(Request(f"http://a.test/{i}"))
    downloader.active.add(Request("http://b.test/0"))
    assert not slot_full(downloader, request)                   # 3 of 4, no slot yet
    assert slot_full(downloader, request, backed_off={"a.test"})
    downloader.active.add(Request("http://a.test/3"))
    assert slot_full(downloader, request)                       # 4 of 4
    downloader.per_slot_settings["a.test"] = {"concurrency": 8}  # DOWNLOAD_SLOTS
    assert not slot_full(downloader, request)
    slot = downloader.slots["a.test"] = Slot(8, 0.0, 0.0)       # in transfer: not waiting
    slot.transferring.update(r for r in downloader.active if r.url.startswith("http://a."))
    assert not slot_full(downloader, request, backed_off={"a.test"})
    assert not slot_full(downloader, Request("http://c.test/"), backed_off={"c.test"})


def test_a_wait_over_the_cap_is_retried_when_no_later_run_would():
    crawler, throttle = _throttle(PoliteThrottle, AUTOTHROTTLE_ENABLED=False)   # default
    crawler.engine.downloader.slots["other.test"] = Slot(4, 0.0, 0.0)
    page = _answer(throttle, "other.test", 429, **{"Retry-After": "3600"})
    assert "dont_retry" not in page.meta and page.meta["max_retry_times"] == 3


def test_backoff_codes_empty_and_autothrottle_off_is_no_extension():
    with pytest.raises(NotConfigured):
        _throttle(PoliteThrottle, AUTOTHROTTLE_ENABLED=False, BACKOFF_HTTP_CODES=[])


class _ThrottlingServer(ProxyServer):
    """Answers the first ``n`` page requests to ``host`` with ``status`` and a Retry-After."""

    def __init__(self, web, host: str, status: int, n: int, retry_after: str):
        super().__init__(web)
        self.host, self.status, self.left, self.after = host, status, n, retry_after

    def resolve(self, url: str):
        if url.startswith(self.host) and not url.endswith("/robots.txt") and self.left > 0:
            self.left -= 1
            return *self.error(self.status, f"Retry-After: {self.after}\r\n"), url
        return super().resolve(url)


def _crawl_demo(tmp_path, server: ProxyServer, **settings):
    web = server.web
    with serve_in_thread(server) as handle:
        conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                    STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO", **settings)
        result = run_crawl(DEMO_DIR / "topic.toml", web.seeds, conf, proxy=handle.proxy_url,
                           log_file=tmp_path / "scrapy.log", timeout=600)
        served = list(server.log)
    text = (tmp_path / "scrapy.log").read_text(encoding="utf-8")
    assert result.returncode == 0, text[-2000:]
    summary = json.loads((tmp_path / "corpus" / "crawl-summary.json").read_text())
    return [s for s in served if not s.url.endswith("/robots.txt")], summary, text


@pytest.mark.parametrize("codes", ["429,503", ""])
def test_crawl_backs_off_a_host_answering_429(tmp_path, codes):
    """www.weekend.test answers its first two page requests with 429 and ``Retry-After: 2``.
    At full local speed the crawl sends it nothing for two seconds after the first 429, goes on
    with the other hosts meanwhile, fetches the page answered 429 after the back-off and
    crawls weekend afterwards; without back-off (``BACKOFF_HTTP_CODES`` empty) Scrapy's retry
    asks again at once and gives the page up."""
    server = _ThrottlingServer(load_web(DEMO_DIR), WEEKEND, 429, 2, "2")
    pages, summary, text = _crawl_demo(tmp_path, server, BACKOFF_HTTP_CODES=codes)
    weekend = [s for s in pages if s.url.startswith(WEEKEND)]
    first = next(s for s in weekend if s.status == 429)
    later = [s for s in weekend if s.at > first.at]
    assert len([s for s in weekend if s.status == 200]) >= 5
    if codes:
        # the first 429 answers the seed, the host's first request: none other was in flight,
        # and the next one waits the two seconds (the server's clock may lag a little)
        assert later and min(s.at for s in later) >= first.at + 1.8, \
            [(s.at - first.at, s.status) for s in later[:8]]
        others = [s for s in pages if not s.url.startswith(WEEKEND)
                  and first.at < s.at < first.at + 1.8]
        assert others                       # the other hosts were crawled meanwhile
        assert summary["backoff/hosts"] == 1 and summary["backoff/responses"] == 2
        # answered 429 twice, retried after the back-off (BACKOFF_RETRY_TIMES), then fetched
        assert any(s.url == first.url and s.status == 200 for s in later)
        assert "www.weekend.test answered HTTP 429 (Retry-After 2 s): backing off" in text
    else:
        assert min(s.at for s in later) < first.at + 1.5
        # RETRY_TIMES=1: the page answered 429 twice is given up
        assert not any(s.url == first.url and s.status == 200 for s in later)
        assert "backoff/hosts" not in summary


@pytest.mark.parametrize("disallow", [True, False])
def test_crawl_skips_a_host_whose_robots_txt_answers_503(tmp_path, disallow):
    """www.sunwind.test's robots.txt answers 503: the host is not crawled (RFC 9309), the two
    others are; with ROBOTSTXT_UNAVAILABLE_DISALLOW=False Scrapy's reading (an empty
    robots.txt) crawls it."""
    web = load_web(DEMO_DIR)
    records = dict(web.records)
    robots = records[f"{SUNWIND}/robots.txt"]
    records[robots.url] = Record(robots.url, 503, "Service Unavailable", robots.headers,
                                 b"<html><body>Down for maintenance</body></html>")
    server = ProxyServer(WebArchive(records=records, labels=web.labels, seeds=web.seeds))
    # one retry after the back-off, not three: the robots.txt answers 503 every time
    pages, summary, text = _crawl_demo(tmp_path, server, BACKOFF_RETRY_TIMES="1",
                                       ROBOTSTXT_UNAVAILABLE_DISALLOW=str(disallow))
    sunwind = [s for s in pages if s.url.startswith(SUNWIND)]
    assert [s for s in pages if s.url.startswith(WEEKEND)]
    assert summary["backoff/hosts"] == 1       # the robots.txt's 503s back the host off
    if disallow:
        assert not sunwind
        assert summary["robotstxt/unavailable/hosts"] == 1
        assert summary["robotstxt/unavailable/requests_dropped"] >= 1
        assert "www.sunwind.test: robots.txt answered HTTP 503" in text
    else:
        assert len(sunwind) >= 5
        assert "robotstxt/unavailable/hosts" not in summary


def test_frontier_drops_a_link_of_a_refused_template_but_not_a_retried_failure(tmp_path):
    """A queued link whose URL template the trap rules refused since is dropped at the head;
    a page an earlier run kept for a retry goes out all the same (its failure list would
    never hear of a drop)."""
    from crawler.link_scoring import LinkScorer
    from crawler.links import Link
    from crawler.traps import TrapDetector

    crawler, queue = _queue_with_downloader(tmp_path, per_domain=8)
    scorer, traps = LinkScorer(lambda text: 0.0, threshold=0.2), TrapDetector()
    crawler.spider = SimpleNamespace(crawl_state=SimpleNamespace(scorer=scorer, traps=traps))
    for k in range(40):                             # overall rate about 0.5
        traps.record(f"http://w.test/article/{k}", accepted=k % 2 == 0)
    cal = "http://w.test/calendar/{}/01/"
    traps.record(cal.format(2024), accepted=True)
    for year in range(1970, 1990):                  # 20 misses in a row: refused
        traps.record(cal.format(year), accepted=False)
    assert traps.factor(cal.format(2001)) == 0.0
    scored = scorer.score([Link(cal.format(2001)), Link(cal.format(2002))], 0.5, 1)
    for s, retry in zip(scored, (False, True)):
        meta = {"link_components": s.components, "link_features": s.features, "depth": 2}
        if retry:
            meta["retry_failed"] = True
        queue.push(Request(s.link.url, priority=s.priority, meta=meta))
    popped = queue.pop()
    assert popped is not None and popped.url == cal.format(2002)
    assert queue.pop() is None and crawler.stats.get_value("frontier/dropped_trap") == 1


@pytest.mark.parametrize("value, codes", [("429,503", {429, 503}), ("", set()), ([], set()),
                                          ("503, ", {503}), ([429], {429})])
def test_backoff_codes_setting_is_read_as_statuses(value, codes):
    assert backoff_codes(Settings({"BACKOFF_HTTP_CODES": value})) == codes


@pytest.mark.parametrize("value", ["abc", "429,5o3", "42", [700], "1e3"])
def test_backoff_codes_that_are_not_statuses_are_an_error_naming_the_setting(value):
    with pytest.raises(ValueError, match="BACKOFF_HTTP_CODES"):
        backoff_codes(Settings({"BACKOFF_HTTP_CODES": value}))


def test_a_robots_txt_that_cannot_be_downloaded_is_one_warning_not_a_traceback(caplog):
    """Scrapy logs it as an ERROR with a traceback, which reads like a crash (a review);
    a download error is one WARNING line, any other error keeps its traceback."""
    import logging

    from twisted.internet.error import ConnectionRefusedError

    from crawler.politeness import download_errors, quiet_robots_fetch_errors

    quiet_robots_fetch_errors(download_errors(Settings({"RETRY_EXCEPTIONS": [
        "twisted.internet.error.ConnectionRefusedError"]})))
    quiet_robots_fetch_errors(download_errors(Settings()))       # installed once
    logger = logging.getLogger("scrapy.downloadermiddlewares.robotstxt")
    assert len(logger.filters) == 1
    args = {"request": "<GET http://down.test/robots.txt>", "f_exception": None}
    for error in (ConnectionRefusedError("refused"), KeyError("a bug")):
        args["f_exception"] = error
        try:
            raise error
        except Exception:
            with caplog.at_level(logging.INFO, logger=logger.name):
                logger.error("Error downloading %(request)s: %(f_exception)s", args,
                             exc_info=True)
    refused, bug = caplog.records[-2:]
    assert refused.levelname == "WARNING" and refused.exc_info is None
    assert "robots.txt not fetched for <GET http://down.test/robots.txt>" in refused.getMessage()
    assert bug.levelname == "ERROR" and bug.exc_info is not None


def _robots_web() -> WebArchive:
    """x.test links ten pages of y.test under /private/ (which y.test's robots.txt disallows)
    and two public ones; the ten are met at once, while y.test's robots.txt is pending."""
    html = (("Content-Type", "text/html; charset=utf-8"),)
    text = (("Content-Type", "text/plain"),)
    article = "<p>" + "Solar panels turn sunlight into electricity for homes. " * 12 + "</p>"
    links = "".join(f'<a href="http://y.test/private/p{i}">solar panel report {i}</a> '
                    for i in range(10))
    links += '<a href="http://y.test/public/a">solar a</a> <a href="http://y.test/public/b">b</a>'
    records = {
        "http://x.test/": Record("http://x.test/", 200, "OK", html, (
            f"<html><head><title>Solar news</title></head><body>{article}{links}"
            "</body></html>").encode()),
        "http://x.test/robots.txt": Record("http://x.test/robots.txt", 200, "OK", text,
                                           b"User-agent: *\nDisallow:\n"),
        "http://y.test/robots.txt": Record("http://y.test/robots.txt", 200, "OK", text,
                                           b"User-agent: *\nDisallow: /private/\n"),
    }
    for path in [f"private/p{i}" for i in range(10)] + ["public/a", "public/b"]:
        url = f"http://y.test/{path}"
        records[url] = Record(url, 200, "OK", html, (
            f"<html><head><title>Solar {path}</title></head><body>{article}</body></html>"
        ).encode())
    return WebArchive(records=records, seeds=["http://x.test/"])


def _crawl_solar(web: WebArchive, tmp_path) -> tuple[list[str], str]:
    """Crawl ``web`` from its seeds on a small solar topic at full local speed; the URLs the
    server answered, in order, and the crawl's log."""
    topic = tmp_path / "solar.toml"
    topic.write_text('name = "solar"\n[features]\nterms = ["solar panel", "sunlight"]\n',
                     encoding="utf-8")
    with serve_in_thread(web) as server:
        conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                    STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO")
        result = run_crawl(topic, web.seeds, conf, proxy=server.proxy_url,
                           log_file=tmp_path / "scrapy.log", timeout=300)
        served = [s.url for s in server.server.log]
    log_text = (tmp_path / "scrapy.log").read_text()
    assert result.returncode == 0, log_text[-2000:]
    return served, log_text


def test_no_page_robots_txt_disallows_is_fetched_when_several_wait_for_it(tmp_path):
    """Found by a review: with Scrapy 2.19's RobotsTxtMiddleware, every request but the first
    that waited for a host's pending robots.txt went through unchecked (8 of the 10 disallowed
    pages here were fetched, in each of three runs)."""
    served, _ = _crawl_solar(_robots_web(), tmp_path)
    assert "http://y.test/public/a" in served and "http://y.test/public/b" in served
    assert not [u for u in served if "/private/" in u], served
    summary = json.loads((tmp_path / "corpus" / "crawl-summary.json").read_text())
    assert summary["robotstxt/forbidden"] == 10


def test_a_failing_robots_txt_blocks_its_own_port_only(tmp_path):
    """RFC 9309 scopes a robots.txt to scheme, host and port: z.test:8001's robots.txt
    answers 503, z.test:8002's allows everything, and z.test:8002's pages are crawled (found
    by a review: both were keyed by host name alone, so the second port was not crawled)."""
    html = (("Content-Type", "text/html; charset=utf-8"),)
    article = "<p>" + "Solar panels turn sunlight into electricity for homes. " * 12 + "</p>"
    records = {}
    for port in (8001, 8002):
        base = f"http://z.test:{port}"
        links = "".join(f'<a href="{base}/a{i}">solar panel {i}</a> ' for i in range(4))
        records[f"{base}/"] = Record(f"{base}/", 200, "OK", html, (
            f"<html><head><title>Solar</title></head><body>{article}{links}</body></html>"
        ).encode())
        for i in range(4):
            records[f"{base}/a{i}"] = Record(f"{base}/a{i}", 200, "OK", html, (
                f"<html><head><title>Solar {i}</title></head><body>{article}</body></html>"
            ).encode())
    records["http://z.test:8001/robots.txt"] = Record(
        "http://z.test:8001/robots.txt", 503, "Service Unavailable", (), b"busy")
    records["http://z.test:8002/robots.txt"] = Record(
        "http://z.test:8002/robots.txt", 200, "OK", (("Content-Type", "text/plain"),),
        b"User-agent: *\nDisallow:\n")
    web = WebArchive(records=records, seeds=["http://z.test:8001/", "http://z.test:8002/"])
    served, log_text = _crawl_solar(web, tmp_path)
    assert {f"http://z.test:8002/a{i}" for i in range(4)} <= set(served), served
    assert not [u for u in served if u.startswith("http://z.test:8001/a")], served
    assert "z.test:8001: robots.txt answered HTTP 503" in log_text
