"""Item pipelines: extraction -> relevance -> dedup -> corpus writer.

No pipeline drops an item: each one records its verdict on the :class:`~crawler.items.PageItem`
(``on_topic``, ``duplicate_of``, ``reason``) so that every fetched page is judged and logged;
the writer stores only accepted pages and fires ``item.judged`` for the spider, which then
scores the page's links with the verdict.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from urllib.parse import urlsplit

from scrapy.crawler import Crawler

from extraction import comments_of, extract_document, html_of, markdown_of
from extraction.methods import canonical as method_name
from extraction.methods.auto import favor_cut

from .corpus import (MAX_LINK_SHARE, MIN_CHARS, DateWindow, ShardWriter, compression,
                     documents_since, link_share, refusal, text_chars)
from .dedup import text_sha1
from .relevance.frequencies import atomic_write_text
from .extensions import end_crawl
from .items import PageItem
from .setting_values import bool_setting, date_setting, number_setting

log = logging.getLogger(__name__)
SIBLING_METHODS = ("e5", "e6")


class _StatePipeline:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler):
        return cls(crawler)

    @property
    def state(self):
        return self.crawler.spider.crawl_state


class ExtractionPipeline(_StatePipeline):
    """Main text, title and metadata (``EXTRACTION_METHOD``, ``auto`` by default, with
    ``EXTRACTION_FAVOR``).  E5 and E6 get a sibling: the most URL-similar recently fetched
    page of the same site; every method gets the ``<title>`` of the site's recent pages,
    which show its title template."""

    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        try:
            self.method = method_name(crawler.settings.get("EXTRACTION_METHOD") or "auto")
        except ValueError as error:
            raise ValueError(f"EXTRACTION_METHOD: {error}") from error
        favor = crawler.settings.get("EXTRACTION_FAVOR") or "balanced"
        try:
            favor_cut(favor)
        except ValueError as error:
            raise ValueError(f"EXTRACTION_FAVOR: {error}") from error
        if favor != "balanced" and self.method != "auto":
            raise ValueError(f"EXTRACTION_FAVOR: {favor!r} applies to EXTRACTION_METHOD auto "
                             f"only, not {self.method}")
        self.options = {"favor": favor} if favor != "balanced" else {}
        self.extractor = f"{self.method}:{favor}" if self.options else self.method

    def process_item(self, item: PageItem, spider=None) -> PageItem:
        site = urlsplit(item.final_url).hostname or ""
        siblings = []
        if self.method in SIBLING_METHODS:
            sibling = self.state.sibling_for(site, item.final_url)
            if sibling is not None:
                siblings.append(sibling)
        item.extraction = extract_document(
            item.doc, method=self.method, siblings=siblings,
            sibling_titles=self.state.titles_beside(site, item.final_url), **self.options)
        item.extractor = self.extractor
        if self.method in SIBLING_METHODS:      # the others never read the cache
            self.state.remember_page(site, item.final_url, item.doc)
        self.state.remember_title(site, item.final_url, item.extraction.metadata.get("html_title"))
        stats = self.crawler.stats
        stats.inc_value(f"extraction/{'text' if item.extraction.text else 'empty'}")
        return item


def learn(state, item: PageItem) -> None:
    """Feed the judged page to the dynamic feature library and log what it accepted (the
    relevance pipeline calls it with ``FEATURE_LEARN_FROM=relevant``, the writer with
    ``written``)."""
    if item.analysis is None:       # not judged by the relevance pipeline
        return
    for cand in state.learn(*item.analysis):
        log.info("topic library: learnt %r (%s, weight %.3f)", cand.term, cand.category,
                 cand.weight)


class RelevancePipeline(_StatePipeline):
    """S2 relevance of the page (tag blocks, TF-IDF, concept substitution, cosine); feeds the
    IDF statistics and, with ``FEATURE_LEARN_FROM=relevant``, the dynamic feature library."""

    def process_item(self, item: PageItem, spider=None) -> PageItem:
        text = item.extraction.text if item.extraction else ""
        language = item.extraction.language if text else None
        relevance, page = self.state.judge_relevance(item.doc, text, item.final_url,
                                                     observe=not item.revisit,
                                                     language=language)
        item.analysis = (page, relevance)
        item.relevance = relevance.score
        item.relevance_detail = relevance.to_dict()
        item.on_topic = relevance.relevant and bool(text)
        if not item.on_topic:
            item.reason = relevance.reason or ("no main text" if not text else "off topic")
        if self.state.learn_from == "relevant" and not item.revisit:
            learn(self.state, item)
        self.crawler.stats.inc_value(f"relevance/{'on' if item.on_topic else 'off'}_topic")
        if self.state.auto_threshold is not None:
            self.crawler.stats.set_value("relevance/threshold", self.state.relevance.threshold)
        return item


class DedupPipeline(_StatePipeline):
    """Canonical-URL, exact-text and near-duplicate detection against everything written in
    this run and earlier runs (``STATE_DIR/dedup.pickle``)."""

    def process_item(self, item: PageItem, spider=None) -> PageItem:
        if not item.on_topic:
            return item
        kind, original, minhash = self.state.duplicate(item.url, item.final_url,
                                                       item.extraction.text)
        if kind:
            item.duplicate_of = original
            item.reason = f"{kind} duplicate of {original}"
            self.crawler.stats.inc_value(f"dedup/{kind}")
        else:
            item._minhash = minhash
        return item


# STATE_DIR file: corpus shards a catch-up could not read, read again at the next start
CATCH_UP_PENDING = "catch_up_pending.json"


def _shard_names(path: Path) -> list[str]:
    """The shard names saved in ``path`` (none when absent or damaged)."""
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as err:
        log.warning("%s: ignored (%s)", path, err)
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


class CorpusWriterPipeline(_StatePipeline):
    """Writes accepted pages to ``<CORPUS_DIR>/documents/part-NNNNN.jsonl`` shards
    (``.jsonl.gz`` with ``CORPUS_COMPRESS=gzip``): on-topic pages that are not duplicates, not
    ``noindex``, not hubs (main text more than ``CORPUS_MAX_LINK_SHARE`` link text) and not
    short (``CORPUS_MIN_CHARS``), and, with ``CORPUS_SINCE`` / ``CORPUS_UNTIL`` /
    ``CORPUS_UNDATED=False``, published in that window; with ``CORPUS_MARKDOWN`` each
    document also holds its main
    text as Markdown (``CORPUS_MARKDOWN_LINKS``: with its links, ``CORPUS_MARKDOWN_IMAGES``:
    with its images), with ``CORPUS_HTML`` as an HTML fragment (links and images kept), with
    ``CORPUS_COMMENTS`` the page's reader comments; with
    ``FEATURE_LEARN_FROM=written`` (the default) a written page then feeds the dynamic
    feature library."""

    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        self.writer: ShardWriter | None = None
        self.max_link_share = number_setting(crawler.settings, "CORPUS_MAX_LINK_SHARE",
                                             MAX_LINK_SHARE, maximum=1.0)
        self.min_chars = number_setting(crawler.settings, "CORPUS_MIN_CHARS", MIN_CHARS,
                                        integer=True)
        self.compress = compression(crawler.settings.get("CORPUS_COMPRESS"))
        self.shard_docs = number_setting(crawler.settings, "CORPUS_SHARD_DOCS", 1000,
                                         integer=True, minimum=1)
        self.dates = DateWindow(date_setting(crawler.settings, "CORPUS_SINCE"),
                                date_setting(crawler.settings, "CORPUS_UNTIL"),
                                bool_setting(crawler.settings, "CORPUS_UNDATED", True))
        self.markdown_links = bool_setting(crawler.settings, "CORPUS_MARKDOWN_LINKS")
        self.markdown_images = bool_setting(crawler.settings, "CORPUS_MARKDOWN_IMAGES")
        self.markdown = bool_setting(crawler.settings, "CORPUS_MARKDOWN") \
            or self.markdown_links or self.markdown_images
        self.html = bool_setting(crawler.settings, "CORPUS_HTML")
        self.comments = bool_setting(crawler.settings, "CORPUS_COMMENTS")
        self._stopping = False

    def open_spider(self, spider=None) -> None:
        self.writer = ShardWriter(self.crawler.spider.corpus_dir / "documents",
                                  self.shard_docs, self.compress)
        self._catch_up()

    def _catch_up(self) -> None:
        """Index the documents written after the duplicate index's last save (a crawl killed
        between two checkpoints, the corpus shard it left open included, which the writer
        has just published): otherwise the next run would write them again."""
        saved = self.state.directory / "dedup.pickle"
        since = saved.stat().st_mtime if saved.is_file() else None
        pending_path = self.state.directory / CATCH_UP_PENDING
        pending = _shard_names(pending_path)
        unreadable: list[str] = []
        added = self.state.dedup.catch_up(
            documents_since(self.writer.directory, since, pending, unreadable))
        if unreadable:
            # read again at the next start, however old: the index is saved meanwhile, and
            # the shard's documents would otherwise never be indexed (and be written again)
            log.warning("%d corpus shard(s) could not be read to catch the duplicate index up "
                        "(%s): tried again at the next start", len(unreadable),
                        ", ".join(unreadable))
            self.crawler.stats.set_value("dedup/catch_up_unreadable", len(unreadable))
        if unreadable or pending:
            try:
                if unreadable:
                    atomic_write_text(pending_path, json.dumps(unreadable))
                else:
                    pending_path.unlink(missing_ok=True)
            except OSError as err:
                log.warning("cannot record the unread shards in %s: %s", pending_path, err)
        if added:
            log.info("the duplicate index missed %d written documents (a killed crawl?): "
                     "indexed from %s", added, self.writer.directory)
            self.crawler.stats.set_value("dedup/caught_up", added)

    def close_spider(self, spider=None) -> None:
        if self.writer is not None:
            self.writer.close()

    def _archive(self, item: PageItem, record: dict) -> None:
        """With ``CORPUS_WARC``, the document's record says where its response is archived
        (``written``: archived now, just before the document)."""
        archive = getattr(self.crawler.spider, "warc", None)
        if archive is None:
            return
        if archive.mode == "written" and item.raw is not None:
            item.warc = archive.write(item.raw).to_dict()
            self.crawler.stats.inc_value("warc/records")
        if item.warc is not None:
            record["warc"] = item.warc

    def _write_failed(self, item: PageItem, err: OSError) -> None:
        """The corpus cannot be written: the page is not accepted and the crawl ends, with the
        reason in the log and in the stats (``crawl/stop_reason``), rather than judging and
        losing page after page."""
        item.reason = f"corpus write failed: {err}"
        self.crawler.stats.inc_value("corpus/write_errors")
        if not self._stopping:
            self._stopping = True
            end_crawl(self.crawler, item.reason, "corpus write failed", logging.ERROR)

    def process_item(self, item: PageItem, spider=None) -> PageItem:
        try:
            refused = None
            if item.on_topic:
                refused = refusal(item.duplicate_of, item.robots,
                                  link_share(item.doc, item.extraction.nodes),
                                  self.max_link_share, text_chars(item.extraction.text),
                                  self.min_chars, item.extraction.metadata.get("date"),
                                  self.dates if self.dates.active else None)
                if refused is not None:     # a duplicate keeps the dedup pipeline's reason
                    item.reason = item.reason or refused[1]
                    item.hub = refused[0] == "corpus/hub"
                    self.crawler.stats.inc_value(refused[0])
            if item.on_topic and refused is None:
                record = item.document()
                record["topic"] = self.state.topic.name
                record["content_sha1"] = text_sha1(record["text"])
                if self.markdown:
                    record["markdown"] = markdown_of(item.doc, item.extraction,
                                                     links=self.markdown_links,
                                                     images=self.markdown_images)
                if self.html:
                    record["html"] = html_of(item.doc, item.extraction, markdown=record[
                        "markdown"] if self.markdown_links and self.markdown_images else None)
                if self.comments:
                    record["comments"] = comments_of(item.doc, item.extraction)
                try:
                    self._archive(item, record)
                    self.writer.write(record)
                except OSError as err:      # disk full, permissions: stop, lose nothing more
                    self._write_failed(item, err)
                    return item
                # indexed once written: a page the corpus did not get is not a duplicate later
                self.state.dedup.add(item.final_url, record["text"],
                                     getattr(item, "_minhash", None))
                if item.url != item.final_url:
                    self.state.dedup.urls[item.url] = item.final_url
                item.accepted = True
                self.crawler.stats.inc_value("corpus/documents")
                if self.state.learn_from == "written":
                    learn(self.state, item)
        finally:
            if item.judged is not None and not item.judged.called:
                item.judged.callback(item)
        return item
