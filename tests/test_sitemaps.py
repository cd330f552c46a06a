"""Sitemap reading (crawler/sitemaps.py) and sitemap links in the link scorer."""
import gzip

from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet.defer import CancelledError, Deferred, DeferredLock

from crawler.link_scoring import LinkScorer
from crawler.links import Link
from crawler.sitemaps import (MAX_BYTES, ListingBudget, best_scored, candidates, read_sitemap,
                              sitemaps_in_robots, size_cap)
from crawler.spiders import listings
from crawler.spiders.listings import holding

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
URLSET = (f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>'
          '<url><loc> http://a.test/one.html </loc><lastmod>2026-01-02</lastmod></url>'
          '<url><loc>http://a.test/two?x=1&amp;y=2</loc></url>'
          '<url><lastmod>2026-01-02</lastmod></url>'
          '<url><loc>mailto:someone@a.test</loc></url></urlset>').encode()


def test_robots_sitemap_lines_are_absolute_http_urls_once_each():
    body = (b"User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"
            b"  sitemap: https://cdn.a.test/s.xml.gz\nSitemap: ftp://a.test/s.xml\n"
            b"Sitemap: /sitemap.xml\nSitemap: \xff\xfe\n")
    assert sitemaps_in_robots(body, "http://a.test/robots.txt") == [
        "http://a.test/sitemap.xml", "https://cdn.a.test/s.xml.gz"]
    assert sitemaps_in_robots(b"User-agent: *\nDisallow:\n", "http://a.test/robots.txt") == []


def test_urlset_plain_and_gzip_give_the_http_locations_in_order():
    for body in (URLSET, gzip.compress(URLSET)):
        found = read_sitemap(body)
        assert found.kind == "urlset"
        assert found.locs == ["http://a.test/one.html", "http://a.test/two?x=1&y=2"]


def test_sitemap_index_lists_sitemaps():
    body = (f'<sitemapindex {NS}><sitemap><loc>http://a.test/s1.xml</loc></sitemap>'
            '<sitemap><loc>http://a.test/s2.xml.gz</loc></sitemap></sitemapindex>').encode()
    found = read_sitemap(body)
    assert (found.kind, found.locs) == ("sitemapindex", ["http://a.test/s1.xml",
                                                         "http://a.test/s2.xml.gz"])


def test_bad_bodies_give_a_reason_not_an_exception():
    cases = {b"": "empty body", b"<html><body>x</body></html>": "root element 'html'",
             b"\x00\x01binary": "not XML", gzip.compress(URLSET)[:40]: "bad gzip body"}
    for body, reason in cases.items():
        found = read_sitemap(body)
        assert found.kind is None and found.locs == [] and reason in found.reason
    # a compressed body that expands beyond the download cap is refused
    big = gzip.compress(URLSET * 200)
    assert read_sitemap(big).kind == "urlset"
    assert "bad gzip body" in read_sitemap(big, max_size=len(URLSET) * 10).reason


def test_a_sitemap_may_reach_the_protocols_50_mb_whatever_download_maxsize():
    assert size_cap(10 * 1024 * 1024) == MAX_BYTES == 52_428_800
    assert size_cap(100 * 1024 * 1024) == 100 * 1024 * 1024
    assert size_cap(0) == 0                                # no cap stays no cap
    # 12 MB expanded from a small gzip body: beyond the default DOWNLOAD_MAXSIZE, read whole
    rows = "".join(f"<url><loc>http://a.test/p{i:07d}.html</loc></url>" for i in range(250_000))
    body = gzip.compress(f"<urlset {NS}>{rows}</urlset>".encode())
    assert len(body) < 2_000_000
    found = read_sitemap(body, size_cap(10 * 1024 * 1024))
    assert found.kind == "urlset" and len(found.locs) == 250_000


def test_entities_are_not_expanded():
    body = (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "http://evil.test/">]>'
            b'<urlset><url><loc>&a;x</loc></url></urlset>')
    assert not any("evil" in loc for loc in read_sitemap(body).locs)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_without_raising(body):
    found = read_sitemap(body)
    assert (found.kind is None) == bool(found.reason)
    assert all(loc.startswith(("http://", "https://")) for loc in found.locs)


def test_budget_caps_files_and_urls_per_host():
    budget = ListingBudget(max_files=2, max_urls=3)
    assert budget.take_file("a.test", "http://a.test/1.xml")
    assert not budget.take_file("a.test", "http://a.test/1.xml")       # once per run
    assert budget.take_file("a.test", "http://a.test/2.xml")
    assert not budget.take_file("a.test", "http://a.test/3.xml")       # cap reached
    assert budget.take_file("b.test", "http://b.test/1.xml")
    assert budget.left("a.test") == 3
    budget.take("a.test", 2)
    assert budget.left("a.test") == 1 and budget.left("b.test") == 3
    budget.take("a.test", 1)
    assert budget.left("a.test") == 0


def test_the_best_scored_listed_urls_fill_the_allowance_whatever_their_order():
    """A crawl seeded with a site's /energy/ section and a sitemap listing 40 URLs, the
    section's last: with an allowance of 5 the section's pages are kept, in listing order."""
    scorer = LinkScorer(lambda text: 0.0, 0.2)
    scorer.add_exemplar("http://a.test/energy/solar-basics.html")
    listed = [f"http://a.test/shop/item-{i}.html" for i in range(30)] + \
        [f"http://a.test/energy/wind-{i}.html" for i in range(10)]
    assert candidates(listed, 5) == listed[:25] and candidates(listed, 0) == []
    for order in (listed, listed[::-1]):
        links = [Link(u) for u in candidates(order, 8)]          # 8 x 5 = 40: all of them
        assert len(links) == 40
        scored = scorer.score(links, 0.0, 0, inlinks="none")
        kept = [s.link.url for s in best_scored(scored, 5)]
        assert len(kept) == 5 and all("/energy/" in u for u in kept)
        assert kept == [u for u in order if u in kept]           # listing order kept
    assert best_scored(scored, 0) == [] and best_scored(scored, 100) == scored


def test_a_sitemap_list_is_no_in_link():
    scorer = LinkScorer(lambda text: 0.0, 0.2)
    scorer.add_exemplar("http://a.test/")
    listed = scorer.score([Link("http://a.test/p.html")], None, 0, inlinks="none")
    assert scorer.inlinks == {}
    linked = scorer.score([Link("http://a.test/p.html")], None, 0)
    assert scorer.inlinks == {"http://a.test/p.html": [1, 0.5]}
    assert listed[0].components["inlinks"] == linked[0].components["inlinks"] == 0.0
    # a page fetched again counts only for the URLs no page was recorded linking
    scorer.score([Link("http://a.test/p.html"), Link("http://a.test/q.html")], 0.2, 0,
                 inlinks="new")
    assert scorer.inlinks == {"http://a.test/p.html": [1, 0.5], "http://a.test/q.html": [1, 0.5]}


def test_bench_copy_of_a_web_publishes_a_sitemap_per_host(tmp_path):
    """bench/with_sitemaps.py on the demo web: every host's robots.txt names its sitemap,
    which reads back as a urlset of exactly the host's 200 HTML pages; the rest is kept."""
    import sys
    from pathlib import Path

    from crawler.testweb.archive import DEMO_DIR, host_of, load_web

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from with_sitemaps import main

    assert main([str(DEMO_DIR), str(tmp_path / "web")]) == 0
    web, copy = load_web(DEMO_DIR), load_web(tmp_path / "web")
    assert copy.seeds == web.seeds and copy.labels == web.labels
    hosts = {host_of(u) for u in web.records}
    assert set(copy.records) == set(web.records) | {f"http://{h}/sitemap.xml" for h in hosts}
    for host in hosts:
        robots = copy.records[f"http://{host}/robots.txt"].body
        assert robots.startswith(web.records[f"http://{host}/robots.txt"].body)
        assert sitemaps_in_robots(robots, f"http://{host}/robots.txt") == [
            f"http://{host}/sitemap.xml"]
        listed = read_sitemap(copy.records[f"http://{host}/sitemap.xml"].body)
        pages = [u for u, r in web.records.items() if host_of(u) == host and r.status == 200
                 and r.content_type == "text/html"]
        assert listed.kind == "urlset" and listed.locs == pages


def test_a_sitemap_argument_that_cannot_be_crawled_fails_fast():
    import pytest

    from crawler.spiders.topic import TopicSpider
    from crawler.testweb.archive import DEMO_DIR

    topic = str(DEMO_DIR / "topic.toml")
    with pytest.raises(ValueError, match="sitemap 'ftp://a.test/s.xml' cannot be crawled"):
        TopicSpider(seed="http://a.test/", topic=topic, sitemap="ftp://a.test/s.xml")
    spider = TopicSpider(seed="http://a.test/", topic=topic,
                         sitemap="http://a.test/s.xml, http://b.test/s.xml.gz")
    assert spider.sitemap_urls == ["http://a.test/s.xml", "http://b.test/s.xml.gz"]


def _hold_in(lock, entered):
    """A coroutine Deferred that holds ``lock`` through ``holding`` and records its entry."""
    async def hold():
        async with holding(lock):
            entered.append(True)
    return Deferred.fromCoroutine(hold())


def test_a_sitemap_read_cancelled_while_waiting_for_its_hosts_lock_releases_nothing(
        monkeypatch):
    monkeypatch.setattr(listings, "maybe_deferred_to_future", lambda d: d)
    lock, entered, failures = DeferredLock(), [], []
    lock.acquire()                          # another read holds the host's lock
    waiting = _hold_in(lock, entered)
    waiting.addErrback(lambda f: failures.append(f.trap(CancelledError)))
    assert len(lock.waiting) == 1
    waiting.cancel()                        # shutdown while it waits
    assert failures == [CancelledError] and entered == []
    assert lock.waiting == [] and lock.locked   # out of the queue, the holder keeps it
    lock.release()
    assert not lock.locked


def test_a_sitemap_read_releases_its_hosts_lock_after_reading_or_failing(monkeypatch):
    monkeypatch.setattr(listings, "maybe_deferred_to_future", lambda d: d)
    lock, entered = DeferredLock(), []
    lock.acquire()
    first = _hold_in(lock, entered)         # waits for the holder
    assert entered == [] and lock.locked
    lock.release()                          # granted: it reads and releases
    assert entered == [True] and not lock.locked and first.called

    async def failing():
        async with holding(lock):
            raise OSError("unreadable")
    failed = Deferred.fromCoroutine(failing())
    errors = []
    failed.addErrback(lambda f: errors.append(f.trap(OSError)))
    assert errors == [OSError] and not lock.locked


def test_a_sitemap_read_cancelled_between_the_grant_and_its_resumption_releases_the_lock(
        monkeypatch):
    resumed = Deferred()                    # the event loop has not resumed the read yet
    monkeypatch.setattr(listings, "maybe_deferred_to_future", lambda d: resumed)
    lock, entered, failures = DeferredLock(), [], []
    reading = _hold_in(lock, entered)
    reading.addErrback(lambda f: failures.append(f.trap(CancelledError)))
    assert lock.locked                      # granted at once
    reading.cancel()                        # shutdown before the read resumed
    assert failures == [CancelledError] and entered == []
    assert not lock.locked                  # the host's other sitemaps can still be read


def test_an_unknown_spider_argument_fails_fast():
    """Found by a review: a typo (-a stratgy=bfs) crawled with the default strategy, silently;
    arguments Scrapy's tools add (``_job``) pass."""
    import pytest

    from crawler.spiders.topic import TopicSpider
    from crawler.testweb.archive import DEMO_DIR

    topic = str(DEMO_DIR / "topic.toml")
    with pytest.raises(ValueError, match="unknown spider argument -a stratgy="):
        TopicSpider(seed="http://a.test/", topic=topic, stratgy="bfs")
    assert TopicSpider(seed="http://a.test/", topic=topic, _job="1").strategy == "focused"
