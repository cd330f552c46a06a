"""Gradient-boosted trees as plain arrays: export from scikit-learn, predict with numpy.

Shipping arrays instead of a pickle keeps the model file small, readable by any numpy and
independent of the scikit-learn version.  Prediction evaluates every split of every tree for all
rows at once and finds each tree's exit leaf with bit masks over its leaves (the QuickScorer
idea: a false split test removes the leaves of its left subtree; the exit leaf is the leftmost
one left), so the work is a few whole-array operations with no per-step masking.  Trees with
more than 16 leaves fall back to walking the trees level by level.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

try:    # compiled at install (setup.py); without it, the numpy prediction below
    from ._forest import tree_sums as _tree_sums
except (ImportError, ValueError):
    _tree_sums = None

_CHUNK = 2048   # rows per batch: bounds the (splits x trees x rows) work arrays
# index of the lowest set bit of every 16-bit mask (the leftmost leaf still reachable)
_LOWEST_BIT = np.zeros(1 << 16, dtype=np.int64)
_LOWEST_BIT[1:] = np.log2(np.arange(1, 1 << 16) & -np.arange(1, 1 << 16)).astype(np.int64)


@dataclass
class TreeEnsemble:
    feature: np.ndarray     # (trees, nodes) int32, feature index of each split node
    threshold: np.ndarray   # (trees, nodes) float64, go left when x <= threshold
    left: np.ndarray        # (trees, nodes) int32
    right: np.ndarray       # (trees, nodes) int32
    missing_left: np.ndarray  # (trees, nodes) bool, where NaN goes
    leaf: np.ndarray        # (trees, nodes) bool
    value: np.ndarray       # (trees, nodes) float64, leaf values (raw scores)
    baseline: float
    depth: int

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Raw additive score per row (the sum of the trees' leaf values plus the baseline)."""
        x = np.asarray(x)
        if x.dtype not in (np.float32, np.float64):
            x = x.astype(np.float64)
        if x.shape[0] == 0:
            return np.zeros(0)
        if np.isnan(x).any():   # trained without missing values: NaN goes right, like +inf
            x = np.where(np.isnan(x), np.inf, x)
        compiled = self._compiled if _tree_sums is not None else None
        if compiled is not None and x.ndim == 2 and x.shape[1] > compiled[-1]:
            return self.baseline + _tree_sums(*compiled[:-1], x if x.flags.c_contiguous
                                              else np.ascontiguousarray(x))
        if self._masks is None:
            return self._walk(x)
        return np.concatenate([self._exit_leaves(x[i:i + _CHUNK])
                               for i in range(0, x.shape[0], _CHUNK)])

    def _exit_leaves(self, x: np.ndarray) -> np.ndarray:
        feature, thr64, thr32, clears, values, splits = self._masks
        n_trees = self.feature.shape[0]
        cols = np.ascontiguousarray(x.T).take(feature, axis=0)  # (splits*trees, rows)
        right = cols > (thr32 if x.dtype == np.float32 else thr64)
        cleared = np.bitwise_or.reduce((clears * right).reshape(splits, n_trees, -1), axis=0)
        leaf = _LOWEST_BIT.take(~cleared)                        # (trees, rows)
        offsets = (np.arange(n_trees) * values.shape[1])[:, None]
        return self.baseline + values.ravel().take(leaf + offsets).sum(axis=0)

    @cached_property
    def _compiled(self) -> tuple | None:
        """The node arrays as ``_forest.tree_sums`` reads them (it checks no bounds), and the
        highest feature index a split reads; None when the arrays are not trees it can walk
        safely (every split's children after it and inside its tree, features >= 0): the
        numpy path then answers, or raises."""
        width = self.feature.shape[1]
        node = np.arange(width)
        split = ~self.leaf
        if not (((self.left > node) & (self.left < width) & (self.right > node)
                 & (self.right < width) & (self.feature >= 0)) | self.leaf).all():
            return None
        return (np.ascontiguousarray(self.feature, dtype=np.int32),
                np.ascontiguousarray(self.threshold, dtype=np.float64),
                np.ascontiguousarray(self.left, dtype=np.int32),
                np.ascontiguousarray(self.right, dtype=np.int32),
                np.ascontiguousarray(self.leaf, dtype=np.uint8),
                np.ascontiguousarray(self.value, dtype=np.float64),
                int(self.feature[split].max()) if split.any() else -1)

    @cached_property
    def _masks(self) -> tuple | None:
        """Per split (split-major, then tree): feature, threshold, the bits of the leaves it
        removes when its test fails; leaf values in left-to-right order.  None past 16 leaves."""
        n_trees = self.feature.shape[0]
        n_leaves = self.leaf.sum(axis=1)
        if n_leaves.max() > 16:
            return None
        splits = max(1, int((n_leaves - 1).max()))   # one padding split when all are leaves
        feature = np.zeros((splits, n_trees), dtype=np.int64)
        threshold = np.full((splits, n_trees), np.inf)       # padding: always true, removes none
        clears = np.zeros((splits, n_trees), dtype=np.uint16)
        values = np.zeros((n_trees, int(n_leaves.max())))
        for t in range(n_trees):
            order, spans = _in_order(self.leaf[t], self.left[t], self.right[t])
            for k, (node, lo, hi) in enumerate(spans):
                feature[k, t] = self.feature[t, node]
                threshold[k, t] = self.threshold[t, node]
                clears[k, t] = ((1 << hi) - 1) ^ ((1 << lo) - 1)
            values[t, :len(order)] = self.value[t, order]
        # float32 rows compare exactly against the largest float32 not above each threshold
        thr32 = threshold.astype(np.float32)
        thr32 = np.where(thr32.astype(np.float64) > threshold,
                         np.nextafter(thr32, np.float32(-np.inf)), thr32)
        return (feature.ravel(), threshold.reshape(-1, 1), thr32.reshape(-1, 1),
                clears.reshape(-1, 1), values, splits)

    def _walk(self, x: np.ndarray) -> np.ndarray:
        """Every tree walked for every row at once.

        Node arrays are flattened over trees and leaves loop onto themselves.  Each step
        advances the (row, tree) walks that have not reached a leaf yet, a handful of ``take``
        calls over them; most walks end well before the deepest leaf.
        """
        x = np.ascontiguousarray(x, dtype=np.float64)
        rows, n_trees = x.shape[0], self.feature.shape[0]
        feature, threshold, left, right, leaf = self._flat
        width = self.feature.shape[1]
        xflat = x.ravel()
        node = np.tile(np.arange(n_trees, dtype=np.int64) * width, rows)   # row-major walks
        base = np.repeat(np.arange(rows, dtype=np.int64) * x.shape[1], n_trees)
        walk = np.arange(rows * n_trees)
        cur = node
        for _ in range(self.depth):
            go_left = xflat.take(base + feature.take(cur)) <= threshold.take(cur)
            cur = np.where(go_left, left.take(cur), right.take(cur))
            node[walk] = cur
            going = ~leaf.take(cur)
            if not going.any():
                break
            cur, base, walk = cur[going], base[going], walk[going]
        return self.baseline + self.value.ravel().take(node).reshape(rows, n_trees).sum(axis=1)

    @cached_property
    def _flat(self) -> tuple[np.ndarray, ...]:
        """Node arrays flattened over trees for :meth:`_walk`."""
        n_trees, width = self.feature.shape
        base = (np.arange(n_trees, dtype=np.int64) * width)[:, None]
        own = base + np.arange(width)[None, :]
        # leaves loop onto themselves; NaN (mapped to +inf) goes right, as trained without NaN
        left = np.where(self.leaf, own, base + self.left).ravel()
        right = np.where(self.leaf, own, base + self.right).ravel()
        threshold = np.where(self.leaf, np.inf, self.threshold).ravel()
        return (self.feature.ravel().astype(np.int64), threshold, left, right,
                self.leaf.ravel())

    def probability(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.decision(x)))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, feature=self.feature, threshold=self.threshold,
                            left=self.left, right=self.right, missing_left=self.missing_left,
                            leaf=self.leaf, value=self.value,
                            meta=np.array([self.baseline, self.depth], dtype=np.float64))

    @classmethod
    def load(cls, path: str | Path) -> "TreeEnsemble":
        with np.load(path) as data:
            meta = data["meta"]
            return cls(data["feature"], data["threshold"], data["left"], data["right"],
                       data["missing_left"], data["leaf"], data["value"], float(meta[0]),
                       int(meta[1]))


def _in_order(leaf: np.ndarray, left: np.ndarray, right: np.ndarray
              ) -> tuple[list[int], list[tuple[int, int, int]]]:
    """One tree's leaves left to right, and per split ``(node, lo, hi)``: the leaves of its left
    subtree are ``order[lo:hi]``."""
    order: list[int] = []
    spans: list[tuple[int, int, int]] = []

    def visit(node: int) -> None:
        if leaf[node]:
            order.append(node)
            return
        first = len(order)
        visit(int(left[node]))
        spans.append((node, first, len(order)))
        visit(int(right[node]))

    visit(0)
    return order, spans


def from_sklearn(model) -> TreeEnsemble:
    """Convert a fitted binary ``HistGradientBoostingClassifier`` (numeric features only)."""
    trees = [predictors[0].nodes for predictors in model._predictors]
    width = max(len(t) for t in trees)

    def stack(field: str, dtype, fill) -> np.ndarray:
        out = np.full((len(trees), width), fill, dtype=dtype)
        for k, t in enumerate(trees):
            out[k, :len(t)] = t[field]
        return out

    leaf = stack("is_leaf", bool, True)
    depth = int(max(t["depth"].max() for t in trees)) + 1
    baseline = float(np.ravel(model._baseline_prediction)[0])
    return TreeEnsemble(stack("feature_idx", np.int32, 0), stack("num_threshold", np.float64, 0),
                        stack("left", np.int32, 0), stack("right", np.int32, 0),
                        stack("missing_go_to_left", bool, True), leaf,
                        stack("value", np.float64, 0.0), baseline, depth)
