"""Which judged pages feed the dynamic feature library (FEATURE_LEARN_FROM), through the real
relevance, dedup and writer pipelines."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from crawler.items import PageItem
from crawler.pipelines import CorpusWriterPipeline, DedupPipeline, RelevancePipeline
from crawler.relevance.topic import load_topic
from crawler.state import CrawlState
from extraction import extract_document, parse

TOPIC = Path(__file__).parent.parent / "settings" / "topics" / "music.toml"
ARTICLE = ("<html><head><title>The fugue</title></head><body><h1>The fugue</h1><p>" +
           "A fugue is a contrapuntal composition for an orchestra or a choir in which a "
           "melody is introduced by one voice and taken up by the others; composers from "
           "Bach to Beethoven wrote fugues for organ, piano and string quartet. " * 6 +
           "</p></body></html>")
HUB = ("<html><head><title>Music index</title></head><body><h1>Music</h1><ul>" +
       "".join(f"<li><a href='/m{k}.html'>Symphony, concerto and opera number {k} for "
               "orchestra</a></li>" for k in range(15)) + "</ul></body></html>")


def pipelines(tmp_path: Path, learn_from: str):
    state = CrawlState.open(tmp_path / "state", load_topic(TOPIC), learn_from=learn_from)
    spider = SimpleNamespace(crawl_state=state, corpus_dir=tmp_path / "corpus")
    crawler = SimpleNamespace(spider=spider, settings=Settings({}))
    crawler.stats = MemoryStatsCollector(crawler)
    writer = CorpusWriterPipeline(crawler)
    writer.open_spider()
    return state, [RelevancePipeline(crawler), DedupPipeline(crawler), writer]


def judge(steps, html: str, url: str) -> PageItem:
    d = parse(html, url)
    item = PageItem(url=url, final_url=url, status=200, depth=1, parent=None,
                    fetched_at="2026-11-24T00:00:00Z", content_type="text/html", doc=d)
    item.extraction = extract_document(d)
    for step in steps:
        item = step.process_item(item)
    return item


@pytest.mark.parametrize("learn_from, observed", [("written", 1), ("relevant", 3)])
def test_library_learns_from_written_pages_by_default(tmp_path, learn_from, observed):
    state, steps = pipelines(tmp_path, learn_from)
    first = judge(steps, ARTICLE, "http://music.test/fugue.html")
    copy = judge(steps, ARTICLE, "http://music.test/print/fugue.html")
    hub = judge(steps, HUB, "http://music.test/index.html")
    assert first.accepted and first.on_topic
    assert copy.on_topic and copy.duplicate_of and not copy.accepted
    assert hub.on_topic and hub.hub and not hub.accepted
    assert len(state.library._pending) == observed     # pages the library took in


def test_unknown_source_is_refused(tmp_path):
    with pytest.raises(ValueError, match="FEATURE_LEARN_FROM"):
        CrawlState.open(tmp_path, load_topic(TOPIC), learn_from="everything")
