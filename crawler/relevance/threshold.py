"""Lowering a default threshold η that cuts through a cluster of pages [ours, not in §8].

The best threshold depends on the topic file: how many of its terms a typical on-topic page
holds.  With a file of common words (a "people" topic: born, married, career) the on-topic
pages of a crawl score 0.10-0.25 and a default η = 0.2 rejects most of them; with a file of
specific terms they score 0.2-0.5 and 0.2 fits.  The pages a focused crawl judges show which
case holds: their relevance scores form a mode of off-topic pages near 0 and, when the crawl
finds its topic, a second mode of on-topic pages.  A threshold belongs in the valley between
the two; one that lies *above the upper mode's peak* rejects most of that mode.

:func:`valley_threshold` estimates the density of the scores (a Gaussian kernel density,
:func:`kernel_density`), takes its highest local maximum and the highest one at least
:data:`MIN_SEPARATION` bandwidths from it (two resolvable modes, not a ripple inside one, such
as the pages of score 0 beside those just above) and returns the lowest density point between
them when

- there are at least ``min_pages`` scores,
- the smaller peak is at least ``min_ratio`` of the larger (a real second mode, not the tail
  of the off-topic mode), and
- the upper peak lies below the current default threshold (the threshold cuts the mode),

never below ``floor`` x the default; otherwise it keeps the default.  It only ever lowers a
default: an explicit threshold (topic file or ``RELEVANCE_THRESHOLD``) is never changed.

The rule and its constants were chosen on the score distributions of simulated crawls of the
eight topic files in ``settings/topics`` at the default threshold (README, *Automatic
threshold*); they are defaults, not values from a paper.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

BANDWIDTH = 0.015   # kernel standard deviation, in relevance units
MIN_PAGES = 300     # judged pages before the distribution is trusted
MIN_RATIO = 0.25    # smaller peak / larger peak for a second mode
MIN_SEPARATION = 4  # peaks at least this many bandwidths apart (two resolvable modes)
FLOOR = 0.5         # never below FLOOR x the default threshold
GRID = np.arange(0.0, 1.0 + 1e-9, 0.005)
BIN_ABOVE = 2000    # more scores than this are binned before the density estimate
BIN_WIDTH = 0.001
N_BINS = int(round(1 / BIN_WIDTH))


@dataclass(frozen=True)
class ThresholdEstimate:
    value: float            # the threshold to use
    reason: str             # why (for the log)
    valley: float | None = None
    peaks: tuple[float, float] | None = None
    ratio: float | None = None


def _bin_index(scores: Sequence[float] | np.ndarray) -> np.ndarray:
    return np.clip((np.asarray(scores, dtype=float) * N_BINS).astype(np.int64), 0, N_BINS - 1)


def score_histogram(scores: Sequence[float] | np.ndarray) -> np.ndarray:
    """Counts of ``scores`` (in [0, 1]; 1 goes to the last bin) on bins of :data:`BIN_WIDTH`."""
    return np.bincount(_bin_index(scores), minlength=N_BINS)


def kernel_density(points: np.ndarray, weights: np.ndarray | None = None,
                   bandwidth: float = BANDWIDTH) -> np.ndarray:
    """Gaussian kernel density on :data:`GRID` of ``points`` (``weights``: one per point, or
    equal; at least two points): one kernel per point, of standard deviation ``bandwidth``
    times ``1 / sqrt(1 - sum(w**2))`` of the normalised weights -- exactly what the rule got
    from ``scipy.stats.gaussian_kde`` with ``bw_method = bandwidth / spread`` (the points'
    biased spread): scipy's unbiased weighted variance over the biased one.  Kept so that no
    threshold decision changes; on binned scores (weights are bin counts) it widens the
    kernel more than ``sqrt(n / (n - 1))`` would for the ``n`` scores.  A plain numpy sum,
    without importing scipy mid-crawl."""
    points = np.asarray(points, dtype=float)
    if len(points) < 2:
        raise ValueError("kernel_density needs at least two points")
    w = np.full(len(points), 1.0 / len(points)) if weights is None \
        else np.asarray(weights, dtype=float) / float(np.sum(weights))
    scale = bandwidth / np.sqrt(1.0 - float(np.dot(w, w)))
    z = (GRID[:, None] - points[None, :]) / scale
    return np.exp(-0.5 * z * z) @ w / (scale * np.sqrt(2.0 * np.pi))


def binned_density(counts: np.ndarray, bandwidth: float = BANDWIDTH) -> np.ndarray:
    """Gaussian kernel density on :data:`GRID` of scores given as :func:`score_histogram`
    counts: one kernel per used bin, at its centre, weighted by its count."""
    used = np.flatnonzero(counts)
    centres = (used + 0.5) * BIN_WIDTH
    if len(used) < 2:           # one bin: no spread (two distinct bins always have one)
        return _one_kernel(centres[0], bandwidth)
    return kernel_density(centres, counts[used].astype(float), bandwidth)


def _one_kernel(at: float, bandwidth: float) -> np.ndarray:
    """The (unnormalised) density of scores that are all ``at``: one kernel."""
    return np.exp(-0.5 * ((GRID - at) / bandwidth) ** 2)


def score_density(scores: np.ndarray, bandwidth: float = BANDWIDTH) -> np.ndarray:
    """Gaussian kernel density of ``scores`` on :data:`GRID` (``bandwidth`` in score units).
    Beyond :data:`BIN_ABOVE` scores the kernels sit on bins of :data:`BIN_WIDTH` weighted by
    their counts (:func:`binned_density`), so a check costs the same at any crawl length."""
    if len(scores) > BIN_ABOVE:
        return binned_density(score_histogram(scores), bandwidth)
    if float(scores.std()) <= 0:
        return _one_kernel(scores[0], bandwidth)
    return kernel_density(scores, None, bandwidth)


def valley_threshold(scores: Sequence[float], default: float, *, bandwidth: float = BANDWIDTH,
                     min_pages: int = MIN_PAGES, min_ratio: float = MIN_RATIO,
                     floor: float = FLOOR) -> ThresholdEstimate:
    """The threshold for a crawl whose judged pages scored ``scores`` (see the module
    docstring); ``default`` is the threshold in force without the rule."""
    s = np.asarray(scores, dtype=float)
    s = s[np.isfinite(s)]
    if len(s) < min_pages:
        return ThresholdEstimate(default, f"{len(s)} judged pages (< {min_pages})")
    return _valley(score_density(np.clip(s, 0.0, 1.0), bandwidth), default, bandwidth,
                   min_ratio, floor)


def binned_valley_threshold(counts: np.ndarray, default: float, *,
                            bandwidth: float = BANDWIDTH, min_pages: int = MIN_PAGES,
                            min_ratio: float = MIN_RATIO, floor: float = FLOOR
                            ) -> ThresholdEstimate:
    """:func:`valley_threshold` of scores kept as :func:`score_histogram` counts."""
    n = int(counts.sum())
    if n < min_pages:
        return ThresholdEstimate(default, f"{n} judged pages (< {min_pages})")
    return _valley(binned_density(counts, bandwidth), default, bandwidth, min_ratio, floor)


def _valley(d: np.ndarray, default: float, bandwidth: float, min_ratio: float,
            floor: float) -> ThresholdEstimate:
    # peaks, the grid's ends included (mirrored): pages with no topic concept score exactly 0,
    # so the off-topic mode is often the density's first point
    padded = np.concatenate(([d[1]], d, [d[-2]]))
    inner = np.flatnonzero((padded[1:-1] >= padded[:-2]) & (padded[1:-1] > padded[2:]))
    if not len(inner):          # flat
        return ThresholdEstimate(default, "one mode")
    top = inner[int(np.argmax(d[inner]))]
    apart = inner[np.abs(GRID[inner] - GRID[top]) >= MIN_SEPARATION * bandwidth - 1e-9]
    if not len(apart):
        return ThresholdEstimate(default, "one mode")
    a, b = sorted((top, apart[int(np.argmax(d[apart]))]))
    ratio = float(min(d[a], d[b]) / max(d[a], d[b]))
    v = a + int(np.argmin(d[a:b + 1]))
    found = dict(valley=float(GRID[v]), peaks=(float(GRID[a]), float(GRID[b])), ratio=ratio)
    if ratio < min_ratio:
        return ThresholdEstimate(default, f"second mode too small ({ratio:.2f} < {min_ratio})",
                                 **found)
    if GRID[b] >= default:
        return ThresholdEstimate(default, f"upper mode at {GRID[b]:.3f} >= threshold", **found)
    value = max(floor * default, float(GRID[v]))
    return ThresholdEstimate(value, f"upper mode at {GRID[b]:.3f} below threshold "
                                    f"{default:.3f}: valley at {GRID[v]:.3f}", **found)


class AutoThreshold:
    """The threshold of one crawl under :func:`valley_threshold`: the scores of the judged
    pages, re-estimated every ``every`` pages from :data:`MIN_PAGES` on.  ``base`` is the
    default threshold the rule may lower.  The first :data:`BIN_ABOVE` scores are kept as
    they are, later ones only as :func:`score_histogram` counts, so the state stays small
    however long the crawl."""

    def __init__(self, base: float, every: int = 100):
        self.base, self.every = float(base), int(every)
        self.value = self.base
        self.judged = 0
        self.scores: list[float] = []          # until BIN_ABOVE scores
        self.counts: np.ndarray | None = None  # from then on
        self.last: ThresholdEstimate | None = None

    def _add(self, score: float) -> None:
        self.judged += 1
        if self.counts is None:
            self.scores.append(round(float(score), 4))
            if len(self.scores) > BIN_ABOVE:
                self.counts, self.scores = score_histogram(np.asarray(self.scores)), []
        elif np.isfinite(score):
            self.counts[_bin_index(round(float(score), 4))] += 1

    def estimate(self) -> ThresholdEstimate:
        """The rule on the scores recorded so far."""
        if self.counts is not None:
            return binned_valley_threshold(self.counts, self.base)
        return valley_threshold(self.scores, self.base)

    def observe(self, score: float) -> ThresholdEstimate | None:
        """Record one judged page's score; returns the new estimate when the threshold
        changes, else None."""
        self._add(score)
        n = self.judged
        if n < MIN_PAGES or (n - MIN_PAGES) % self.every:
            return None
        self.last = self.estimate()
        if self.last.value == self.value:
            return None
        self.value = self.last.value
        return self.last

    def to_dict(self) -> dict:
        out = {"version": 2, "base": self.base, "value": self.value, "judged": self.judged}
        if self.counts is None:
            out["scores"] = self.scores
        else:       # sparse: bin index -> count
            used = np.flatnonzero(self.counts)
            out["bins"] = {"width": BIN_WIDTH,
                           "counts": dict(zip(map(str, used.tolist()),
                                              self.counts[used].tolist()))}
        return out

    def load(self, data: dict) -> None:
        """Take back :meth:`to_dict` (a resumed crawl keeps its threshold and its scores;
        version 1, a list of every score, is read too); raises ``ValueError`` on anything
        else.  Saved under another base threshold, the scores are kept and the threshold
        re-estimated at the next check."""
        try:
            version = data.get("version")
            if version not in (1, 2):
                raise ValueError(f"unsupported version {version!r}")
            base, value = float(data["base"]), float(data["value"])
            counts = None
            if "bins" in data:
                if float(data["bins"]["width"]) != BIN_WIDTH:
                    raise ValueError(f"bin width {data['bins']['width']!r}, not {BIN_WIDTH}")
                counts = np.zeros(N_BINS, dtype=np.int64)
                for key, count in data["bins"]["counts"].items():
                    counts[int(key)] = int(count)       # IndexError for a bin out of range
                scores: list[float] = []
            else:
                scores = [float(x) for x in data["scores"]]
            judged = int(data.get("judged", len(scores)))
        except (KeyError, TypeError, AttributeError, IndexError) as err:
            raise ValueError(f"not an automatic threshold: {err!r}") from err
        if counts is None and len(scores) > BIN_ABOVE:      # a version-1 file of a long crawl
            counts, scores = score_histogram(np.clip(scores, 0.0, 1.0)), []
        self.scores, self.counts, self.judged = scores, counts, judged
        if base == self.base and 0.0 <= value <= self.base:
            self.value = value
