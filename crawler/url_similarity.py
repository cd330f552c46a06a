"""S1: URL similarity with unsupervised self-tuning weights (ALGORITHMS.md §7).

Chinese patent 11691067, "Focus-oriented Web page acquisition and information extraction
method", step a (a-1 decomposition, a-2 similarity, a-3 weights) and the embodiment of its Fig. 1.

Printed in the source [SRC]: the layout similarity ``s_t = w_f·s(f1,f2) + w_dd·s_dd``, the URL
similarity ``s_m = w_dn·s(dn1,dn2) + w_d·s(d1,d2) + w_t·s_t`` and the constraints
``w_dn + w_d + w_t = 1``, ``w_d = Σ w_j``, ``w_t = w_f + w_dd``.  Reconstructed [RECON]: the
vector similarity (1), the directory (domain) similarity and the weight update.  Implementer
choices [DEFAULT], none of them a paper value: the decomposition details of §7.2, the initial
weights (``w_f = w_dd = 0.1``, ``w_i ∝ K+1−i``), ``K = 10``, ``γ = 5``, update interval 1000.

Options, default first: ``reading`` ("B" one weight budget / "A" literal nesting, §7.3);
``normalise`` (False / True: divide by the weight of the levels that exist in either URL, so that
identical URLs always score 1 -- not in the source); ``gamma_is_fraction`` of :class:`WeightTuner`.

Edit distances are Levenshtein distances over Unicode code points (``Levenshtein`` for single
pairs, ``rapidfuzz`` -- a dependency of ``Levenshtein`` -- for blocks of pairs).
"""
from __future__ import annotations

import ipaddress
import json
import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Sequence
from urllib.parse import unquote

import Levenshtein
import numpy as np
import tldextract
from rapidfuzz.distance import Levenshtein as _RFLevenshtein
from rapidfuzz.process import cdist as _cdist
from rapidfuzz.process import cpdist as _cpdist

from .relevance.frequencies import atomic_write_text

K_DEFAULT = 10        # [DEFAULT] largest directory depth that carries a weight
W_F = 0.1             # [DEFAULT] file-name weight (the source: "given from experience")
W_DD = 0.1            # [DEFAULT] directory-depth weight (idem)
GAMMA = 5             # [DEFAULT] minimum count of a frequent value (γ)
INTERVAL = 1000       # [DEFAULT] weights are updated after this many newly observed URLs

DIGITAL, STRING, MIX = "digital", "string", "mix"
YES, NO = "yes", "no"

# Offline public-suffix list: the snapshot bundled with tldextract, never a download.
_TLD = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
_NETLOC = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:)?//([^/]*)(.*)$", re.S)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_YEARS = range(1900, 2100)   # [DEFAULT] years accepted by the date merge
MAX_URL = 4096               # [DEFAULT] guard: longer URLs are cut (edit distances stay cheap)
# [ours] links × exemplars cells of one block of best(): its matrices and candidate pairs are
# proportional to them (20,000 links × 3,000 exemplars at once took 1.9 GB)
MAX_CELLS = 2_000_000


# --------------------------------------------------------------------------------------------
# a-1: decomposition
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class UrlParts:
    """The vectors of §7.2: ``host`` = [sub-domain, main domain, server name], ``dirs`` = one
    [directory, type] per directory (dates merged), ``file`` = [prefix, suffix, has dot, file
    name, type of the name before the first dot, has parameters]."""

    host: tuple[str, str, str]
    dirs: tuple[tuple[str, str], ...]
    file: tuple[str, str, str, str, str, str]

    @property
    def depth(self) -> int:
        """Directory depth after date merging."""
        return len(self.dirs)


def value_type(s: str) -> str:
    """Type of a string [DEFAULT]: digits without letters -> ``digital`` (date separators
    allowed), letters and digits -> ``mix``, otherwise ``string``; ``""`` for ``""``."""
    if not s:
        return ""
    digit = any(c.isdigit() for c in s)
    alpha = any(c.isalpha() for c in s)
    if digit:
        return MIX if alpha else DIGITAL
    return STRING


@lru_cache(maxsize=1 << 12)
def split_host(host: str) -> tuple[str, str, str]:
    """Server-name vector [sub-domain, main domain, server name] of a lower-cased host.

    [DEFAULT] main domain = the label left of the public suffix (offline snapshot of the public
    suffix list); a host whose last label is not a known suffix (``.test``, ``.local``) takes its
    last label as the suffix; an IP address or a one-label host is its own main domain.
    """
    if not host:
        return ("", "", "")
    if ":" in host or host.replace(".", "").isdigit():
        try:
            ipaddress.ip_address(host)
            return ("", host, host)
        except ValueError:
            pass
    labels = host.split(".")
    if len(labels) == 1:
        return ("", host, host)
    r = _TLD(host)
    if r.suffix:
        return (r.subdomain, r.domain, host)
    return (".".join(labels[:-2]), labels[-2], host)


def _host_of(netloc: str) -> str:
    host = netloc.rpartition("@")[2]
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    else:
        host = host.partition(":")[0]
    host = host.strip().rstrip(".").lower()
    if "xn--" in host:
        labels = []
        for label in host.split("."):
            if label.startswith("xn--"):
                try:
                    label = label.encode("ascii").decode("idna")
                except (UnicodeError, ValueError):
                    pass
            labels.append(label)
        host = ".".join(labels)
    return host


def _month(s: str) -> bool:
    return 1 <= len(s) <= 2 and 1 <= int(s) <= 12


def _day(s: str) -> bool:
    return 1 <= len(s) <= 2 and 1 <= int(s) <= 31


def _date_run(segs: Sequence[str], i: int) -> int:
    """Length (2 or 3) of the date starting at ``segs[i]``, 0 if none [DEFAULT patterns:
    YYYY/MM/DD, YYYY/MMDD, YYYYMM/DD, YYYY/MM]."""
    digits = [s.isascii() and s.isdigit() for s in segs[i:i + 3]]
    if len(digits) < 2 or not (digits[0] and digits[1]):
        return 0
    a, b = segs[i], segs[i + 1]
    if len(a) == 4 and int(a) in _YEARS:
        if _month(b):
            return 3 if len(digits) == 3 and digits[2] and _day(segs[i + 2]) else 2
        if len(b) == 4 and _month(b[:2]) and _day(b[2:]):
            return 2
    if len(a) == 6 and int(a[:4]) in _YEARS and _month(a[4:]) and _day(b):
        return 2
    return 0


def merge_dates(segs: Sequence[str]) -> list[str]:
    """Merge each maximal run of all-digit directories forming a date into one directory."""
    out, i = [], 0
    while i < len(segs):
        n = _date_run(segs, i)
        if n:
            out.append("/".join(segs[i:i + n]))
            i += n
        else:
            out.append(segs[i])
            i += 1
    return out


def _file_vector(name: str, params: bool) -> tuple[str, str, str, str, str, str]:
    p = YES if params else NO
    if "." in name:                       # [DEFAULT] prefix / suffix split at the last dot
        prefix, _, suffix = name.rpartition(".")
        return (prefix, suffix, YES, name, value_type(name.partition(".")[0]), p)
    return ("0", "0", NO, name, value_type(name), p)


@lru_cache(maxsize=1 << 15)
def _decompose(url: str) -> UrlParts:
    url = url.strip()[:MAX_URL].partition("#")[0]     # fragments dropped
    rest, _, query = url.partition("?")
    m = _NETLOC.match(rest)
    if m:
        netloc, path = m.group(1), m.group(2)
    else:                                             # mailto:, javascript:, relative paths
        s = _SCHEME.match(rest)
        netloc, path = "", rest[s.end():] if s else rest
    segs = path.split("/")
    name = "" if path.endswith("/") else segs.pop()
    dirs = merge_dates([unquote(s, errors="replace") for s in segs if s])
    return UrlParts(
        host=split_host(_host_of(netloc)),
        dirs=tuple((d, value_type(d)) for d in dirs),
        file=_file_vector(unquote(name, errors="replace"), bool(query)),
    )


def decompose(url: str) -> UrlParts:
    """Decompose a URL into the vectors of §7.2 (cached; never raises).

    [DEFAULT] choices: host lower-cased, port, user info and fragment dropped, ``xn--`` labels
    decoded; empty path segments ignored; path segments percent-decoded; the file name is the
    last segment unless the path ends with ``/`` (then ``["0","0","no","","",params]``);
    "has parameters" iff the query string is non-empty.  The scheme is not used.  A URL
    longer than ``MAX_URL`` characters is cut first (a guard, not part of the method).
    """
    if not isinstance(url, str):
        url = "" if url is None else str(url)
    return _decompose(url)


# --------------------------------------------------------------------------------------------
# a-2: similarity
# --------------------------------------------------------------------------------------------

def element_similarity(a: str, b: str) -> float:
    """One term of formula (1): ``1 − ed(a, b) / max(l(a), l(b))``; 1 for two empty strings."""
    n = max(len(a), len(b))
    return 1.0 if n == 0 else 1.0 - Levenshtein.distance(a, b) / n


def vector_similarity(v: Sequence[str], w: Sequence[str]) -> float:
    """Formula (1) [RECON]: ``s(v, w) = (1/n) Σ_i (1 − ed(v_i, w_i) / max(l(v_i), l(w_i)))``.

    Two empty vectors score 1; a shorter vector is padded with empty strings.
    """
    n = max(len(v), len(w))
    if n == 0:
        return 1.0
    v = list(v) + [""] * (n - len(v))
    w = list(w) + [""] * (n - len(w))
    return sum(element_similarity(a, b) for a, b in zip(v, w)) / n


def initial_weights(K: int = K_DEFAULT, w_f: float = W_F, w_dd: float = W_DD) -> np.ndarray:
    """[DEFAULT] initial ``w_0..w_K`` (0 = server name): ``w_i ∝ K+1−i``, summing to
    ``1 − w_t`` with ``w_t = w_f + w_dd`` ("the further left, the coarser")."""
    w = np.arange(K + 1, 0, -1, dtype=float)
    return w / w.sum() * (1.0 - w_f - w_dd)


def _dists(a: Sequence[str], b: Sequence[str], workers: int) -> np.ndarray:
    """Levenshtein distances of every pair of ``a × b`` (int32, ``len(a) × len(b)``)."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)), dtype=np.int32)
    return _cdist(a, b, scorer=_RFLevenshtein.distance, dtype=np.int32, workers=workers)


def _pair_dists(a: Sequence[str], b: Sequence[str], workers: int) -> np.ndarray:
    """Levenshtein distances of the pairs ``(a[k], b[k])``."""
    if not len(a):
        return np.zeros(0, dtype=np.int32)
    return _cpdist(a, b, scorer=_RFLevenshtein.distance, dtype=np.int32, workers=workers)


def _sims(d: np.ndarray, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Terms of formula (1) from distances and reciprocal lengths ``1 / max(l, 1)``
    (broadcast): ``1 − d / max(la, lb) = 1 − d · min(ia, ib)``; 1 for two empty strings."""
    out = np.minimum(ia, ib)
    out *= d
    return np.subtract(1.0, out, out=out)


def _inv(lengths: np.ndarray) -> np.ndarray:
    return 1.0 / np.maximum(lengths, 1)


def _lengths(strings: Sequence[str]) -> np.ndarray:
    return np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))


def _as_str(u: Any) -> str:
    return u if isinstance(u, str) else ("" if u is None else str(u))


class _Column:
    """A column of strings as its unique strings (with lengths) and the id of each row;
    rows can be appended."""

    __slots__ = ("index", "uniq", "ids", "lens", "inv", "arr")

    def __init__(self, values: Sequence[str] = ()):
        self.index: dict[str, int] = {}
        self.uniq: list[str] = []
        self.ids = np.zeros(0, dtype=np.int64)
        self.lens = np.zeros(0, dtype=np.int64)
        self.inv = np.zeros(0)
        self.arr = np.empty(0, dtype=object)
        self.extend(values)

    def extend(self, values: Sequence[str]) -> None:
        """Append rows; only the strings new to the column are measured (an exemplar set
        grows by one at a time during a crawl)."""
        d = self.index
        old = len(d)
        new = np.fromiter((d.setdefault(v, len(d)) for v in values), dtype=np.int64,
                          count=len(values))
        self.ids = np.concatenate([self.ids, new]) if len(self.ids) else new
        if len(d) > old:        # ids are handed out in order of first appearance
            added = list(dict.fromkeys(v for v in values if d[v] >= old))
            lens = _lengths(added)
            arr = np.empty(len(added), dtype=object)
            arr[:] = added
            self.uniq = self.uniq + added
            self.lens = np.concatenate([self.lens, lens])
            self.inv = np.concatenate([self.inv, _inv(lens)])
            self.arr = np.concatenate([self.arr, arr])


def _expand(block: np.ndarray, A: _Column, B: _Column) -> np.ndarray:
    """A block over unique strings expanded to the rows of ``A`` × rows of ``B``."""
    if len(A.uniq) < len(A.ids):
        block = block[A.ids]
    if len(B.uniq) < len(B.ids):
        block = block[:, B.ids]
    return block


def _ext_id(name: str, vocab: dict[str, int]) -> int:
    """Id of the extension of a dotted file name (-2 if unknown), -1 without a dot."""
    return vocab.get(name.rpartition(".")[2], -2) if "." in name else -1


def _layout(K: int) -> list[tuple[int, ...]]:
    """Element positions (in :func:`_flat` order) of each slot: host, directory levels 1..K,
    file stem (prefix, name) and file tail (suffix, has dot, type, has parameters)."""
    fp = 3 + 2 * K
    return [(0, 1, 2), *[(3 + 2 * j, 4 + 2 * j) for j in range(K)], (fp, fp + 3),
            (fp + 1, fp + 2, fp + 4, fp + 5)]


def _flat(url: str, K: int) -> tuple:
    """Element strings of a URL: host (3), directory and type of levels 1..K (``None``
    beyond the depth), file (6)."""
    p = _decompose(url)
    dirs: list = [None] * (2 * K)
    for j, (d, t) in enumerate(p.dirs[:K]):
        dirs[2 * j], dirs[2 * j + 1] = d, t
    return (*p.host, *dirs, *p.file)


@lru_cache(maxsize=1 << 15)
def _slots(url: str, K: int) -> tuple:
    """Slot values of a URL (tuples of element strings, ``None`` for a missing directory
    level) followed by its depth."""
    fl = _flat(url, K)
    vals = tuple(None if fl[pos[0]] is None else tuple(fl[p] for p in pos)
                 for pos in _layout(K))
    return (*vals, _decompose(url).depth)


class _Index:
    """Exemplar side of the batch scorer.

    Every slot (host, each directory level, file stem, file tail) gets the unique values of
    the exemplars and each exemplar's value id.  Slots with few values are folded greedily
    into *combos* (unique tuples of their values plus the depth, at most ``combo_cap``) whose
    score part is computed once per (link combo, exemplar combo); the other slots are *huge*
    and are compared per pair (or per unique value in the full matrix).  Exemplars appended
    later (:meth:`extend`) keep that plan.
    """

    def __init__(self, exemplars: Sequence[str], K: int, combo_vocab: int, combo_cap: int):
        self.K, self.ns, self.stem = K, K + 3, K + 1
        self.m = self.built = 0
        self.vdict: list[dict[tuple, int]] = [{} for _ in range(self.ns)]
        self.vocab: list[list[tuple]] = [[] for _ in range(self.ns)]
        self.comp = [[_Column() for _ in pos] for pos in _layout(K)]
        self.cols = [np.zeros(0, dtype=np.int64) for _ in range(self.ns)]
        self.depth = np.zeros(0, dtype=np.int64)
        self.ext_vocab: dict[str, int] = {}
        self.stem_ext = np.zeros(0, dtype=np.int64)
        self.rows: dict[tuple[int, tuple], np.ndarray] = {}
        self.cells = 0
        self._add_values(exemplars)
        # greedy plan: slots with the fewest values first, while the combos stay few
        c = np.unique(self.depth, return_inverse=True)[1].reshape(-1)
        self.combo: list[int] = []
        for s in sorted(range(self.ns), key=lambda s: len(self.vocab[s])):
            if not self.vocab[s] or len(self.vocab[s]) > min(combo_vocab, self.m / 2):
                continue                     # (nearly) one value per exemplar: no sharing
            u, inv = np.unique(c * (len(self.vocab[s]) + 1) + self.cols[s] + 1,
                               return_inverse=True)
            if len(u) <= combo_cap:
                c, self.combo = inv.reshape(-1), self.combo + [s]
        self.huge = [s for s in range(self.ns) if self.vocab[s] and s not in self.combo]
        pos = [*self.combo, self.ns]
        self.key: Callable[[tuple], tuple] = (
            itemgetter(*pos) if len(pos) > 1 else (lambda r, p=self.ns: (r[p],)))
        self.cdict: dict[tuple, int] = {}
        self.combo_ids = np.zeros((0, len(self.combo)), dtype=np.int64)
        self.combo_depth = self.first = self.ce = np.zeros(0, dtype=np.int64)
        self._add_combos(0)
        self.built = self.m

    def _add_values(self, exemplars: Sequence[str]) -> None:
        rows = [_slots(_as_str(u), self.K) for u in exemplars]
        for s, pos in enumerate(_layout(self.K)):
            d, voc, old = self.vdict[s], self.vocab[s], len(self.vocab[s])
            ids = np.fromiter((-1 if r[s] is None else d.setdefault(r[s], len(d))
                               for r in rows), dtype=np.int64, count=len(rows))
            voc.extend(list(d)[old:])
            self.cols[s] = np.concatenate([self.cols[s], ids])
            for k, col in enumerate(self.comp[s]):
                col.extend([v[k] for v in voc[old:]])
            if s == self.stem:
                ext = self.ext_vocab
                new = [ext.setdefault(v[1].rpartition(".")[2], len(ext)) if "." in v[1]
                       else -1 for v in voc[old:]]
                self.stem_ext = np.concatenate([self.stem_ext, np.array(new, dtype=np.int64)])
        self.depth = np.concatenate([self.depth, np.fromiter(
            (r[-1] for r in rows), dtype=np.int64, count=len(rows))])
        self.m += len(rows)
        # slots whose value ids are 0..m-1 in order (every exemplar its own value)
        self.distinct = [len(self.vocab[s]) == self.m and bool((self.cols[s] >= 0).all())
                         for s in range(self.ns)]
        self.huge = [s for s in range(self.ns) if self.vocab[s]
                     and s not in getattr(self, "combo", ())]

    def _add_combos(self, start: int) -> None:
        """Combo ids of the exemplars ``start..m-1`` (new combos appended)."""
        d, old = self.cdict, len(self.cdict)
        keys = np.concatenate([np.stack([self.cols[s][start:] for s in self.combo], axis=1)
                               if self.combo else np.zeros((self.m - start, 0), np.int64),
                               self.depth[start:, None]], axis=1)
        ce = np.fromiter((d.setdefault(k, len(d)) for k in map(tuple, keys.tolist())),
                         dtype=np.int64, count=len(keys))
        ids, at = np.unique(ce, return_index=True)
        new = at[ids >= old]                      # first exemplar of each new combo, in order
        self.ce = np.concatenate([self.ce, ce])
        self.first = np.concatenate([self.first, start + new])
        self.combo_ids = np.concatenate([self.combo_ids, keys[new, :-1]])
        self.combo_depth = np.concatenate([self.combo_depth, keys[new, -1]])
        self.order = np.argsort(self.ce, kind="stable")
        self.counts = np.bincount(self.ce, minlength=len(self.first))
        self.starts = np.cumsum(self.counts) - self.counts

    def extend(self, exemplars: Sequence[str]) -> None:
        """Append exemplars, keeping the plan (combo slots); cached rows of slots whose
        vocabulary grew are recomputed on use."""
        start = self.m
        self._add_values(exemplars)
        self._add_combos(start)

    def cached_rows(self, s: int, values: list[tuple], coef: np.ndarray, workers: int,
                    limit: int) -> np.ndarray:
        """Weighted similarities (values × exemplar values) of slot ``s``; rows are cached
        across calls keyed by (slot, value) until the weights change, and completed when the
        vocabulary grows (at most ``limit`` cells: the older half is dropped when full)."""
        get, width = self.rows.get, len(self.vocab[s])
        rows: list = [get((s, v)) for v in values]
        short: dict[int, list[int]] = {}                   # cached width -> value positions
        for k, r in enumerate(rows):
            if r is None or len(r) < width:
                short.setdefault(0 if r is None else len(r), []).append(k)
        for have, todo in short.items():
            new = None
            for c, col in enumerate(self.comp[s]):
                a = [values[k][c] for k in todo]
                need, back = np.unique(col.ids[have:width], return_inverse=True)
                term = coef[c] * _sims(_dists(a, col.arr[need].tolist(), workers),
                                       _inv(_lengths(a))[:, None], col.inv[need][None, :])
                term = term[:, back.reshape(-1)]
                new = term if new is None else new + term
            for t, k in enumerate(todo):
                r = new[t] if rows[k] is None else np.concatenate([rows[k], new[t]])
                rows[k] = self.rows[(s, values[k])] = r
            self.cells += new.size
        if self.cells > limit:                             # keep the newer half
            keys = list(self.rows)
            for key in keys[:len(keys) // 2]:
                self.cells -= self.rows.pop(key).size
        return np.stack(rows)


@dataclass(slots=True)
class _Links:
    """Link side of one batch call: combo id per link, combo depths, the combo × combo part
    ``C`` of the score, the normaliser, and the huge slots as ``(slot, value id per link,
    unique values, their component columns)``."""

    cu: np.ndarray
    du: np.ndarray
    C: np.ndarray
    den: np.ndarray | None
    huge: list


class UrlSimilarity:
    """URL similarity ``s_m`` of §7.3 with the weights of §7.4.

    ``weights`` = ``w_0..w_K`` (``w_0`` = server name ``w_dn``, ``w_j`` = directory level j),
    default :func:`initial_weights`; ``w_f``, ``w_dd`` = file-name and depth weights.

    Reading "B" (default): ``s_m = w_0·s(dn) + Σ_{j≤min(m,K)} w_j·s(subd_j) + w_f·s(f) +
    w_dd·s_dd``.  Reading "A" (printed nesting): ``s_m = w_0·s(dn) + w_d·Σ_j w_j·s(subd_j) +
    w_t·(w_f·s(f) + w_dd·s_dd)``.  ``normalise=True`` (not in the source) divides by the same
    expression with every similarity set to 1 over the levels ``≤ min(max(depths), K)``.

    Batch scoring (:meth:`score_matrix`, :meth:`best`) gives the same numbers as
    :meth:`score`: each URL is decomposed once (cached) into *slots* (server name, directory
    levels, file stem = prefix and name, file tail = the four short file elements); every
    slot's element strings are mapped to unique values, edit distances are computed between
    unique values only (``rapidfuzz`` blocks; rows of the few-valued slots cached across
    calls), then gathered with numpy, weighted and summed.  ``workers`` (threads of the
    distance blocks), ``combo_vocab``, ``combo_cap``, ``strategy`` (of :meth:`best`: "auto",
    "pairs", "full"), ``row_cache`` (cached cells) and ``max_cells`` (links × exemplars
    compared at once by :meth:`best`: its memory) tune speed only, never a score.
    """

    def __init__(self, weights: Sequence[float] | None = None, *, w_f: float = W_F,
                 w_dd: float = W_DD, K: int = K_DEFAULT, reading: str = "B",
                 normalise: bool = False, workers: int = 1, combo_vocab: int = 2048,
                 combo_cap: int = 1024, strategy: str = "auto",
                 row_cache: int = 2_000_000, max_cells: int = MAX_CELLS):
        if reading not in ("A", "B"):
            raise ValueError(f"reading must be 'A' or 'B', not {reading!r}")
        if K < 0:
            raise ValueError("K must be >= 0")
        self.K, self.reading, self.normalise = K, reading, normalise
        self.workers, self.combo_vocab, self.combo_cap = workers, combo_vocab, combo_cap
        if strategy not in ("auto", "pairs", "full"):
            raise ValueError(f"strategy must be 'auto', 'pairs' or 'full', not {strategy!r}")
        self.strategy, self.row_cache, self.max_cells = strategy, row_cache, max_cells
        self._indexes: OrderedDict[tuple[str, ...], _Index] = OrderedDict()
        self._small: OrderedDict[tuple[str, ...], _Index] = OrderedDict()
        self.w_f, self.w_dd = w_f, w_dd
        self.set_weights(initial_weights(K, w_f, w_dd) if weights is None else weights)

    # --- weights ------------------------------------------------------------------------------

    def set_weights(self, weights: Sequence[float], w_f: float | None = None,
                    w_dd: float | None = None) -> None:
        """Replace ``w_0..w_K`` (and optionally ``w_f``, ``w_dd``), e.g. from a
        :class:`WeightTuner`; cached exemplar indexes stay valid."""
        w = np.asarray(weights, dtype=float).reshape(-1)
        if len(w) != self.K + 1:
            raise ValueError(f"expected {self.K + 1} weights w_0..w_K, got {len(w)}")
        w_f = self.w_f if w_f is None else float(w_f)
        w_dd = self.w_dd if w_dd is None else float(w_dd)
        if not (np.all(w >= 0) and w_f >= 0 and w_dd >= 0):     # also rejects NaN
            raise ValueError("weights must be non-negative numbers")
        self.levels, self.w_f, self.w_dd = w.copy(), w_f, w_dd
        self.version = getattr(self, "version", -1) + 1     # scores of older weights are stale
        c_host, c_lev, c_f, c_dd = self._coefficients()
        self._c = (c_host, c_lev, c_f, c_dd)
        self._coef = np.concatenate([np.full(3, c_host / 3), np.repeat(c_lev / 2, 2),
                                     np.full(6, c_f / 6)])
        self._cum = np.concatenate([[0.0], np.cumsum(c_lev)])
        self._slot_coef = [self._coef[list(pos)] for pos in _layout(self.K)]
        for idx in [*self._indexes.values(), *self._small.values()]:
            idx.rows.clear()                       # cached rows are weighted
            idx.cells = 0

    @property
    def weights(self) -> dict[str, Any]:
        """Current weights: ``levels`` (w_0..w_K), ``w_f``, ``w_dd``."""
        return {"levels": self.levels.tolist(), "w_f": self.w_f, "w_dd": self.w_dd}

    def _coefficients(self) -> tuple[float, np.ndarray, float, float]:
        """Multipliers of s(dn), s(subd_j), s(f), s_dd under the chosen reading."""
        w0, wj = float(self.levels[0]), self.levels[1:]
        if self.reading == "B":
            return w0, wj.copy(), self.w_f, self.w_dd
        w_d, w_t = float(wj.sum()), self.w_f + self.w_dd
        return w0, w_d * wj, w_t * self.w_f, w_t * self.w_dd

    def _den(self, d1: np.ndarray | int, d2: np.ndarray | int) -> np.ndarray:
        c_host, _, c_f, c_dd = self._c
        top = np.minimum(np.maximum(d1, d2), self.K)
        den = c_host + self._cum[top] + c_f + c_dd
        return np.where(den > 0, den, 1.0)

    # --- scalar ------------------------------------------------------------------------------

    def score(self, u: str, v: str) -> float:
        """``s_m(u, v)`` computed directly from the vectors (reference implementation)."""
        a, b = decompose(_as_str(u)), decompose(_as_str(v))
        c_host, c_lev, c_f, c_dd = self._c
        m = min(a.depth, b.depth, self.K)
        s = c_host * vector_similarity(a.host, b.host)
        s += sum(c_lev[j] * vector_similarity(a.dirs[j], b.dirs[j]) for j in range(m))
        s += c_f * vector_similarity(a.file, b.file) + c_dd * (a.depth == b.depth)
        if self.normalise:
            s /= float(self._den(a.depth, b.depth))
        return float(s)

    # --- batch -------------------------------------------------------------------------------

    def index(self, exemplars: Sequence[str]) -> _Index:
        """The (cached) exemplar index of a sequence of exemplar URLs.  A sequence that
        extends a cached one (exemplars appended) extends that index, until it has doubled
        since its last full build.  Small sequences (< 64) have their own cache, so that
        one-off comparisons never evict the crawl's exemplar index."""
        key = tuple(exemplars)
        try:
            hash(key)
        except TypeError:
            key = tuple(_as_str(e) for e in key)
        cache = self._small if len(key) < 64 else self._indexes
        idx = cache.get(key)
        if idx is not None:
            cache.move_to_end(key)
            return idx
        for old in reversed(cache):
            prev = cache[old]
            if len(old) < len(key) <= 2 * max(prev.built, 8) and key[:len(old)] == old:
                prev.extend(key[len(old):])
                del cache[old]
                if len(prev.first) <= self.combo_cap:
                    idx = prev
                break
        if idx is None:
            idx = _Index(key, self.K, self.combo_vocab, self.combo_cap)
        cache[key] = idx
        while len(cache) > (8 if cache is self._small else 4):
            cache.popitem(last=False)
        return idx

    def _prepare(self, urls: Sequence[str], idx: _Index) -> _Links:
        """Link-side encoding and the combo × combo part of the score (combo slots and the
        depth term)."""
        rows = [_slots(_as_str(u), self.K) for u in urls]
        combos: dict[tuple, int] = {}
        cu = np.fromiter((combos.setdefault(idx.key(r), len(combos)) for r in rows),
                         dtype=np.int64, count=len(rows))
        keys = list(combos)
        du = np.fromiter((k[-1] for k in keys), dtype=np.int64, count=len(keys))
        de = idx.combo_depth
        C = np.zeros((len(keys), len(de)))
        for p, s in enumerate(idx.combo):
            cs = self._slot_coef[s]
            if not cs.any():
                continue
            local: dict[tuple, int] = {}
            uid = [-1 if k[p] is None else local.setdefault(k[p], len(local)) for k in keys]
            if not local:
                continue
            B = np.zeros((len(local) + 1, len(idx.vocab[s]) + 1))
            B[:-1, :-1] = idx.cached_rows(s, list(local), cs, self.workers, self.row_cache)
            C += B[np.asarray(uid)][:, idx.combo_ids[:, p]]
        C += self._c[3] * (du[:, None] == de[None, :])
        den = self._den(du[:, None], de[None, :]) if self.normalise else None
        huge = []
        for s in idx.huge:
            if not self._slot_coef[s].any():
                continue
            local = {}
            uid = np.fromiter((-1 if r[s] is None else local.setdefault(r[s], len(local))
                               for r in rows), dtype=np.int64, count=len(rows))
            if local:
                vals = list(local)
                huge.append((s, uid, vals,
                             [_Column([v[c] for v in vals]) for c in range(len(vals[0]))]))
        return _Links(cu, du, C, den, huge)

    def _block(self, idx: _Index, s: int, vals: list[tuple], cols: list[_Column]
               ) -> np.ndarray:
        """Weighted similarity of slot ``s`` for every (link value, exemplar value).  For the
        file stem the name distance reuses the prefix distance: ``ed(p1.x, p2.x) =
        ed(p1, p2)`` (a common suffix never changes a Levenshtein distance)."""
        cs = self._slot_coef[s]
        out = d_prefix = None
        for c, (A, B) in enumerate(zip(cols, idx.comp[s])):
            if s == idx.stem and c == 1:
                d = self._stem_names(idx, vals, A, d_prefix)
                term = _sims(d, A.inv[A.ids][:, None], B.inv[B.ids][None, :])
                term *= cs[c]
            else:                                  # on unique strings, then expanded
                d = _dists(A.uniq, B.uniq, self.workers)
                term = _sims(d, A.inv[:, None], B.inv[None, :])
                term *= cs[c]
                if s == idx.stem:
                    d_prefix = _expand(d, A, B)
                term = _expand(term, A, B)
            if out is None:
                out = term
            else:
                out += term
        return out

    def _stem_names(self, idx: _Index, vals: list[tuple], A: _Column,
                    d_prefix: np.ndarray) -> np.ndarray:
        ext = np.array([_ext_id(v[1], idx.ext_vocab) for v in vals], dtype=np.int64)
        d = d_prefix.copy()
        names = idx.comp[idx.stem][1]
        for e in np.unique(ext):
            r = np.flatnonzero(ext == e)
            bad = np.flatnonzero(idx.stem_ext != e) if e >= 0 else np.arange(len(idx.stem_ext))
            if len(bad):
                d[np.ix_(r, bad)] = _dists(A.arr[A.ids[r]].tolist(),
                                           names.arr[names.ids[bad]].tolist(), self.workers)
        return d

    def _pair_dists(self, A: _Column, B: _Column, a: np.ndarray, b: np.ndarray
                    ) -> np.ndarray:
        """Distances of the pairs (row ``a[k]`` of ``A``, row ``b[k]`` of ``B``), by the
        cheapest of: one block of the unique strings, one row per unique string of ``A``
        (its pattern is prepared once), or pair by pair."""
        pa, pb = A.ids[a], B.ids[b]
        ua, ia = np.unique(pa, return_inverse=True)
        ia = ia.reshape(-1)
        n = len(a)
        ub, ib = np.unique(pb, return_inverse=True)
        block = len(ua) * len(ub) * self.CELL_US
        rows = len(ua) * self.ROW_US + n * self.CELL_US
        if block <= min(rows, n * self.PAIR_US):
            return _dists(A.arr[ua].tolist(), B.arr[ub].tolist(), self.workers)[ia, ib.reshape(-1)]
        if rows > n * self.PAIR_US:
            return _pair_dists(A.arr[pa], B.arr[pb], self.workers)
        order = np.argsort(ia, kind="stable")
        cut = np.r_[0, np.flatnonzero(np.diff(ia[order])) + 1, n]
        other = B.arr[pb[order]].tolist()
        mine = A.arr[ua].tolist()
        out = np.empty(n, dtype=np.int32)
        done = np.empty(n, dtype=np.int32)
        for g in range(len(ua)):
            lo, hi = cut[g], cut[g + 1]
            done[lo:hi] = _cdist(mine[g:g + 1], other[lo:hi], scorer=_RFLevenshtein.distance,
                                 dtype=np.int32, workers=self.workers)[0]
        out[order] = done
        return out

    def _pair_terms(self, idx: _Index, s: int, a: np.ndarray, b: np.ndarray,
                    vals: list[tuple], cols: list[_Column]) -> np.ndarray:
        """Weighted similarity of slot ``s`` for the pairs (link value ``a[k]``, exemplar
        value ``b[k]``); same arithmetic as :meth:`_block`."""
        cs = self._slot_coef[s]
        out = d_prefix = None
        for c, (A, B) in enumerate(zip(cols, idx.comp[s])):
            if s == idx.stem and c == 1:
                ext = np.array([_ext_id(n, idx.ext_vocab) for n in A.uniq], dtype=np.int64)
                rest = np.flatnonzero(~((ext[A.ids[a]] >= 0)
                                        & (ext[A.ids[a]] == idx.stem_ext[b])))
                d = d_prefix.copy()
                if len(rest):
                    d[rest] = self._pair_dists(A, B, a[rest], b[rest])
            else:
                d = d_prefix = self._pair_dists(A, B, a, b)
            term = cs[c] * _sims(d, A.inv[A.ids[a]], B.inv[B.ids[b]])
            out = term if out is None else out + term
        return out

    def _full(self, idx: _Index, L: _Links) -> np.ndarray:
        out = L.C[L.cu][:, idx.ce]
        for s, uid, vals, cols in L.huge:
            blk = self._block(idx, s, vals, cols)
            e = idx.cols[s]
            if len(vals) == len(uid) and idx.distinct[s]:   # one value per URL: no gather
                out += blk
            elif uid.min() >= 0 and e.min() >= 0:
                out += blk[uid][:, e]
            else:
                B = np.zeros((len(vals) + 1, len(idx.vocab[s]) + 1))
                B[:-1, :-1] = blk
                out += B[uid][:, e]
        if L.den is not None:
            out /= L.den[L.cu][:, idx.ce]
        return out

    def score_matrix(self, urls: Sequence[str], exemplars: Sequence[str]) -> np.ndarray:
        """``S[i, j] = s_m(urls[i], exemplars[j])`` (n × m), equal to :meth:`score`."""
        idx = self.index(exemplars)
        if not len(urls) or not idx.m:
            return np.zeros((len(urls), idx.m))
        return self._full(idx, self._prepare(urls, idx))

    def best(self, urls: Sequence[str], exemplars: Sequence[str]
             ) -> tuple[np.ndarray, np.ndarray]:
        """Per URL the highest score over the exemplars and the index of the first exemplar
        reaching it: exactly ``score_matrix(...).max(1)`` and ``.argmax(1)`` (``-1`` without
        exemplars).

        Exact branch and bound.  The combo part of every score is known; each huge slot adds
        at most its weight (at most ``1 − |l1 − l2| / max(l1, l2)`` per element, per pair).
        An incumbent -- the exact score of a promising exemplar -- prunes every exemplar
        whose upper bound is below it; only the rest is compared on the huge slots.  The URLs
        go in blocks of at most ``max_cells`` links × exemplars (memory; each URL's result
        is its own, whatever else is in its block).
        """
        n = len(urls)
        idx = self.index(exemplars)
        if not n or not idx.m:
            return np.zeros(n), np.full(n, -1, dtype=np.int64)
        step = max(1, self.max_cells // idx.m)
        if n <= step:
            return self._best(urls, idx)
        parts = [self._best(urls[k:k + step], idx) for k in range(0, n, step)]
        return (np.concatenate([top for top, _ in parts]),
                np.concatenate([first for _, first in parts]))

    def _best(self, urls: Sequence[str], idx: _Index) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`best` of one block of URLs."""
        n = len(urls)
        L = self._prepare(urls, idx)
        lo = L.C if L.den is None else L.C / L.den
        if not L.huge:                                   # exact at combo level
            top = lo.max(axis=1)
            first = np.where(lo == top[:, None], idx.first[None, :], idx.m).min(axis=1)
            return top[L.cu], first[L.cu]
        hi = L.C + self._slack(idx, L)
        if L.den is not None:
            hi /= L.den
        # incumbent per link combo: the worst of its links' exact scores against the first
        # exemplar of the combo with the best lower bound
        links = np.arange(n)
        inc0 = self._pair_scores(idx, L, links, idx.first[lo.argmax(axis=1)[L.cu]])
        th = np.full(len(L.du), np.inf)
        np.minimum.at(th, L.cu, inc0)
        ca, cb = np.nonzero(hi >= th[:, None] - 1e-9)
        nu = np.bincount(L.cu, minlength=len(L.du))
        sizes = nu[ca] * idx.counts[cb]
        P = int(sizes.sum())
        if self.strategy == "full" or (self.strategy == "auto"
                                       and P > self.FULL_SHARE * n * idx.m):
            S = self._full(idx, L)
            return S.max(axis=1), S.argmax(axis=1)
        # expand the candidate combo pairs into (link i, exemplar j) pairs
        k = np.repeat(np.arange(len(ca)), sizes)
        t = np.arange(P) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        mb = idx.counts[cb][k]
        i = np.argsort(L.cu, kind="stable")[(np.cumsum(nu) - nu)[ca][k] + t // mb]
        j = idx.order[idx.starts[cb][k] + t % mb]
        # per link: a second incumbent, the pair with the highest length bound
        ub = self._pair_scores(idx, L, i, j, bound=True)
        top = np.full(n, -np.inf)
        np.maximum.at(top, i, ub)
        hit = np.flatnonzero(ub == top[i])
        hit = hit[np.unique(i[hit], return_index=True)[1]]
        inc = inc0.copy()
        np.maximum.at(inc, i[hit], self._pair_scores(idx, L, i[hit], j[hit]))
        keep = np.flatnonzero(ub >= inc[i] - 1e-9)
        if self.strategy == "auto" and self._full_is_cheaper(idx, L, len(keep)):
            S = self._full(idx, L)
            return S.max(axis=1), S.argmax(axis=1)
        i, j = i[keep], j[keep]
        s = self._pair_scores(idx, L, i, j)
        top = np.full(n, -np.inf)
        np.maximum.at(top, i, s)
        hit = np.flatnonzero(s == top[i])
        first = np.full(n, idx.m, dtype=np.int64)
        np.minimum.at(first, i[hit], j[hit])
        return top, first

    def _pair_scores(self, idx: _Index, L: _Links, i: np.ndarray, j: np.ndarray,
                     bound: bool = False) -> np.ndarray:
        """Exact scores (or their length upper bounds) of the pairs (link ``i[k]``,
        exemplar ``j[k]``); the same arithmetic as :meth:`_full`."""
        ci, cj = L.cu[i], idx.ce[j]
        out = L.C[ci, cj]
        for slot, uid, vals, cols in L.huge:
            a, b = uid[i], idx.cols[slot][j]
            ok = np.flatnonzero((a >= 0) & (b >= 0))
            if len(ok):
                add = np.zeros(len(out))
                add[ok] = (self._pair_bounds(idx, slot, a[ok], b[ok], cols) if bound
                           else self._pair_terms(idx, slot, a[ok], b[ok], vals, cols))
                out += add
        if L.den is not None:
            out /= L.den[ci, cj]
        return out

    def _pair_bounds(self, idx: _Index, s: int, a: np.ndarray, b: np.ndarray,
                     cols: list[_Column]) -> np.ndarray:
        """Upper bound of :meth:`_pair_terms` from the lengths: ``ed >= |l1 − l2|``."""
        out = None
        for c, (A, B) in enumerate(zip(cols, idx.comp[s])):
            pa, pb = A.ids[a], B.ids[b]
            term = self._slot_coef[s][c] * _sims(np.abs(A.lens[pa] - B.lens[pb]), A.inv[pa],
                                                 B.inv[pb])
            out = term if out is None else out + term
        return out

    # rough costs (µs): a pair compared alone, a pair on average in :meth:`_pair_dists`, a
    # cell of a block, a prepared row, a cell of an n × m pass; the share of candidate pairs
    # above which the full matrix is computed at once
    PAIR_US, AVG_PAIR_US, CELL_US, ROW_US, PASS_US, FULL_SHARE = 0.4, 0.15, 0.03, 6.0, 0.004, 0.5

    def _full_is_cheaper(self, idx: _Index, L: _Links, P: int) -> bool:
        cells = sum(len(cols[0].uniq) * len(idx.comp[s][0].uniq) for s, _, _, cols in L.huge)
        full = cells * self.CELL_US + len(L.cu) * idx.m * (len(L.huge) + 2) * self.PASS_US
        return P * len(L.huge) * self.AVG_PAIR_US > full

    def _slack(self, idx: _Index, L: _Links) -> np.ndarray:
        """Upper bound (combo × combo) of what the huge slots can add."""
        tab = np.zeros(self.K + 1)
        for s, _, _, _ in L.huge:
            tab[s if 1 <= s <= self.K else 0:] += self._slot_coef[s].sum()
        m = np.minimum(np.minimum(L.du[:, None], idx.combo_depth[None, :]), self.K)
        return tab[m]


# --------------------------------------------------------------------------------------------
# a-3: unsupervised weight update
# --------------------------------------------------------------------------------------------

MAX_VALUES = 100_000     # distinct values kept per position before singletons are forgotten


class WeightTuner:
    """Self-tuning of ``w_0..w_K`` (§7.4, embodiment of Fig. 1).

    :meth:`observe` counts ``word_pv`` of the value at every position (0 = full server name,
    1..K = directory string); after every ``interval`` newly observed URLs [DEFAULT 1000] the
    weights become [RECON] ``w_i = Σ_{j: word_pv_{i,j} ≥ γ} word_pv_{i,j} / num(url)``,
    normalised so that ``Σ w_i = 1 − w_t`` (``w_f``, ``w_dd`` keep their empirical values).
    ``γ`` [DEFAULT 5] is an absolute count, or a fraction of ``num(url)`` with
    ``gamma_is_fraction``.  Statistics are cumulative; pass each URL once.
    """

    FORMAT = "s1-weight-tuner/1"

    def __init__(self, K: int = K_DEFAULT, *, gamma: float = GAMMA,
                 gamma_is_fraction: bool = False, interval: int = INTERVAL,
                 w_f: float = W_F, w_dd: float = W_DD,
                 levels: Sequence[float] | None = None):
        if interval < 1:
            raise ValueError("interval must be >= 1")
        self.K, self.gamma, self.gamma_is_fraction = K, gamma, gamma_is_fraction
        self.interval, self.w_f, self.w_dd = interval, w_f, w_dd
        self._levels = (initial_weights(K, w_f, w_dd) if levels is None
                        else np.asarray(levels, dtype=float).copy())
        if len(self._levels) != K + 1:
            raise ValueError(f"expected {K + 1} weights w_0..w_K")
        self.counts: list[dict[str, int]] = [{} for _ in range(K + 1)]
        self.num_urls = 0
        self.since_update = 0
        self.updates = 0

    @property
    def levels(self) -> np.ndarray:
        """Current ``w_0..w_K`` (a copy)."""
        return self._levels.copy()

    @property
    def weights(self) -> dict[str, Any]:
        """Current weights: ``levels`` (w_0..w_K), ``w_f``, ``w_dd``."""
        return {"levels": self._levels.tolist(), "w_f": self.w_f, "w_dd": self.w_dd}

    def observe(self, url: str) -> bool:
        """Count one newly obtained URL; True when this observation triggered an update.
        URLs without a host (garbage, ``mailto:``) are ignored."""
        p = decompose(url)
        if not p.host[2]:
            return False
        c = self.counts
        c[0][p.host[2]] = c[0].get(p.host[2], 0) + 1
        for j, (d, _) in enumerate(p.dirs[:self.K], start=1):
            c[j][d] = c[j].get(d, 0) + 1
        self.num_urls += 1
        self.since_update += 1
        if self.since_update >= self.interval:
            self.update()
            return True
        return False

    def observe_many(self, urls: Sequence[str]) -> bool:
        """:meth:`observe` each URL; True if any update happened."""
        updated = False
        for u in urls:
            updated |= self.observe(u)
        return updated

    def raw_weights(self) -> np.ndarray:
        """Un-normalised ``w_i`` of the [RECON] update formula."""
        if not self.num_urls:
            return np.zeros(self.K + 1)
        g = self.gamma * self.num_urls if self.gamma_is_fraction else self.gamma
        return np.array([sum(v for v in pos.values() if v >= g) for pos in self.counts],
                        dtype=float) / self.num_urls

    def update(self) -> np.ndarray:
        """Recompute the weights now (kept unchanged while no value is frequent).  A position
        holding more than :data:`MAX_VALUES` distinct values (ID-like directories: two new
        values per URL) first forgets those seen once, so memory and this update stay
        bounded over a long crawl; a value that comes back is counted again from then."""
        for k, pos in enumerate(self.counts):
            if len(pos) > MAX_VALUES:
                self.counts[k] = {v: n for v, n in pos.items() if n > 1}
        raw = self.raw_weights()
        if raw.sum() > 0:
            self._levels = raw / raw.sum() * (1.0 - self.w_f - self.w_dd)
        self.since_update = 0
        self.updates += 1
        return self.levels

    # --- persistence -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": self.FORMAT, "K": self.K, "gamma": self.gamma,
                "gamma_is_fraction": self.gamma_is_fraction, "interval": self.interval,
                "w_f": self.w_f, "w_dd": self.w_dd, "levels": self._levels.tolist(),
                "num_urls": self.num_urls, "since_update": self.since_update,
                "updates": self.updates, "counts": self.counts}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "WeightTuner":
        if data.get("format") != cls.FORMAT:
            raise ValueError(f"not a {cls.FORMAT} state: {data.get('format')!r}")
        t = cls(int(data["K"]), gamma=data["gamma"],
                gamma_is_fraction=bool(data["gamma_is_fraction"]),
                interval=int(data["interval"]), w_f=float(data["w_f"]),
                w_dd=float(data["w_dd"]), levels=data["levels"])
        counts = data["counts"]
        if len(counts) != t.K + 1:
            raise ValueError("counts do not match K")
        t.counts = [{str(k): int(v) for k, v in pos.items()} for pos in counts]
        t.num_urls, t.since_update = int(data["num_urls"]), int(data["since_update"])
        t.updates = int(data.get("updates", 0))
        return t

    def save(self, path: str | os.PathLike) -> None:
        """Write the state as JSON atomically (temporary file in the same folder, then
        ``os.replace``)."""
        atomic_write_text(path, json.dumps(self.to_dict(), ensure_ascii=False))

    @classmethod
    def load(cls, path: str | os.PathLike) -> "WeightTuner":
        """Read a state written by :meth:`save`."""
        with open(path, encoding="utf-8") as fh:
            return cls.from_dict(json.load(fh))
