"""Gradient-boosted trees as plain arrays: export from scikit-learn, predict with numpy.

Shipping arrays instead of a pickle keeps the model file small, readable by any numpy and
independent of the scikit-learn version; prediction walks all trees for all rows at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


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
        """Raw additive score per row: every tree walked for every row at once.

        Node arrays are flattened over trees and leaves loop onto themselves.  Each step
        advances the (row, tree) walks that have not reached a leaf yet, a handful of ``take``
        calls over them; most walks end well before the deepest leaf.
        """
        x = np.ascontiguousarray(x, dtype=np.float64)
        rows, n_trees = x.shape[0], self.feature.shape[0]
        if rows == 0:
            return np.zeros(0)
        feature, threshold, left, right, leaf = self._flat()
        width = self.feature.shape[1]
        x = np.where(np.isnan(x), np.inf, x) if np.isnan(x).any() else x
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

    def _flat(self) -> tuple[np.ndarray, ...]:
        cached = getattr(self, "_flat_cache", None)
        if cached is None:
            n_trees, width = self.feature.shape
            base = (np.arange(n_trees, dtype=np.int64) * width)[:, None]
            own = base + np.arange(width)[None, :]
            # leaves loop onto themselves; NaN (mapped to +inf) goes right, as trained without NaN
            left = np.where(self.leaf, own, base + self.left).ravel()
            right = np.where(self.leaf, own, base + self.right).ravel()
            threshold = np.where(self.leaf, np.inf, self.threshold).ravel()
            cached = (self.feature.ravel().astype(np.int64), threshold, left, right,
                      self.leaf.ravel())
            self._flat_cache = cached
        return cached

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
