"""Container votes: the element holding most of a page's prose, `auto`'s last fallback.

The idea is Arc90's readability (scores of paragraphs passed up to their containers), computed
here over the document's node arrays and the block table; every constant is ours:

- every block of at least ``MIN_VOTE_CHARS`` characters votes ``1 + commas + min(3, chars/100)``
  for the element holding it (its parent) and half of that for the grandparent;
- an element's score is its votes plus a prior by tag (``TAG_PRIOR``) and by class/id hint
  (``HINT_PRIOR`` up for a content hint, down for a boilerplate hint), times its share of text
  outside links;
- the box is the best element and those of its siblings scoring at least ``SIBLING_SHARE`` of
  it.

It returns text where the learned model is sure of nothing (e.g. a short story above long
comments on a template unlike every training page), instead of an empty result.
"""
from __future__ import annotations

import numpy as np

from .document import Document, tag_code

MIN_VOTE_CHARS = 25
SIBLING_SHARE = 0.2
HINT_PRIOR = 25.0
TAG_PRIOR = {"div": 5.0, "article": 5.0, "main": 5.0, "section": 3.0, "pre": 3.0, "td": 3.0,
             "blockquote": 3.0, "address": -3.0, "ol": -3.0, "ul": -3.0, "dl": -3.0,
             "dd": -3.0, "dt": -3.0, "li": -3.0, "form": -3.0, "h1": -5.0, "h2": -5.0,
             "h3": -5.0, "h4": -5.0, "h5": -5.0, "h6": -5.0, "th": -5.0}
_COMMAS = (",", "，", "、")


def container_scores(doc: Document, owners: np.ndarray, texts: list[str],
                     negative: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """Score of every element (array of ``doc.size``; 0 for elements no block voted for) from
    the blocks' owner elements and texts and the class/id hint masks."""
    n = doc.size
    score = np.zeros(n)
    length = np.fromiter(map(len, texts), dtype=float, count=len(texts))
    voting = (owners < n) & (length >= MIN_VOTE_CHARS)
    if not voting.any():
        return score
    commas = np.array([sum(t.count(c) for c in _COMMAS) for t in texts], dtype=float)
    vote = 1.0 + commas + np.minimum(3.0, length / 100.0)
    parent = np.where(owners < n, doc.parent[np.minimum(owners, n - 1)], -1)
    grand = np.where(parent >= 0, doc.parent[np.maximum(parent, 0)], -1)
    voted = np.zeros(n, dtype=bool)
    for ancestor, share in ((parent, 1.0), (grand, 0.5)):
        ok = voting & (ancestor >= 0)
        np.add.at(score, ancestor[ok], vote[ok] * share)
        voted[ancestor[ok]] = True
    cand = np.flatnonzero(voted)
    prior = np.zeros(len(cand))
    tags = doc.tag[cand]
    for tag, value in TAG_PRIOR.items():
        prior[tags == tag_code(tag)] += value
    prior += HINT_PRIOR * (positive[cand].astype(float) - negative[cand].astype(float))
    stats = doc.stats
    clean = 1.0 - stats.link_text[cand] / np.maximum(stats.text[cand], 1)
    out = np.zeros(n)
    out[cand] = (score[cand] + prior) * clean
    return out


def best_box(doc: Document, scores: np.ndarray) -> list[int]:
    """The best-scored element and its siblings scoring at least ``SIBLING_SHARE`` of it
    (empty when no element scores above 0)."""
    if not len(scores) or scores.max() <= 0:
        return []
    best = int(np.argmax(scores))
    top = scores[best]
    parent = doc.parent[best]
    if parent < 0:
        return [best]
    siblings = np.flatnonzero((doc.parent == parent) & (scores >= SIBLING_SHARE * top))
    return sorted({best, *siblings.tolist()})
