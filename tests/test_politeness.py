"""robots.txt Crawl-delay / Request-rate, and the frontier passing over hosts whose downloader
slot is full: unit tests, and loopback crawls of the demo web whose robots.txt ask for delays."""
import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy import Request
from scrapy.core.downloader import Slot
from scrapy.squeues import PickleFifoDiskQueue
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.test import get_crawler

from crawler.frontier import RescoringPriorityQueue
from crawler.politeness import robots_delay, slot_full
from crawler.run import FAST_LOCAL, run_crawl
from crawler.testweb.archive import DEMO_DIR, Record, WebArchive, load_web
from crawler.testweb.server import serve_in_thread

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
