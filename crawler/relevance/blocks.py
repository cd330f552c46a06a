"""The tag-block model of S2 (ALGORITHMS.md §8.2-§8.3) over an :class:`extraction.Document`.

Every text node of the page goes to exactly one block; blocks are typed by the function of their
tags.  Segmentation [DEFAULT, §8.2], first rule that applies:

- ``title``: text in ``<title>`` or in a heading ``h1``-``h6`` outside navigation.  The
  ``<title>`` block holds only the ``<h1>`` text when the ``<title>`` contains it (the rest is
  the site name) [DEFAULT];
- ``anchor``: link text (inside ``<a>``) in the main text or outside navigation;
- ``content``: the main text (the extractor's output, aligned back onto the text nodes); when
  no main text is given (``None``), non-link text of low-link-density blocks;
- ``navigation``: text under the outermost block-level element (below ``<body>``) whose link
  density exceeds ``nav_link_density`` (0.5), or under ``<nav>``;
- ``other``: the rest.

A block is the set of text nodes of one type under one grouping element: the heading (title),
the ``<a>`` (anchor), the outermost link-dense container (navigation), the nearest block-level
element (content, other).  ``KeyTagSet`` = the emphasis elements (:data:`KEY_TAGS`) nearest to
the block's text.  Impact (3) [RECON form] ``λ0·impact0 + λ1·impact1`` with [DEFAULT]
``impact0 = |KeyTagSet| / max |KeyTagSet|`` over the page, ``λ0 = λ1 = 0.5`` and ``impact1`` per
type from :data:`IMPACT1`; weight (Definition 2) = impact / sum of impacts (sums to 1).
Transitive impact (§8.3) is not applied (the faithful default).

Everything works on the node arrays: the nearest marked ancestor of every node is found by
pointer doubling (about log2(depth) numpy gathers for all masks at once), the outermost one from
the subtree intervals, and blocks are grouped with one ``np.unique``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from extraction import INVISIBLE
from extraction.document import (
    BLOCK_LEVEL,
    CELL_LEVEL,
    ELEMENT,
    TEXT,
    Document,
    tag_codes,
)

BLOCK_TYPES = ("title", "content", "navigation", "anchor", "other")
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
KEY_TAGS = ("strong", "b", "i", "em") + HEADINGS                 # [DEFAULT] §8.2
BLOCKISH = tuple(sorted(BLOCK_LEVEL | CELL_LEVEL | {"title"}))
NAV_LINK_DENSITY = 0.5                                             # [DEFAULT] §8.2
LAMBDA0 = 0.5                                                      # [DEFAULT] §8.3
LAMBDA1 = 0.5                                                      # [DEFAULT] §8.3
# [DEFAULT] §8.3: impact1 per block type, placeholders (the source gives no values).
IMPACT1 = {"title": 1.0, "content": 0.8, "anchor": 0.4, "other": 0.3, "navigation": 0.2}
_SOLID = re.compile(r"\S")      # \s is exactly str.isspace() for str patterns
FALLBACK_BUDGET = 50_000_000    # characters align_main_text's fallback may scan


@dataclass
class Block:
    """One tag-block node ``⟨BlockId, BlockName, BlockDetail, BlockContent, BlockType,
    AttributeSet, KeyTagSet, weight, impact⟩`` (§8.2) plus its text node ids."""

    id: int
    name: str
    type: str
    content: str
    root: int
    nodes: tuple[int, ...]
    key_tags: tuple[str, ...] = ()
    attributes: dict[str, str] = field(default_factory=dict)
    detail: str = ""
    impact0: float = 0.0
    impact1: float = 0.0
    impact: float = 0.0
    weight: float = 0.0


def nearest_ancestors(doc: Document, masks: np.ndarray) -> np.ndarray:
    """Row ``r``: for every node the nearest ancestor-or-self in ``masks[r]`` (-1 if none).

    Pointer doubling: ``f(i) = i`` on marked nodes, else the parent (the root's parent is a
    sentinel that maps to itself); ``f`` composed with itself ``k`` times is ``f`` applied
    ``2**k`` times, and ``2**k > max depth`` steps reach a marked node or the sentinel."""
    masks = np.atleast_2d(masks)
    m, n = masks.shape
    par = doc.parent.astype(np.int64)
    par[par < 0] = n
    f = np.empty((m, n + 1), dtype=np.int64)
    f[:, :n] = np.where(masks, np.arange(n, dtype=np.int64), par)
    f[:, n] = n
    offsets = np.arange(0, m * (n + 1), n + 1, dtype=np.int64)[:, None]
    flat = (f + offsets).ravel()
    for _ in range(int(doc.depth.max()).bit_length() if n else 0):
        flat = flat[flat]
    while True:         # a no-op check when ``depth`` is the tree depth, as parse() makes it
        step = flat[flat]
        if np.array_equal(step, flat):
            break
        flat = step
    res = flat.reshape(m, n + 1)[:, :n] - offsets
    res[res == n] = -1
    return res


def outermost_ancestor(doc: Document, mask: np.ndarray) -> np.ndarray:
    """For every node the highest ancestor-or-self in ``mask`` (-1 if none).  Marked subtrees
    nest or are disjoint: the outermost ones are those no earlier marked subtree reaches, and
    a node's one is the last of them starting at or before it, if its subtree holds the node."""
    n = doc.size
    hits = np.flatnonzero(mask)
    res = np.full(n, -1, dtype=np.int64)
    if not len(hits):
        return res
    ends = doc.end[hits].astype(np.int64)
    reach = np.maximum.accumulate(np.concatenate(([-1], ends[:-1])))
    top = hits[reach <= hits]
    nodes = np.arange(n, dtype=np.int64)
    pos = np.searchsorted(top, nodes, side="right") - 1
    cand = top[np.maximum(pos, 0)]
    inside = (pos >= 0) & (doc.end[cand] > nodes)
    res[inside] = cand[inside]
    return res


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of a 1-d integer array, with less overhead."""
    values = np.sort(values)
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def propagate(doc: Document, mask: np.ndarray, outermost: bool = False) -> np.ndarray:
    """For every node, the nearest (or, ``outermost``, the highest) ancestor-or-self in
    ``mask``; -1 when there is none."""
    if outermost:
        return outermost_ancestor(doc, mask)
    return nearest_ancestors(doc, mask)[0]


# Tag sets tested on every page, as bits of one lookup table over the interned tag codes
# (registered in this order, as the former per-set ``is_tag`` calls did).
_FLAG_SETS = (BLOCKISH, ("html", "body"), ("nav",), HEADINGS + ("title",), ("a",), ("title",),
              KEY_TAGS)
(_F_BLOCKISH, _F_WHOLE, _F_NAV, _F_HEADING, _F_A, _F_TITLE, _F_KEY) = (
    1 << b for b in range(len(_FLAG_SETS)))
_flag_lut = np.zeros(0, dtype=np.uint8)


def _tag_flags(doc: Document) -> np.ndarray:
    """Per node, the bits of :data:`_FLAG_SETS` its tag belongs to (``doc.is_tag`` for all)."""
    global _flag_lut
    lut = _flag_lut
    need = int(doc.tag.max()) + 1 if doc.size else 1
    if len(lut) < need:
        codes = [tag_codes(tags) for tags in _FLAG_SETS]
        lut = np.zeros(max([need] + [int(c.max()) + 1 for c in codes]) + 64, dtype=np.uint8)
        for bit, c in enumerate(codes):
            lut[c] |= 1 << bit
        _flag_lut = lut
    return lut[doc.tag]


def _collapsed(doc: Document) -> list[str]:
    """Each node's text with whitespace runs collapsed and, as in the extractors' output, the
    invisible characters removed (a page full of soft hyphens matched no main text)."""
    return [" ".join((t if t.isascii() or INVISIBLE.search(t) is None
                      else INVISIBLE.sub("", t)).split()) if t else "" for t in doc.texts]


def align_main_text(doc: Document, main_text: str,
                    collapsed: list[str] | None = None) -> tuple[np.ndarray, float]:
    """Mask of the text nodes whose text makes up ``main_text`` and the share of its
    characters so explained.

    Extractors output the kept text nodes in document order, so a greedy contiguous match is
    tried from each node that matches the start; the best cover wins.  When it explains less
    than half the text (another normalisation), nodes of 20+ characters found anywhere in it
    are taken instead.
    """
    mask = np.zeros(doc.size, dtype=bool)
    main = main_text.strip()
    if not main:
        return mask, 0.0
    segs = collapsed if collapsed is not None else _collapsed(doc)
    ids = np.flatnonzero(doc.kind == TEXT).tolist()
    starts = list(islice((k for k, i in enumerate(ids) if segs[i] and main.startswith(segs[i])),
                         5))
    best: tuple[int, list[int]] = (0, [])
    size = len(main)
    for k0 in starts:
        cur, hit, covered = 0, [], 0
        for i in ids[k0:]:
            s = segs[i]
            if cur < size and main[cur].isspace():
                m = _SOLID.search(main, cur)
                cur = m.start() if m is not None else size
            if cur >= size:
                break
            if s and main.startswith(s, cur):
                hit.append(i)
                cur += len(s)
                covered += len(s)
        if covered > best[0]:
            best = (covered, hit)
    solid = len(main)
    if best[0] < 0.5 * solid:
        # each test scans the main text: on a huge page only the longest nodes (those that
        # explain most) within a budget of character comparisons, not quadratic time
        long = sorted((i for i in ids if len(segs[i]) >= 20), key=lambda i: -len(segs[i]))
        long = sorted(long[:max(1, FALLBACK_BUDGET // max(1, size))])
        hit = [i for i in long if segs[i] in main]
        covered = sum(len(segs[i]) for i in hit)
        if covered > best[0]:
            best = (covered, hit)
    mask[best[1]] = True
    return mask, min(1.0, best[0] / max(1, solid))


def _joined(doc: Document, nodes: list[int], collapsed: list[str]) -> str:
    """The text of a block's text ``nodes``, as the page shows it: a space between two nodes
    where the page has one, or a line or cell break, none inside a word that markup splits
    (``Programmier<wbr>sprache``, ``<em>Programmier</em>sprache``, a drop cap
    ``<span>T</span>he``: these read "Programmier sprache" and "T he" before 2026-12-02)."""
    if len(nodes) < 2:
        return collapsed[nodes[0]] if nodes else ""
    texts, line, cell = doc.texts, doc.line, doc.cell
    out = [collapsed[nodes[0]]]
    for a, b in zip(nodes, nodes[1:]):
        if line[a] != line[b] or cell[a] != cell[b] or texts[a][-1:].isspace() \
                or texts[b][:1].isspace():
            out.append(" ")
        out.append(collapsed[b])
    return "".join(out)


def _title_text(doc: Document, title_nodes: list[int], collapsed: list[str]) -> str:
    text = _joined(doc, title_nodes, collapsed)
    h1 = doc.find("h1")
    if h1 >= 0:
        h1_text = _joined(doc, [i for i in range(h1, int(doc.end[h1])) if doc.kind[i] == TEXT],
                          collapsed)
        if h1_text and h1_text.lower() in text.lower():
            return h1_text
    return text


def node_types(doc: Document, main_text: str | None,
               nav_link_density: float = NAV_LINK_DENSITY) -> tuple[np.ndarray, np.ndarray, dict]:
    """Block type index (into :data:`BLOCK_TYPES`, -1 for elements) and grouping element of
    every node, plus diagnostics."""
    n = doc.size
    s = doc.stats
    is_text = doc.kind == TEXT
    is_el = doc.kind == ELEMENT
    ld = np.where(s.text > 0, s.link_text / np.maximum(s.text, 1), 0.0)
    flags = _tag_flags(doc)
    blockish = ((flags & _F_BLOCKISH) != 0) & is_el
    whole = (flags & _F_WHOLE) != 0           # the page itself is never a navigation block
    nav_cand = blockish & ~whole & (((ld > nav_link_density) & (s.anchors > 0))
                                    | ((flags & _F_NAV) != 0))
    nav_root = outermost_ancestor(doc, nav_cand)
    leaf, heading, anchor, key_near = nearest_ancestors(doc, np.stack([
        blockish, (flags & _F_HEADING) != 0, (flags & _F_A) != 0, (flags & _F_KEY) != 0]))
    collapsed = _collapsed(doc)
    info: dict = {"collapsed": collapsed, "key_near": key_near, "link_density": ld}
    if main_text is None:
        in_main = is_text & (leaf >= 0) & (ld[np.maximum(leaf, 0)] <= nav_link_density) \
            & (nav_root < 0)
        info["alignment"] = None
    else:
        in_main, info["alignment"] = align_main_text(doc, main_text, collapsed)
    t_title, t_content, t_nav, t_anchor, t_other = range(5)
    kind = np.full(n, -1, dtype=np.int64)
    group = np.full(n, -1, dtype=np.int64)
    in_title_el = heading >= 0
    title_tag = (flags & _F_TITLE) != 0
    is_title = in_title_el & ((nav_root < 0) | title_tag[np.maximum(heading, 0)])
    rules = (
        (is_title, t_title, heading),
        (doc.in_link & (in_main | (nav_root < 0)), t_anchor, anchor),
        (in_main, t_content, leaf),
        (nav_root >= 0, t_nav, nav_root),
        (np.ones(n, dtype=bool), t_other, leaf),
    )
    todo = is_text.copy()
    for cond, t, grp in rules:
        hit = todo & cond
        kind[hit] = t
        group[hit] = grp[hit]
        todo &= ~hit
    group[(kind >= 0) & (group < 0)] = 0
    return kind, group, info


def tag_blocks(doc: Document, main_text: str | None = None, *,
               nav_link_density: float = NAV_LINK_DENSITY, lambda0: float = LAMBDA0,
               lambda1: float = LAMBDA1, impact1: Mapping[str, float] | None = None) -> list[Block]:
    """The page's tag blocks in document order, with impacts and weights (sum 1)."""
    if doc.size == 0 or not (doc.kind == TEXT).any():
        return []
    imp1 = dict(IMPACT1, **(impact1 or {}))
    kind, group, info = node_types(doc, main_text, nav_link_density)
    collapsed = info["collapsed"]
    key_near = info["key_near"]
    n = doc.size
    # blocks = (type, group) pairs of the text nodes, in the order of their first node
    ids = np.flatnonzero(kind >= 0)
    k_of, g_of = kind[ids], group[ids]
    _, first, inv = np.unique(k_of * (n + 1) + g_of, return_index=True, return_inverse=True)
    inv = inv.ravel()
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    blk = rank[inv]                                       # block of each text node
    order = np.argsort(blk, kind="stable")
    nodes_all = ids[order].tolist()
    bounds = np.searchsorted(blk[order], np.arange(len(first) + 1)).tolist()
    heads = ids[first[by_first]]                          # first node of each block
    kinds, groups = kind[heads].tolist(), group[heads].tolist()
    # KeyTagSet: the distinct emphasis elements nearest to a block's text, inside its group
    kn = key_near[ids]
    ok = (kn >= 0) & (kn >= g_of) & (kn < doc.end[g_of])
    pairs = _sorted_unique(blk[ok] * (n + 1) + kn[ok])
    kbounds = np.searchsorted(pairs // (n + 1), np.arange(len(first) + 1)).tolist()
    tag_names, elements = doc.tag_names, doc.elements
    key_names = [tag_names[j] for j in (pairs % (n + 1)).tolist()]
    lds = info["link_density"][groups].tolist()
    blocks: list[Block] = []
    for b, (k, g) in enumerate(zip(kinds, groups)):
        nodes = nodes_all[bounds[b]:bounds[b + 1]]
        btype = BLOCK_TYPES[k]
        el = elements[g]
        name = tag_names[g]
        if btype == "title" and name == "title":
            content = _title_text(doc, nodes, collapsed)
        else:
            content = _joined(doc, nodes, collapsed)
        attrs = {}
        if el is not None:
            for a in ("id", "class", "role"):
                v = el.get(a)
                if v:
                    attrs[a] = v
        blocks.append(Block(
            id=b, name=name, type=btype, content=content, root=g, nodes=tuple(nodes),
            key_tags=tuple(key_names[kbounds[b]:kbounds[b + 1]]),
            attributes=attrs,
            detail=f"{btype} block <{name}> at node {g}, link density {lds[b]:.2f}",
            impact1=float(imp1[btype]),
        ))
    most = max((len(b.key_tags) for b in blocks), default=0)
    for b in blocks:
        b.impact0 = len(b.key_tags) / most if most else 0.0
        b.impact = lambda0 * b.impact0 + lambda1 * b.impact1
    total = sum(b.impact for b in blocks)
    for b in blocks:
        b.weight = b.impact / total if total > 0 else 1.0 / len(blocks)
    return blocks
