"""Writing the corpus and the crawl log: a page the corpus did not get is not indexed as
written, a failed write stops the crawl with its reason, a lone surrogate in a page's metadata
costs neither the document nor the crawl log (found by a review of the writers)."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from crawler.crawl_log import CrawlLog
from crawler.items import PageItem
from crawler.jsonl import json_line
from crawler.pipelines import CorpusWriterPipeline
from crawler.relevance.topic import load_topic
from crawler.state import CrawlState
from extraction import extract_document, parse

TEXT = "A fugue is a contrapuntal composition in which a short melody is introduced. " * 8


def _pipeline(tmp_path: Path):
    topic = load_topic(Path(__file__).parent.parent / "settings" / "topics" / "music.toml")
    state = CrawlState.open(tmp_path / "state", topic)
    spider = SimpleNamespace(crawl_state=state, corpus_dir=tmp_path / "corpus")
    closed = []

    def close_spider_async(reason):      # (the engine's coroutine, recorded here)
        closed.append(reason)

    crawler = SimpleNamespace(spider=spider, settings=Settings({"CORPUS_SHARD_DOCS": 10}),
                              engine=SimpleNamespace(close_spider_async=close_spider_async))
    crawler.stats = MemoryStatsCollector(crawler)
    writer = CorpusWriterPipeline(crawler)
    writer.open_spider()
    return writer, crawler, state, closed


def _item(url: str, head: str = "") -> PageItem:
    d = parse(f"<html><head>{head}<title>Fugue</title></head><body><p>{TEXT}</p></body></html>",
              url)
    item = PageItem(url=url, final_url=url, status=200, depth=1, parent=None,
                    fetched_at="2026-11-27T00:00:00Z", content_type="text/html", doc=d)
    item.extraction = extract_document(d)
    item.robots = frozenset()
    item.on_topic, item.relevance = True, 0.9
    return item


def test_a_failed_write_indexes_nothing_and_stops_the_crawl(tmp_path):
    writer, crawler, state, closed = _pipeline(tmp_path)

    def disk_full(record):
        raise OSError(28, "No space left on device")

    writer.writer.write = disk_full
    item = writer.process_item(_item("http://music.test/fugue.html"))
    second = writer.process_item(_item("http://music.test/canon.html"))
    assert not item.accepted and "No space left" in item.reason
    assert not second.accepted
    assert state.dedup.check("http://music.test/fugue.html", item.extraction.text)[0] is None
    assert crawler.stats.get_value("corpus/write_errors") == 2
    assert "corpus write failed" in crawler.stats.get_value("crawl/stop_reason")
    assert closed == ["corpus write failed"]                # asked once


def test_a_lone_surrogate_in_the_metadata_costs_nothing(tmp_path):
    writer, _, state, _ = _pipeline(tmp_path)
    head = '<script type="application/ld+json">{"headline": "Wind \\ud800 turbine"}</script>'
    item = writer.process_item(_item("http://music.test/fugue.html", head))
    writer.close_spider()
    assert item.accepted
    lines = [line for f in (tmp_path / "corpus" / "documents").glob("*.jsonl")
             for line in f.read_bytes().decode("utf-8").splitlines()]      # strict UTF-8
    assert len(lines) == 1 and json.loads(lines[0])["url"] == "http://music.test/fugue.html"
    assert json_line({"t": "a\ud800b"}) == '{"t": "a\ufffdb"}\n'

    log = CrawlLog(tmp_path / "log.jsonl")
    done = []
    first = log.open_entry({"url": "http://a.test/1"}, on_written=lambda: done.append(1))
    second = log.open_entry({"url": "http://a.test/2"}, on_written=lambda: done.append(2))
    log.complete(first, title="bad \udc80 title", extra=object())
    log.complete(second)
    log.close()
    rows = [json.loads(x) for x in (tmp_path / "log.jsonl").read_bytes().decode().splitlines()]
    assert [r["url"] for r in rows] == ["http://a.test/1", "http://a.test/2"] and done == [1, 2]


def test_the_sibling_cache_keeps_a_bounded_number_of_sites(tmp_path):
    from crawler.state import SIBLING_SITES

    topic = load_topic(Path(__file__).parent.parent / "settings" / "topics" / "music.toml")
    state = CrawlState.open(tmp_path / "state", topic)
    for i in range(SIBLING_SITES + 50):
        for j in range(3):
            state.remember_page(f"h{i}.test", f"http://h{i}.test/{j}.html", object())
    assert len(state.siblings) == SIBLING_SITES
    assert sum(len(p) for p in state.siblings.values()) == 3 * SIBLING_SITES
    last = f"h{SIBLING_SITES + 49}.test"
    assert state.sibling_for(last, f"http://{last}/9.html") is not None
    assert state.sibling_for("h0.test", "http://h0.test/9.html") is None     # evicted


def test_the_site_titles_are_bounded_and_exclude_the_page_itself(tmp_path):
    from crawler.state import SIBLING_SITES, SITE_TITLES

    topic = load_topic(Path(__file__).parent.parent / "settings" / "topics" / "music.toml")
    state = CrawlState.open(tmp_path / "state", topic)
    for i in range(SIBLING_SITES + 5):
        for j in range(SITE_TITLES + 3):
            state.remember_title(f"h{i}.test", f"http://h{i}.test/{j}", f"Story {j} | Site {i}")
    state.remember_title("h0.test", "http://h0.test/none", None)
    assert len(state.site_titles) == SIBLING_SITES and "h0.test" not in state.site_titles
    last, page = f"h{SIBLING_SITES + 4}.test", f"http://h{SIBLING_SITES + 4}.test/{SITE_TITLES + 2}"
    titles = state.titles_beside(last, page)
    assert len(titles) == SITE_TITLES - 1
    assert f"Story {SITE_TITLES + 2} | Site" not in " ".join(titles)


def test_a_shard_left_by_a_killed_crawl_is_published_whatever_the_next_mode(tmp_path):
    from crawler.corpus import ShardWriter, documents_since

    docs = tmp_path / "documents"
    docs.mkdir()
    (docs / ".part-00000.jsonl.tmp").write_bytes(b'{"url": "a"}\n{"url": "b"}\n{"url": "c')
    ShardWriter(docs, compress="gzip").close()
    assert (docs / "part-00000.jsonl").read_bytes() == b'{"url": "a"}\n{"url": "b"}\n'
    assert [d["url"] for d in documents_since(docs, 0)] == ["a", "b"]


def test_a_shard_the_catch_up_could_not_read_is_read_at_the_next_start(tmp_path):
    """Catch-up skipped an unreadable shard, the duplicate index was saved later, so the shard
    was never read again: its documents would be written twice (noted last stop).  The shard
    is named in STATE_DIR/catch_up_pending.json and read at the next start, however old."""
    import gzip
    import json
    import os

    from crawler.pipelines import CATCH_UP_PENDING

    writer, crawler, state, _ = _pipeline(tmp_path)        # a first run: nothing to catch up
    writer.close_spider()
    state.save()
    saved = (tmp_path / "state" / "dedup.pickle").stat().st_mtime
    documents = tmp_path / "corpus" / "documents"
    shard = documents / "part-00007.jsonl.gz"
    record = {"url": "http://music.test/fugue.html", "final_url": "http://music.test/fugue.html",
              "text": TEXT}
    shard.write_bytes(gzip.compress(json.dumps(record).encode())[:20])       # unreadable now
    writer, crawler, state, _ = _pipeline(tmp_path)
    pending = tmp_path / "state" / CATCH_UP_PENDING
    assert json.loads(pending.read_text()) == ["part-00007.jsonl.gz"]
    assert crawler.stats.get_value("dedup/catch_up_unreadable") == 1
    writer.close_spider()
    state.save()                                            # the index is saved after it
    shard.write_bytes(gzip.compress((json.dumps(record) + "\n").encode()))   # readable again
    os.utime(shard, (saved - 600, saved - 600))             # and older than the save
    writer, crawler, state, _ = _pipeline(tmp_path)
    assert state.dedup.check("http://other.test/copy", TEXT)[:2] == \
        ("exact", "http://music.test/fugue.html")
    assert not pending.exists()


def test_a_full_disk_never_publishes_a_torn_corpus_line(tmp_path):
    """Found by a review: a plain shard whose last write failed half-way was published with
    its torn line (``read_shard`` raised on it, and no later run repairs a published file)."""
    from test_warc import _DiskFullAfter

    from crawler.corpus import ShardWriter, read_shard

    for compress in ("", "gzip"):
        directory = tmp_path / (compress or "plain")
        writer = ShardWriter(directory, docs_per_shard=10, compress=compress)
        for k in range(3):
            writer.write({"url": f"http://a.test/{k}", "text": "word " * 50})
        writer.files.handle = _DiskFullAfter(writer.files.handle, 40)
        with pytest.raises(OSError, match="No space"):
            writer.write({"url": "http://a.test/3", "text": "word " * 50})
        writer.close()
        (shard,) = directory.iterdir()
        assert [d["url"] for d in read_shard(shard)] == [f"http://a.test/{k}" for k in range(3)]
        writer.write({"url": "http://a.test/4", "text": "later"})    # the disk freed
        writer.close()
        assert [d["url"] for p in sorted(directory.iterdir()) for d in read_shard(p)][-1] \
            == "http://a.test/4"


def test_a_crawl_log_line_cut_by_a_kill_does_not_swallow_the_next_runs_first(tmp_path):
    path = tmp_path / "crawl-log.jsonl"
    path.write_text('{"url": "http://a.test/1"}\n{"url": "http://a.te', encoding="utf-8")
    log = CrawlLog(path)
    seq = log.open_entry({"url": "http://a.test/3"})
    log.complete(seq, status=200)
    log.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[1] == '{"url": "http://a.te' and json.loads(lines[2])["url"] == "http://a.test/3"


def test_a_failed_warc_write_stops_the_crawl_like_a_failed_corpus_write(tmp_path):
    """Found by a review: with ``CORPUS_WARC`` on a full disk, every on-topic page raised out
    of the writer (not accepted, no reason) and the crawl went on, losing page after page;
    with ``all`` every response was an error line."""
    from scrapy.http import HtmlResponse, Request

    from crawler.middlewares import WarcMiddleware
    from crawler.warc import RawResponse

    writer, crawler, state, closed = _pipeline(tmp_path)

    class FullArchive:
        mode = "written"

        def write(self, raw):
            raise OSError(28, "No space left on device")

    crawler.spider.warc = FullArchive()
    item = _item("http://music.test/fugue.html")
    item.raw = RawResponse.of(HtmlResponse(item.url, body=b"<p>x</p>", request=Request(item.url)))
    item = writer.process_item(item)
    assert not item.accepted and "No space left" in item.reason
    assert closed == ["corpus write failed"] and not list(writer.writer.directory.iterdir())
    FullArchive.mode = "all"
    middleware = WarcMiddleware(crawler)
    request = Request("http://music.test/canon.html")
    response = HtmlResponse(request.url, body=b"<p>x</p>", request=request)
    assert middleware.process_response(request, response) is response
    assert middleware.process_response(request, response) is response
    assert crawler.stats.get_value("warc/write_errors") == 1
    assert closed[-1] == "WARC write failed"


def test_shard_numbers_go_on_when_the_compression_changes_between_runs(tmp_path):
    """Found by a review: ``part-00000.jsonl`` and ``part-00000.jsonl.gz`` both existed after
    a run with ``CORPUS_COMPRESS`` changed, and readers in name order mixed the runs."""
    from crawler.corpus import ShardWriter, documents_since

    for run, compress in enumerate(("", "gzip", "")):
        writer = ShardWriter(tmp_path, docs_per_shard=10, compress=compress)
        writer.write({"url": f"http://a.test/{run}", "text": "x"})
        writer.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "part-00000.jsonl", "part-00001.jsonl.gz", "part-00002.jsonl"]
    assert [d["url"] for d in documents_since(tmp_path, None)] == [
        f"http://a.test/{run}" for run in range(3)]


def test_a_crawl_log_on_a_pipe_opens_without_waiting(tmp_path):
    """Found by the diff review: checking the log's last byte opened a named pipe for reading,
    which waits for a writer that never comes (CRAWL_LOG to a pipe hung the crawl's start)."""
    import os
    import threading

    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(open(fifo, encoding="utf-8")),
                              daemon=True)
    reader.start()
    opened = threading.Event()

    def write_log():
        log = CrawlLog(fifo)
        opened.set()
        log.complete(log.open_entry({"url": "http://a.test/"}), status=200)
        log.close()

    writer = threading.Thread(target=write_log, daemon=True)
    writer.start()
    assert opened.wait(5), "CrawlLog blocked opening a pipe"
    writer.join(5)
    reader.join(5)
    assert json.loads(lines[0])["url"] == "http://a.test/"
