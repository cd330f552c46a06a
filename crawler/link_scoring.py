"""Score the outgoing links of a fetched page before they are requested.

Components, each in [0, 1] and logged with every request:

``url``      S1 URL similarity to the exemplar set (seed URLs and accepted pages; §7, one
             vectorised batch per page, self-tuning weights)
``anchor``   topic concepts in the anchor text (after concept substitution, §8.8)
``context``  topic concepts in the text of the block around the anchor
``parent``   the relevance of the pages linking the URL, relative to the topic threshold:
             the mean over every judged page found linking it so far (a page linked from
             on-topic and off-topic pages alike is a hub, not a target), recomputed at rescoring
``learned``  relevance feedback: an online logistic model of "link leads to an accepted page"
             over hashed host / path / anchor / context / placement features, trained on the
             pages the crawl has already judged
``place``    the link lies in the extracted main text (in-article) rather than in boilerplate
``inlinks``  how many judged pages link the URL so far, ``1 - 1/n``; an input of the learned
             model only, not of the prior: on the crawl logs of bench/crawl.py it ranks
             targets below chance (AUC 0.38-0.48 over the four topics' frontiers), the
             pages linked from everywhere being hubs (countries, years, index pages)
``site``     the smoothed share of accepted pages among the fetched pages of the link's host
             and of its first directory (site-level relevance learnt during the crawl)

The prior score is their weighted mean, with weights that tune themselves during the crawl
(:mod:`crawler.component_weights`: from ``WEIGHTS`` towards each component's correlation with
the verdicts of the judged fetches).  The learned model sees the same components
(bucketed) besides its hashed features, and takes over from the prior as its evidence grows:
``score = (1 - t) * prior + t * learned`` with ``t = share * min(1, n / LEARNED_FULL_AT)``, the
share starting at ``LEARNED_SHARE`` and tuned by the log loss on the judged fetches
(:class:`crawler.component_weights.LearnedShare`).
The result is multiplied by the trap factor (``traps.TrapDetector``), a mild depth decay and,
for a URL that at most one judged page links so far, ``SINGLE_LINK_FACTOR``: such links hold the
dead ones (a link to a missing page is rarely repeated on a second page) and one-off pages; the
penalty goes once a second page links the URL (at its next re-scoring).
Queued links are re-scored lazily when they reach the head of the queue
(:class:`crawler.frontier.RescoringPriorityQueue`), so what the crawl learns also reorders
links found before it learned it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence
from urllib.parse import unquote, urlsplit

import numpy as np

from .component_weights import ComponentWeights, LearnedShare
from .links import Link
from .online import OnlineLogistic
from .url_similarity import UrlSimilarity

# the prior's default weights, where the self-tuning (crawler.component_weights) starts
WEIGHTS = {"url": 0.1, "anchor": 0.15, "context": 0.1, "parent": 0.35, "place": 0.05,
           "site": 0.25}
# components the learned model sees (bucketed) besides its hashed features
LEARNED_INPUTS = (*WEIGHTS, "inlinks")
SITE_PRIOR_STRENGTH = 4.0   # pseudo-fetches of the overall acceptance rate in a site's rate
LEARNED_SHARE = 0.5     # start of the learned model's (self-tuning) share
LEARNED_FULL_AT = 100   # judged fetches after which it has that weight
DEPTH_DECAY = 0.99
# [ours] chosen on the simulated wikischools crawls of eight topics (README, "Topics the
# defaults were not tuned on"): 0.92-0.7 all gained on the four other topics, 0.85 in the middle
SINGLE_LINK_FACTOR = 0.85
BUCKETS = 5             # the learned model sees each component as one of this many buckets
PRIORITY_LEVELS = 200   # scores are quantised into this many integer request priorities
SEED_PRIORITY = PRIORITY_LEVELS + 10   # seeds, sitemaps and feeds: before any scored link
URL_MEMO_MAX = 1 << 19  # links whose S1 similarity is remembered (cleared when full)
_WORD = re.compile(r"[^\W\d_]{2,}|[\u4e00-\u9fff]")


@dataclass
class ScoredLink:
    link: Link
    score: float
    components: dict[str, float]
    features: np.ndarray    # the learned model's hashed rows of the link's features

    @property
    def priority(self) -> int:
        return priority_of(self.score)


def priority_of(score: float) -> int:
    """Integer request priority of a score in [0, 1] (higher is fetched first).  NaN (damaged
    weights or statistics) is the lowest: min/max would make it the top, ahead of every link."""
    if math.isnan(score):
        return 0
    return int(round(max(0.0, min(1.0, score)) * PRIORITY_LEVELS))


def link_features(link: Link, parent_relevance: float) -> list[str]:
    """Hashed-model features of a link: host, directories, URL words, anchor and context words."""
    return [*_url_features(link.url), f"in_content={link.in_content}",
            f"parent={min(4, int(parent_relevance * 5))}",
            *_text_features("a=", link.anchor, 12), *_text_features("c=", link.context, 40)]


@lru_cache(maxsize=1 << 16)
def _url_features(url: str) -> tuple[str, ...]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    segments = [s for s in unquote(parts.path).split("/") if s]
    feats = [f"host={host}", f"dirs={len(segments)}"]
    feats += [f"dir{i}={s}" for i, s in enumerate(segments[:-1][:3])]
    if parts.query:
        feats.append("has_query")
        feats += [f"qk={kv.split('=', 1)[0]}" for kv in parts.query.split("&")[:5]]
    return (*feats, *_text_features("u=", segments[-1] if segments else "", 12))


@lru_cache(maxsize=1 << 16)
def _text_features(prefix: str, text: str, limit: int) -> tuple[str, ...]:
    words = _WORD.findall(text.replace("_", " "))[:limit]
    return tuple(prefix + w.lower() for w in words)


class LinkScorer:
    """Scores links; learns from the crawl's judgments (``feedback``)."""

    def __init__(self, concept_hits: Callable[[str], float], threshold: float,
                 url_similarity: UrlSimilarity | None = None,
                 learner: OnlineLogistic | None = None,
                 tuning: ComponentWeights | None = None,
                 hits_for: Callable[[str], Callable[[str], float]] | None = None):
        # concept_hits(text): the topic's concepts in a link text; hits_for(language): the
        # same for the texts of a page in that language (its own stop words and stemmer)
        self.concept_hits = concept_hits
        self.hits_for = hits_for
        self.set_threshold(threshold)
        self.url_similarity = url_similarity or UrlSimilarity()
        self.learner = learner or OnlineLogistic()
        self.tuning = tuning or ComponentWeights(WEIGHTS)
        self.share = LearnedShare(LEARNED_SHARE)
        self.exemplars: list[str] = []
        self._exemplar_set: set[str] = set()
        # url -> [judged pages linking it, sum of their parent components]
        self.inlinks: dict[str, list] = {}
        # url -> (S1 similarity, weights version, exemplar count) of its last computation
        self._url_memo: dict[str, tuple[float, int, int]] = {}
        self.site_fetched: dict[str, int] = {}
        self.site_accepted: dict[str, int] = {}
        self.fetched_total = 0
        self.accepted_total = 0

    def set_threshold(self, threshold: float) -> None:
        """The relevance threshold η the parent component is scaled by (kept above zero)."""
        self.threshold = max(threshold, 1e-6)

    # ------------------------------------------------------------------ exemplars
    def add_exemplar(self, url: str) -> None:
        if url not in self._exemplar_set:
            self._exemplar_set.add(url)
            self.exemplars.append(url)

    # ------------------------------------------------------------------ scoring
    @staticmethod
    def _text_score(text: str, hits: Callable[[str], float]) -> float:
        return 1.0 - math.exp(-hits(text)) if text else 0.0

    def url_component(self, urls: Sequence[str]) -> np.ndarray:
        """S1 similarity of every URL to the exemplar set.  A URL met again (navigation links
        recur on every page of a site) reuses its value while the S1 weights are unchanged
        and the exemplar set has not doubled since: the best match over a grown set can only
        be higher, and the link's score is recomputed when it reaches the head of the queue."""
        n = len(self.exemplars)
        if not n:
            return np.zeros(len(urls))
        version, memo = self.url_similarity.version, self._url_memo
        out = np.empty(len(urls))
        todo = []
        for k, url in enumerate(urls):
            hit = memo.get(url)
            if hit is not None and hit[1] == version and 2 * hit[2] >= n:
                out[k] = hit[0]
            else:
                todo.append(k)
        if todo:
            sims, _ = self.url_similarity.best([urls[k] for k in todo], self.exemplars)
            out[todo] = sims
            if len(memo) + len(todo) > URL_MEMO_MAX:
                memo.clear()
            for k, sim in zip(todo, sims.tolist()):
                memo[urls[k]] = (sim, version, n)
        return out

    def parent_component(self, relevance: float | None) -> float:
        if relevance is None:
            return 0.5
        return max(0.0, min(1.0, relevance / (2 * self.threshold)))

    def inlink_component(self, url: str) -> float:
        seen = self.inlinks.get(url)
        return 1.0 - 1.0 / seen[0] if seen else 0.0

    def mean_parent(self, url: str, default: float) -> float:
        """Mean parent component over the judged pages linking ``url`` (``default`` when none
        was recorded; the statistics persist across restarts, see :meth:`inlink_stats`)."""
        seen = self.inlinks.get(url)
        return seen[1] / seen[0] if seen else default

    @staticmethod
    def site_keys(url: str) -> tuple[str, str]:
        return _site_keys(url)

    def record_fetch(self, url: str, accepted: bool) -> None:
        """Site-level statistics of one judged fetch."""
        self.fetched_total += 1
        self.accepted_total += int(accepted)
        for key in self.site_keys(url):
            self.site_fetched[key] = self.site_fetched.get(key, 0) + 1
            if accepted:
                self.site_accepted[key] = self.site_accepted.get(key, 0) + 1

    def site_stats(self) -> dict:
        """The site-level statistics of :meth:`record_fetch`, as saved in ``STATE_DIR``."""
        return {"version": 1, "fetched_total": self.fetched_total,
                "accepted_total": self.accepted_total, "site_fetched": self.site_fetched,
                "site_accepted": self.site_accepted}

    def load_site_stats(self, data: dict) -> None:
        """Take back :meth:`site_stats` (a resumed crawl keeps knowing its productive sites).
        Raises ``ValueError`` on anything else."""
        try:
            if data.get("version") != 1:
                raise ValueError(f"unsupported version {data.get('version')!r}")
            fetched = {str(k): int(v) for k, v in data["site_fetched"].items()}
            accepted = {str(k): int(v) for k, v in data["site_accepted"].items()}
            totals = int(data["fetched_total"]), int(data["accepted_total"])
        except (KeyError, TypeError, AttributeError, OverflowError) as err:
            raise ValueError(f"not site statistics: {err!r}") from err
        self.site_fetched, self.site_accepted = fetched, accepted
        self.fetched_total, self.accepted_total = totals

    def inlink_stats(self) -> dict:
        """The per-URL in-link statistics (judged pages linking it, sum of their parent
        components), as saved in ``STATE_DIR``: a resumed crawl re-scores its queued links
        with them."""
        return {"version": 1, "urls": list(self.inlinks),
                "links": [v[0] for v in self.inlinks.values()],
                "parent_sums": [round(v[1], 6) for v in self.inlinks.values()]}

    def load_inlink_stats(self, data: dict) -> None:
        """Take back :meth:`inlink_stats`; raises ``ValueError`` on anything else."""
        try:
            if data.get("version") != 1:
                raise ValueError(f"unsupported version {data.get('version')!r}")
            urls, links, sums = data["urls"], data["links"], data["parent_sums"]
            if not len(urls) == len(links) == len(sums):
                raise ValueError("columns of different lengths")
            self.inlinks = {str(u): [int(n), float(p)] for u, n, p in zip(urls, links, sums)}
        except (KeyError, TypeError, AttributeError, OverflowError) as err:
            raise ValueError(f"not in-link statistics: {err!r}") from err

    def site_component(self, url: str) -> float:
        rate = (self.accepted_total + 1.0) / (self.fetched_total + 2.0)
        for key in self.site_keys(url):       # host first, then host/first-directory
            n = self.site_fetched.get(key, 0)
            rate = (self.site_accepted.get(key, 0) + SITE_PRIOR_STRENGTH * rate) / \
                (n + SITE_PRIOR_STRENGTH)
        return rate

    @property
    def weights(self) -> dict[str, float]:
        """The prior's component weights now (sum 1)."""
        return self.tuning.current

    @property
    def trust(self) -> float:
        if not self.learner.balanced:
            return 0.0
        return self.share.value * min(1.0, self.learner.seen / LEARNED_FULL_AT)

    def score(self, links: Sequence[Link], parent_relevance: float | None, depth: int,
              trap_factors: Sequence[float] | None = None,
              inlinks: str = "all", language: str | None = None) -> list[ScoredLink]:
        """Score the links of one judged page (``parent_relevance``, at ``depth``, its texts in
        ``language``).  ``inlinks``: ``all``, the page counts as one more page linking each
        URL; ``new``, only for URLs no page was recorded linking (a page fetched again, whose
        old links it already counts for); ``none`` (a sitemap's list, which is no page)."""
        if not links:
            return []
        urls = [link.url for link in links]
        url_sim = self.url_component(urls)
        parent = self.parent_component(parent_relevance)
        linking = self.inlinks
        for url in set(urls) if inlinks != "none" else ():   # one more in-link and parent
            seen = linking.get(url)
            if seen is not None and inlinks == "new":
                continue
            if seen is None:
                linking[url] = [1, parent]
            else:
                seen[0] += 1
                seen[1] += parent
        mean_parent, text_score = self.mean_parent, self._text_score
        hits = self.hits_for(language) if language and self.hits_for is not None \
            else self.concept_hits
        static = [(round(sim, 4), round(text_score(link.anchor, hits), 4),
                   round(text_score(link.context, hits), 4),
                   round(mean_parent(link.url, parent), 4), 1.0 if link.in_content else 0.0)
                  for link, sim in zip(links, url_sim.tolist())]
        rows = self.learner.rows_many([link_features(link, parent) for link in links])
        scores, comps = self._finish(urls, static, rows, depth,
                                     trap_factors if trap_factors is not None
                                     else [1.0] * len(links))
        return [ScoredLink(link, score, comp, r)
                for link, score, comp, r in zip(links, scores.tolist(), comps, rows)]

    def _as_rows(self, features) -> np.ndarray:
        """Hashed rows as :meth:`score` gives them; feature strings (a request queued in a
        ``JOBDIR`` by an earlier version) are hashed now."""
        if isinstance(features, np.ndarray):
            return features
        return self.learner.rows([str(f) for f in features])

    def _bucket_rows(self) -> np.ndarray:
        """Hashed rows of the bucket features (the learned model's view of the components:
        one of ``BUCKETS`` each, ``parent~3``), one row per learned input."""
        table = getattr(self, "_bucket_table", None)
        if table is None or table[0] is not self.learner:
            rows = np.array([[self.learner.rows([name])[0] for name in _BUCKET_NAMES[k]]
                             for k in LEARNED_INPUTS], dtype=np.int64)
            table = self._bucket_table = (self.learner, rows)
        return table[1]

    def _finish(self, urls: Sequence[str], static: Sequence[tuple], rows: Sequence[np.ndarray],
                depth: int | Sequence[int], traps: Sequence[float]
                ) -> tuple[np.ndarray, list[dict]]:
        """Add the crawl-state components (in-links, site) and the learned probability to the
        ``static`` components ``(url, anchor, context, parent, place)`` of each link, and
        blend them for the whole batch at once (one prediction, one matrix product): the prior
        is the weighted mean of the components (the URL component only once there are
        exemplars), blended with the learned probability by :attr:`trust`.  Returns the
        scores and each link's components."""
        n = len(urls)
        inlink, site = self.inlink_component, self.site_component
        dynamic = [(round(inlink(u), 4), round(site(u), 4)) for u in urls]
        # columns in LEARNED_INPUTS order: url, anchor, context, parent, place, site, inlinks
        values = np.empty((n, len(LEARNED_INPUTS)))
        values[:, :5] = np.asarray(static, dtype=float).reshape(n, 5)
        values[:, 5:] = np.asarray(dynamic, dtype=float).reshape(n, 2)[:, ::-1]
        t = self.trust
        if t:
            buckets = np.clip((values * BUCKETS).astype(np.int64), 0, BUCKETS - 1)  # _bucket
            extra = self._bucket_rows()[np.arange(len(LEARNED_INPUTS)), buckets]
            learned = self.learner.predict_rows(rows, extra)
        else:
            learned = np.full(n, 0.5)
        current = self.tuning.current
        weights = np.array([current.get(k, 0.0) if k != "url" or self.exemplars else 0.0
                            for k in LEARNED_INPUTS])
        prior = values @ weights / weights.sum()
        depths = np.full(n, depth) if isinstance(depth, int) else np.asarray(depth)
        decay = np.round(DEPTH_DECAY ** np.maximum(depths, 0), 4)
        trap = np.asarray(traps, dtype=float)
        single = values[:, 6] == 0.0
        scores = ((1.0 - t) * prior + t * learned) * trap * decay * \
            np.where(single, SINGLE_LINK_FACTOR, 1.0)
        comps = [{"url": s[0], "anchor": s[1], "context": s[2], "parent": s[3], "place": s[4],
                  "inlinks": d[0], "site": d[1], "prior": round(pr, 4), "learned": round(p, 4),
                  "trap": round(tr, 4), "depth": dc}
                 for s, d, pr, p, tr, dc in zip(static, dynamic, prior.tolist(), learned.tolist(),
                                                trap.tolist(), decay.tolist())]
        return scores, comps

    def rescore(self, url: str, components: dict, features: np.ndarray, depth: int,
                trap: float) -> ScoredLink:
        """Score a queued link again with what the crawl has learned since it was queued
        (``features``: the :class:`ScoredLink` ``features`` it was queued with)."""
        scores, comps = self.rescore_many([(url, components, features, depth, trap)])
        return ScoredLink(Link(url), float(scores[0]), comps[0], features)

    def rescore_many(self, queued: Sequence[tuple[str, dict, np.ndarray, int, float]]
                     ) -> tuple[np.ndarray, list[dict]]:
        """:meth:`rescore` for many ``(url, components, features, depth, trap)`` at once (one
        batch prediction); returns the new scores and components."""
        mean_parent = self.mean_parent
        urls, static, rows, depths, traps = [], [], [], [], []
        for url, c, features, depth, trap in queued:
            urls.append(url)
            # parent, inlinks, site: recomputed from what the crawl has seen since
            static.append((c.get("url", 0.0), c.get("anchor", 0.0), c.get("context", 0.0),
                           round(mean_parent(url, c.get("parent", 0.5)), 4),
                           c.get("place", 0.0)))
            rows.append(self._as_rows(features))
            depths.append(depth)
            traps.append(trap)
        return self._finish(urls, static, rows, depths, traps)

    # ------------------------------------------------------------------ feedback
    def feedback(self, url: str, features: np.ndarray | None, components: dict | None,
                 accepted: bool) -> None:
        """One judged fetch: the link that led to it (its :class:`ScoredLink` ``features`` and
        ``components`` when it was scheduled) was worth it (accepted) or not."""
        self.record_fetch(url, accepted)
        if components:
            self.tuning.observe(components, accepted)
            if self.trust and "prior" in components:
                self.share.observe(components["prior"], components.get("learned", 0.5),
                                   accepted)
        if features is not None and len(features):
            features = self._as_rows(features)
            buckets = self._bucket_rows()
            extra = [buckets[j, _bucket(components[k])]
                     for j, k in enumerate(LEARNED_INPUTS) if k in (components or {})]
            self.learner.update_rows(features, extra, accepted)


@lru_cache(maxsize=1 << 16)
def _site_keys(url: str) -> tuple[str, str]:
    """The link's host and host/first-directory, the two levels of the site component."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    first = parts.path.lstrip("/").split("/", 1)[0] if "/" in parts.path.lstrip("/") else ""
    return host, f"{host}/{first}"


_BUCKET_NAMES = {k: tuple(f"{k}~{b}" for b in range(BUCKETS)) for k in LEARNED_INPUTS}


def _bucket(value: float) -> int:
    """The bucket of a component value in [0, 1] (``_finish`` does the same for arrays)."""
    return max(0, min(BUCKETS - 1, int(value * BUCKETS)))

