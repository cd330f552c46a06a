"""Everything a crawl learns, kept in ``STATE_DIR`` and reused by the next run.

================================  ===========================================================
``url_weights.json``              S1 element weights (self-tuning, §7.4)
``document_frequencies.json``     document frequencies for TF-IDF (§8.7)
``candidates.tsv``                the dynamic topic feature library, reviewable (§8.9)
``library_state.json``            the library's own counts between updates
``link_model.npz``                the online link model (relevance feedback)
``traps.json``                    per-URL-template fetch / accept counts
``exemplars.json``                accepted page URLs (S1 exemplars)
``dedup.pickle``                  written URLs, text hashes and the near-duplicate index
``site_stats.json``               fetched / accepted pages per host and first directory
``component_weights.json``        the link score's self-tuning component weights and their sums
``learned_share.json``            the link score's self-tuning share of the learned model
``inlinks.json``                  per URL: judged pages linking it, sum of their parent values
``discovered.txt``                URLs already counted in the S1 weight statistics
``threshold.json``                the automatic threshold and the judged pages' scores (binned
                                  beyond 2,000)
``revisit.json``                  when each seed and hub was last fetched (``REVISIT_AFTER``)
``failed.json``                   pages whose fetch failed for a passing reason, for a later
                                  run (``RETRY_FAILED_AFTER``)
``topic.json``                    which topic the state belongs to
================================  ===========================================================
"""
from __future__ import annotations

import json
import logging
import pickle
import zipfile
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .dedup import DuplicateIndex
from .link_scoring import LinkScorer
from .online import OnlineLogistic
from .relevance.frequencies import DocumentFrequencies, atomic_write_text
from .relevance.library import FeatureLibrary
from .relevance.model import PageTerms, Relevance, RelevanceModel
from .relevance.threshold import AutoThreshold
from .relevance.topic import Topic
from .revisit import FailedFetches, RevisitList
from .traps import EchoPages, TrapDetector
from .url_similarity import UrlSimilarity, WeightTuner

log = logging.getLogger(__name__)
LEARN_FROM = ("written", "relevant")
SIBLING_SITES = 64   # sites whose recent pages are kept for E5/E6 (memory bound)
SITE_TITLES = 4      # <title>s kept per site: they show its title template (extraction titles)


def _keep_recent(cache: OrderedDict, site: str, url: str, value: Any, per_site: int) -> None:
    """Put ``value`` for ``url`` in ``cache[site]`` as its most recent, keeping ``per_site``
    URLs per site and the :data:`SIBLING_SITES` most recently used sites."""
    kept = cache.setdefault(site, OrderedDict())
    cache.move_to_end(site)
    kept[url] = value
    kept.move_to_end(url)
    while len(kept) > per_site:
        kept.popitem(last=False)
    while len(cache) > SIBLING_SITES:
        cache.popitem(last=False)


@contextmanager
def _state_file(path: Path):
    """Errors reading the state file ``path`` (truncated, emptied, edited by hand) become a
    ``ValueError`` naming it: the crawl stops with ``PATH: problem``, not a bare traceback."""
    try:
        yield
    except ValueError as err:
        if str(path) in str(err):
            raise
        raise ValueError(f"{path}: damaged state file: {err}") from err
    except (TypeError, AttributeError, KeyError, IndexError, EOFError, OverflowError,
            pickle.UnpicklingError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path}: damaged state file: {type(err).__name__}: {err}") from err


@dataclass
class CrawlState:
    directory: Path
    topic: Topic
    relevance: RelevanceModel
    library: FeatureLibrary
    frequencies: DocumentFrequencies
    scorer: LinkScorer
    tuner: WeightTuner
    traps: TrapDetector
    dedup: DuplicateIndex
    siblings: OrderedDict[str, OrderedDict] = field(default_factory=OrderedDict)
    site_titles: OrderedDict[str, OrderedDict] = field(default_factory=OrderedDict)
    discovered: set[str] = field(default_factory=set)
    sibling_pages: int = 8
    auto_threshold: AutoThreshold | None = None
    learn_from: str = "written"     # LEARN_FROM: which pages feed the dynamic library
    revisits: RevisitList = field(default_factory=RevisitList)
    failures: FailedFetches = field(default_factory=FailedFetches)
    echoes: EchoPages = field(default_factory=EchoPages)   # pages whose links are not followed

    # ------------------------------------------------------------------ construction
    @classmethod
    def open(cls, directory: str | Path, topic: Topic, *, threshold: float | None = None,
             auto_accept: float = 0.1, sibling_pages: int = 8,
             relevance_options: dict[str, Any] | None = None,
             auto_threshold: bool = False, learn_from: str = "written") -> "CrawlState":
        """Open (or resume) the crawl state in ``directory``; ``relevance_options`` are extra
        keyword options of :class:`~.relevance.model.RelevanceModel` (``min_concepts``,
        ``category_weights``, ...).  ``auto_threshold``: let the judged pages' scores lower
        the default threshold (:mod:`.relevance.threshold`); ignored when ``threshold`` or
        the topic file sets one.  ``learn_from``: the pages the dynamic feature library learns
        from, ``written`` (the corpus's documents) or ``relevant`` (every page at or above
        the threshold, duplicates, hubs and ``noindex`` pages included)."""
        if learn_from not in LEARN_FROM:
            raise ValueError(f"FEATURE_LEARN_FROM: expected one of {', '.join(LEARN_FROM)}, "
                             f"got {learn_from!r}")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        marker = directory / "topic.json"
        if marker.is_file():
            with _state_file(marker):
                previous = json.loads(marker.read_text(encoding="utf-8"))
                if not isinstance(previous, dict):
                    raise ValueError("not a topic marker (an object with a name)")
                previous = previous.get("name")
            if previous != topic.name:
                log.warning("STATE_DIR %s holds the state of topic %r, not %r: its learned "
                            "weights and statistics are reused anyway", directory, previous,
                            topic.name)
        frequencies = DocumentFrequencies.load(directory)
        library = FeatureLibrary.load(directory, min_weight=auto_accept)
        relevance = RelevanceModel(topic, frequencies, library=library, threshold=threshold,
                                   **(relevance_options or {}))
        with _state_file(directory / "url_weights.json"):
            tuner = WeightTuner.load(directory / "url_weights.json") \
                if (directory / "url_weights.json").is_file() else WeightTuner()
        similarity = UrlSimilarity(tuner.levels, w_f=tuner.w_f, w_dd=tuner.w_dd)
        with _state_file(directory / "link_model.npz"):
            learner = OnlineLogistic.load(directory / "link_model.npz") \
                if (directory / "link_model.npz").is_file() else OnlineLogistic()

        scorer = LinkScorer(lambda text: relevance.vector.concept_hits(text),
                            relevance.threshold, similarity, learner,
                            hits_for=lambda language: relevance.vector_for(language).concept_hits)
        revisits, failures = RevisitList(), FailedFetches()
        auto = AutoThreshold(relevance.threshold) \
            if auto_threshold and threshold is None and topic.threshold is None else None
        loaders = [("site_stats.json", scorer.load_site_stats),
                   ("inlinks.json", scorer.load_inlink_stats),
                   ("component_weights.json", scorer.tuning.load),
                   ("learned_share.json", scorer.share.load),
                   ("revisit.json", revisits.load),
                   ("failed.json", failures.load)]
        if auto is not None:
            loaders.append(("threshold.json", auto.load))
        for name, load in loaders:
            path = directory / name
            if path.is_file():
                with _state_file(path):
                    load(json.loads(path.read_text(encoding="utf-8")))
        exemplars = directory / "exemplars.json"
        if exemplars.is_file():
            with _state_file(exemplars):
                urls = json.loads(exemplars.read_text(encoding="utf-8"))
                if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
                    raise ValueError("not a list of URLs")
            for url in urls:
                scorer.add_exemplar(url)
        with _state_file(directory / "traps.json"):
            traps = TrapDetector.load(directory / "traps.json")
        with _state_file(directory / "dedup.pickle"):
            dedup = DuplicateIndex.load(directory / "dedup.pickle")
        state = cls(directory, topic, relevance, library, frequencies, scorer, tuner,
                    traps, dedup,
                    sibling_pages=sibling_pages, learn_from=learn_from, revisits=revisits,
                    failures=failures)
        if auto is not None:
            state.auto_threshold = auto
            state.set_threshold(auto.value)     # the value a resumed crawl had reached
        seen = directory / "discovered.txt"     # URLs already fed to the S1 weight statistics
        if seen.is_file():
            state.discovered.update(filter(None, seen.read_text(encoding="utf-8").split("\n")))
        atomic_write_text(marker, json.dumps({"name": topic.name}))
        return state

    # ------------------------------------------------------------------ S1 weights
    def observe_urls(self, urls: list[str]) -> None:
        """Feed newly discovered URLs to the S1 weight statistics; apply updated weights."""
        fresh = [u for u in urls if u not in self.discovered]
        self.discovered.update(fresh)
        if self.tuner.observe_many(fresh):
            self.scorer.url_similarity.set_weights(self.tuner.levels, self.tuner.w_f,
                                                   self.tuner.w_dd)

    # ------------------------------------------------------------------ judging a page
    def judge_relevance(self, doc: Any, text: str, url: str, observe: bool = True,
                        language: str | None = None) -> tuple[Relevance, PageTerms]:
        """S2 relevance of a parsed page given its main ``text`` (the relevance pipeline's
        step, shared with the simulation); with ``observe`` (not for a page fetched again)
        the page also feeds the IDF statistics and the automatic threshold.  Returns the
        relevance and the analysed page, which the caller passes to :meth:`learn` when
        ``learn_from`` says so: at once (``relevant``; the library skips pages below the
        threshold) or once the page is written (``written``).  ``language``: the
        extraction's, when ``text`` is its non-empty main text (saves detecting it twice)."""
        model = self.relevance
        page = model.analyse(doc, text, url, language)
        if observe and not page.info.get("off_language"):
            self.frequencies.add(page.terms)
        relevance = model.score_page(page)
        if observe and self.auto_threshold is not None and not relevance.reason:
            change = self.auto_threshold.observe(relevance.score)
            if change is not None:
                log.info("relevance threshold %.3f -> %.3f (%d judged pages; %s)",
                         model.threshold, change.value, self.auto_threshold.judged,
                         change.reason)
                self.set_threshold(change.value)
        return relevance, page

    def learn(self, page: PageTerms, relevance: Relevance) -> list:
        """Feed a judged page to the dynamic feature library; returns the terms an update
        accepted (usually none)."""
        return self.relevance.learn(page, relevance)

    def set_threshold(self, threshold: float) -> None:
        """η for the relevance verdicts and the link score's parent component."""
        self.relevance.set_threshold(threshold)
        self.scorer.set_threshold(threshold)

    def duplicate(self, url: str, final_url: str, text: str) -> tuple[str | None, str | None, Any]:
        """``(kind, original, minhash)`` of a page against everything written so far: kind
        ``"url"``, ``"exact"``, ``"near"`` or None (the dedup pipeline's step).  A redirected
        page whose scheduled URL was written before is a URL duplicate."""
        kind, original, minhash = self.dedup.check(final_url, text)
        if kind is None and url != final_url and url in self.dedup.urls:
            kind, original = "url", url
        return kind, original, minhash

    # ------------------------------------------------------------------ feedback
    def judged(self, url: str, features: list[str] | None, components: dict | None,
               accepted: bool, on_topic: bool = False) -> None:
        """One judged fetch, fed to the link model (with the features and components of the
        link that led to it), the trap statistics and, when on topic, the S1 exemplars."""
        self.scorer.feedback(url, features, components, accepted)
        self.traps.record(url, accepted)
        if on_topic:
            self.scorer.add_exemplar(url)

    # ------------------------------------------------------------------ siblings
    def remember_page(self, site: str, url: str, doc: Any) -> None:
        """Keep ``doc`` among the ``sibling_pages`` most recent pages of ``site``, and the
        sites among the :data:`SIBLING_SITES` most recently seen (a crawl of many hosts keeps
        a bounded number of parsed pages)."""
        _keep_recent(self.siblings, site, url, doc, self.sibling_pages)

    def titles_beside(self, site: str, url: str) -> list[str]:
        """The ``<title>`` of the recent pages of ``site`` other than ``url``."""
        return [t for u, t in (self.site_titles.get(site) or {}).items() if u != url]

    def remember_title(self, site: str, url: str, title: str | None) -> None:
        """Keep ``title`` among the :data:`SITE_TITLES` most recent of ``site`` (of the
        :data:`SIBLING_SITES` most recently seen sites)."""
        if title:
            _keep_recent(self.site_titles, site, url, title, SITE_TITLES)

    def sibling_for(self, site: str, url: str) -> Any | None:
        """The cached page of the same site whose URL is most similar (S1) to ``url``."""
        pages = self.siblings.get(site)
        candidates = [u for u in (pages or ()) if u != url]
        if not candidates:
            return None
        scores = self.scorer.url_similarity.score_matrix([url], candidates)[0]
        return pages[candidates[int(scores.argmax())]]

    # ------------------------------------------------------------------ persistence
    def save(self) -> None:
        d = self.directory
        self.frequencies.save(d)
        self.library.save(d)
        self.tuner.save(d / "url_weights.json")
        self.scorer.learner.save(d / "link_model.npz")
        self.traps.save(d / "traps.json")
        atomic_write_text(d / "exemplars.json", json.dumps(self.scorer.exemplars))
        atomic_write_text(d / "site_stats.json", json.dumps(self.scorer.site_stats()))
        atomic_write_text(d / "inlinks.json", json.dumps(self.scorer.inlink_stats()))
        atomic_write_text(d / "component_weights.json",
                          json.dumps(self.scorer.tuning.to_dict()))
        atomic_write_text(d / "learned_share.json", json.dumps(self.scorer.share.to_dict()))
        atomic_write_text(d / "revisit.json", json.dumps(self.revisits.to_dict()))
        atomic_write_text(d / "failed.json", json.dumps(self.failures.to_dict()))
        atomic_write_text(d / "discovered.txt", "".join(u + "\n" for u in self.discovered))
        self.dedup.save(d / "dedup.pickle")
        if self.auto_threshold is not None:
            atomic_write_text(d / "threshold.json", json.dumps(self.auto_threshold.to_dict()))
