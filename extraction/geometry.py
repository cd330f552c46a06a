"""Approximated page layout for the algorithms that assume a browser (ALGORITHMS.md §0.4, §10.1).

E3 (areas, colours), E5 (width, height, top, left) and E6 (width and height) were designed
for rendered pages.  There is no layout engine here, so this module implements option (ii) of
§0.4: a cheap **block-flow estimate**, documented as an approximation.  Every result computed
from it must say so (``info["geometry"] = "approximated"``).

What the estimate uses (all [DEFAULT] implementer choices, none from a source):

* widths: ``width`` attributes and inline CSS ``width`` (px or %), otherwise the containing
  block's width; table cells share their row (``colspan`` weighted, specified cells first);
  inline elements, floats and inline-blocks shrink to their text (``CHAR_WIDTH`` per character)
  and images; replaced elements (``img``, ``iframe``, ``input`` ...) use their attributes or
  :data:`REPLACED_SIZE`;
* heights: lines of inline text (characters x ``CHAR_WIDTH`` / width, ``LINE_HEIGHT`` each,
  headings and inline ``font-size`` scale both), ``<br>`` (one line each), stacked block
  children, and *runs* of side-by-side boxes (cells of a row, floats, inline-blocks, images)
  packed greedily into lines of the container's width (cells never wrap), each line as high
  as its highest box; ``height`` attributes / inline CSS px override the estimate;
* tops and lefts: stacking in flow order inside the nearest block container; side-by-side
  boxes get left offsets (right floats from the right edge); ``align=center`` / ``<center>`` /
  ``margin: auto`` centre narrower blocks; ``position: absolute|fixed`` boxes take no space;
* hidden: ``display:none``, the ``hidden`` attribute, ``<input type=hidden>``, ``<head>`` and
  the content of replaced elements get zero size (with their whole subtree);
* colours: only explicitly set values (inline ``background-color`` / ``background``,
  ``bgcolor``, inline ``color``, the ``color`` attribute, e.g. ``<font color>``), per node,
  ``None`` when unset (E3-A3).  :func:`inherited` propagates them down the tree.

Not modelled: style sheets (``<style>``, classes), margins and padding, borders, fonts other
than the estimate, ``max-width``, percentage heights, absolute coordinates.

The computation is vectorised: a handful of numpy operations per depth level (containers only
for widths and heights; every other node in one step), a Python loop only over the boxes of
overflowing side-by-side runs; never recursive.  Cached on the document per ``page_width``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from .chars import cjk_share
from .document import _TAG_CODES, BLOCK_LEVEL, CELL_LEVEL, ELEMENT, TEXT, Document, tag_code

CHAR_WIDTH = 8.0          # [DEFAULT] px per Latin character at 16 px (average glyph width)
CJK_CHAR_WIDTH = 16.0     # [DEFAULT] px per character on CJK pages (full width glyphs)
LINE_HEIGHT = 20.0        # [DEFAULT] px per line of text
# [DEFAULT] intrinsic (width, height) of replaced elements without size attributes.
REPLACED_SIZE = {
    "img": (100.0, 100.0), "iframe": (300.0, 150.0), "video": (300.0, 150.0),
    "canvas": (300.0, 150.0), "object": (300.0, 150.0), "embed": (300.0, 150.0),
    "svg": (300.0, 150.0), "input": (150.0, 20.0), "select": (120.0, 20.0),
    "textarea": (300.0, 40.0), "button": (80.0, 20.0), "image": (100.0, 100.0),
}
HEADING_SCALE = {"h1": 2.0, "h2": 1.5, "h3": 1.17, "h5": 0.83, "h6": 0.67, "small": 0.83}
# Block containers besides document.BLOCK_LEVEL (cells are side-by-side containers).
EXTRA_BLOCKS = frozenset("figure figcaption main nav article section aside header footer "
                         "li dd dt caption address search".split())
NOT_RENDERED = ("head", "title", "meta", "link", "base", "area", "map", "param", "source",
                "track", "datalist", "option", "optgroup")

_RELEVANT_ATTRS = frozenset(("style", "width", "height", "hidden", "bgcolor", "color", "align",
                             "colspan", "type"))
_PROP_RE = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;]*)")
_LEN_RE = re.compile(r"^\s*(-?[\d.]+)\s*(px|%|pt|em|rem)?\s*(?:!important)?\s*$", re.I)
_COLOUR_TOKEN = re.compile(r"#[0-9a-fA-F]{3,8}\b|(?:rgba?|hsla?)\([^)]*\)|[a-zA-Z]+")
_NOT_COLOURS = frozenset(
    "none repeat no-repeat repeat-x repeat-y space round center top left right bottom scroll "
    "fixed local url inherit initial unset revert transparent currentcolor auto cover contain "
    "border-box padding-box content-box important px em".split())


@dataclass
class Layout:
    """Estimated boxes per node id (arrays of length ``doc.size``; text nodes hold their line
    box).  ``background`` / ``color`` are the explicitly set colours (None when unset)."""

    width: np.ndarray
    height: np.ndarray
    left: np.ndarray
    top: np.ndarray
    page_width: float
    page_height: float
    background: list
    color: list
    approximated: bool = True
    hidden: np.ndarray | None = None   # node is not rendered (zero size), with its subtree

    def area(self, nodes: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        if nodes is None:
            return self.width * self.height
        idx = np.asarray(nodes, dtype=np.int64)
        return self.width[idx] * self.height[idx]


# ---------------------------------------------------------------------------------- parsing
@lru_cache(maxsize=4096)
def _length(value: str | None) -> tuple[float, bool] | None:
    """``(number, is_percent)`` of a CSS/HTML length, None when absent or not understood."""
    if not value:
        return None
    m = _LEN_RE.match(value)
    if not m:
        return None
    try:
        num = float(m.group(1))
    except ValueError:
        return None
    if not num < 1e7:               # "9" x 400 digits is inf: a length no layout uses
        return None
    unit = (m.group(2) or "px").lower()
    if unit == "%":
        return num, True
    if unit == "pt":
        num *= 4.0 / 3.0
    elif unit in ("em", "rem"):
        num *= 16.0
    return max(num, 0.0), False


@lru_cache(maxsize=4096)
def _colour(value: str | None) -> str | None:
    """Normalised colour in a CSS value (``#fff`` -> ``#ffffff``), None when none is set."""
    if not value:
        return None
    value = re.sub(r"url\([^)]*\)", " ", value.strip().lower())
    for tok in _COLOUR_TOKEN.findall(value):
        if tok.startswith("#"):
            hexa = tok[1:]
            if len(hexa) in (3, 4):
                hexa = "".join(ch * 2 for ch in hexa)
            return "#" + hexa
        if "(" in tok:
            return tok.replace(" ", "")
        if tok not in _NOT_COLOURS:
            return tok
        if tok == "transparent":
            return None
    return None


@lru_cache(maxsize=4096)
def _style(text: str) -> dict[str, str]:
    """Inline CSS declarations (the returned dict is shared: do not modify it)."""
    return {k.lower(): v.strip().lower() for k, v in _PROP_RE.findall(text)}


# ---------------------------------------------------------------------------------- helpers
def depth_levels(doc: Document) -> list[np.ndarray]:
    """Node ids grouped by depth (level 0 first), each in document order.  Cached."""
    cache = doc.__dict__.setdefault("_geometry_cache", {})
    levels = cache.get("levels")
    if levels is None:
        order = np.argsort(doc.depth, kind="stable")
        counts = np.bincount(doc.depth.astype(np.int64))
        bounds = np.concatenate(([0], np.cumsum(counts)))
        levels = [order[bounds[d]:bounds[d + 1]] for d in range(len(counts)) if counts[d]]
        cache["levels"] = levels
    return levels


def _group_by(keys: np.ndarray, ids: np.ndarray, descending: bool = False) -> list[np.ndarray]:
    """``ids`` split into groups of equal ``keys`` (ascending keys unless ``descending``)."""
    if not len(ids):
        return []
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    cuts = np.flatnonzero(k[1:] != k[:-1]) + 1
    groups = np.split(ids[order], cuts)
    return groups[::-1] if descending else groups


def _group_dict(keys: np.ndarray, ids: np.ndarray) -> dict[int, np.ndarray]:
    """``{key: ids with that key}``."""
    return {int(k): g for k, g in zip(np.unique(keys), _group_by(keys, ids))}


def _subtree_mask(doc: Document, hits: np.ndarray) -> np.ndarray:
    diff = np.zeros(doc.size + 1, dtype=np.int32)
    np.add.at(diff, hits, 1)
    np.add.at(diff, doc.end[hits], -1)
    return np.cumsum(diff[:-1]) > 0


def inherited(doc: Document, values: Sequence[str | None]) -> list[str | None]:
    """Each node's value or, when None, its nearest ancestor's (E3-A3: unset = parent's)."""
    obj = np.empty(doc.size, dtype=object)
    obj[:] = values
    hits = np.flatnonzero(obj != None)  # noqa: E711 - element-wise comparison
    if not len(hits):
        return [None] * doc.size
    names, codes = np.unique(obj[hits].astype(str), return_inverse=True)
    arr = np.zeros(doc.size, dtype=np.int64)
    arr[hits] = codes.ravel() + 1
    out = arr.copy()
    parent = doc.parent
    for level in depth_levels(doc)[1:]:
        own = arr[level]
        out[level] = np.where(own > 0, own, out[parent[level]])
    lookup = np.empty(len(names) + 1, dtype=object)
    lookup[0] = None
    lookup[1:] = names.tolist()
    return lookup[out].tolist()


_BLOCK, _CELL, _REPLACED, _BR, _TR, _CENTER, _HIDDEN = 1, 2, 4, 8, 16, 32, 64
_LUT_CACHE: dict = {}


def _class_lut() -> tuple[np.ndarray, np.ndarray]:
    """Class bits and heading font scale per tag code (rebuilt when new tags were interned)."""
    hit = _LUT_CACHE.get("lut")
    if hit is not None and len(hit[0]) >= len(_TAG_CODES):
        return hit
    groups = ((BLOCK_LEVEL | EXTRA_BLOCKS, _BLOCK), (CELL_LEVEL, _CELL), (REPLACED_SIZE, _REPLACED),
              (("br",), _BR), (("tr",), _TR), (("center",), _CENTER), (NOT_RENDERED, _HIDDEN))
    codes = {name: tag_code(name) for names, _ in groups for name in names}
    codes.update({name: tag_code(name) for name in HEADING_SCALE})
    size = len(_TAG_CODES) + 64
    lut = np.zeros(size, dtype=np.int64)
    for names, bit in groups:
        for name in names:
            lut[codes[name]] |= bit
    scale = np.full(size, np.nan)
    for name, value in HEADING_SCALE.items():
        scale[codes[name]] = value
    _LUT_CACHE["lut"] = (lut, scale)
    return lut, scale


# ---------------------------------------------------------------------------------- layout
def layout(doc: Document, page_width: float = 1000.0) -> Layout:
    """Approximated layout of ``doc`` for a viewport ``page_width`` px wide (cached)."""
    cache = doc.__dict__.setdefault("_geometry_cache", {})
    key = ("layout", float(page_width))
    if key not in cache:
        cache[key] = _compute(doc, float(page_width))
    return cache[key]


def _compute(doc: Document, page_width: float) -> Layout:
    n = doc.size
    kind, parent = doc.kind, doc.parent
    is_text = kind == TEXT
    names = doc.tag_names
    nan = np.full(n, np.nan)
    w_px, w_pct, h_px = nan.copy(), nan.copy(), nan.copy()
    fs_own = nan.copy()                       # font-size: scale (relative) ...
    fs_abs = np.zeros(n, dtype=bool)          # ... or absolute (px)
    colspan = np.ones(n)
    hidden_hit = np.zeros(n, dtype=bool)
    float_l = np.zeros(n, dtype=bool)
    float_r = np.zeros(n, dtype=bool)
    inline_block = np.zeros(n, dtype=bool)
    force_block = np.zeros(n, dtype=bool)
    force_inline = np.zeros(n, dtype=bool)
    out_of_flow = np.zeros(n, dtype=bool)
    centred = np.zeros(n, dtype=bool)
    background: list = [None] * n
    color: list = [None] * n

    # -- attributes and inline styles (only elements that have one of them)
    relevant = _RELEVANT_ATTRS
    for i, el in enumerate(doc.elements):
        if el is None or relevant.isdisjoint(el.keys()):
            continue
        get = dict(el.items()).get
        tag = names[i]
        style = _style(get("style") or "")
        width = _length(style.get("width")) or _length(get("width"))
        if width:
            (w_pct if width[1] else w_px)[i] = width[0]
        height = _length(style.get("height")) or _length(get("height"))
        if height and not height[1]:
            h_px[i] = height[0]
        display = style.get("display", "")
        if (display == "none" or get("hidden") is not None
                or (tag == "input" and (get("type") or "").lower() == "hidden")):
            hidden_hit[i] = True
        elif display.startswith("inline-") or display == "inline-block":
            inline_block[i] = True
        elif display in ("block", "flex", "grid", "table", "list-item", "flow-root"):
            force_block[i] = True
        elif display == "inline":
            force_inline[i] = True
        fl = style.get("float", "")
        align = (get("align") or "").lower()
        if fl == "left" or (tag in ("table", "img") and align == "left"):
            float_l[i] = True
        elif fl == "right" or (tag in ("table", "img") and align == "right"):
            float_r[i] = True
        if style.get("position", "") in ("absolute", "fixed"):
            out_of_flow[i] = True
        if align == "center" or "auto" in style.get("margin", "") \
                or "auto" in style.get("margin-left", ""):
            centred[i] = True
        size = _length(style.get("font-size"))
        if size:
            fs_own[i] = size[0] / 100.0 if size[1] else size[0] / 16.0
            fs_abs[i] = not size[1] and "em" not in style.get("font-size", "")
        bg = _colour(style.get("background-color")) or _colour(style.get("background")) \
            or _colour(get("bgcolor"))
        if bg:
            background[i] = bg
        fg = _colour(style.get("color")) or _colour(get("color"))
        if fg:
            color[i] = fg
        span = get("colspan")
        span = span.strip() if span else ""
        if span.isascii() and span.isdigit():    # not "²" (a digit to isdigit, not to int)
            colspan[i] = max(1, min(int(span[:4]), 100))
    # -- node classes (one lookup table over the tag codes)
    lut, scale_lut = _class_lut()
    bits = lut[doc.tag] * (kind == ELEMENT)
    fs_own = np.clip(np.where(np.isnan(fs_own), scale_lut[doc.tag], fs_own), 0.3, 5.0)
    replaced = (bits & _REPLACED) > 0
    is_br = (bits & _BR) > 0
    block = (((bits & _BLOCK) > 0) | force_block) & ~force_inline
    floats = (float_l | float_r) & ~replaced
    par = np.maximum(parent, 0)
    cells = ((bits & _CELL) > 0) & ((bits[par] & _TR) > 0)
    cells[0] = False
    side = cells | floats | (inline_block & ~replaced) | replaced
    container = (block | cells | floats | inline_block) & ~replaced & (kind == ELEMENT)
    container[0] = True
    hidden_hit |= (bits & _HIDDEN) > 0
    hits = np.flatnonzero(hidden_hit)
    suppressed = _subtree_mask(doc, hits) if len(hits) else np.zeros(n, dtype=bool)
    rep = np.flatnonzero(replaced)
    if len(rep):                                              # content of replaced elements
        inner = _subtree_mask(doc, rep)
        inner[rep] = False
        suppressed |= inner
    hidden = suppressed.copy()
    hidden[0] = False

    # CJK pages use full-width characters.
    sample = "".join(doc.texts[i] for i in np.flatnonzero(is_text)[:200])[:3000]
    cw = CJK_CHAR_WIDTH if sample and cjk_share(sample) > 0.3 else CHAR_WIDTH

    tlen = doc.tlen.astype(np.float64) * ~suppressed
    text_sub = doc.subtree_sum(tlen)
    rep_w0 = np.zeros(n)
    if len(rep):
        dflt = np.array([REPLACED_SIZE.get(names[i], (100.0, 100.0)) for i in rep])
        rep_w0[rep] = np.where(np.isnan(w_px[rep]), dflt[:, 0], w_px[rep])
    rep_w0 *= ~suppressed
    img_w_sub = doc.subtree_sum(rep_w0)
    # shrink-to-fit amount: characters x char width (x font scale) + images; blocks: none
    shrink_chars = np.where(is_text, tlen, text_sub) * cw
    shrink_chars[container & ~floats & ~inline_block] = np.inf
    shrink_img = np.where(is_text, 0.0, img_w_sub)
    fixed = ~np.isnan(w_px)
    pct = ~np.isnan(w_pct)
    fixed_w = np.where(fixed, w_px, 0.0)
    fixed_w[replaced & ~fixed] = rep_w0[replaced & ~fixed]
    fixed |= replaced & ~pct
    w_pct = np.nan_to_num(w_pct) / 100.0
    depth = doc.depth.astype(np.int64)
    has_abs = bool(fs_abs.any())
    fs_rel = np.where(fs_abs | np.isnan(fs_own), 1.0, fs_own)

    levels = depth_levels(doc)
    # top-down over the depth levels: nearest container strictly above (nba), font scale
    nba = np.full(n, -1, dtype=np.int64)
    fs = np.ones(n)
    if has_abs and fs_abs[0]:
        fs[0] = fs_own[0]
    for level in levels[1:]:
        p = parent[level]
        nba[level] = np.where(container[p], p, nba[p])
        f = fs[p] * fs_rel[level]
        if has_abs:
            f = np.where(fs_abs[level], fs_own[level], f)
        fs[level] = f
    # widths: a box's width depends only on its container's width, so containers are done
    # level by level and every other node in one step afterwards
    width = np.zeros(n)
    width[0] = w_px[0] if not np.isnan(w_px[0]) else page_width
    cont_ids = np.flatnonzero(container)[1:]
    cont_groups = _group_by(depth[cont_ids], cont_ids)

    def widths(ids: np.ndarray) -> np.ndarray:
        c = nba[ids]
        W = width[c]
        wl = np.minimum(W, shrink_chars[ids] * fs[ids] + shrink_img[ids])
        wl = np.where(fixed[ids], fixed_w[ids], wl)
        wl = np.where(pct[ids], w_pct[ids] * W, wl)
        cl = cells[ids]
        if cl.any():
            cid = ids[cl]
            rows, inv = np.unique(c[cl], return_inverse=True)
            inv = inv.ravel()
            spec = fixed[cid] | pct[cid]
            spec_w = np.where(spec, wl[cl], 0.0)
            used = np.bincount(inv, weights=spec_w, minlength=len(rows))
            span = colspan[cid] * ~spec
            spans = np.bincount(inv, weights=span, minlength=len(rows))
            free = np.maximum(width[rows] - used, 0.0)
            share = np.where(spans[inv] > 0, free[inv] * span / np.maximum(spans[inv], 1), 0.0)
            wl[cl] = np.where(spec, spec_w, share)
        return wl

    for ids in cont_groups:
        width[ids] = widths(ids)
    rest = np.flatnonzero(~container)
    width[rest] = widths(rest)
    fs = np.clip(fs, 0.3, 5.0)
    width[suppressed] = 0.0

    # -- flow items of every container: text, <br>, replaced, containers
    items_mask = (is_text | is_br | replaced | container) & ~suppressed
    items_mask[0] = False
    items = np.flatnonzero(items_mask)
    ic = nba[items]
    order = np.lexsort((items, ic))                # by container, then document order
    items, ic = items[order], ic[order]
    is_side = side[items] & ~out_of_flow[items]
    # runs of consecutive side items of one container
    new_group = np.concatenate(([True], ic[1:] != ic[:-1]))[:len(items)]
    prev_side = np.concatenate(([False], is_side[:-1]))[:len(items)]
    run_start = is_side & (~prev_side | new_group)
    run_id = np.cumsum(run_start) - 1
    run_id = np.where(is_side, run_id, -1)
    n_runs = int(run_start.sum())
    run_container = ic[run_start]
    # pack the side items of each run into lines: x offset, line (row) per item
    side_pos = np.flatnonzero(is_side)
    side_run = run_id[side_pos]
    side_items = items[side_pos]
    sw = width[side_items]
    right = float_r[side_items]
    W_side = np.maximum(width[ic[side_pos]], 1.0)
    x = np.zeros(len(side_pos))
    row = np.zeros(len(side_pos), dtype=np.int64)
    run_cells = np.zeros(n_runs, dtype=bool)
    if n_runs:
        run_cells = np.bincount(side_run, weights=~cells[side_items], minlength=n_runs) == 0
        for mask in (~right, right):                          # left- and right-flowing boxes
            pos = np.flatnonzero(mask)
            if not len(pos):
                continue
            w_, rid = sw[pos], side_run[pos]
            cum = np.cumsum(w_)
            first = np.concatenate(([True], rid[1:] != rid[:-1]))
            base = np.maximum.accumulate(np.where(first, cum - w_, 0.0))
            before = cum - w_ - base
            x[pos] = before
            wsum = np.bincount(rid, weights=w_, minlength=n_runs)
            wrap = (wsum > W_side[pos][np.searchsorted(rid, np.arange(n_runs)).clip(
                0, len(pos) - 1)] + 1e-6) & ~run_cells
            todo = np.flatnonzero(wrap[rid])
            if len(todo):                                     # greedy line filling
                cur_run, xx, rr = -1, 0.0, 0
                for k in todo.tolist():
                    r, wk, Wk = rid[k], w_[k], W_side[pos[k]]
                    if r != cur_run:
                        cur_run, xx, rr = r, 0.0, 0
                    elif xx > 0 and xx + wk > Wk + 1e-6:
                        xx, rr = 0.0, rr + 1
                    x[pos[k]], row[pos[k]] = xx, rr
                    xx += wk
        x = np.where(right, np.maximum(W_side - x - sw, 0.0), x)
    # lines: (run, row) pairs, in run order
    line_key = side_run * np.int64(len(side_pos) + 1) + row
    line_keys, line_of = np.unique(line_key, return_inverse=True)
    line_of = line_of.ravel()
    n_lines = len(line_keys)
    line_run = line_keys // np.int64(len(side_pos) + 1)
    line_container = run_container[line_run] if n_lines else np.zeros(0, dtype=np.int64)

    # -- heights, bottom-up
    height = np.zeros(n)
    Wc = np.maximum(width, 1.0)
    tx = items[is_text[items]]
    chars = np.bincount(nba[tx], weights=tlen[tx], minlength=n)[:n]
    text_h = np.ceil(chars * cw * fs / Wc - 1e-9) * LINE_HEIGHT * fs
    brs = items[is_br[items]]
    acc = np.bincount(nba[brs], weights=LINE_HEIGHT * fs[brs], minlength=n)[:n]
    rep_h = np.where(np.isnan(h_px), 0.0, h_px)
    no_h = replaced & np.isnan(h_px)
    if no_h.any():
        ids = np.flatnonzero(no_h)
        dflt = np.array([REPLACED_SIZE.get(names[i], (100, 100)) for i in ids])
        # keep the intrinsic aspect ratio when only the width is given
        rep_h[ids] = np.where(np.isnan(w_px[ids]) & np.isnan(w_pct[ids]), dflt[:, 1],
                              width[ids] * dflt[:, 1] / dflt[:, 0])
    height[replaced] = rep_h[replaced]
    line_max = np.zeros(n_lines)
    pos_of = np.full(n, -1, dtype=np.int64)
    pos_of[items] = np.arange(len(items))
    side_index = np.full(len(items), -1, dtype=np.int64)
    side_index[side_pos] = np.arange(len(side_pos))
    # bottom-up over the depths that hold containers, boxes in flow or lines
    boxes = items[container[items] | replaced[items]]
    by_cont = _group_dict(depth[cont_ids], cont_ids)
    by_box = _group_dict(depth[boxes], boxes)
    by_line = _group_dict(depth[line_container], np.arange(n_lines))
    for d in sorted(set(by_cont) | set(by_box) | set(by_line) | {0}, reverse=True):
        lsel = by_line.get(d)
        if lsel is not None:                              # all items of these lines are done
            np.add.at(acc, line_container[lsel], line_max[lsel])
        cont = by_cont.get(d) if d else np.array([0])
        if cont is not None:
            spec = h_px[cont]
            height[cont] = np.where(np.isnan(spec), text_h[cont] + acc[cont], spec)
        lv = by_box.get(d)
        if lv is not None:
            si = side_index[pos_of[lv]]
            sd = si >= 0
            st = lv[~sd & ~out_of_flow[lv]]
            np.add.at(acc, nba[st], height[st])
            if sd.any():
                np.maximum.at(line_max, line_of[si[sd]], height[lv[sd]])
    # inline elements and text nodes: lines at their container's width
    inline_el = (kind == ELEMENT) & ~container & ~replaced
    c_all = np.maximum(nba, 0)
    lines_w = Wc[c_all]
    rep_area = doc.subtree_sum(np.where(replaced & ~suppressed, width * height, 0.0))
    br_sub = doc.subtree_sum(is_br & ~suppressed)
    ih = (np.ceil(text_sub * cw * fs / lines_w - 1e-9) * fs + br_sub) * LINE_HEIGHT \
        + rep_area / lines_w
    height = np.where(inline_el, ih, height)
    height = np.where(is_text, np.ceil(tlen * cw * fs / lines_w - 1e-9) * LINE_HEIGHT * fs,
                      height)
    height[suppressed] = 0.0
    height[0] = max(height[0], 0.0)

    # -- positions, top-down: offsets inside each container's flow
    dh = np.zeros(len(items))
    it_text = is_text[items]
    dh[it_text] = tlen[items[it_text]] * cw * fs[items[it_text]] ** 2 * LINE_HEIGHT \
        / Wc[ic[it_text]]
    it_br = is_br[items]
    dh[it_br] = LINE_HEIGHT * fs[items[it_br]]
    stack_items = ~is_side & ~it_text & ~it_br & ~out_of_flow[items]
    dh[stack_items] = height[items[stack_items]]
    lx = np.zeros(n)
    rel_side = np.zeros(len(items))
    if n_runs:
        # a run takes the sum of its lines' heights; its items sit on their line
        run_total = np.bincount(line_run, weights=line_max, minlength=n_runs)
        line_start = np.cumsum(line_max) - line_max
        run_first_line = np.searchsorted(line_run, np.arange(n_runs))
        line_offset = line_start - line_start[run_first_line][line_run]
        last = np.concatenate((side_run[1:] != side_run[:-1], [True]))
        dh[side_pos[last]] = run_total[side_run[last]]
        lx[side_items] = x
        rel_side[side_pos] = line_offset[line_of]
    cum = np.cumsum(dh)
    excl = cum - dh
    group_first = np.flatnonzero(new_group)
    gstart = np.repeat(excl[group_first], np.diff(np.append(group_first, len(items))))
    rel_items = excl - gstart if len(items) else np.zeros(0)
    if n_runs:
        # every item of a run starts where the run starts (plus its row)
        side_pos = np.flatnonzero(is_side)
        first_of_run = np.flatnonzero(run_start)
        rel_items[side_pos] = rel_items[first_of_run][run_id[side_pos]] + rel_side[side_pos]
    group_total = np.bincount(ic, weights=dh, minlength=n)[:n]
    # any node: the flow offset at its position in its container
    keys = ic * np.int64(n + 1) + items
    qkeys = np.maximum(nba, 0) * np.int64(n + 1) + np.arange(n)
    p = np.searchsorted(keys, qkeys)
    pc = np.minimum(p, max(len(items) - 1, 0))
    same = (p < len(items)) & (ic[pc] == nba) if len(items) else np.zeros(n, dtype=bool)
    rel = np.where(same, rel_items[pc] if len(items) else 0.0, group_total[np.maximum(nba, 0)])
    rel[0] = 0.0
    np.maximum(rel, 0.0, out=rel)                  # float noise of the differences
    np.maximum(lx, 0.0, out=lx)
    # centred blocks
    cen = centred | ((bits[par] & _CENTER) > 0)
    cen &= container & ~side
    cen_ids = np.flatnonzero(cen)
    cen_ids = cen_ids[cen_ids > 0]
    lx[cen_ids] = np.maximum(width[nba[cen_ids]] - width[cen_ids], 0.0) / 2
    top = np.zeros(n)
    left = np.zeros(n)
    for ids in cont_groups:                                   # containers, top-down
        c = nba[ids]
        top[ids] = top[c] + rel[ids]
        left[ids] = left[c] + lx[ids]
    c = nba[rest]
    top[rest] = top[c] + rel[rest]
    left[rest] = left[c] + lx[rest]
    page_height = float(height[doc.body]) if doc.body else float(height[0])
    return Layout(width=width, height=height, left=left, top=top,
                  page_width=float(width[0]), page_height=max(page_height, float(height[0])),
                  background=background, color=color, approximated=True, hidden=hidden)
