"""Recurring crawls, listings and crawl supervision: the fixes of a review (unreachable or
given-up seeds, a seed that was an ordinary page, feed parsing off the event loop, redirected
sitemaps, the summary's stop reason, ``STALL_TIMEOUT=0``, feeds under ``<base href>``, clocks
that went back, a bad example URL, hubs after a resume)."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from types import SimpleNamespace

from scrapy import Request
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler

from crawler.frontier import PriorityDupeFilter
from crawler.links import Link
from crawler.revisit import HUB, SEED, FailedFetches, RevisitList
from crawler.run import FAST_LOCAL, run_crawl
from crawler.spiders import listings
from crawler.spiders.topic import TopicSpider
from crawler.testweb.archive import Record, WebArchive
from crawler.testweb.server import serve_in_thread
from test_crawl_integration import demo  # noqa: F401  (the fixture: the demo web, served)
from test_crawl_integration import NEW_POST, TOPIC, _crawl, _log, _web_with_a_new_post

MUSIC = Path(__file__).resolve().parent.parent / "settings" / "topics" / "music.toml"
DAY = 86400.0


def _spider(tmp_path: Path, seeds: str = "http://music.test/", **settings):
    """A topic spider on ``tmp_path`` (``JOBDIR`` ``tmp_path/job``) and the job's seen-URL
    filter, as the crawl opens them."""
    crawler = get_crawler(TopicSpider, {"CORPUS_DIR": str(tmp_path / "corpus"),
                                        "STATE_DIR": str(tmp_path / "state"),
                                        "JOBDIR": str(tmp_path / "job"), **settings})
    crawler.spider = TopicSpider.from_crawler(crawler, seed=seeds, topic=str(MUSIC))
    return crawler.spider, PriorityDupeFilter.from_crawler(crawler)


def _earlier_run(tmp_path: Path, fetched=(), queued=()) -> None:
    """The journal an earlier run of the job left: ``fetched`` and ``queued`` URLs."""
    from scrapy.utils.request import RequestFingerprinter

    (tmp_path / "job").mkdir(exist_ok=True)
    df = PriorityDupeFilter(str(tmp_path / "job"), RequestFingerprinter())
    for url in (*fetched, *queued):
        df.request_seen(Request(url, priority=10))
    for url in fetched:
        df.mark_fetched(Request(url))
    df.close("finished")


def _started(spider) -> list[Request]:
    async def collect():
        return [request async for request in spider.start()]
    return asyncio.run(collect())


def _summary(tmp: Path) -> dict:
    return json.loads((tmp / "corpus" / "crawl-summary.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ 1. seeds off the list
def test_a_seed_unreachable_on_the_first_night_is_fetched_the_next(demo, tmp_path):
    """Night 1 the network is down (connection refused): a download error puts nothing on the
    revisit list, and the job's seen-URL filter holds the seeds as fetched.  Night 2, with
    REVISIT_AFTER, fetches them (the job used to fetch nothing, ever again)."""
    web, server = demo
    jobdir = tmp_path / "job"
    down = SimpleNamespace(proxy_url="http://127.0.0.1:9")
    first, text = _crawl(tmp_path, down, web.seeds, JOBDIR=jobdir, REVISIT_AFTER="0.0001",
                         RETRY_TIMES="0")
    assert first.returncode == 1, text[-2000:]          # no seed fetched: a failed night
    assert json.loads((tmp_path / "state" / "revisit.json").read_text())["pages"] == []
    before = len(_log(tmp_path))
    second, text = _crawl(tmp_path, server, web.seeds, JOBDIR=jobdir, REVISIT_AFTER="0.0001",
                          CLOSESPIDER_PAGECOUNT="6")
    assert second.returncode == 0, text[-2000:]
    answered = {r["url"] for r in _log(tmp_path)[before:] if r["status"] == 200}
    assert set(web.seeds) <= answered
    listed = json.loads((tmp_path / "state" / "revisit.json").read_text())["pages"]
    assert {(url, kind) for url, kind, _ in listed} >= {(url, SEED) for url in web.seeds}
    # their first answer, not a revisit: it feeds the statistics (found by the diff review:
    # the IDF statistics counted no document)
    summary = json.loads((tmp_path / "corpus" / "crawl-summary.json").read_text())
    assert not summary.get("revisit/requests")
    idf = json.loads((tmp_path / "state" / "document_frequencies.json").read_text())
    assert idf["n_docs"] >= len(web.seeds)


def test_a_resumed_night_without_network_exits_with_status_1(demo, tmp_path):
    """Found by the review of the change: the exit status 1 covered only seeds that never
    answered; a resumed job (its seeds fetched already) that met only download errors
    exited 0.  A resumed job with nothing left to do still exits 0."""
    web, server = demo
    jobdir = tmp_path / "job"
    first, text = _crawl(tmp_path, server, web.seeds, JOBDIR=jobdir, CLOSESPIDER_PAGECOUNT="5")
    assert first.returncode == 0, text[-2000:]
    down = SimpleNamespace(proxy_url="http://127.0.0.1:9")
    second, text = _crawl(tmp_path, down, web.seeds, JOBDIR=jobdir, RETRY_TIMES="0")
    assert second.returncode == 1, text[-2000:]
    assert "Traceback" not in text


def test_a_seed_off_the_revisit_list_is_due_once_the_job_has_fetched_it(tmp_path):
    """With REVISIT_AFTER, a seed the job's filter holds as fetched but the revisit list does
    not (never answered, given up after RETRY_FAILED_TIMES, or fetched as an ordinary page
    before it was made a seed) is requested past the filter; a seed the job never fetched is
    an ordinary first fetch; a listed seed waits for its hours; without REVISIT_AFTER none."""
    known, fresh, recent = ("http://music.test/", "http://music.test/opera/",
                            "http://music.test/jazz/")
    _earlier_run(tmp_path, fetched=[known, recent])
    seeds = ",".join((known, fresh, recent))
    spider, _ = _spider(tmp_path, seeds, REVISIT_AFTER="20")
    spider.crawl_state.revisits.fetched(recent, SEED, time.time())     # fetched just now
    by_url = {r.url: r for r in _started(spider)}
    assert by_url[known].dont_filter and by_url[known].meta["revisit"]
    assert not by_url[fresh].dont_filter and not by_url[fresh].meta["revisit"]
    assert not by_url[recent].dont_filter
    spider, _ = _spider(tmp_path, seeds)                         # REVISIT_AFTER unset
    assert not any(r.dont_filter for r in _started(spider))


def test_revisit_list_seed_due():
    revisits = RevisitList()
    revisits.fetched("http://a.test/", SEED, 1000.0)
    assert revisits.seed_due("http://a.test/new-seed", 1001.0, 3600.0)      # not listed
    assert not revisits.seed_due("http://a.test/", 1001.0, 3600.0)
    assert revisits.seed_due("http://a.test/", 1000.0 + 3600.0, 3600.0)
    assert not revisits.seed_due("http://a.test/new-seed", 1001.0, 0.0)     # off


# ------------------------------------------------------------------ 2. feeds off the loop
def _listing_response(url: str, body: bytes, **meta) -> Response:
    return Response(url, body=body, request=Request(url, meta={"log_seq": None, **meta}))


def _threads_run_at_once(monkeypatch) -> list[str]:
    """Make the reactor's thread pool run each function at once (no reactor runs here); the
    names of the functions sent to it are listed in the list returned."""
    from twisted.internet import defer

    sent: list[str] = []

    def to_thread(function, *args):
        sent.append(function.__name__)
        return defer.succeed(function(*args))
    monkeypatch.setattr(listings.threads, "deferToThread", to_thread)
    return sent


def _outputs(result) -> list:
    """What a callback yields, be it a generator or an async generator."""
    if not hasattr(result, "__aiter__"):
        return list(result)

    async def collect():
        return [item async for item in result]
    return asyncio.run(collect())


def test_a_body_that_is_neither_xml_nor_json_never_reaches_feedparser(tmp_path, monkeypatch):
    """A large binary body (a PDF seed without .pdf) kept feedparser busy on the crawl's event
    loop for about 30 s; a body that does not open with "<" or "{" is no feed, whether it is
    a seed's or an announced feed's."""
    from crawler.feeds import Feed

    spider, _ = _spider(tmp_path)
    _threads_run_at_once(monkeypatch)
    parsed = []
    monkeypatch.setattr(listings, "read_feed",
                        lambda body: parsed.append(body) or Feed([], reason="not a feed"))
    body = b"%PDF-1.4\n" + bytes(range(256)) * 64
    seed = _listing_response("http://music.test/report?id=7", body, seed=True)
    assert _outputs(spider.listing_seed(seed)) == [] and parsed == []
    assert _outputs(spider.parse_feed(_listing_response("http://music.test/feed", body))) == []
    assert parsed == [] and spider.crawler.stats.get_value("feeds/invalid") == 1


def test_feeds_are_parsed_in_a_worker_thread(tmp_path, monkeypatch):
    """A feed (here one with a byte order mark and a blank line first) is parsed in the
    reactor's thread pool, as sitemaps are, not on the event loop."""
    spider, _ = _spider(tmp_path)
    in_thread = _threads_run_at_once(monkeypatch)
    rss = (b'\xef\xbb\xbf\n<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
           b'<item><title>Verdi</title><link>http://music.test/opera/verdi.html</link></item>'
           b'</channel></rss>')
    response = _listing_response("http://music.test/feed.xml", rss, feed_relevance=0.5)
    assert [r.url for r in _outputs(spider.parse_feed(response))] == \
        ["http://music.test/opera/verdi.html"]
    assert in_thread == ["read_feed"]


# ------------------------------------------------------------------ 3. redirected sitemaps
APEX = "http://weekend.test/"
SITEMAP = "http://www.weekend.test/sitemap.xml"
APEX_SITEMAP = "http://weekend.test/listed.xml"
LISTED = "http://www.weekend.test/football/listed-wind-post.html"


def _web_behind_a_bare_domain(web) -> WebArchive:
    """The demo web whose weekend site lives on www.: the bare domain redirects there (its
    robots.txt too), www.'s robots.txt names a sitemap listing the new post, and a second
    sitemap, asked for on the bare domain, redirects to www. and lists another post no page
    links."""
    records = dict(_web_with_a_new_post(web).records)
    home = "http://www.weekend.test/"
    records[home] = web.records[home]                        # the post is linked from nowhere
    robots = records["http://www.weekend.test/robots.txt"]
    records[robots.url] = Record(robots.url, 200, "OK", robots.headers,
                                 robots.body + f"\nSitemap: {SITEMAP}\n".encode())
    xml = (("Content-Type", "application/xml"),)
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    records[SITEMAP] = Record(SITEMAP, 200, "OK", xml,
                              f"<urlset {ns}><url><loc>{NEW_POST}</loc></url></urlset>".encode())
    www_listed = "http://www.weekend.test/listed.xml"
    records[www_listed] = Record(www_listed, 200, "OK", xml,
                                 f"<urlset {ns}><url><loc>{LISTED}</loc></url></urlset>".encode())
    post = records[NEW_POST]
    records[LISTED] = Record(LISTED, 200, "OK", post.headers, post.body)
    moved = (("Content-Type", "text/html"),)
    for path in ("", "robots.txt", "listed.xml"):
        records[APEX + path] = Record(APEX + path, 301, "Moved Permanently",
                                      (("Location", home + path), *moved), b"moved")
    return WebArchive(records=records, labels=web.labels, seeds=web.seeds)


def test_sitemaps_of_a_seed_host_that_redirects_to_www_are_read(demo, tmp_path):
    """Seeded with the bare domain, whose robots.txt redirects to www.: the sitemap www.'s
    robots.txt names is read (the seed was matched on the final host, and missed); a sitemap
    given with -a sitemap= on the bare domain, served from www., queues its www. URL (they
    were filtered against the bare domain: "sitemap: 0 URLs, 0 queued")."""
    web, _ = demo
    topic = tmp_path / "topic.toml"         # the demo topic without its seeds (www. hosts)
    topic.write_text("\n".join(line for line in TOPIC.read_text(encoding="utf-8").splitlines()
                               if not line.startswith("seeds =")), encoding="utf-8")
    conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO", STALL_TIMEOUT="60")
    with serve_in_thread(_web_behind_a_bare_domain(web)) as server:
        result = run_crawl(topic, [APEX], conf, proxy=server.proxy_url,
                           spider_args={"sitemap": APEX_SITEMAP},
                           log_file=tmp_path / "scrapy.log", timeout=600)
    assert result.returncode == 0, (tmp_path / "scrapy.log").read_text()[-2000:]
    rows = [r for r in _log(tmp_path) if not r.get("robots")]
    notes = {(r["url"], r["status"]): r.get("note") for r in rows}
    assert notes[(SITEMAP, 200)] == "sitemap: 1 URLs, 1 queued"
    assert notes[(APEX_SITEMAP, 200)] == "sitemap: 1 URLs, 1 queued"
    fetched = {r["url"]: r for r in rows}
    assert fetched[NEW_POST]["status"] == 200 and fetched[NEW_POST]["parent"] == SITEMAP
    assert fetched[LISTED]["status"] == 200


# ------------------------------------------------------------------ 4. the summary's reason
def test_the_summary_holds_the_stop_reason_of_a_page_budget(demo, tmp_path):
    """The README's cron recipe ends each run by CLOSESPIDER_PAGECOUNT: crawl-summary.json
    says so (the spider wrote it before StallMonitor set the reason)."""
    web, server = demo
    result, text = _crawl(tmp_path, server, web.seeds, CLOSESPIDER_PAGECOUNT="5")
    assert result.returncode == 0, text[-2000:]
    assert _summary(tmp_path)["crawl/stop_reason"] == "closespider_pagecount"


# ------------------------------------------------------------------ 5. STALL_TIMEOUT=0
def test_stall_timeout_zero_turns_off_only_the_stall_check(monkeypatch, tmp_path):
    """STALL_TIMEOUT=0 used to turn the whole monitor off (NotConfigured): no checkpoints,
    no stop reason, crawl-log lines never expired.  Now a long silence ends nothing, and the
    rest goes on."""
    from scrapy import signals
    from scrapy.settings import Settings
    from scrapy.signalmanager import SignalManager
    from scrapy.statscollectors import MemoryStatsCollector

    from crawler import extensions
    from crawler.crawl_log import CrawlLog
    from crawler.extensions import StallMonitor

    clock = [1000.0]        # the monitor's and the crawl log's clock (one time module)
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ended = []
    monkeypatch.setattr(extensions, "end_crawl", lambda crawler, reason, *a, **k:
                        ended.append(reason))
    saves = []
    crawl_log = CrawlLog(tmp_path / "log.jsonl")
    spider = SimpleNamespace(crawl_state=SimpleNamespace(save=lambda: saves.append(1)),
                             state={}, crawl_log=crawl_log)
    crawler = SimpleNamespace(spider=spider, signals=SignalManager(),
                              settings=Settings({"STALL_TIMEOUT": "0",
                                                 "STATE_SAVE_INTERVAL": "60"}))
    crawler.stats = MemoryStatsCollector(crawler)
    ext = StallMonitor.from_crawler(crawler)
    ext._task = SimpleNamespace(schedule=lambda delay: None, cancel=lambda: None)
    seq = crawl_log.open_entry({"url": "http://a.test/"})
    clock[0] += 3600                            # an hour without a response
    ext._check()
    assert ended == [] and not crawl_log.is_open(seq)
    crawler.signals.send_catch_log(signals.response_received, response=None, request=None,
                                   spider=None)
    assert saves == [1]
    crawler.signals.send_catch_log(signals.spider_closed, spider=None, reason="shutdown")
    assert crawler.stats.get_value("crawl/stop_reason") == "shutdown"
    crawl_log.close()


# ------------------------------------------------------------------ 6. <base href> feeds
def test_an_announced_feed_resolves_against_the_pages_base(tmp_path):
    """A page declaring <base href="http://music.test/"> announces href="feed.xml": the feed
    is /feed.xml, as the page's links resolve, not one beside the page's own URL."""
    from extraction import parse

    from crawler.items import PageItem

    spider, _ = _spider(tmp_path)
    url = "http://music.test/opera/verdi.html"
    html = (b'<html><head><base href="http://music.test/"><link rel="alternate" '
            b'type="application/rss+xml" href="feed.xml"></head><body><p>x</p></body></html>')
    item = PageItem(url=url, final_url=url, status=200, depth=0, parent=None, fetched_at="",
                    content_type="text/html", doc=parse(html, url, "text/html"))
    response = HtmlResponse(url, body=html, request=Request(url))
    assert [r.url for r in spider._feed_requests(item, response)] == \
        ["http://music.test/feed.xml"]


# ------------------------------------------------------------------ 7. clocks set back
def test_a_time_stored_in_the_future_counts_as_due():
    """A run whose clock was a year ahead stored its fetch and failure times a year ahead;
    once the clock is right they must not hold revisits and retries back for a year."""
    now = 1_800_000_000.0
    ahead = now + 365 * DAY
    revisits = RevisitList()
    revisits.fetched("http://a.test/", SEED, ahead)
    revisits.fetched("http://a.test/news/", HUB, ahead)
    failures = FailedFetches()
    failures.failed("http://a.test/p", ahead, 0.5)
    assert revisits.is_due("http://a.test/", now + DAY, 20 * 3600)
    assert revisits.due_hubs(now + DAY, 20 * 3600) == ["http://a.test/news/"]
    assert failures.due(now + DAY, 20 * 3600) == [("http://a.test/p", 0.5)]
    assert not revisits.is_due("http://a.test/", ahead, 20 * 3600)   # fetched just now
    assert failures.due(now + DAY, 0) == []                          # still off


# ------------------------------------------------------------------ 8. bad example URL
def test_an_example_url_with_a_bad_port_is_reported_and_skipped(monkeypatch):
    from crawler.topic_draft import load_examples

    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    messages: list[str] = []
    assert load_examples(["http://host:abc/x"], messages.append) == []
    assert messages == ["skipped http://host:abc/x: cannot read it (nonnumeric port: 'abc')"]


# ------------------------------------------------------------------ 9. hubs after a resume
def test_a_hub_whose_links_an_earlier_run_knows_leads_nowhere(tmp_path):
    """In a resumed job the hub rule counted a hub as useful when its links were unknown to
    this run only; the job's seen-URL filter knows what earlier runs fetched or queued."""
    fetched, queued = "http://music.test/opera/verdi.html", "http://music.test/jazz/monk.html"
    _earlier_run(tmp_path, fetched=[fetched], queued=[queued])
    spider, _ = _spider(tmp_path)
    hub = "http://music.test/tags/composers"
    assert not spider._leads_elsewhere(hub, [Link(fetched), Link(queued)])
    assert spider._leads_elsewhere(hub, [Link(queued), Link("http://music.test/folk/")])
