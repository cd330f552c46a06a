"""Page-level robots directives: parsed from meta tags and X-Robots-Tag, honoured by the writer."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from crawler.items import PageItem
from crawler.pipelines import CorpusWriterPipeline
from crawler.relevance.topic import load_topic
from crawler.robots_meta import robots_directives
from crawler.state import CrawlState
from extraction import extract_document, parse

PAGE = "<html><head>{meta}<title>Fugue</title></head><body><p>{text}</p></body></html>"
TEXT = "A fugue is a contrapuntal composition in which a short melody is introduced. " * 8


def doc(meta: str = ""):
    return parse(PAGE.format(meta=meta, text=TEXT), "http://music.test/fugue.html")


def test_meta_tags():
    assert robots_directives(doc()) == frozenset()
    assert robots_directives(doc('<meta name="robots" content="noindex, follow">')) \
        == {"noindex", "follow"}
    assert robots_directives(doc('<meta name="ROBOTS" content="NONE">')) \
        >= {"noindex", "nofollow"}
    assert robots_directives(doc('<meta name="focused-crawler" content="nofollow">')) \
        == {"nofollow"}
    assert robots_directives(doc('<meta name="googlebot" content="noindex">')) == frozenset()
    assert robots_directives(doc('<meta name="robots" content="noindex nofollow">')) \
        == {"noindex", "nofollow"}                      # spaces, as pages often write it
    assert robots_directives(doc('<meta name="robots" content="noindex;follow">')) \
        == {"noindex", "follow"}


def test_header_values():
    d = doc()
    assert robots_directives(d, [b"noindex"]) == {"noindex"}
    assert robots_directives(d, [b"otherbot: noindex", "focused-crawler: nofollow"]) \
        == {"nofollow"}
    assert "noindex" in robots_directives(d, ["noindex, unavailable_after: 25 Jun 2010"])
    assert robots_directives(d, ["unavailable_after: 25 Jun 2010 15:00:00 PST"]) \
        .isdisjoint({"noindex", "nofollow"})
    # an agent prefix scopes the items after it, also mid-list (headers merged by a proxy)
    assert robots_directives(d, ["noindex, otherbot: nofollow"]) == {"noindex"}
    assert robots_directives(d, ["otherbot: noindex, nofollow"]) == frozenset()
    assert robots_directives(d, ["otherbot: noindex, focused-crawler: nofollow"]) \
        == {"nofollow"}
    assert robots_directives(d, ["unavailable_after: Sunday, 25-Jun-10 15:00:00 PST"]) \
        .isdisjoint({"noindex", "nofollow"})


def _writer(tmp_path: Path):
    topic = load_topic(Path(__file__).parent.parent / "settings" / "topics" / "music.toml")
    state = CrawlState.open(tmp_path / "state", topic)
    spider = SimpleNamespace(crawl_state=state, corpus_dir=tmp_path / "corpus")
    crawler = SimpleNamespace(spider=spider, settings=Settings({"CORPUS_SHARD_DOCS": 10}))
    crawler.stats = MemoryStatsCollector(crawler)
    writer = CorpusWriterPipeline(crawler)
    writer.open_spider()
    return writer, crawler


def _item(meta: str, url: str) -> PageItem:
    d = parse(PAGE.format(meta=meta, text=TEXT), url)
    item = PageItem(url=url, final_url=url, status=200, depth=1, parent=None,
                    fetched_at="2026-11-24T00:00:00Z", content_type="text/html", doc=d)
    item.extraction = extract_document(d)
    item.robots = robots_directives(d)
    item.on_topic, item.relevance = True, 0.9
    return item


def test_the_writer_keeps_noindex_pages_out_of_the_corpus(tmp_path):
    writer, crawler = _writer(tmp_path)
    kept = writer.process_item(_item("", "http://music.test/fugue.html"))
    printed = writer.process_item(_item('<meta name="robots" content="noindex,follow">',
                                        "http://music.test/print/fugue.html"))
    writer.close_spider()
    assert kept.accepted and kept.extraction.text
    assert not printed.accepted and printed.reason.startswith("noindex")
    assert crawler.stats.get_value("corpus/noindex") == 1
    lines = [line for f in (tmp_path / "corpus" / "documents").glob("*.jsonl")
             for line in f.read_text().splitlines()]
    assert len(lines) == 1 and "print" not in lines[0]


def test_the_writer_keeps_hub_pages_out_of_the_corpus(tmp_path):
    writer, crawler = _writer(tmp_path)
    links = "".join(f"<li><a href='/p{k}'>Fugue number {k} for organ and choir</a></li>"
                    for k in range(12))
    url = "http://music.test/fugues/"
    d = parse(f"<html><body><p>Fugues.</p><ul>{links}</ul></body></html>", url)
    hub = PageItem(url=url, final_url=url, status=200, depth=1, parent=None,
                   fetched_at="2026-11-24T00:00:00Z", content_type="text/html", doc=d)
    hub.extraction = extract_document(d)                  # auto keeps the list of links
    hub.on_topic, hub.relevance = True, 0.9
    hub = writer.process_item(hub)
    kept = writer.process_item(_item("", "http://music.test/fugue.html"))
    writer.close_spider()
    assert hub.hub and not hub.accepted and hub.reason.startswith("hub page: ")
    assert kept.accepted and not kept.hub
    assert crawler.stats.get_value("corpus/hub") == 1


def test_the_writer_keeps_short_pages_out_of_the_corpus(tmp_path):
    writer, crawler = _writer(tmp_path)
    url = "http://music.test/page/25/"
    d = parse("<html><body><h1>Posts, page 25</h1><p>Nothing here yet.</p></body></html>", url)
    short = PageItem(url=url, final_url=url, status=200, depth=1, parent=None,
                     fetched_at="2026-11-24T00:00:00Z", content_type="text/html", doc=d)
    short.extraction = extract_document(d)
    short.on_topic, short.relevance = True, 0.47
    short = writer.process_item(short)
    writer.close_spider()
    assert not short.accepted and short.reason.startswith("short: ")
    assert crawler.stats.get_value("corpus/short") == 1


def _spider(tmp_path: Path, **settings):
    from scrapy.utils.test import get_crawler

    from crawler.spiders.topic import TopicSpider

    crawler = get_crawler(TopicSpider, {"CORPUS_DIR": str(tmp_path / "corpus"),
                                        "STATE_DIR": str(tmp_path / "state"), **settings})
    topic = Path(__file__).parent.parent / "settings" / "topics" / "music.toml"
    return TopicSpider.from_crawler(crawler, seed="http://music.test/", topic=str(topic))


LINKED = ('<html><head>{meta}</head><body><p>' + TEXT + ' See <a href="/canon.html">the canon'
          '</a> and <a href="/fugue-forms.html">fugue forms</a>.</p></body></html>')


def _response(meta: str, url: str = "http://music.test/fugue.html"):
    from scrapy.http import HtmlResponse

    return HtmlResponse(url, body=LINKED.format(meta=meta).encode(),
                        headers={"Content-Type": "text/html; charset=utf-8"})


def _followed(spider, response) -> list[str]:
    item = PageItem(url=response.url, final_url=response.url, status=200, depth=1, parent=None,
                    fetched_at="t", content_type="text/html", doc=parse(response.body,
                                                                        response.url))
    item.extraction = extract_document(item.doc)
    item.robots = robots_directives(item.doc, response.headers.getlist(b"X-Robots-Tag"))
    item.relevance = 0.5
    return [r.url for r in spider._follow(item, response, spider._outlinks(item, response))]


def test_the_spider_does_not_follow_the_links_of_a_nofollow_page(tmp_path):
    spider = _spider(tmp_path)
    assert spider.obey_robots_meta
    assert sorted(_followed(spider, _response(""))) == [
        "http://music.test/canon.html", "http://music.test/fugue-forms.html"]
    spider = _spider(tmp_path / "again")
    assert _followed(spider, _response('<meta name="robots" content="noindex, nofollow">')) == []
    assert spider.crawler.stats.get_value("links/page_nofollow") == 1


def test_robots_meta_can_be_ignored(tmp_path):
    assert not _spider(tmp_path, ROBOTS_META_OBEY=False).obey_robots_meta
