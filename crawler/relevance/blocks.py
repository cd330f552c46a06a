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

Everything works on the node arrays: top-down propagation runs one numpy step per tree level.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

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


def _levels(doc: Document) -> list[np.ndarray]:
    order = np.argsort(doc.depth, kind="stable")
    bounds = np.searchsorted(doc.depth[order], np.arange(int(doc.depth.max()) + 2))
    return [order[bounds[d]:bounds[d + 1]] for d in range(len(bounds) - 1)]


def propagate(doc: Document, mask: np.ndarray, outermost: bool = False,
              levels: list[np.ndarray] | None = None) -> np.ndarray:
    """For every node, the nearest (or, ``outermost``, the highest) ancestor-or-self in
    ``mask``; -1 when there is none.  One vectorised step per tree level."""
    res = np.full(doc.size, -1, dtype=np.int64)
    for idx in levels if levels is not None else _levels(doc):
        par = doc.parent[idx]
        inherited = np.where(par >= 0, res[np.maximum(par, 0)], -1)
        own = np.where(mask[idx], idx, -1)
        if outermost:
            res[idx] = np.where(inherited >= 0, inherited, own)
        else:
            res[idx] = np.where(own >= 0, own, inherited)
    return res


def _collapsed(doc: Document) -> list[str]:
    return [" ".join(t.split()) if t else "" for t in doc.texts]


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
    ids = np.flatnonzero(doc.kind == TEXT)
    starts = [k for k, i in enumerate(ids) if segs[i] and main.startswith(segs[i])][:5]
    best: tuple[int, list[int]] = (0, [])
    for k0 in starts:
        cur, hit, covered = 0, [], 0
        for i in ids[k0:]:
            s = segs[i]
            while cur < len(main) and main[cur].isspace():
                cur += 1
            if cur >= len(main):
                break
            if s and main.startswith(s, cur):
                hit.append(int(i))
                cur += len(s)
                covered += len(s)
        if covered > best[0]:
            best = (covered, hit)
    solid = len(main)
    if best[0] < 0.5 * solid:
        hit = [int(i) for i in ids if len(segs[i]) >= 20 and segs[i] in main]
        covered = sum(len(segs[i]) for i in hit)
        if covered > best[0]:
            best = (covered, hit)
    mask[best[1]] = True
    return mask, min(1.0, best[0] / max(1, solid))


def _title_text(doc: Document, title_nodes: list[int], collapsed: list[str]) -> str:
    text = " ".join(collapsed[i] for i in title_nodes)
    h1 = doc.find("h1")
    if h1 >= 0:
        h1_text = " ".join(collapsed[i] for i in range(h1, int(doc.end[h1])) if doc.kind[i] == TEXT)
        if h1_text and h1_text.lower() in text.lower():
            return h1_text
    return text


def node_types(doc: Document, main_text: str | None,
               nav_link_density: float = NAV_LINK_DENSITY) -> tuple[np.ndarray, np.ndarray, dict]:
    """Block type index (into :data:`BLOCK_TYPES`, -1 for elements) and grouping element of
    every node, plus diagnostics."""
    n = doc.size
    levels = _levels(doc)
    s = doc.stats
    is_text = doc.kind == TEXT
    is_el = doc.kind == ELEMENT
    ld = np.where(s.text > 0, s.link_text / np.maximum(s.text, 1), 0.0)
    blockish = np.isin(doc.tag, tag_codes(BLOCKISH)) & is_el
    whole = doc.is_tag(("html", "body"))       # the page itself is never a navigation block
    nav_cand = blockish & ~whole & (((ld > nav_link_density) & (s.anchors > 0))
                                    | doc.is_tag("nav"))
    nav_root = propagate(doc, nav_cand, outermost=True, levels=levels)
    leaf = propagate(doc, blockish, levels=levels)
    heading = propagate(doc, doc.is_tag(HEADINGS + ("title",)), levels=levels)
    anchor = propagate(doc, doc.is_tag("a"), levels=levels)
    collapsed = _collapsed(doc)
    info: dict = {"collapsed": collapsed, "levels": levels}
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
    title_tag = doc.is_tag("title")
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
    key_near = propagate(doc, doc.is_tag(KEY_TAGS), levels=info["levels"])
    s = doc.stats
    members: dict[tuple[int, int], list[int]] = {}
    for i in np.flatnonzero(kind >= 0):
        members.setdefault((int(kind[i]), int(group[i])), []).append(int(i))
    blocks: list[Block] = []
    for (k, g), nodes in sorted(members.items(), key=lambda kv: kv[1][0]):
        btype = BLOCK_TYPES[k]
        el = doc.elements[g]
        name = doc.tag_names[g]
        if btype == "title" and name == "title":
            content = _title_text(doc, nodes, collapsed)
        else:
            content = " ".join(collapsed[i] for i in nodes)
        keys = sorted({int(key_near[i]) for i in nodes
                       if key_near[i] >= 0 and g <= key_near[i] < doc.end[g]})
        attrs = {a: el.get(a) for a in ("id", "class", "role") if el is not None and el.get(a)}
        ld = float(s.link_text[g] / s.text[g]) if s.text[g] else 0.0
        blocks.append(Block(
            id=len(blocks), name=name, type=btype, content=content, root=g, nodes=tuple(nodes),
            key_tags=tuple(doc.tag_names[j] for j in keys), attributes=attrs,
            detail=f"{btype} block <{name}> at node {g}, link density {ld:.2f}",
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
