"""Score the outgoing links of a fetched page before they are requested.

Components, each in [0, 1] and logged with every request:

``url``      S1 URL similarity to the exemplar set (seed URLs and accepted pages; §7, one
             vectorised batch per page, self-tuning weights)
``anchor``   topic concepts in the anchor text (after concept substitution, §8.8)
``context``  topic concepts in the text of the block around the anchor
``parent``   the parent page's relevance relative to the topic threshold
``learned``  relevance feedback: an online logistic model of "link leads to an accepted page"
             over hashed host / path / anchor / context / placement features, trained on the
             pages the crawl has already judged
``place``    the link lies in the extracted main text (in-article) rather than in boilerplate

The score is their weighted mean, the learned model's weight growing with its evidence, times
the trap factor (``traps.TrapDetector``) and a mild depth decay.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Sequence
from urllib.parse import unquote, urlsplit

import numpy as np

from .links import Link
from .online import OnlineLogistic
from .url_similarity import UrlSimilarity

WEIGHTS = {"url": 0.15, "anchor": 0.2, "context": 0.1, "parent": 0.25, "place": 0.05,
           "learned": 0.25}
LEARNED_FULL_AT = 200   # examples after which the learned component has its full weight
DEPTH_DECAY = 0.99
PRIORITY_LEVELS = 200   # scores are quantised into this many integer request priorities
_WORD = re.compile(r"[^\W\d_]{2,}|[\u4e00-\u9fff]")


@dataclass
class ScoredLink:
    link: Link
    score: float
    components: dict[str, float]
    features: list[str]

    @property
    def priority(self) -> int:
        return priority_of(self.score)


def priority_of(score: float) -> int:
    """Integer request priority of a score in [0, 1] (higher is fetched first)."""
    return int(round(max(0.0, min(1.0, score)) * PRIORITY_LEVELS))


def link_features(link: Link, parent_relevance: float) -> list[str]:
    """Hashed-model features of a link: host, directories, URL words, anchor and context words."""
    parts = urlsplit(link.url)
    host = parts.hostname or ""
    segments = [s for s in unquote(parts.path).split("/") if s]
    feats = [f"host={host}", f"dirs={len(segments)}", f"in_content={link.in_content}",
             f"parent={min(4, int(parent_relevance * 5))}"]
    feats += [f"dir{i}={s}" for i, s in enumerate(segments[:-1][:3])]
    if parts.query:
        feats.append("has_query")
        feats += [f"qk={kv.split('=', 1)[0]}" for kv in parts.query.split("&")[:5]]
    last = segments[-1] if segments else ""
    feats += [f"u={w}" for w in _words(last)[:12]]
    feats += [f"a={w}" for w in _words(link.anchor)[:12]]
    feats += [f"c={w}" for w in _words(link.context)[:40]]
    return feats


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("_", " "))]


class LinkScorer:
    """Scores links; learns from the crawl's judgments (``feedback``)."""

    def __init__(self, concept_hits: Callable[[str], float], threshold: float,
                 url_similarity: UrlSimilarity | None = None,
                 learner: OnlineLogistic | None = None, weights: dict | None = None):
        self.concept_hits = concept_hits
        self.threshold = max(threshold, 1e-6)
        self.url_similarity = url_similarity or UrlSimilarity()
        self.learner = learner or OnlineLogistic()
        self.weights = dict(WEIGHTS, **(weights or {}))
        self.exemplars: list[str] = []
        self._exemplar_set: set[str] = set()

    # ------------------------------------------------------------------ exemplars
    def add_exemplar(self, url: str) -> None:
        if url not in self._exemplar_set:
            self._exemplar_set.add(url)
            self.exemplars.append(url)

    # ------------------------------------------------------------------ scoring
    def _text_score(self, text: str) -> float:
        hits = self.concept_hits(text) if text else 0.0
        return 1.0 - math.exp(-hits)

    def parent_component(self, relevance: float | None) -> float:
        if relevance is None:
            return 0.5
        return max(0.0, min(1.0, relevance / (2 * self.threshold)))

    def score(self, links: Sequence[Link], parent_relevance: float | None, depth: int,
              trap_factors: Sequence[float] | None = None) -> list[ScoredLink]:
        if not links:
            return []
        urls = [link.url for link in links]
        if self.exemplars:
            url_sim, _ = self.url_similarity.best(urls, self.exemplars)
        else:
            url_sim = np.zeros(len(urls))
        parent = self.parent_component(parent_relevance)
        feats = [link_features(link, parent) for link in links]
        learned = self.learner.predict(feats) if self.learner.balanced else \
            np.full(len(links), 0.5)
        trust = min(1.0, self.learner.seen / LEARNED_FULL_AT) if self.learner.balanced else 0.0
        w = dict(self.weights)
        w["learned"] *= trust
        if not self.exemplars:
            w["url"] = 0.0
        total = sum(w.values())
        decay = DEPTH_DECAY ** max(depth, 0)
        out = []
        for k, link in enumerate(links):
            comp = {
                "url": round(float(url_sim[k]), 4),
                "anchor": round(self._text_score(link.anchor), 4),
                "context": round(self._text_score(link.context), 4),
                "parent": round(parent, 4),
                "place": 1.0 if link.in_content else 0.0,
                "learned": round(float(learned[k]), 4),
            }
            base = sum(w[name] * comp[name] for name in w) / total
            trap = 1.0 if trap_factors is None else float(trap_factors[k])
            comp["trap"] = round(trap, 4)
            comp["depth"] = round(decay, 4)
            out.append(ScoredLink(link, base * trap * decay, comp, feats[k]))
        return out

    # ------------------------------------------------------------------ feedback
    def feedback(self, features: Sequence[str] | None, accepted: bool) -> None:
        """One judged fetch: the link that led to it was worth it (accepted) or not."""
        if features:
            self.learner.update(features, accepted)
