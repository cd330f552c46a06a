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


def test_header_values():
    d = doc()
    assert robots_directives(d, [b"noindex"]) == {"noindex"}
    assert robots_directives(d, [b"otherbot: noindex", "focused-crawler: nofollow"]) \
        == {"nofollow"}
    assert "noindex" in robots_directives(d, ["noindex, unavailable_after: 25 Jun 2010"])
    assert robots_directives(d, ["unavailable_after: 25 Jun 2010 15:00:00 PST"]) \
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
