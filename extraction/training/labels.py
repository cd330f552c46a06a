"""Label page fragments (blocks, nodes) as main content by their overlap with gold text.

A fragment is compared with the gold text through token shingles (the evaluation metric's
tokens): a fragment of three or more tokens scores the share of its token trigrams found in the
gold; a shorter one scores 1 when its token sequence occurs contiguously in the gold.
"""
from __future__ import annotations

from typing import Iterable

from ..evaluation import tokens


class GoldIndex:
    """Trigram set and joined token string of one gold text."""

    def __init__(self, gold: str):
        self.tokens = tokens(gold)
        self.joined = " " + " ".join(self.tokens) + " "
        t = self.tokens
        self.trigrams = {(t[i], t[i + 1], t[i + 2]) for i in range(len(t) - 2)}

    def overlap(self, text: str) -> float:
        """Share of ``text`` that is in the gold (0..1); texts without tokens score 0."""
        t = tokens(text)
        if not t:
            return 0.0
        if len(t) < 3:
            return 1.0 if (" " + " ".join(t) + " ") in self.joined else 0.0
        grams = [(t[i], t[i + 1], t[i + 2]) for i in range(len(t) - 2)]
        return sum(g in self.trigrams for g in grams) / len(grams)


def label_texts(texts: Iterable[str], gold: str) -> list[float]:
    index = GoldIndex(gold)
    return [index.overlap(text) for text in texts]
