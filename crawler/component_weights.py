"""Self-tuning weights of the link score's prior [ours].

S1 (ALGORITHMS.md §7.4) tunes the weights of its URL elements without supervision.  The same
idea, applied one level up: the prior of :mod:`crawler.link_scoring` is a weighted mean of
components (URL similarity, anchor, context, parent, place, site) whose usefulness depends on
the topic and the web.  On wikischools the host separates Science pages from the rest while it
says nothing about Music, and anchor texts name a Music article's subject far more often than a
Science article's.  So each component's weight moves, as judged fetches accumulate, from its
default towards its share of the positive correlations between the components and the verdict
(the fetched page was worth it) over the judged fetches:

    w_k = (1 - a) * default_k + a * max(0, r_k) / sum_j max(0, r_j),   a = n / (n + PRIOR)

once ``n >= MIN_JUDGED`` fetches were judged (before, and when no component correlates
positively, the defaults).  ``r_k`` is the Pearson correlation of component ``k`` with the 0/1
verdict over those fetches (point-biserial), from running sums: O(components) per fetch.

Measured on the simulated wikischools crawls of eight topics (README): recall at 1,000 fetches
rose on five of them and fell on two (History, Geography), summed over the eight from 5.918 to
6.015 (PRIOR = 100; 6.008 at 200, 6.045 at 50).

:class:`LearnedShare` tunes, the same way, how much the learned model counts against the prior
in ``(1 - t) * prior + t * learned``: ``t`` follows the gradient of the log loss of that blend on
each judged fetch (the prior and the learned probability the link had when it was scheduled),
within ``[0, MAX_SHARE]``.  It settles near 0.2-0.4 on the large topics of wikischools (the host
tells much, the hashed words little) and at the cap on the small ones.
"""
from __future__ import annotations

import math
from typing import Mapping

MIN_JUDGED = 50   # judged fetches before the weights move
PRIOR = 100.0     # pseudo-fetches of the default weights
SHARE_RATE = 0.01  # step of the learned share's gradient descent (0.003 and 0.02 measured lower)
MAX_SHARE = 0.9    # the prior always keeps a tenth (1.0 cost Mathematics 0.09 of recall)


class ComponentWeights:
    """Running correlation of each component with the verdict; the blended weights.  Plain
    floats: six components, one update per judged fetch."""

    def __init__(self, defaults: Mapping[str, float], *, min_judged: int = MIN_JUDGED,
                 prior: float = PRIOR):
        self.keys: tuple[str, ...] = tuple(defaults)
        total = sum(defaults.values())
        self.defaults = [defaults[k] / total for k in self.keys]
        self.min_judged, self.prior = min_judged, prior
        k = len(self.keys)
        self.n = 0
        self.sum_y = 0.0
        self.sum_x, self.sum_xx, self.sum_xy = [0.0] * k, [0.0] * k, [0.0] * k
        self.current: dict[str, float] = dict(zip(self.keys, self.defaults))

    def observe(self, components: Mapping[str, float], worth: bool) -> dict[str, float]:
        """One judged fetch: the components of the link that led to it and the verdict.
        Returns the weights now in force."""
        y = 1.0 if worth else 0.0
        self.n += 1
        self.sum_y += y
        sx, sxx, sxy = self.sum_x, self.sum_xx, self.sum_xy
        for j, key in enumerate(self.keys):
            x = float(components.get(key, 0.0))
            sx[j] += x
            sxx[j] += x * x
            sxy[j] += x * y
        self.current = self._weights()
        return self.current

    def correlations(self) -> list[float]:
        """Pearson correlation of each component with the verdict (0 where one is constant)."""
        n = max(self.n, 1)
        mean_y = self.sum_y / n
        var_y = mean_y * (1.0 - mean_y)
        out = []
        for sx, sxx, sxy in zip(self.sum_x, self.sum_xx, self.sum_xy):
            mean_x = sx / n
            var_x = sxx / n - mean_x * mean_x
            ok = var_x > 1e-12 and var_y > 1e-12
            out.append((sxy / n - mean_x * mean_y) / math.sqrt(var_x * var_y) if ok else 0.0)
        return out

    def _weights(self) -> dict[str, float]:
        if self.n < self.min_judged:
            return dict(zip(self.keys, self.defaults))
        positive = [max(r, 0.0) for r in self.correlations()]
        total = sum(positive)
        if total <= 0:
            return dict(zip(self.keys, self.defaults))
        a = self.n / (self.n + self.prior)
        return {k: (1.0 - a) * d + a * r / total
                for k, d, r in zip(self.keys, self.defaults, positive)}

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        return {"version": 1, "keys": list(self.keys), "n": self.n, "sum_y": self.sum_y,
                "sum_x": self.sum_x, "sum_xx": self.sum_xx, "sum_xy": self.sum_xy,
                "weights": self.current}

    def load(self, data: dict) -> None:
        """Take back :meth:`to_dict` (a resumed crawl keeps what it learned); raises
        ``ValueError`` on anything else, or on statistics of other components."""
        try:
            if data.get("version") != 1:
                raise ValueError(f"unsupported version {data.get('version')!r}")
            if tuple(data["keys"]) != self.keys:
                raise ValueError(f"components {data['keys']!r}, expected {list(self.keys)!r}")
            sums = [[float(v) for v in data[f]] for f in ("sum_x", "sum_xx", "sum_xy")]
            if any(len(v) != len(self.keys) for v in sums):
                raise ValueError("sums of the wrong length")
            n, sum_y = int(data["n"]), float(data["sum_y"])
        except (KeyError, TypeError, AttributeError, OverflowError) as err:
            raise ValueError(f"not component weights: {err!r}") from err
        # JSON reads NaN and Infinity: one would make every weight, and every score, NaN
        if not all(math.isfinite(v) for v in [sum_y, *(x for col in sums for x in col)]):
            raise ValueError("not component weights: a sum is not a finite number")
        self.n, self.sum_y = n, sum_y
        self.sum_x, self.sum_xx, self.sum_xy = sums
        self.current = self._weights()


class LearnedShare:
    """The learned model's share ``t`` in the blend, tuned online by the log loss."""

    def __init__(self, start: float, *, rate: float = SHARE_RATE, cap: float = MAX_SHARE):
        self.rate, self.cap = rate, cap
        self.value = start
        self.n = 0

    def observe(self, prior: float, learned: float, worth: bool) -> float:
        """One judged fetch, scored ``prior`` and ``learned`` when it was scheduled; returns
        the new share."""
        t = self.value
        p = min(1.0 - 1e-4, max(1e-4, (1.0 - t) * prior + t * learned))
        gradient = (learned - prior) * (p - (1.0 if worth else 0.0)) / (p * (1.0 - p))
        self.value = min(self.cap, max(0.0, t - self.rate * gradient))
        self.n += 1
        return self.value

    def to_dict(self) -> dict:
        return {"version": 1, "value": self.value, "n": self.n}

    def load(self, data: dict) -> None:
        """Take back :meth:`to_dict`; raises ``ValueError`` on anything else."""
        try:
            if data.get("version") != 1:
                raise ValueError(f"unsupported version {data.get('version')!r}")
            value, n = float(data["value"]), int(data["n"])
        except (KeyError, TypeError, AttributeError, OverflowError) as err:
            raise ValueError(f"not a learned share: {err!r}") from err
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"learned share {value} outside [0, 1]")
        self.value, self.n = min(value, self.cap), n
