"""E4: incremental-clustering, model-free extraction (ALGORITHMS.md §4).

Source: the patent ``002_0dc8369204b0b485.txt``, step c and the embodiment of its Fig. 3.  What
the source gives [SRC]: the five node features (text length, average paragraph length, link text
length, images, full stops), k-means with k chosen by global/local stability, the buffered
incremental procedure, the membership acceptance threshold **0.5** and the extraction steps
(a) pre-filter, (b) features, (c) c-1..c-3.  Everything else is *not* a paper value:

- Definitions 6-8 (intra-/inter-cluster average distance, density, stability) and Definition 9
  (membership) are [RECON] reconstructions from the prose (§4.3, §4.4);
- the validity function ``s * f_bar`` (option ``validity="sum"``: min-max normalised sum), the
  k range 2..10, the buffer size 50, z-score scaling frozen from the training samples (option
  ``scaling="raw"`` of :class:`E4Model` and of the trainer), the paragraph count, the 90%
  link-text pre-filter, the list of unrelated tags and the training-sample rule
  (``extraction/training/e4.py``) are [DEFAULT] choices.

Options, defaults first: ``membership`` "A" (``d/(d+dist)``) / "B" (literal ``d/dist``);
``relation`` "parent" / "ancestor" (c-3, E4-A7); ``prefilter`` "delete" / "mask" (E4-A5, see
:func:`preprocess`); ``link_threshold`` 0.9; ``paragraphs`` "br" / "block".  Training-time
options of :class:`IncrementalKMeans`: ``buffer_limit`` (E4-A1), ``trigger`` "remaining" /
"none_assigned" (E4-A2), ``dbar_update`` "frozen" / "running" (E4-A3), ``recluster_k``
"select" / "increment" (E4-A4), ``k_range``, ``validity``.
"""
from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..document import ELEMENT, TEXT, Document
from ..result import Selection, empty

ACCEPT = 0.5                      # [SRC] membership acceptance threshold, both phases
BUFFER_LIMIT = 50                 # [DEFAULT] E4-A1, "a certain value" is not given
K_RANGE = (2, 10)                 # [DEFAULT] candidate k values (inclusive)
LINK_THRESHOLD = 0.9              # [DEFAULT] E4-A5 link-only pre-filter
PREFILTER = "delete"              # E4-A5 reading (see preprocess)
PARAGRAPHS = "br"                 # [DEFAULT] paragraph count of x2
SEED = 0                          # [DEFAULT] k-means++ seed
N_INIT = 10                       # [DEFAULT] k-means++ restarts per k
FEATURES = ("text_length", "avg_paragraph_length", "link_text_length", "images", "full_stops")
# Step (a): subtrees "unrelated to the news body, e.g. script tags" [SRC example; list DEFAULT].
# script/style/template/noscript never reach the Document; the head holds no body text.
UNRELATED_TAGS = ("script", "style", "noscript", "template", "head", "select", "option",
                  "textarea", "iframe", "object", "embed", "button")
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "e4.json"
MODEL_VERSION = 1


# ---------------------------------------------------------------------------------- features
def preprocess(doc: Document, prefilter: str = PREFILTER,
               link_threshold: float = LINK_THRESHOLD) -> tuple[np.ndarray, np.ndarray]:
    """Step (a): ``(alive, candidate)`` node masks.

    ``alive``: nodes kept in the pre-processed DOM (features and output text are sums over
    alive nodes).  Unrelated subtrees (:data:`UNRELATED_TAGS`) are always removed.
    ``candidate``: alive element nodes with text whose link text is below ``link_threshold``
    of their text (E4-A5, E4-A6).  ``prefilter="delete"`` (default, the literal "delete some
    nodes that contain only hyperlinks") removes link-only subtrees from the DOM, so ancestors'
    features and the output text lose them; ``"mask"`` only drops link-only nodes and their
    descendants from the candidates.  An ``<a>`` element is a hyperlink, not a node *containing*
    hyperlinks, so it is never deleted (else x3 would be 0 everywhere); text-less nodes are
    not candidates but stay in the DOM (deleting them would delete every ``<img>``: x4 = 0).
    """
    if prefilter not in ("mask", "delete"):
        raise ValueError(f"prefilter must be 'mask' or 'delete', not {prefilter!r}")
    alive = ~doc.inside(UNRELATED_TAGS)
    own = doc.tlen * alive
    text = doc.subtree_sum(own)
    link = doc.subtree_sum(own * doc.in_link)
    is_el = doc.kind == ELEMENT
    linky = is_el & (text > 0) & (link >= link_threshold * text)
    if prefilter == "delete":
        linky &= ~doc.is_tag("a") & ~doc.in_link
    # descendants of a link-only node are link-only material too: mark the whole subtree
    hits = np.flatnonzero(linky)
    diff = np.zeros(doc.size + 1, dtype=np.int32)
    np.add.at(diff, hits, 1)
    np.add.at(diff, doc.end[hits], -1)
    in_linky = np.cumsum(diff[:-1]) > 0
    if prefilter == "delete":
        alive &= ~in_linky
        text = doc.subtree_sum(doc.tlen * alive)
        candidate = alive & is_el & (text > 0)
    else:
        candidate = alive & is_el & (text > 0) & ~in_linky
    return alive, candidate


def paragraph_counts(doc: Document, alive: np.ndarray, mode: str = PARAGRAPHS) -> np.ndarray:
    """Paragraphs per node [DEFAULT]: ``<p>`` elements in the subtree plus the text runs outside
    ``<p>`` separated by ``<br>`` (``mode="br"``; ``"block"`` also splits runs at block-level
    element boundaries); at least 1.  "Outside ``<p>``" is judged on the whole page."""
    is_p = doc.is_tag("p") & alive
    in_p = doc.inside(("p",))
    outside = np.flatnonzero((doc.kind == TEXT) & alive & ~in_p & (doc.tlen > 0))
    if mode == "br":
        # a <br> or a <p> between two outside-p runs separates them
        seg_of = np.cumsum(doc.is_tag(("br", "p")))
    elif mode == "block":
        seg_of = doc.line
    else:
        raise ValueError(f"paragraphs must be 'br' or 'block', not {mode!r}")
    count = doc.subtree_sum(is_p)
    if len(outside):
        seg = seg_of[outside]
        start = np.ones(len(outside), dtype=bool)
        start[1:] = seg[1:] != seg[:-1]
        cum = np.concatenate(([0], np.cumsum(start)))
        lo = np.searchsorted(outside, np.arange(doc.size))
        hi = np.searchsorted(outside, doc.end)
        has = hi > lo
        first_start = np.zeros(doc.size, dtype=bool)
        first_start[has] = start[lo[has]]
        runs = cum[hi] - cum[lo] + (has & ~first_start)
        count = count + runs
    return np.maximum(count, 1)


def node_features(doc: Document, alive: np.ndarray | None = None,
                  paragraphs: str = PARAGRAPHS) -> np.ndarray:
    """The five features (x1..x5, §4.2) of every node as a ``(doc.size, 5)`` float array,
    summed over the ``alive`` nodes of each subtree (all nodes when ``alive`` is None)."""
    if alive is None:
        alive = np.ones(doc.size, dtype=bool)
    s = doc.stats
    sub = doc.subtree_sum
    x1 = sub(s.own_len * alive)
    x3 = sub(s.own_link * alive)
    x4 = sub(doc.is_tag("img") & alive)
    x5 = sub(s.own_stops * alive)
    x2 = x1 / paragraph_counts(doc, alive, paragraphs)
    return np.column_stack((x1, x2, x3, x4, x5)).astype(np.float64)


# ------------------------------------------------------------------------ cluster statistics
def membership(X: np.ndarray, centres: np.ndarray, dbar: np.ndarray,
               reading: str = "A") -> np.ndarray:
    """Definition 9 [RECON], ``(m, k)`` memberships of the rows of ``X``.

    Reading A (recommended): ``d/(d + dist)`` in (0, 1], >= 0.5 iff ``dist <= d``.
    Reading B (literal ratio): ``d/dist`` (inf at the centre), >= 0.5 iff ``dist <= 2d``.
    A cluster with ``d = 0`` is ignored (membership 0, §10.4).
    """
    X = np.atleast_2d(np.asarray(X, dtype=np.float64))
    centres = np.atleast_2d(np.asarray(centres, dtype=np.float64))
    dbar = np.asarray(dbar, dtype=np.float64)
    if centres.size == 0 or X.shape[0] == 0:
        return np.zeros((X.shape[0], len(dbar)))
    dist = np.sqrt(((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2))
    usable = dbar > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if reading == "A":
            g = dbar / (dbar + dist)
        elif reading == "B":
            g = np.where(dist > 0, dbar / np.where(dist > 0, dist, 1.0), np.inf)
        else:
            raise ValueError(f"membership reading must be 'A' or 'B', not {reading!r}")
    return np.where(usable[None, :], g, 0.0)


_membership = membership  # extract_e4 has an option of the same name


@dataclass
class ClusterStats:
    """Definitions 6-8 [RECON] and the stability measures of one clustering."""

    k: int
    centres: np.ndarray   # m_i, cluster means
    sizes: np.ndarray     # n_i
    dbar: np.ndarray      # d_i: intra-cluster average distance (Definition 6)
    Dbar: float           # inter-cluster average distance (Definition 7), 0 for k = 1
    density: np.ndarray   # f_i = n_i / d_i (Definition 8)
    s: float              # global stability D / k
    f: float              # local stability: mean density


def cluster_stats(X: np.ndarray, labels: np.ndarray, k: int) -> ClusterStats | None:
    """Statistics of a labelling; None when a cluster is empty or has ``d_i = 0`` (§4.3)."""
    sizes = np.bincount(labels, minlength=k)
    if (sizes == 0).any():
        return None
    centres = np.zeros((k, X.shape[1]))
    np.add.at(centres, labels, X)
    centres /= sizes[:, None]
    dist = np.linalg.norm(X - centres[labels], axis=1)
    dbar = np.bincount(labels, weights=dist, minlength=k) / sizes
    if (dbar <= 0).any():
        return None
    if k >= 2:
        iu = np.triu_indices(k, 1)
        pair = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)[iu]
        Dbar = float(pair.mean())
    else:
        Dbar = 0.0
    density = sizes / dbar
    return ClusterStats(k, centres, sizes, dbar, Dbar, density, Dbar / k, float(density.mean()))


def _kmeans(X: np.ndarray, k: int, seed: int, n_init: int) -> np.ndarray:
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    # One thread: the data are small (OpenMP start-up dominates, badly so on a busy machine)
    # and the result does not depend on the machine's thread count.
    with warnings.catch_warnings(), threadpool_limits(1):
        warnings.simplefilter("ignore")  # duplicate points: fewer distinct clusters than k
        km = KMeans(n_clusters=k, init="k-means++", n_init=n_init, random_state=seed)
        return km.fit_predict(X)


def choose_k(X: np.ndarray, k_range: tuple[int, int] = K_RANGE, validity: str = "product",
             seed: int = SEED, n_init: int = N_INIT,
             only_k: int | None = None) -> tuple[ClusterStats | None, dict[int, float]]:
    """c-2-1: k-means for every k of ``k_range`` and the k maximising the validity function.

    ``validity="product"`` [DEFAULT]: ``s * f_bar``; ``"sum"``: min-max normalised ``s`` plus
    min-max normalised ``f_bar`` over the valid k.  A k giving an empty cluster or one with
    ``d_i = 0`` is rejected.  Ties go to the smaller k.  When no k is valid the guard is one
    cluster (not in the source); None when even that has ``d = 0``.  Returns the statistics and
    the validity value of every valid k.
    """
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    results: dict[int, ClusterStats] = {}
    if n >= 2:
        ks = [only_k] if only_k else range(k_range[0], k_range[1] + 1)
        n_distinct = len(np.unique(X, axis=0))
        for k in ks:
            if k < 2 or k >= n_distinct:   # k >= distinct points always gives d_i = 0
                continue
            st = cluster_stats(X, _kmeans(X, k, seed, n_init), k)
            if st is not None:
                results[k] = st
    if not results:
        if n == 0:
            return None, {}
        st = cluster_stats(X, np.zeros(n, dtype=np.int64), 1)
        return st, {}
    ks = sorted(results)
    s = np.array([results[k].s for k in ks])
    f = np.array([results[k].f for k in ks])
    if validity == "product":
        v = s * f
    elif validity == "sum":
        def norm(a: np.ndarray) -> np.ndarray:
            span = a.max() - a.min()
            return (a - a.min()) / span if span > 0 else np.zeros_like(a)
        v = norm(s) + norm(f)
    else:
        raise ValueError(f"validity must be 'product' or 'sum', not {validity!r}")
    best = ks[int(np.argmax(v))]
    return results[best], {k: float(x) for k, x in zip(ks, v)}


# ---------------------------------------------------------------------- incremental k-means
class IncrementalKMeans:
    """Buffered incremental k-means of §4.5 (c-2-2).

    ``fit(X)`` clusters the initial samples; ``add(x)`` buffers a sample and, when the buffer
    holds more than ``buffer_limit`` samples, assigns every buffered sample whose best
    membership is >= 0.5 to that cluster (centre unchanged, size + 1) and re-clusters all samples
    once when the unassignable remainder still exceeds the limit (E4-A2 "remaining"; option
    ``trigger="none_assigned"``: only when the pass assigned nothing).  ``d_i`` stays frozen
    until the next re-clustering (E4-A3; option ``dbar_update="running"``: running mean of the
    distances to the frozen centre).  Re-clustering uses every accepted sample plus the buffer
    and re-selects k (E4-A4; option ``recluster_k="increment"``: previous k + 1).
    """

    def __init__(self, buffer_limit: int = BUFFER_LIMIT, k_range: tuple[int, int] = K_RANGE,
                 validity: str = "product", membership: str = "A", trigger: str = "remaining",
                 dbar_update: str = "frozen", recluster_k: str = "select", seed: int = SEED,
                 n_init: int = N_INIT) -> None:
        if trigger not in ("remaining", "none_assigned"):
            raise ValueError(f"trigger must be 'remaining' or 'none_assigned', not {trigger!r}")
        if dbar_update not in ("frozen", "running"):
            raise ValueError(f"dbar_update must be 'frozen' or 'running', not {dbar_update!r}")
        if recluster_k not in ("select", "increment"):
            raise ValueError(f"recluster_k must be 'select' or 'increment', not {recluster_k!r}")
        self.buffer_limit = int(buffer_limit)
        self.k_range = (int(k_range[0]), int(k_range[1]))
        self.validity = validity
        self.membership = membership
        self.trigger = trigger
        self.dbar_update = dbar_update
        self.recluster_k = recluster_k
        self.seed = int(seed)
        self.n_init = int(n_init)
        self.samples: list[np.ndarray] = []
        self.buffer: list[np.ndarray] = []
        self.centres = np.zeros((0, 0))
        self.dbar = np.zeros(0)
        self.sizes = np.zeros(0, dtype=np.int64)
        self.validity_values: dict[int, float] = {}
        self.n_reclusters = 0
        self.n_assigned = 0

    @property
    def k(self) -> int:
        return len(self.dbar)

    def fit(self, X: Iterable[Sequence[float]]) -> "IncrementalKMeans":
        """Initial clustering of ``X`` (clustering phase); clears the buffer."""
        self.samples = [np.asarray(x, dtype=np.float64) for x in X]
        self.buffer = []
        self._recluster()
        return self

    def memberships(self, X: np.ndarray) -> np.ndarray:
        """``(m, k)`` memberships of the rows of ``X`` (reading of this model)."""
        return membership(X, self.centres, self.dbar, self.membership)

    def add(self, x: Sequence[float]) -> str:
        """Buffer one sample, then check the buffer.  Returns "buffered" (no check ran),
        "checked" (a pass ran, no re-clustering) or "reclustered"."""
        self.buffer.append(np.asarray(x, dtype=np.float64))
        return self._check()

    def add_many(self, X: Iterable[Sequence[float]], batch: bool = False) -> list[str]:
        """Add samples one by one (default) or, with ``batch``, all into the buffer first and
        then check once (an arrival of several samples; only then do the E4-A2 readings
        differ)."""
        if not batch:
            return [self.add(x) for x in X]
        self.buffer.extend(np.asarray(x, dtype=np.float64) for x in X)
        return [self._check()]

    def _check(self) -> str:
        if len(self.buffer) <= self.buffer_limit:            # "exceeds a certain value"
            return "buffered"
        B = np.vstack(self.buffer)
        remaining: list[np.ndarray] = []
        assigned = 0
        if self.k:
            g = self.memberships(B)
            best = np.argmax(g, axis=1)
            for row, i in enumerate(best):
                if g[row, i] >= ACCEPT:                      # largest membership, >= 0.5
                    self._assign(B[row], int(i))
                    assigned += 1
                else:
                    remaining.append(self.buffer[row])
        else:
            remaining = list(self.buffer)
        self.buffer = remaining
        if self.trigger == "remaining":
            trigger = len(self.buffer) > self.buffer_limit
        else:
            trigger = assigned == 0
        if trigger:
            self.samples.extend(self.buffer)
            self.buffer = []
            self._recluster()
            return "reclustered"
        return "checked"

    def _assign(self, x: np.ndarray, i: int) -> None:
        self.samples.append(x)
        if self.dbar_update == "running":
            d = float(np.linalg.norm(x - self.centres[i]))
            self.dbar[i] = (self.dbar[i] * self.sizes[i] + d) / (self.sizes[i] + 1)
        self.sizes[i] += 1
        self.n_assigned += 1

    def _recluster(self) -> None:
        X = np.vstack(self.samples) if self.samples else np.zeros((0, 0))
        only_k = None
        if self.recluster_k == "increment" and self.k and self.n_reclusters:
            only_k = self.k + 1
        st, self.validity_values = choose_k(X, self.k_range, self.validity, self.seed,
                                            self.n_init, only_k)
        if st is None and only_k is not None:
            st, self.validity_values = choose_k(X, self.k_range, self.validity, self.seed,
                                                self.n_init)
        if st is None:
            self.centres, self.dbar = np.zeros((0, X.shape[1] if X.ndim == 2 else 0)), np.zeros(0)
            self.sizes = np.zeros(0, dtype=np.int64)
        else:
            self.centres, self.dbar = st.centres, st.dbar.astype(np.float64)
            self.sizes = st.sizes.astype(np.int64)
        self.n_reclusters += 1

    # -------------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k, "centres": _rounded(self.centres), "dbar": _rounded(self.dbar),
            "sizes": [int(n) for n in self.sizes],
            "validity_values": {str(k): _r(v) for k, v in self.validity_values.items()},
            "buffer_limit": self.buffer_limit, "k_range": list(self.k_range),
            "validity": self.validity, "membership": self.membership, "trigger": self.trigger,
            "dbar_update": self.dbar_update, "recluster_k": self.recluster_k,
            "seed": self.seed, "n_init": self.n_init, "reclusterings": self.n_reclusters,
            "assigned": self.n_assigned,
            "samples": _rounded(np.array(self.samples)), "buffer": _rounded(np.array(self.buffer)),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "IncrementalKMeans":
        m = cls(d.get("buffer_limit", BUFFER_LIMIT), tuple(d.get("k_range", K_RANGE)),
                d.get("validity", "product"), d.get("membership", "A"),
                d.get("trigger", "remaining"), d.get("dbar_update", "frozen"),
                d.get("recluster_k", "select"), d.get("seed", SEED), d.get("n_init", N_INIT))
        m.centres = np.array(d["centres"], dtype=np.float64).reshape(len(d["dbar"]), -1)
        m.dbar = np.array(d["dbar"], dtype=np.float64)
        m.sizes = np.array(d["sizes"], dtype=np.int64)
        m.validity_values = {int(k): float(v) for k, v in d.get("validity_values", {}).items()}
        m.samples = [np.array(x, dtype=np.float64) for x in d.get("samples", [])]
        m.buffer = [np.array(x, dtype=np.float64) for x in d.get("buffer", [])]
        m.n_reclusters = int(d.get("reclusterings", 0))
        m.n_assigned = int(d.get("assigned", 0))
        return m


def _r(x: float) -> float:
    return float(f"{float(x):.10g}")


def _rounded(a: np.ndarray) -> list:
    return np.vectorize(_r, otypes=[float])(a).tolist() if np.size(a) else []


# ------------------------------------------------------------------------------------ model
@dataclass
class E4Model:
    """Scaler + clusters: the trained E4 model (``extraction/models/e4.json``).

    ``scaling="zscore"`` [DEFAULT]: features standardised with ``mean``/``std`` frozen from the
    training samples; ``"raw"``: the literal unscaled features.  ``feature_options`` records the
    pre-processing used for the training features; ``training`` records sets and counts.
    """

    clusters: IncrementalKMeans
    scaling: str = "zscore"
    mean: np.ndarray = field(default_factory=lambda: np.zeros(len(FEATURES)))
    std: np.ndarray = field(default_factory=lambda: np.ones(len(FEATURES)))
    feature_options: dict[str, Any] = field(default_factory=dict)
    training: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def scaler(F: np.ndarray, scaling: str = "zscore") -> tuple[np.ndarray, np.ndarray]:
        """Means and standard deviations of raw features (0/1 for ``raw``; std 0 -> 1)."""
        F = np.atleast_2d(np.asarray(F, dtype=np.float64))
        if scaling == "raw":
            return np.zeros(F.shape[1]), np.ones(F.shape[1])
        if scaling != "zscore":
            raise ValueError(f"scaling must be 'zscore' or 'raw', not {scaling!r}")
        std = F.std(axis=0)
        return F.mean(axis=0), np.where(std > 0, std, 1.0)

    def transform(self, F: np.ndarray) -> np.ndarray:
        return (np.asarray(F, dtype=np.float64) - self.mean) / self.std

    def to_dict(self) -> dict[str, Any]:
        return {"method": "e4", "version": MODEL_VERSION, "features": list(FEATURES),
                "scaling": self.scaling, "mean": _rounded(self.mean), "std": _rounded(self.std),
                "feature_options": self.feature_options, "training": self.training,
                **self.clusters.to_dict()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "E4Model":
        if d.get("method") != "e4":
            raise ValueError("not an E4 model")
        return cls(IncrementalKMeans.from_dict(d), d.get("scaling", "zscore"),
                   np.array(d["mean"], dtype=np.float64), np.array(d["std"], dtype=np.float64),
                   dict(d.get("feature_options", {})), dict(d.get("training", {})))

    def save(self, path: str | Path) -> None:
        """Write the model as JSON (stable key order, rounded floats: reproducible bytes)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        items = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                 for k, v in self.to_dict().items()]
        path.write_text("{\n" + ",\n".join(items) + "\n}\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "E4Model":
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


@lru_cache(maxsize=4)
def _load_cached(path: str, mtime: float) -> E4Model:
    return E4Model.load(path)


def load_model(path: str | Path | None = None) -> E4Model:
    """The shipped model (or the one at ``path``), cached per file version."""
    p = Path(path) if path is not None else MODEL_PATH
    return _load_cached(str(p), p.stat().st_mtime)


# ------------------------------------------------------------------------------- extraction
def select_body(doc: Document, candidates: np.ndarray, gamma: np.ndarray,
                relation: str = "parent") -> tuple[int, int] | None:
    """c-1..c-3: ``(node, chain length)`` from candidate ids and their max memberships, or
    None when no candidate reaches 0.5.  Ties in membership go to document order."""
    ok = gamma >= ACCEPT                                               # c-1
    if not ok.any():
        return None
    nodes, g = candidates[ok], gamma[ok]
    order = nodes[np.lexsort((nodes, -g))]                              # c-2
    if len(order) == 1:
        return int(order[0]), 1
    prev, nxt = order[:-1], order[1:]
    if relation == "parent":                                            # c-3, E4-A7
        nested = doc.parent[nxt] == prev
    elif relation == "ancestor":
        nested = (prev < nxt) & (nxt < doc.end[prev])
    else:
        raise ValueError(f"relation must be 'parent' or 'ancestor', not {relation!r}")
    breaks = np.flatnonzero(~nested)
    chain = int(breaks[0]) + 1 if len(breaks) else len(order)
    return int(order[chain - 1]), chain


def extract_e4(doc: Document, siblings: Sequence[Document] = (), *,
               model: E4Model | str | Path | None = None, membership: str = "A",
               relation: str = "parent", prefilter: str | None = None,
               link_threshold: float | None = None, paragraphs: str | None = None) -> Selection:
    """E4 extraction phase (§4.6) with the shipped model (or ``model``: an :class:`E4Model` or
    a path).  ``prefilter``, ``link_threshold`` and ``paragraphs`` default to the values the
    model was trained with.  Returns an empty selection with a reason when nothing matches."""
    for name, value, allowed in (("membership", membership, ("A", "B")),
                                 ("relation", relation, ("parent", "ancestor")),
                                 ("prefilter", prefilter, (None, "delete", "mask")),
                                 ("paragraphs", paragraphs, (None, "br", "block"))):
        if value not in allowed:
            raise TypeError(f"E4 option {name} must be one of {allowed}, not {value!r}")
    if not isinstance(model, E4Model):
        try:
            model = load_model(model)
        except (OSError, ValueError, KeyError) as err:
            return empty(f"E4 model not available ({err}); train it with "
                         f"'python -m extraction train e4'")
    opts = model.feature_options
    prefilter = prefilter or opts.get("prefilter", PREFILTER)
    paragraphs = paragraphs or opts.get("paragraphs", PARAGRAPHS)
    if link_threshold is None:
        link_threshold = float(opts.get("link_threshold", LINK_THRESHOLD))
    if model.clusters.k == 0:
        return empty("E4 model has no clusters")
    alive, cand = preprocess(doc, prefilter, link_threshold)                # (a)
    candidates = np.flatnonzero(cand)
    if len(candidates) == 0:
        return empty("no candidate node after pre-processing (no text or only link text)")
    F = node_features(doc, alive, paragraphs)[candidates]                   # (b)
    G = _membership(model.transform(F), model.clusters.centres, model.clusters.dbar,
                    membership)
    gamma = G.max(axis=1)                                                    # c-1
    picked = select_body(doc, candidates, gamma, relation)                  # c-2, c-3
    best = float(gamma.max())
    if picked is None:
        shown = math.floor(best * 100) / 100          # 0.4963 must not print as 0.50
        return empty(f"no candidate node matches a cluster (max membership {shown:.2f})",
                     candidates=int(len(candidates)), max_membership=round(best, 4))
    node, chain = picked
    row = int(np.searchsorted(candidates, node))
    g = float(gamma[row])
    keep = np.zeros(doc.size, dtype=bool)
    keep[node:doc.end[node]] = True
    keep &= alive
    text = doc.text_of(keep)
    info = {"node": node, "tag": doc.tag_names[node], "membership": _r(g) if math.isfinite(g)
            else "inf", "cluster": int(np.argmax(G[row])),
            "candidates": int(len(candidates)), "matched": int((gamma >= ACCEPT).sum()),
            "chain": chain, "k": model.clusters.k, "reading": membership}
    if not text:
        return empty("selected node has no text", **info)
    confidence = g if membership == "A" else (1.0 if math.isinf(g) else g / (1.0 + g))
    return Selection(text, confidence=min(1.0, confidence), info=info, nodes=np.flatnonzero(keep))

