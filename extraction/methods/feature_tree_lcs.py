"""E5: LCS maximum-similarity matching of feature trees against a similar page (ALGORITHMS.md §5).

Song Ao, Zhi Cheng, Zhou Jun, Luo Chuanfei, An Ran, Video Engineering (电视技术) 2011 no. 13.

Pipeline: feature trees of the target page and of a similar page of the same site (CNodes =
the elements under ``<body>``), their level-order sequences, a DP that maximises the accumulated
CompareTwoCNode similarity, backtracking to the candidate set (target nodes without a similar
counterpart), aggregation into clusters, six-indicator scoring, selection.

Paper values: content-node text rate ``> 0.75``; content tags ``P SPAN B STRONG H1..H6`` (the
printed list ends with "etc."; exactly these is the [DEFAULT]); rule-7 features ``ID, className,
Depth, width, height, left, top`` ("etc."; exactly these 7 is the [DEFAULT]); tie order
up-left, up, left; points 5/3/1 and -5/-3/-1 for the link rate.  Not in the paper ([DEFAULT]):
``Ts = 0.5``, the DP recurrence (standard LCS with similarity, [RECON]), the main visual area
(band ``0.2W..0.8W``), the "fairly close" rule (top score - 2), ties by document order.

Options (default first): ``Ts``; ``missing_attrs_equal`` (absent id/class on both sides are
equal / unequal); ``tolerance`` (pixel tolerance of the four geometric features, 0 = exact);
``aggregation`` ("literal" / "transitive"); ``main_area`` and ``main_area_screens`` (the main
visual area); ``selection`` ("close" with ``margin`` / "top"); ``combine`` ("first" sibling /
"intersection" of the candidate sets against every sibling).

Geometry comes from :mod:`extraction.geometry` (no browser: approximated layout, so rule 7 and
the area indicators are approximate and every result says ``info["geometry"]``).

Implementation: the node-similarity matrix is filled row by row in level order of the similar
page (a parent's row precedes its children's), only over the target columns with the same tag;
similarities are stored as integers in units of 1/7 so that DP ties are exact; every DP row is
one cumulative maximum; the pointer table is ``uint8``; only two score rows are kept (an up-left
step's similarity is read back from the similarity matrix, which equals
``score[r][c] - score[r-1][c-1]``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence
from urllib.parse import urljoin

import numpy as np

from ..document import ELEMENT, TEXT, Document
from ..result import Selection, empty

CONTENT_TAGS = ("p", "span", "b", "strong", "h1", "h2", "h3", "h4", "h5", "h6")  # Definition 3
TEXT_RATE_PAPER = 0.75                   # Definition 4: content node if text rate > 75%
TS_DEFAULT = 0.5                         # Definition 6: value not given in the paper [DEFAULT]
FEATURES = ("id", "className", "Depth", "Width", "Height", "Left", "Top")   # rule 7 [DEFAULT]
UNITS = len(FEATURES)                    # similarities are stored as k / UNITS, k in 0..UNITS
POINTS = (5, 3, 1)                       # §2.5: the first three clusters of an indicator
LINK_POINTS = (-5, -3, -1)               # §2.5: link rate (higher = noise)
MAX_POINTS = 5 * POINTS[0]               # five "higher = content" indicators
URI_ATTRS = ("href", "src")              # §5.4: links, images, CSS, iframe/frame sources
VOID_TAGS = frozenset("area base br col embed hr img input link meta param source track wbr"
                      .split())

# pointerTable directions (0 = the top-left cell)
UP_LEFT, UP, LEFT = 1, 2, 3

_HAS_SCHEME = re.compile(r"\s*[A-Za-z][A-Za-z0-9+.-]*:")


# ---------------------------------------------------------------------------------- feature tree
@dataclass
class FeatureTree:
    """The CNodes of one page in level order (index = position in the sequence ``S``)."""

    doc: Document
    nodes: np.ndarray        # document node id of each CNode
    parent: np.ndarray       # level index of the parent CNode (-1 for the root)
    tag: np.ndarray          # tag code
    depth: np.ndarray        # Depth, body = 0
    content: np.ndarray      # Definition 4
    inner: np.ndarray        # innerHTML identity code (equal code <=> equal normalised innerHTML)
    ident: np.ndarray        # id code, -1 when absent
    cls: np.ndarray          # className code, -1 when absent
    geo: np.ndarray          # (n, 4) Width, Height, Left, Top
    has_text: np.ndarray     # innerText not empty

    def __len__(self) -> int:
        return len(self.nodes)

    def restrict(self, keep: np.ndarray) -> "FeatureTree":
        """The sub-sequence of the kept CNodes; every kept node's parent must be kept too."""
        new = np.cumsum(keep) - 1
        par = self.parent[keep]
        par = np.where(par >= 0, new[np.maximum(par, 0)], -1)
        return FeatureTree(self.doc, self.nodes[keep], par, self.tag[keep], self.depth[keep],
                           self.content[keep], self.inner[keep], self.ident[keep],
                           self.cls[keep], self.geo[keep], self.has_text[keep])


def _base_url(doc: Document, fallback: str | None) -> str | None:
    """Base for relative URIs: ``<base href>`` joined to the page URL (else ``fallback``)."""
    page = doc.url or fallback
    b = doc.find("base")
    href = doc.elements[b].get("href") if b >= 0 else None
    if href:
        try:
            return urljoin(page, href.strip()) if page else href.strip()
        except ValueError:
            pass
    return page


def _absolute(base: str | None, value: str, cache: dict) -> str:
    if not base or _HAS_SCHEME.match(value):
        return value
    key = (base, value)
    out = cache.get(key)
    if out is None:
        try:
            out = urljoin(base, value.strip())
        except ValueError:
            out = value
        cache[key] = out
    return out


def _inner_codes(doc: Document, lo: int, hi: int, need: np.ndarray, base: str | None,
                 codes: dict) -> np.ndarray:
    """innerHTML identity of the nodes of ``[lo, hi)`` marked in ``need`` (else -1).

    A structural (Merkle) interning: a node's outer code is that of (start tag with attributes,
    URIs made absolute; codes of its children), a text run's that of its whitespace-collapsed
    text; the inner code is that of the children's codes.  Two nodes get the same inner code
    iff their normalised innerHTML are equal, with no serialisation and no hash collisions.
    ``codes`` is shared by both pages so that codes are comparable.
    """
    inner = np.full(hi - lo, -1, dtype=np.int64)
    idx = np.flatnonzero(need[lo:hi]) + lo
    if not len(idx):
        return inner
    kids: dict[int, list[int]] = {}
    parent, kind, elements, texts = doc.parent, doc.kind, doc.elements, doc.texts
    url_cache: dict = {}
    for i in reversed(idx.tolist()):
        if kind[i] == TEXT:         # whitespace collapsed: inner runs to one space
            t = texts[i]
            key = ("#t", t[:1].isspace(), " ".join(t.split()), t[-1:].isspace())
        else:
            el = elements[i]
            attrs = tuple((k, _absolute(base, v, url_cache) if k in URI_ATTRS else v)
                          for k, v in el.attrib.items())
            children = tuple(kids.pop(i, ()))[::-1]
            key = (el.tag, attrs, children)
            inner[i - lo] = codes.setdefault(("#in", children), len(codes))
        code = codes.setdefault(key, len(codes))
        p = int(parent[i])
        if p >= lo and need[p]:
            kids.setdefault(p, []).append(code)
    return inner


def _attr_codes(values: list, codes: dict, prefix: str) -> np.ndarray:
    out = np.full(len(values), -1, dtype=np.int64)
    for k, v in enumerate(values):
        if v is not None:
            out[k] = codes.setdefault((prefix, v), len(codes))
    return out


def feature_tree(doc: Document, lay, codes: dict, base: str | None = None,
                 text_rate: float = TEXT_RATE_PAPER) -> FeatureTree:
    """Build the CTree of ``doc`` (Definition 1) from its node table and layout ``lay``."""
    body = doc.body
    lo, hi = body, int(doc.end[body])
    ids = np.flatnonzero(doc.kind[lo:hi] == ELEMENT) + lo
    depth = doc.depth[ids] - doc.depth[body]
    order = np.lexsort((ids, depth))             # level order = (depth, document order)
    ids, depth = ids[order], depth[order]
    pos = np.full(doc.size, -1, dtype=np.int64)
    pos[ids] = np.arange(len(ids))
    par_node = doc.parent[ids]
    parent = np.where(ids == body, -1, pos[np.maximum(par_node, 0)])
    s = doc.stats
    text = s.text[ids]
    rate = np.where(text > 0, s.own_text[ids] / np.maximum(text, 1), 0.0)   # Definition 2
    content = doc.is_tag(CONTENT_TAGS)[ids] | (rate > text_rate)            # Definition 4
    # innerHTML is compared only between content nodes: intern the subtrees of content nodes.
    need = np.zeros(doc.size + 1, dtype=np.int32)
    np.add.at(need, ids[content], 1)
    np.add.at(need, doc.end[ids[content]], -1)
    need = np.cumsum(need[:-1]) > 0
    inner_all = _inner_codes(doc, lo, hi, need, base, codes)
    inner = inner_all[ids - lo]
    els = [doc.elements[i] for i in ids.tolist()]
    ident = _attr_codes([e.get("id") for e in els], codes, "#id")
    cls = _attr_codes([e.get("class") for e in els], codes, "#class")
    geo = np.stack([np.nan_to_num(np.asarray(a, dtype=np.float64)[ids])
                    for a in (lay.width, lay.height, lay.left, lay.top)], axis=1) \
        if len(ids) else np.zeros((0, 4))
    return FeatureTree(doc, ids, parent, doc.tag[ids].astype(np.int64), depth.astype(np.int64),
                       content, inner, ident, cls, geo, text > 0)


# ---------------------------------------------------------------------------------- similarity
def similar_table(Ts: float) -> np.ndarray:
    """``similar[k]`` is True when similarity ``k / UNITS`` is greater than ``Ts`` (Def. 6)."""
    return np.arange(UNITS + 1) / UNITS > Ts


def compare_two_cnodes(t1: FeatureTree, a: int, t2: FeatureTree, b: int, Ts: float = TS_DEFAULT,
                       missing_attrs_equal: bool = True, tolerance: float = 0.0,
                       memo: dict | None = None) -> float:
    """CompareTwoCNode (rules 1-7 of §5.8) of CNode ``a`` of ``t1`` and ``b`` of ``t2``.

    The scalar reference; the parent check (rule 4) walks up both parent chains iteratively
    (memoised in ``memo``) instead of recursing.
    """
    memo = {} if memo is None else memo
    chain = []
    while True:
        if (a, b) in memo:
            value = memo[(a, b)]
            break
        if t1.tag[a] != t2.tag[b]:                          # rule 1
            value = 0.0
        elif t1.parent[a] < 0 and t2.parent[b] < 0:         # rule 2: both BODY (tree roots)
            value = 1.0
        elif t1.parent[a] < 0 or t2.parent[b] < 0:          # rule 3
            value = 0.0
        else:
            chain.append((a, b))
            a, b = int(t1.parent[a]), int(t2.parent[b])
            continue
        memo[(a, b)] = value
        break
    for a, b in reversed(chain):
        if value <= Ts:                                     # rule 4: parents not similar
            value = 0.0
        else:
            value = _own_similarity(t1, a, t2, b, missing_attrs_equal, tolerance) / UNITS
        memo[(a, b)] = value
    return value


def _own_similarity(t1: FeatureTree, a: int, t2: FeatureTree, b: int,
                    missing_attrs_equal: bool, tolerance: float) -> int:
    """Rules 5-7 in units of 1/UNITS."""
    ca, cb = bool(t1.content[a]), bool(t2.content[b])
    if ca and cb:                                           # rule 5
        return UNITS if t1.inner[a] == t2.inner[b] else 0
    if ca != cb:                                            # rule 6
        return 0
    eq = 0                                                  # rule 7
    for x, y in ((t1.ident[a], t2.ident[b]), (t1.cls[a], t2.cls[b])):
        eq += int(x == y and (missing_attrs_equal or x >= 0))
    eq += int(t1.depth[a] == t2.depth[b])
    eq += int(np.sum(np.abs(t1.geo[a] - t2.geo[b]) <= tolerance))
    return eq


def similarity_matrix(t1: FeatureTree, t2: FeatureTree, Ts: float = TS_DEFAULT,
                      missing_attrs_equal: bool = True, tolerance: float = 0.0) -> np.ndarray:
    """CompareTwoCNode for all pairs: ``uint8`` matrix ``[len(t2), len(t1)]`` of ``UNITS·sim``.

    Filled level by level: two nodes of different depths are never similar (rule 4 climbs both
    parent chains until one reaches the root, where rule 3 gives 0), so only the blocks
    ``level d of S2 x level d of S1`` are non-zero, and the block of level ``d - 1`` is complete
    when level ``d`` needs it: ``sim[b, a] = own(b, a) · similar(sim[parent(b), parent(a)])``.
    """
    n1, n2 = len(t1), len(t2)
    sim = np.zeros((n2, n1), dtype=np.uint8)
    if not n1 or not n2:
        return sim
    similar = similar_table(Ts)
    if t1.tag[0] != t2.tag[0]:                              # rule 1 for the two roots
        return sim
    sim[0, 0] = UNITS                                       # rule 2 (rule 3: only roots at 0)
    if not similar[UNITS]:
        return sim
    levels = int(min(t1.depth[-1], t2.depth[-1])) + 2
    lv1 = np.searchsorted(t1.depth, np.arange(levels))
    lv2 = np.searchsorted(t2.depth, np.arange(levels))
    for d in range(1, levels - 1):
        a0, a1, b0, b1 = lv1[d], lv1[d + 1], lv2[d], lv2[d + 1]
        if a0 == a1 or b0 == b1:
            break
        ok = similar[sim[np.ix_(t2.parent[b0:b1], t1.parent[a0:a1])]]          # rule 4
        ok &= t2.tag[b0:b1, None] == t1.tag[None, a0:a1]                        # rule 1
        rows, cols = np.nonzero(ok)
        if not len(rows):
            break                                           # nothing deeper can be similar
        b, a = rows + b0, cols + a0
        ca, cb = t1.content[a], t2.content[b]
        val = np.zeros(len(a), dtype=np.int64)
        both = ca & cb                                      # rule 5 (rule 6: mixed -> 0)
        val[both] = (t1.inner[a[both]] == t2.inner[b[both]]) * UNITS
        struct = ~ca & ~cb                                  # rule 7
        a, b = a[struct], b[struct]
        id1, id2, c1, c2 = t1.ident[a], t2.ident[b], t1.cls[a], t2.cls[b]
        id_eq, cls_eq = id1 == id2, c1 == c2
        if not missing_attrs_equal:
            id_eq &= id1 >= 0
            cls_eq &= c1 >= 0
        val[struct] = (id_eq.astype(np.int64) + cls_eq + (t1.depth[a] == t2.depth[b])
                       + (np.abs(t1.geo[a] - t2.geo[b]) <= tolerance).sum(axis=1))
        sim[rows + b0, cols + a0] = val
    return sim


# ---------------------------------------------------------------------------------- DP
def get_direction(diag: float, up: float, left: float) -> int:
    """getDirection: the largest value; ties prefer up-left, then up, then left."""
    best = max(diag, up, left)
    if diag == best:
        return UP_LEFT
    if up == best:
        return UP
    return LEFT


def lcs_table(sim: np.ndarray, keep_scores: bool = False
              ) -> tuple[np.ndarray, int, np.ndarray | None]:
    """Fill pointerTable for ``sim[len(S2), len(S1)]`` (rows = S2, columns = S1, §5.9).

    Returns (pointer ``uint8 [|S2|+1, |S1|+1]``, final accumulated score in similarity units,
    the full scoreTable when ``keep_scores``).  Each row is a cumulative maximum:
    ``score[r][c] = max(A[c], score[r][c-1])`` with
    ``A[c] = max(score[r-1][c-1] + sim, score[r-1][c])``.
    """
    n2, n1 = sim.shape
    ptr = np.empty((n2 + 1, n1 + 1), dtype=np.uint8)
    ptr[0, 0] = 0
    ptr[0, 1:] = LEFT
    ptr[1:, 0] = UP
    scores = np.zeros((n2 + 1, n1 + 1), dtype=np.int64) if keep_scores else None
    prev = np.zeros(n1 + 1, dtype=np.int64)
    cur = np.zeros(n1 + 1, dtype=np.int64)
    any_sim = sim.any(axis=1) if n1 else np.zeros(n2, dtype=bool)
    zero_row = None          # pointers of an all-zero sim row for the current ``prev``
    for r in range(1, n2 + 1):
        if not any_sim[r - 1]:
            # sim = 0: prev is non-decreasing, so the row's scores equal prev; up-left wins
            # wherever diag = prev[c-1] equals prev[c], otherwise up.
            if zero_row is None:
                zero_row = np.where(prev[:-1] == prev[1:], UP_LEFT, UP).astype(np.uint8)
            ptr[r, 1:] = zero_row
            if keep_scores:
                scores[r] = prev
            continue
        zero_row = None
        diag = prev[:-1] + sim[r - 1]
        up = prev[1:]
        np.maximum(diag, up, out=cur[1:])
        cur = np.maximum.accumulate(cur)
        best = cur[1:]
        row = ptr[r, 1:]
        row[:] = LEFT
        row[up == best] = UP
        row[diag == best] = UP_LEFT
        if keep_scores:
            scores[r] = cur
        prev, cur = cur, prev
        cur[0] = 0
    return ptr, int(prev[-1]), scores


def backtrack(ptr: np.ndarray, sim: np.ndarray, Ts: float = TS_DEFAULT) -> list[int]:
    """Follow pointerTable from the bottom-right cell; the candidate columns (S1 indices).

    left: S1 has a node S2 lacks -> candidate; up: ignored; up-left: candidate unless the
    step's similarity is greater than ``Ts``.
    """
    similar = similar_table(Ts)
    n2, n1 = sim.shape
    r, c = n2, n1
    out: list[int] = []
    rows = ptr.tolist() if ptr.size <= 200_000 else None
    while r > 0 or c > 0:
        p = rows[r][c] if rows is not None else int(ptr[r, c])
        if p == UP_LEFT:
            if not similar[sim[r - 1, c - 1]]:
                out.append(c - 1)
            r -= 1
            c -= 1
        elif p == UP:
            r -= 1
        else:
            out.append(c - 1)
            c -= 1
    return out[::-1]


# ---------------------------------------------------------------------------------- clusters
def drop_descendants(doc: Document, nodes: Sequence[int]) -> np.ndarray:
    """Candidates that have no candidate ancestor, in document order."""
    nodes = np.unique(np.asarray(nodes, dtype=np.int64))
    if len(nodes) < 2:
        return nodes
    ends = doc.end[nodes].astype(np.int64)
    before = np.concatenate(([-1], np.maximum.accumulate(ends)[:-1]))
    return nodes[before <= nodes]      # intervals are nested or disjoint


def aggregate(doc: Document, nodes: Sequence[int], mode: str = "literal") -> list[np.ndarray]:
    """§2.4: remove descendants, then gather candidates by tree proximity.

    "literal": take candidates in document order (instead of at random); each takes the
    remaining candidates with its parent, or whose grandparent is its parent.  "transitive":
    connected components of the symmetric closure of that relation.
    """
    nodes = drop_descendants(doc, nodes)
    if not len(nodes):
        return []
    par = doc.parent[nodes].astype(np.int64)
    gpar = np.where(par >= 0, doc.parent[np.maximum(par, 0)], -1).astype(np.int64)
    if mode == "literal":
        clusters = []
        left = np.ones(len(nodes), dtype=bool)
        for k in range(len(nodes)):
            if not left[k]:
                continue
            p = par[k]
            group = left & ((par == p) | (gpar == p))
            left &= ~group
            clusters.append(nodes[group])
        return clusters
    if mode != "transitive":
        raise ValueError(f"unknown aggregation {mode!r}; choose 'literal' or 'transitive'")
    # Same parent -> same component: union the parent keys p(y) and gp(y) when gp(y) is the
    # parent of some candidate.
    root = {int(p): int(p) for p in par}

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for p, g in zip(par.tolist(), gpar.tolist()):
        if g in root:
            a, b = find(p), find(g)
            if a != b:
                root[max(a, b)] = min(a, b)
    comp = np.array([find(int(p)) for p in par])
    firsts = {}
    for k, c in enumerate(comp.tolist()):
        firsts.setdefault(c, k)
    return [nodes[comp == c] for c in sorted(firsts, key=firsts.get)]


def _code_lengths(doc: Document, where: np.ndarray | None = None) -> np.ndarray:
    """Own serialised length of the nodes (of mask ``where``): start and end tag of an element,
    a text run's text.  Its subtree sum is ``len(outerHTML)`` of the parsed tree (entity
    escaping not counted)."""
    own = np.zeros(doc.size, dtype=np.int64)
    ids = range(doc.size) if where is None else np.flatnonzero(where).tolist()
    for i in ids:
        el = doc.elements[i]
        if el is None:
            own[i] = len(doc.texts[i])
            continue
        tag = el.tag
        n = len(tag) + 2 + sum(len(k) + len(v) + 4 for k, v in el.attrib.items())
        if tag not in VOID_TAGS:
            n += len(tag) + 3
        own[i] = n
    return own


def indicators(doc: Document, lay, clusters: list[np.ndarray],
               main_area: tuple[float, float] = (0.2, 0.8),
               main_area_height: float | None = None) -> np.ndarray:
    """The six indicators of §2.5 per cluster: text length, area, effective area, content-tag
    count, link rate, text-to-code ratio (columns in that order)."""
    s = doc.stats
    where = np.zeros(doc.size + 1, dtype=np.int32)
    for nodes in clusters:
        np.add.at(where, nodes, 1)
        np.add.at(where, doc.end[nodes], -1)
    own_code = _code_lengths(doc, np.cumsum(where[:-1]) > 0)
    code = doc.subtree_sum(own_code)
    link_code = doc.subtree_sum(own_code * doc.inside(("a",)))
    ctags = doc.subtree_sum(doc.is_tag(CONTENT_TAGS))
    w = np.nan_to_num(np.asarray(lay.width, dtype=np.float64))
    h = np.nan_to_num(np.asarray(lay.height, dtype=np.float64))
    x = np.nan_to_num(np.asarray(lay.left, dtype=np.float64))
    y = np.nan_to_num(np.asarray(lay.top, dtype=np.float64))
    x0, x1 = main_area[0] * lay.page_width, main_area[1] * lay.page_width
    ox = np.clip(np.minimum(x + w, x1) - np.maximum(x, x0), 0, None)
    if main_area_height is None:
        oy = h
    else:
        oy = np.clip(np.minimum(y + h, main_area_height) - np.maximum(y, 0), 0, None)
    effective = ox * oy
    out = np.zeros((len(clusters), 6))
    for k, nodes in enumerate(clusters):
        text = float(s.text[nodes].sum())
        total = float(code[nodes].sum())
        out[k] = (text, float((w * h)[nodes].sum()), float(effective[nodes].sum()),
                  float(ctags[nodes].sum()),
                  float(link_code[nodes].sum()) / total if total else 0.0,
                  text / total if total else 0.0)
    return out


def score_clusters(values: np.ndarray) -> np.ndarray:
    """Points per cluster: per indicator, descending (ties in document order), the first three
    get 5/3/1 (link rate, column 4: -5/-3/-1)."""
    scores = np.zeros(len(values), dtype=np.int64)
    for j in range(values.shape[1] if len(values) else 0):
        order = np.argsort(-values[:, j], kind="stable")
        pts = LINK_POINTS if j == 4 else POINTS
        for k, idx in enumerate(order[:3]):
            scores[idx] += pts[k]
    return scores


# ---------------------------------------------------------------------------------- driver
def _layout(doc: Document, page_width: float):
    from ..geometry import layout

    return layout(doc, page_width=page_width)


def candidates(t1: FeatureTree, t2: FeatureTree, Ts: float, missing_attrs_equal: bool,
               tolerance: float) -> tuple[np.ndarray, int]:
    """Target document node ids that differ from the similar page (Definition 7), and the
    accumulated similarity of the alignment (in units of 1/UNITS)."""
    sim = similarity_matrix(t1, t2, Ts, missing_attrs_equal, tolerance)
    ptr, total, _ = lcs_table(sim)
    cols = backtrack(ptr, sim, Ts)
    return t1.nodes[np.asarray(cols, dtype=np.int64)], total


def extract_e5(doc: Document, siblings: Sequence[Document] = (), *, Ts: float = TS_DEFAULT,
               missing_attrs_equal: bool = True, tolerance: float = 0.0,
               aggregation: str = "literal", margin: float = 2,
               main_area: tuple[float, float] = (0.2, 0.8),
               page_width: float = 1000.0, max_cells: int = 4_000_000,
               combine: str = "first", selection: str = "close",
               main_area_screens: float | None = None, screen_height: float = 800.0,
               text_rate: float = TEXT_RATE_PAPER, drop_textless: bool = False) -> Selection:
    """E5 against the first sibling page (or every sibling with ``combine="intersection"``).

    ``main_area_screens``: limit the main visual area to the first N screens of
    ``screen_height`` pixels (option of §5.11; default: full page height).  ``drop_textless``:
    score only clusters with text (not in the paper; off by default).
    """
    if aggregation not in ("literal", "transitive"):
        raise ValueError(f"unknown aggregation {aggregation!r}; choose 'literal' or 'transitive'")
    if combine not in ("first", "intersection"):
        raise ValueError(f"unknown combine {combine!r}; choose 'first' or 'intersection'")
    if selection not in ("close", "top"):
        raise ValueError(f"unknown selection {selection!r}; choose 'close' or 'top'")
    sibs = [s for s in siblings if s is not None]
    info: dict = {"geometry": "approximated", "siblings_used": 0, "Ts": Ts}
    if not sibs:
        return empty("E5 needs a similar page of the same site (siblings)", **info)
    if combine == "first":
        sibs = sibs[:1]
    info["siblings_used"] = len(sibs)
    try:
        lay = _layout(doc, page_width)
    except Exception as err:  # noqa: BLE001 - a layout failure must not lose the page
        return empty(f"layout failed: {err!r}", **info)
    info["geometry"] = "approximated" if getattr(lay, "approximated", True) else "rendered"
    if doc.stats.text[doc.body] == 0:
        return empty("no text under <body>", **info)
    codes: dict = {}
    t1_full = None
    cand_sets = []
    reduced = False
    for sib in sibs:
        try:
            sib_lay = _layout(sib, page_width)
        except Exception as err:  # noqa: BLE001
            return empty(f"layout of the similar page failed: {err!r}", **info)
        if t1_full is None:
            t1_full = feature_tree(doc, lay, codes, _base_url(doc, sib.url), text_rate)
        t2 = feature_tree(sib, sib_lay, codes, _base_url(sib, doc.url), text_rate)
        t1 = t1_full
        if len(t1) * len(t2) > max_cells:                  # work cap: text-less nodes out
            t1, t2 = t1.restrict(t1.has_text), t2.restrict(t2.has_text)
            reduced = True
            if len(t1) * len(t2) > max_cells:
                return empty(f"feature trees too large for the DP ({len(t1)} x {len(t2)} "
                             f"nodes with text > max_cells={max_cells})", **info)
        try:
            cands, total = candidates(t1, t2, Ts, missing_attrs_equal, tolerance)
        except MemoryError as err:
            return empty(f"DP out of memory: {err!r}", **info)
        cand_sets.append(cands)
        info.setdefault("matched_similarity", round(total / UNITS, 3))
        info.setdefault("cells", len(t1) * len(t2))
    info["text_less_dropped"] = reduced
    cands = cand_sets[0]
    for other in cand_sets[1:]:
        cands = np.intersect1d(cands, other)
    info["candidates"] = int(len(cands))
    clusters = aggregate(doc, cands, aggregation)
    if drop_textless:      # option (not in the paper): clusters without text are not scored
        clusters = [c for c in clusters if doc.stats.text[c].sum() > 0]
    info["clusters"] = len(clusters)
    if not clusters:
        info["chosen"] = 0
        return empty("no candidate content block: the page matches the similar page", **info)
    height = main_area_screens * screen_height if main_area_screens else None
    values = indicators(doc, lay, clusters, main_area, height)
    scores = score_clusters(values)
    top = int(scores.max())
    if selection == "top":
        chosen = [int(np.argmax(scores))]
    else:
        chosen = [k for k in range(len(clusters)) if scores[k] >= top - margin]
    info["chosen"] = len(chosen)
    info["top_score"] = top
    nodes = np.sort(np.concatenate([clusters[k] for k in chosen]))
    keep = doc.mask_of(nodes.tolist())
    out = doc.text_of(keep)
    if not out:
        return empty("the chosen clusters hold no text", **info)
    return Selection(out, confidence=min(1.0, max(0.0, top / MAX_POINTS)), info=info,
                     nodes=np.flatnonzero(keep))
