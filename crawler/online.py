"""A small online logistic regression over hashed string features (relevance feedback).

Used to learn, during the crawl, which links lead to on-topic pages: each judged page gives
one example (the features its link had when it was scheduled, and whether the page was
accepted).  AdaGrad updates, L2 shrinkage; state is a pair of numpy vectors saved as ``.npz``.
"""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

ROW_MEMO_MAX = 1 << 18      # hashed features remembered per model (cleared when full)


def _index(feature: str, bits: int) -> int:
    return zlib.crc32(feature.encode("utf-8")) & ((1 << bits) - 1)


class OnlineLogistic:
    def __init__(self, bits: int = 18, rate: float = 0.3, l2: float = 1e-6):
        self.bits = bits
        self.rate = rate
        self.l2 = l2
        self.w = np.zeros(1 << bits)
        self.g2 = np.full(1 << bits, 1e-8)
        self.bias = 0.0
        self.bias_g2 = 1e-8
        self.seen = 0
        self.positives = 0
        self._memo: dict[str, int] = {}

    def _row_set(self, features: Sequence[str]) -> set[int]:
        memo = self._memo
        rows = set(map(memo.get, features))
        if None in rows:                       # a feature not hashed yet
            if len(memo) > ROW_MEMO_MAX:
                memo.clear()
            bits = self.bits
            for f in features:
                if f not in memo:
                    memo[f] = _index(f, bits)
            rows = set(map(memo.get, features))
        return rows

    def rows(self, features: Sequence[str]) -> np.ndarray:
        """The hashed rows of ``features``, sorted and distinct (``int32``): what a queued
        link keeps instead of its feature strings (:meth:`predict_rows`, :meth:`update_rows`)."""
        return self.rows_many([features])[0]

    def rows_many(self, batch: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """:meth:`rows` of every feature list of ``batch`` (one sort for all)."""
        if not len(batch):
            return []
        sets = [self._row_set(f) for f in batch]
        lengths = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
        flat = np.fromiter((r for s in sets for r in s), dtype=np.int64,
                           count=int(lengths.sum()))
        keys = (np.repeat(np.arange(len(sets), dtype=np.int64), lengths) << self.bits) | flat
        keys.sort()
        rows = (keys & ((1 << self.bits) - 1)).astype(np.int32)
        return np.split(rows, np.cumsum(lengths)[:-1])

    def predict_rows(self, rows: Sequence[np.ndarray], extra: np.ndarray | None = None
                     ) -> np.ndarray:
        """:meth:`predict` for feature sets given as :meth:`rows`, each joined with the row
        of ``extra`` (an ``n x k`` array of rows, or None) of the same index; a row found in
        both counts once, as in a feature set.  One gather and one ``bincount`` for all."""
        n = len(rows)
        if not n:
            return np.zeros(0)
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=n)
        flat = np.concatenate(rows).astype(np.int64, copy=False)
        link = np.repeat(np.arange(n, dtype=np.int64), lengths)
        sums = np.bincount(link, weights=self.w[flat], minlength=n)
        if extra is not None and extra.size:
            extra = np.asarray(extra, dtype=np.int64)
            k = extra.shape[1]
            # the link-sorted keys (link << bits | row) of the rows, to find extra rows that
            # repeat one of the link's own rows (the rows of each link are sorted)
            keys = (link << self.bits) | flat
            probe = (np.arange(n, dtype=np.int64)[:, None] << self.bits) | extra
            at = np.minimum(np.searchsorted(keys, probe), max(0, len(keys) - 1))
            fresh = keys[at] != probe if len(keys) else np.ones_like(probe, dtype=bool)
            if k > 1:      # a row repeated within a link's extra rows counts once
                ordered = np.sort(extra, axis=1)
                if (ordered[:, 1:] == ordered[:, :-1]).any():
                    first = np.ones_like(fresh)
                    for j in range(1, k):
                        first[:, j] = (extra[:, j:j + 1] != extra[:, :j]).all(axis=1)
                    fresh &= first
            sums += (self.w[extra] * fresh).sum(axis=1)
        return 1.0 / (1.0 + np.exp(-np.clip(self.bias + sums, -30, 30)))

    def update_rows(self, rows: np.ndarray, extra: Sequence[int], label: bool,
                    weight: float = 1.0) -> None:
        """:meth:`update` for a feature set given as :meth:`rows` joined with ``extra`` rows."""
        self._step(np.union1d(rows, np.asarray(extra, dtype=rows.dtype)).astype(np.int64),
                   label, weight)

    def predict(self, batch: Iterable[Sequence[str]]) -> np.ndarray:
        """Probability of the positive class for every feature list (one gather for all)."""
        return self.predict_rows(self.rows_many(list(batch)))

    def update(self, features: Sequence[str], label: bool, weight: float = 1.0) -> None:
        self._step(self.rows(features).astype(np.int64), label, weight)

    def _step(self, rows: np.ndarray, label: bool, weight: float) -> None:
        p = 1.0 / (1.0 + np.exp(-np.clip(self.bias + self.w[rows].sum(), -30, 30)))
        grad = (p - float(label)) * weight
        g = grad + self.l2 * self.w[rows]
        self.g2[rows] += g * g
        self.w[rows] -= self.rate * g / np.sqrt(self.g2[rows])
        self.bias_g2 += grad * grad
        self.bias -= self.rate * grad / np.sqrt(self.bias_g2)
        self.seen += 1
        self.positives += int(label)

    @property
    def balanced(self) -> bool:
        """Both classes seen: predictions carry information."""
        return 0 < self.positives < self.seen

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, w=self.w, g2=self.g2,
                            meta=np.array([self.bias, self.bias_g2, self.seen, self.positives,
                                           self.bits, self.rate, self.l2]))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "OnlineLogistic":
        with np.load(path) as data:
            meta = data["meta"]
            model = cls(int(meta[4]), float(meta[5]), float(meta[6]))
            model.w, model.g2 = data["w"].copy(), data["g2"].copy()
            model.bias, model.bias_g2 = float(meta[0]), float(meta[1])
            model.seen, model.positives = int(meta[2]), int(meta[3])
        return model
