"""The crawl's scope (crawler/scope.py): allowed domains, URL patterns, the per-host cap."""
import pytest

from crawler.links import canonical
from crawler.scope import Scope, parse_domains

SEEDS = ["http://www.nengyuan.test/", "https://Shop.Example.org:8080/a/"]


def test_domains_from_names_and_seeds():
    assert parse_domains("Example.org, b.test.,", SEEDS) == ["example.org", "b.test"]
    assert parse_domains("seeds", SEEDS) == ["www.nengyuan.test", "shop.example.org"]
    assert parse_domains(None, SEEDS) == [] and parse_domains("", SEEDS) == []
    assert parse_domains("bücher.de", SEEDS) == ["xn--bcher-kva.de"]     # as w3lib requests it
    assert parse_domains("seeds", ["http://Bücher.de/", "http://127.0.0.1:8080/"]) == \
        ["xn--bcher-kva.de", "127.0.0.1"]
    # UTS #46 as request URLs carry the host (IDNA 2003 would make "straße" "strasse", another
    # domain, and put the seeds outside their own scope); IP literals as hosts
    assert parse_domains("straße.test", SEEDS) == ["xn--strae-oqa.test"]
    straße = ["http://straße.test/", "http://[::1]:8080/x", "http://[2001:DB8::1]/"]
    assert parse_domains("seeds", straße) == ["xn--strae-oqa.test", "::1", "2001:db8::1"]
    scope = Scope(tuple(parse_domains("seeds", straße)))
    assert all(scope.refusal(canonical(url)) is None for url in straße)
    assert parse_domains("[::1], 10.0.0.1", SEEDS) == ["::1", "10.0.0.1"]
    for bad in ("http://example.org/", "example.org/path", "example.org:80", "a b"):
        with pytest.raises(ValueError, match="allowed_domains"):
            parse_domains(bad, SEEDS)


def test_domain_rule_is_scrapys_subdomain_rule():
    scope = Scope(("example.org",))
    assert scope.refusal("http://example.org/x") is None
    assert scope.refusal("http://www.example.org/x") is None
    assert scope.refusal("http://badexample.org/x") == "offsite"
    assert scope.refusal("http://example.org.evil.test/") == "offsite"
    assert Scope().refusal("http://anything.test/") is None and not Scope().active


def test_patterns_from_settings():
    scope = Scope.from_settings({"URL_INCLUDE": r"/wiki/ /docs/", "URL_EXCLUDE": [r"[?&]page=\d"]})
    assert scope.active
    assert scope.refusal("http://a.test/wiki/Solar_power") is None
    assert scope.refusal("http://a.test/docs/x?page=2") == "excluded"
    assert scope.refusal("http://a.test/blog/x") == "not included"
    assert "include /wiki/ /docs/" in scope.describe()


def test_bad_settings_name_the_setting():
    with pytest.raises(ValueError, match="URL_EXCLUDE.*bad regular expression"):
        Scope.from_settings({"URL_EXCLUDE": "([unclosed"})
    for pattern in ("a{99999999999}", "(" * 2000 + ")" * 2000):
        with pytest.raises(ValueError, match="URL_INCLUDE.*bad regular expression"):
            Scope.from_settings({"URL_INCLUDE": pattern})
    for bad in ("-1", "many", "2.5"):
        with pytest.raises(ValueError, match="MAX_PAGES_PER_HOST"):
            Scope.from_settings({"MAX_PAGES_PER_HOST": bad})


def test_host_cap():
    scope = Scope.from_settings({"MAX_PAGES_PER_HOST": "2"})
    counts = {"a.test": 2, "b.test": 1}
    assert scope.capped("a.test", counts) and not scope.capped("b.test", counts)
    assert not scope.capped("c.test", counts)
    assert not Scope().capped("a.test", {"a.test": 10 ** 6})


def test_a_request_dropped_by_the_host_cap_is_not_counted_as_fetched(tmp_path):
    """The fetch-once guard marks a request fetched before the scope sees it; a request the
    cap drops is forgotten again, so a resumed job with a higher cap can queue it anew."""
    from types import SimpleNamespace

    from scrapy import Request
    from scrapy.exceptions import IgnoreRequest
    from scrapy.utils.request import RequestFingerprinter
    from scrapy.utils.test import get_crawler

    from crawler.frontier import PriorityDupeFilter
    from crawler.middlewares import AlreadyFetchedMiddleware, ScopeMiddleware

    crawler = get_crawler()
    crawler.priority_dupefilter = PriorityDupeFilter(str(tmp_path), RequestFingerprinter())
    crawler.spider = SimpleNamespace(scope=Scope(max_per_host=1), host_requests={})
    guard, scope = AlreadyFetchedMiddleware(crawler), ScopeMiddleware(crawler)
    first, second = Request("http://a.test/1"), Request("http://a.test/2")
    for request in (first, second):
        assert not crawler.priority_dupefilter.request_seen(request)
        guard.process_request(request)
    assert scope.process_request(first) is None
    with pytest.raises(IgnoreRequest, match="host cap"):
        scope.process_request(second)
    crawler.priority_dupefilter.close("shutdown")
    resumed = PriorityDupeFilter(str(tmp_path), RequestFingerprinter())     # JOBDIR resume
    assert resumed.request_seen(Request("http://a.test/1", priority=100))   # fetched
    assert not resumed.request_seen(Request("http://a.test/2"))             # may come back
    assert resumed.mark_fetched(Request("http://a.test/2"))


def test_a_seed_redirected_off_the_allowed_domains_is_reported(caplog):
    from types import SimpleNamespace

    from scrapy import Request
    from scrapy.statscollectors import MemoryStatsCollector
    from scrapy.utils.test import get_crawler

    from crawler.spiders.topic import TopicSpider

    stats = MemoryStatsCollector(get_crawler())
    spider = SimpleNamespace(scope=Scope(("b.test",)), crawler=SimpleNamespace(stats=stats))
    seed = {"seed": True, "redirect_urls": ["http://b.test/"]}
    for url, meta, again in (("http://www.b.test/", seed, False),
                             ("http://elsewhere.test/", {}, False),
                             ("http://elsewhere.test/", seed, False),
                             # a revisit: its refusal reaches the errback, counted there
                             ("http://elsewhere.test/", seed, True)):
        TopicSpider._seed_left_scope(spider, Request(url, meta=meta, dont_filter=again))
    assert stats.get_value("seeds/refused") == 1
    assert "seed http://b.test/ was not fetched: it redirects to http://elsewhere.test/" \
        in caplog.text
