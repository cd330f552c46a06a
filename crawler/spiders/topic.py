"""``scrapy crawl topic -a seed=URL[,URL...] -a topic=TOPIC.toml``: the focused crawl.

Each HTML response is parsed once; the page goes through the item pipelines (extraction,
relevance, dedup, corpus) and, once judged, its outgoing links are scored in one batch
(``link_scoring``) and scheduled with integer priorities for global best-first order.

Arguments: ``seed`` (URLs, comma-separated, or ``@FILE`` with one URL per line; the topic
file's ``seeds`` are added), ``topic`` (TOML file), ``strategy`` = ``focused`` (default),
``parent`` (best-first on the parent page's relevance only) or ``bfs`` (breadth-first); the
last two exist for benchmarks; ``allowed_domains`` (comma-separated host names, or ``seeds``:
the seeds' hosts) limits the crawl's scope, with the settings of :mod:`crawler.scope`;
``sitemap`` (URLs, comma-separated, or ``@FILE``) names sitemaps to read besides those the
seed hosts' robots.txt name (``crawler/sitemaps.py``).
"""
from __future__ import annotations

import gzip
import logging
import math
import re
import time
import zlib
from pathlib import Path

import scrapy
from scrapy import Request, signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from extraction import ParseError, parse

from ..crawl_log import CrawlLog, write_summary
from ..dirlock import lock_directory, unlock_directory
from ..feeds import FEEDS_PER_HOST
from ..frontier import UPGRADE_MARGIN, busy_host_slack
from ..items import PageItem
from ..journal import Entry
from ..link_scoring import PRIORITY_LEVELS, SEED_PRIORITY, priority_of
from ..links import MAX_LINKS_PER_PAGE, canonical, crawlable, extract_links
from ..middlewares import AlreadyFetched, is_html, now_iso, scheduled_url
from ..relevance.topic import CATEGORIES, load_topic
from ..politeness import BACKOFF_HTTP_CODES, backoff_codes
from ..revisit import HUB, RETRY_FAILED_TIMES, SEED, hours_setting
from ..robots_meta import robots_directives
from ..prune_rules import PruneRules
from ..scope import Scope, host_name, parse_domains
from ..setting_values import (bool_setting, directory_setting, number_setting, retry_exceptions,
                              status_codes)
from ..sitemaps import MAX_URLS_PER_HOST, ListingBudget, best_scored, size_cap
from ..state import CrawlState
from ..traps import leads_elsewhere
from ..warc import open_archive
from .listings import ListingsMixin

log = logging.getLogger(__name__)
STRATEGIES = ("focused", "parent", "bfs")
SPIDER_ARGUMENTS = ("seed", "topic", "strategy", "allowed_domains", "sitemap")


# the errors of a body that does not decode (a lying Content-Encoding), not of the network
UNDECODABLE_BODY = (gzip.BadGzipFile, zlib.error)
# a comma before another URL's scheme, before white space or at the end separates seeds;
# one inside a URL (/wiki/Miami,_Florida) does not
_SEED_SEPARATOR = re.compile(r",(?=\s|$|[A-Za-z][A-Za-z0-9+.-]*://)")
# a seed file's comment: a line from "#", or "#" after white space (a URL's fragment follows
# no space)
_SEED_COMMENT = re.compile(r"(?:^|\s)#.*")


def read_seeds(value: str | None) -> list[str]:
    """Seeds from ``URL,URL`` or ``@FILE`` (one URL per line, ``#`` comments, also after a
    URL), each once."""
    if not value:
        return []
    if value.startswith("@"):
        path = Path(value[1:])
        if not path.is_file():
            raise ValueError(f"seed file {path} not found")
        try:
            lines = path.read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"seed file {path}: cannot read it as UTF-8 text: {err}") from err
        seeds = [_SEED_COMMENT.sub("", ln).strip() for ln in lines]
    else:
        seeds = [u.strip() for u in _SEED_SEPARATOR.split(value)]
    return list(dict.fromkeys(filter(None, seeds)))


def relevance_options(settings) -> dict:
    """Extra :class:`~crawler.relevance.model.RelevanceModel` options from the settings
    ``RELEVANCE_MIN_CONCEPTS`` (a number; unset = no concept cap) and
    ``RELEVANCE_CATEGORY_WEIGHTS`` (``subjects=0.5,judgments=0.5`` or a dict; unset = 1.0 per
    category).  A bad value raises ``ValueError`` naming the setting."""
    out: dict = {}
    raw = settings.get("RELEVANCE_MIN_CONCEPTS")
    if raw not in (None, ""):
        try:
            value = float(raw)
        except (TypeError, ValueError):
            value = -1.0
        if not 0 < value < math.inf:
            raise ValueError(f"RELEVANCE_MIN_CONCEPTS: expected a positive number, got {raw!r}")
        out["min_concepts"] = value
    raw = settings.get("RELEVANCE_CATEGORY_WEIGHTS")
    if raw not in (None, "", {}):
        items = raw.items() if isinstance(raw, dict) else \
            (part.partition("=")[::2] for part in str(raw).split(",") if part.strip())
        weights = {}
        for cat, val in items:
            cat = str(cat).strip()
            try:
                w = float(val)
            except (TypeError, ValueError):
                w = -1.0
            if cat not in CATEGORIES or not 0 <= w < math.inf:
                raise ValueError(f"RELEVANCE_CATEGORY_WEIGHTS: {cat}={val!r}: expected "
                                 f"CATEGORY=WEIGHT with CATEGORY in {', '.join(CATEGORIES)} and "
                                 "WEIGHT a finite number >= 0")
            weights[cat] = w
        if set(weights) >= set(CATEGORIES) and not any(weights.values()):
            raise ValueError("RELEVANCE_CATEGORY_WEIGHTS: every category weighs 0, so every "
                             "page would score 0")
        out["category_weights"] = weights
    return out


class TopicSpider(ListingsMixin, scrapy.Spider):
    name = "topic"

    def __init__(self, seed: str | None = None, topic: str | None = None,
                 strategy: str = "focused", allowed_domains: str | None = None,
                 sitemap: str | None = None,
                 *args, **kwargs):
        unknown = sorted(k for k in kwargs if not k.startswith("_"))
        if unknown:         # (a typo, -a stratgy=bfs, would crawl focused without a word)
            raise ValueError(f"unknown spider argument -a {unknown[0]}=...: the topic spider "
                             f"takes {', '.join(SPIDER_ARGUMENTS)}")
        super().__init__(*args, **kwargs)
        if not topic:
            raise ValueError("a topic file is required: -a topic=TOPIC.toml")
        self.topic = load_topic(topic)           # TopicError names file, key and problem
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {STRATEGIES}, not {strategy!r}")
        self.strategy = strategy
        seeds = read_seeds(seed) + list(self.topic.seeds)
        self.seeds = []
        for url in seeds:
            why = crawlable(url)
            if why:
                raise ValueError(f"seed {url!r} cannot be crawled: {why}")
            if url not in self.seeds:
                self.seeds.append(url)
        if not self.seeds:
            raise ValueError("no seed URL: give -a seed=URL[,URL] or seeds in the topic file")
        self.sitemap_urls = []
        for url in read_seeds(sitemap):
            why = crawlable(url, any_type=True)
            if why:
                raise ValueError(f"sitemap {url!r} cannot be crawled: {why}")
            self.sitemap_urls.append(url)
        # a list, so that Scrapy's OffsiteMiddleware also applies it (to redirects too)
        self.allowed_domains = parse_domains(allowed_domains, self.seeds)
        self.scope = Scope(tuple(self.allowed_domains))   # completed by from_crawler
        self._host_requests: dict[str, int] = {}
        # the spider's own view of the frontier, so that links to fetched pages and links
        # already queued at least as high are neither scored nor turned into requests (the
        # dupefilter, which also survives restarts with JOBDIR, stays the authority)
        self.fetched_urls: set[str] = set()
        self.queued_priority: dict[str, int] = {}

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.corpus_dir = directory_setting(settings.get("CORPUS_DIR"), "CORPUS_DIR", "corpus")
        state_dir = directory_setting(settings.get("STATE_DIR"), "STATE_DIR", "state")
        lock_directory(spider.corpus_dir, "CORPUS_DIR")     # one crawl per directory
        lock_directory(state_dir, "STATE_DIR")
        # two crawls of one JOBDIR would interleave its journal and Scrapy's disk queue
        spider.job_dir = directory_setting(settings["JOBDIR"], "JOBDIR", ".") \
            if settings.get("JOBDIR") else None
        if spider.job_dir is not None:
            lock_directory(spider.job_dir, "JOBDIR")
        spider.obey_robots_meta = bool_setting(settings, "ROBOTS_META_OBEY", True)
        spider.revisit_after = hours_setting(settings.get("REVISIT_AFTER"), "REVISIT_AFTER")
        spider.retry_failed_after = hours_setting(settings.get("RETRY_FAILED_AFTER"),
                                                  "RETRY_FAILED_AFTER")
        # what Scrapy's retry middleware counts as passing: statuses and download errors
        spider.transient_statuses = status_codes(settings, "RETRY_HTTP_CODES")
        spider.transient_errors = retry_exceptions(settings)
        # "come back later": such an answer says nothing of the page (no feedback), whether
        # or not the host is backed off for it
        spider.later_statuses = frozenset(BACKOFF_HTTP_CODES) | backoff_codes(settings)
        spider.sitemaps = ListingBudget(max_urls=number_setting(
            settings, "SITEMAP_MAX_URLS", MAX_URLS_PER_HOST, integer=True))
        spider.sitemap_max_bytes = size_cap(number_setting(
            settings, "DOWNLOAD_MAXSIZE", 0, integer=True))
        spider.sitemap_locks = {}           # host -> DeferredLock: one sitemap read at a time
        spider.max_links = number_setting(settings, "MAX_LINKS_PER_PAGE", MAX_LINKS_PER_PAGE,
                                          integer=True) or None
        spider.seed_hosts = {host_name(canonical(url)) for url in spider.seeds}
        spider.follow_feeds = bool_setting(settings, "FOLLOW_FEEDS", True)
        spider.feeds = ListingBudget(max_files=number_setting(
            settings, "FEEDS_PER_HOST", FEEDS_PER_HOST, integer=True), max_urls=0)
        spider.revisited_hosts: set[str] = set()
        busy_host_slack(settings)           # the frontier's: checked before the crawl opens
        spider.scope = Scope.from_settings(settings, spider.allowed_domains)
        spider.prune = PruneRules.from_settings(settings)
        spider.target = PruneRules.from_settings(settings, "target")
        for url in spider.seeds:
            why = spider.scope.refusal(canonical(url))
            if why:
                raise ValueError(f"seed {url!r} is outside the crawl's scope ({why}: "
                                 f"{spider.scope.describe()})")
        spider.crawl_state = CrawlState.open(
            state_dir, spider.topic,
            threshold=number_setting(settings, "RELEVANCE_THRESHOLD", None, maximum=1.0),
            auto_accept=number_setting(settings, "FEATURE_AUTO_ACCEPT", 0.1),
            sibling_pages=number_setting(settings, "SIBLING_CACHE_PAGES", 8, integer=True),
            relevance_options=relevance_options(settings),
            auto_threshold=bool_setting(settings, "RELEVANCE_AUTO_THRESHOLD", True),
            learn_from=settings.get("FEATURE_LEARN_FROM") or "written")
        spider.crawl_state.failures.max_runs = number_setting(
            settings, "RETRY_FAILED_TIMES", RETRY_FAILED_TIMES, integer=True)
        for url in spider.seeds:
            spider.crawl_state.scorer.add_exemplar(canonical(url))
        log_path = Path(settings.get("CRAWL_LOG") or spider.corpus_dir / "crawl-log.jsonl")
        try:
            spider.crawl_log = CrawlLog(log_path)
        except OSError as error:
            raise ValueError(f"CRAWL_LOG: cannot open {str(log_path)!r}: "
                             f"{error.strerror or error}") from error
        try:
            spider.warc = open_archive(settings, spider.corpus_dir, {
                "isPartOf": spider.topic.name,
                "robots": "obey" if bool_setting(settings, "ROBOTSTXT_OBEY") else "ignore",
                "http-header-user-agent": settings.get("USER_AGENT") or ""})
        except BaseException:
            spider.crawl_log.close()        # (and its lock: the crawl does not start)
            raise
        crawler.signals.connect(spider._closed, signal=signals.spider_closed)
        crawler.signals.connect(spider._item_failed, signal=signals.item_error)
        crawler.signals.connect(spider._item_failed, signal=signals.item_dropped)
        crawler.signals.connect(spider._callback_failed, signal=signals.spider_error)
        if spider.scope.domains:
            crawler.signals.connect(spider._seed_left_scope, signal=signals.request_scheduled)
        if bool_setting(settings, "FOLLOW_SITEMAPS", True):
            crawler.signals.connect(spider._robots_received, signal=signals.response_received)
        log.info("topic %r, threshold %.3f, %d seeds, strategy %s, scope: %s, corpus %s, "
                 "state %s", spider.topic.name, spider.crawl_state.relevance.threshold,
                 len(spider.seeds), spider.strategy, spider.scope.describe(),
                 spider.corpus_dir, spider.crawl_state.directory)
        if spider.prune.active:
            log.info("pruned from pages (EXTRACTION_PRUNE): %s", spider.prune.describe())
        if spider.target.active:
            log.info("read alone where pages have them (EXTRACTION_TARGET): %s",
                     spider.target.describe())
        return spider

    @property
    def host_requests(self) -> dict[str, int]:
        """Requests sent per host (``MAX_PAGES_PER_HOST``).  With ``JOBDIR``, Scrapy's
        SpiderState extension keeps ``self.state`` across restarts (it is set when the spider
        opens, before any download): the counts live there, so a resumed crawl keeps its caps."""
        saved = getattr(self, "state", None)
        if isinstance(saved, dict):
            return saved.setdefault("host_requests", self._host_requests)
        return self._host_requests

    # ------------------------------------------------------------------ requests
    async def start(self):
        """The seeds, then (``REVISIT_AFTER``) the hubs due for a revisit, then
        (``RETRY_FAILED_AFTER``) the pages whose fetch failed for a passing reason in an
        earlier run, at the link score that scheduled them; each passes the job's seen-URL
        filter (``crawler/revisit.py``)."""
        now, after, revisits = time.time(), self.revisit_after, self.crawl_state.revisits
        failed = dict(self.crawl_state.failures.due(now, self.retry_failed_after))
        frontier = getattr(self.crawler, "priority_dupefilter", None)
        recovered = frontier.recovered if frontier is not None else []
        # a URL the journal recovers after a kill is requested once, as it was queued
        taken = {entry.url for entry in recovered}
        for url in self.seeds:
            url = canonical(url)
            if url in taken:
                continue
            again = self._seed_again(url, now)
            # a seed that never answered (kept as a failure) is fetched past the filter as its
            # first answer, which feeds the statistics, not as a revisit, which does not
            unanswered = again and url not in revisits.pages \
                and url in self.crawl_state.failures.pages
            if again and not unanswered:
                self.revisited_hosts.add(host_name(url))
            yield self._start_request(url, again and not unanswered, seed=True,
                                      retry_failed=failed.pop(url, None) is not None
                                      or unanswered)
        for url in revisits.due_hubs(now, after):
            failed.pop(url, None)
            if url not in taken:
                yield self._start_request(url, True)
        for url, score in failed.items():
            if url not in taken:
                yield self._retry_failed_request(url, score)
        for url in self.sitemap_urls:       # given with -a sitemap=, read on every revisit
            host = host_name(url)
            if url not in taken and self.sitemaps.take_file(host, url):
                yield self._sitemap_request(url, host, again=bool(self.revisited_hosts))
        for entry in recovered:
            request = self._recovered_request(entry)
            if request is not None:
                yield request

    def _seed_again(self, url: str, now: float) -> bool:
        """Whether seed ``url`` is fetched past the job's seen-URL filter (``REVISIT_AFTER``):
        due on the revisit list, or off it (never answered, or fetched only as an ordinary
        page) while the filter holds it as fetched, which would drop it in every run.  A seed
        the job never fetched is an ordinary first fetch."""
        revisits = self.crawl_state.revisits
        if not revisits.seed_due(url, now, self.revisit_after):
            return False
        if url in revisits.pages:
            return True
        df = getattr(self.crawler, "priority_dupefilter", None)
        return df is not None and df.fingerprint(Request(url)) in df.fetched

    def _recovered_request(self, entry: Entry) -> Request | None:
        """A request the previous run of the job queued and never fetched before it was
        killed (``crawler/journal.py``), at its last priority: a page without the evidence it
        was scored with (the queue does not re-score it), a seed, feed or sitemap as such."""
        url, kind = entry.url, entry.kind or ""
        if kind == "seed":
            request = self._start_request(url, False, seed=True)
        elif kind == "feed":
            request = self._fixed_request(url, self.parse_feed, False, listing="feed",
                                          parent=None, feed_relevance=None)
        elif kind.startswith("sitemap="):
            host = kind.partition("=")[2]
            if not self.sitemaps.take_file(host, url):
                return None
            request = self._sitemap_request(url, host, again=False)
        else:
            score = min(1.0, max(0.0, entry.priority / PRIORITY_LEVELS))
            request = self._request(url, entry.priority, None, score, None, None)
            self.queued_priority[url] = entry.priority
        request.meta["depth"] = entry.depth
        request.meta["recovered"] = True
        self.crawler.stats.inc_value("frontier/recovered_requests")
        return request.replace(priority=entry.priority, dont_filter=True)

    def _start_request(self, url: str, again: bool, seed: bool = False,
                       retry_failed: bool = False) -> Request:
        meta = {"seed": True, "listing": "seed"} if seed else {}
        if retry_failed and not again:
            meta["retry_failed"] = True
        return self._fixed_request(url, self.parse, again, **meta)

    def _retry_failed_request(self, url: str, score: float) -> Request:
        """A page whose fetch failed in an earlier run, at the score that scheduled it (and
        with what that score was made of, so the queue re-scores it as the crawl learns)."""
        self.crawler.stats.inc_value("failed/requests")
        components, features, depth = self.crawl_state.failures.evidence.get(
            url, (None, None, None))
        if features is not None and features.size \
                and int(features.max()) >= self.crawl_state.scorer.learner.w.size:
            components = features = depth = None    # rows of another link model: unusable
        request = self._request(url, priority_of(score), None, score, components, features)
        request.meta["retry_failed"] = True
        if depth is not None:
            request.meta["depth"] = depth       # the queue's re-scoring decays by it
        return request.replace(dont_filter=True)

    def _fixed_request(self, url: str, callback, again: bool, **meta) -> Request:
        """A request no link score scheduled (seed, revisited hub, sitemap, feed), ahead of
        every scored link; ``again``: a revisit (``REVISIT_AFTER``), past the job's seen-URL
        filter.  ``meta`` adds to (or overrides) the defaults."""
        if again:
            self.crawler.stats.inc_value("revisit/requests")
        elif meta.get("retry_failed"):
            self.crawler.stats.inc_value("failed/requests")
        return Request(url, callback=callback, errback=self.on_error, priority=SEED_PRIORITY,
                       dont_filter=again or bool(meta.get("retry_failed")),
                       meta={"revisit": again, "parent": None, "link_score": 1.0, **meta})

    def _request(self, url: str, priority: int, parent: str, score: float,
                 components: dict | None, features: list[str] | None) -> Request:
        return Request(url, callback=self.parse, errback=self.on_error, priority=priority,
                       meta={"parent": parent, "link_score": round(score, 4),
                             "link_components": components, "link_features": features})

    # ------------------------------------------------------------------ responses
    async def parse(self, response):
        meta = response.meta
        seq = meta.get("log_seq")
        url = scheduled_url(response.request)
        self.fetched_urls.add(url)
        self.fetched_urls.add(response.url)
        self._fetch_outcome(meta, url, transient=response.status in self.transient_statuses)
        if response.status != 200 or not is_html(response):
            if response.status == 200 and meta.get("seed"):
                async for request in self.listing_seed(response):
                    yield request
            # (the fetch log completed the line unless the body could not be sniffed before
            # it was decoded, see middlewares.maybe_html, or it may be a seed feed or sitemap)
            self.crawl_log.complete(seq, note="not HTML" if response.status == 200
                                    else f"HTTP {response.status}")
            if response.status not in self.later_statuses:
                self._judged(meta, response.url, accepted=False)
            if not (meta.get("revisit") and response.status in self.transient_statuses):
                self._visited(meta, url, hub=False)     # a hub down for now stays listed
            return
        ctype = response.headers.get(b"Content-Type", b"").decode("latin-1") or None
        try:
            doc = parse(response.body, response.url, ctype,
                        prune=self.prune.for_url(response.url),
                        target=self.target.for_url(response.url))
        except ParseError as err:
            self.crawl_log.complete(seq, note=f"not parsed: {err}")
            self._judged(meta, response.url, accepted=False)
            self._visited(meta, url, hub=False)
            return
        if doc.pruned:
            self.crawler.stats.inc_value("prune/pages")
            self.crawler.stats.inc_value("prune/elements", doc.pruned)
        if doc.targeted:
            self.crawler.stats.inc_value("target/pages")
        item = PageItem(url=url, final_url=response.url, status=response.status,
                        depth=meta.get("depth", 0), parent=meta.get("parent"),
                        fetched_at=now_iso(), content_type=ctype, doc=doc,
                        score=meta.get("link_score"), raw=meta.pop("warc_raw", None),
                        warc=meta.get("warc"), revisit=bool(meta.get("revisit")))
        if self.obey_robots_meta:
            item.robots = robots_directives(doc, response.headers.getlist(b"X-Robots-Tag"),
                                            self.crawler.settings.get("BOT_NAME") or "")
        item.judged = Deferred()
        yield item
        await maybe_deferred_to_future(item.judged)
        self.crawl_log.complete(seq, relevance=None if item.relevance is None
                                else round(item.relevance, 6),
                                on_topic=item.on_topic, accepted=item.accepted,
                                reason=item.reason,
                                title=item.extraction.title if item.extraction else None)
        links = self._outlinks(item, response)
        # a hub is not written but was worth fetching when it leads somewhere new: the link
        # model, site and trap statistics then count it as accepted
        useful_hub = item.hub and self._leads_elsewhere(response.url, links)
        self._judged(meta, response.url, accepted=item.accepted or useful_hub,
                     on_topic=item.on_topic)
        self._visited(meta, url, item.hub)
        for request in self._follow(item, response, links):
            yield request
        if self.follow_feeds and (meta.get("seed") or item.on_topic) \
                and "nofollow" not in item.robots:
            for request in self._feed_requests(item, response):
                yield request

    def _leads_elsewhere(self, url: str, links: list) -> bool:
        """Whether the hub at ``url`` links a URL the job does not know (``leads_elsewhere``):
        neither queued in this run nor fetched or queued by an earlier one (the seen-URL
        filter), so a resumed job does not count a hub whose links it knows as useful."""
        fresh = [link for link in links if not self._job_knows(link.url)]
        return leads_elsewhere(url, fresh, self.queued_priority)

    def _fetch_outcome(self, meta: dict, url: str, transient: bool) -> None:
        """Keep a page whose fetch failed for a passing reason (after this run's retries) for
        a later run (``RETRY_FAILED_AFTER``); take it off that list once it answers.  Revisits
        are not kept: their list fetches them again anyway."""
        failures, stats = self.crawl_state.failures, self.crawler.stats
        if not transient:
            if failures.answered(url):
                stats.inc_value("failed/answered")
            return
        if meta.get("revisit"):
            return
        kept = failures.failed_request(url, time.time(), meta)
        stats.inc_value("failed/kept" if kept else "failed/given_up")

    def _judged(self, meta: dict, url: str, accepted: bool, on_topic: bool = False) -> None:
        """Feedback of one fetch to the link model, the trap statistics and the exemplars (a
        revisit gives none: the first fetch of the page did)."""
        if meta.get("revisit"):
            return
        if meta.get("retry_failed"):    # its link taught the model once, at its first fetch
            self.crawl_state.judged(url, None, None, accepted, on_topic)
            return
        self.crawl_state.judged(url, meta.get("link_features"), meta.get("link_components"),
                                accepted, on_topic)

    def _visited(self, meta: dict, url: str, hub: bool) -> None:
        """Keep when seeds and hubs were fetched, for ``REVISIT_AFTER``; a revisited page
        that is no longer a hub is dropped from the list."""
        revisits = self.crawl_state.revisits
        if meta.get("seed"):
            revisits.fetched(url, SEED, time.time())
        elif hub:
            revisits.fetched(url, HUB, time.time())
        elif meta.get("revisit"):
            revisits.forget(url)

    def _outlinks(self, item: PageItem, response) -> list:
        """The page's links that may be followed: not nofollow, not fetched, in scope (all
        of them are fed to the S1 weight statistics first)."""
        if "nofollow" in item.robots:
            self.crawler.stats.inc_value("links/page_nofollow")
            return []
        extraction = item.extraction
        if extraction is not None and self.strategy == "focused" \
                and self.crawl_state.echoes.repeats(response.url, extraction.title,
                                                    extraction.text):
            self.crawler.stats.inc_value("links/echo_pages")    # (crawler/traps.py)
            return []
        nodes = extraction.nodes if extraction is not None else None
        links = extract_links(item.doc, response.url, nodes, limit=self.max_links)
        if self.max_links is not None and len(links) >= self.max_links:
            self.crawler.stats.inc_value("links/pages_capped")
        links = [link for link in links if not link.nofollow]
        if not links:
            return []
        self.crawl_state.observe_urls([link.url for link in links])
        links = [link for link in links if link.url not in self.fetched_urls]
        return self._in_scope(links) if self.scope.active else links

    def _follow(self, item: PageItem, response, links: list) -> list[Request]:
        language = item.relevance_detail.get("language")       # (the relevance's reading)
        return self._requests_for(links, response.url, item.relevance, item.depth,
                                  "new" if item.revisit else "all", language=language)

    def _requests_for(self, links: list, parent: str, relevance: float | None, depth: int,
                      inlinks: str = "all", keep: int | None = None,
                      language: str | None = None) -> list[Request]:
        """Score ``links`` found on ``parent`` (judged ``relevance``, at ``depth``, in
        ``language``) and turn the new or upgraded ones into requests (``inlinks`` as in
        ``LinkScorer.score``); ``keep``: only the best-scored so many (the first so many for
        ``bfs`` / ``parent``)."""
        if keep is not None and self.strategy != "focused":
            links = links[:keep]
        if not links:
            return []
        state = self.crawl_state
        urls = [link.url for link in links]
        if self.strategy == "bfs":
            return [self._request(u, 0, parent, 0.0, None, None) for u in urls
                    if self._enqueue(u, 0)]
        if self.strategy == "parent":
            p = state.scorer.parent_component(relevance)
            return [self._request(u, priority_of(p), parent, p, {"parent": p}, None)
                    for u in urls if self._enqueue(u, priority_of(p))]
        scored = state.scorer.score(links, relevance, depth, state.traps.factors(urls),
                                    inlinks=inlinks, language=language)
        if keep is not None:
            scored = best_scored(scored, keep)
        requests = []
        for s in scored:
            if s.score <= 0.0:
                self.crawler.stats.inc_value("links/refused_trap")
                continue
            if self._enqueue(s.link.url, s.priority):
                requests.append(self._request(s.link.url, s.priority, parent, s.score,
                                              s.components, s.features))
        self.crawler.stats.inc_value("links/scheduled", len(requests))
        return requests

    def _in_scope(self, links: list) -> list:
        """The links inside the crawl's scope; the others are counted by reason
        (``scope/links_dropped/<reason>``) and never scored."""
        scope, stats, kept = self.scope, self.crawler.stats, []
        for link in links:
            why = scope.refusal(link.url)
            if why is None and scope.capped(host_name(link.url), self.host_requests):
                why = "host cap"
            if why is None:
                kept.append(link)
            else:
                stats.inc_value(f"scope/links_dropped/{why}")
        return kept

    def _enqueue(self, url: str, priority: int) -> bool:
        """New URL, or one queued before with a priority this one beats (an upgrade)."""
        old = self.queued_priority.get(url)
        if old is not None and priority < old + UPGRADE_MARGIN:
            return False
        self.queued_priority[url] = priority
        return True

    # ------------------------------------------------------------------ errors, closing
    def on_error(self, failure: Failure):
        request = failure.request
        if failure.check(IgnoreRequest):
            self.crawler.stats.inc_value("fetch/ignored")
            # a response refused after its line was opened (a decompressed body over
            # DOWNLOAD_MAXSIZE): its line is complete now, not held until it expires
            self.crawl_log.complete(request.meta.get("log_seq"),
                                    note=f"ignored: {failure.getErrorMessage()}")
            if request.meta.get("seed") and not failure.check(AlreadyFetched):
                # robots.txt, the scope (a seed redirected off its domains): said, not only
                # counted, or a crawl of refused seeds ends without a word
                log.warning("seed %s was not fetched: %s", request.url,
                            failure.getErrorMessage())
                self.crawler.stats.inc_value("seeds/refused")
            if request.meta.get("retry_failed") and not failure.check(AlreadyFetched):
                # before its download, refused by the crawl's rules (scope, host cap,
                # robots.txt): one more failed run (the robots.txt path has counted it
                # already); after it (too many redirects, too large): answered
                self._fetch_outcome(request.meta, scheduled_url(request),
                                    transient=request.meta.get("log_seq") is None)
            return
        self.fetched_urls.add(request.url)
        seq = request.meta.get("log_seq")
        if self.crawl_log.is_open(seq):
            # the response came but a downloader middleware failed on it (a body that is not
            # the gzip it claims, a malformed redirect): its line is complete now, with the
            # error, not held back (holding every later line) until it expires
            error = f"{failure.type.__name__}: {failure.getErrorMessage()}"
            log.warning("response of %s failed: %s", request.url, error)
            self.crawler.stats.inc_value("fetch/response_errors")
            self.crawl_log.complete(seq, error=error)
        if request.meta.get("seed"):
            log.error("seed %s is unreachable: %s", request.url, failure.getErrorMessage())
            self.crawler.stats.inc_value("seeds/unreachable")
        if request.callback == self.parse:      # a page, not a sitemap or feed
            # (a body that does not decode, gzip.BadGzipFile, is an OSError as a refused
            # connection is, but the next run would get the same bytes)
            transient = bool(failure.check(*self.transient_errors)) \
                and not failure.check(*UNDECODABLE_BODY)
            self._fetch_outcome(request.meta, scheduled_url(request), transient=transient)
        self._judged(request.meta, request.url, accepted=False)

    def _seed_left_scope(self, request=None, spider=None):
        """Say so when a seed redirects off the allowed domains: Scrapy's offsite filter drops
        the redirect when it is scheduled, before any errback, with a debug line."""
        meta = request.meta
        # (a request that skips the filter, a revisited seed, is dropped by the scope's own
        # middleware, whose refusal reaches the errback, which reports it)
        if meta.get("seed") and meta.get("redirect_urls") and not request.dont_filter \
                and self.scope.refusal(request.url) == "offsite":
            log.warning("seed %s was not fetched: it redirects to %s, outside the allowed "
                        "domains", meta["redirect_urls"][0], request.url)
            self.crawler.stats.inc_value("seeds/refused")

    def _item_failed(self, item=None, response=None, spider=None, failure=None, **kw):
        if isinstance(item, PageItem) and item.judged is not None and not item.judged.called:
            item.reason = f"pipeline error: {failure.getErrorMessage() if failure else '?'}"
            item.judged.callback(item)

    def _callback_failed(self, failure=None, response=None, spider=None):
        if response is not None:
            self.crawl_log.complete(response.meta.get("log_seq"),
                                    note=f"callback error: {failure.getErrorMessage()}")

    def _closed(self, spider=None, reason=None):
        try:
            self.crawl_state.save()
        finally:                    # a failed save (STATE_DIR full) still closes the rest
            try:
                # each closed on its own: a full disk under one still closes the others and
                # writes the summary
                for name, close in (("crawl log", self.crawl_log.close),
                                    ("WARC archive", self.warc.close if self.warc else None)):
                    try:
                        if close is not None:
                            close()
                    except OSError as err:
                        log.error("cannot close the %s: %s", name, err)
                stats = self.crawler.stats
                # Scrapy's own reason (closespider_pagecount, shutdown) when no rule of ours
                # gave one: StallMonitor's handler, which would set it, may run after this one
                if stats.get_value("crawl/stop_reason") is None:
                    stats.set_value("crawl/stop_reason", reason)
                write_summary(self.corpus_dir / "crawl-summary.json", stats.get_stats(),
                              reason)
                log.info("crawl closed (%s): %s responses, %s documents written to %s, state "
                         "in %s", stats.get_value("crawl/stop_reason") or reason,
                         stats.get_value("fetch/responses", 0),
                         stats.get_value("corpus/documents", 0), self.corpus_dir / "documents",
                         self.crawl_state.directory)
            finally:
                unlock_directory(self.corpus_dir)
                unlock_directory(self.crawl_state.directory)
                if self.job_dir is not None:
                    unlock_directory(self.job_dir)
