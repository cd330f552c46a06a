"""E3: visual-unit extraction of news bodies (ALGORITHMS.md §3).

Chinese patent "Focus-oriented Web page acquisition and information extraction method", part b
(visual units) and the embodiment of its Fig. 2 (Definitions 10-11, segmentation Rules 1-5).

The page is split top-down from ``<body>`` into visual units with the iterative Rules 1-5
(§3.4); every unit is scored with

    score = wa*sa + wp*sp - wld*sld + wtd*std + wl*sl        (wa + wp + wld + wtd + wl = 1)  [SRC]

and the highest-scoring unit is the news body (ties: first in document order [DEFAULT]).

Parameter provenance: the score formula and the weight constraint are [SRC]; the formulas of
``sa``, ``sld``, ``std`` and ``sl`` are [RECON] (§3.5); **no value is given in the source**:
``alpha = beta = 0.7`` and ``weights = (0.2,) * 5`` are [DEFAULT] values of the spec.

Options (defaults first): ``rule_order`` "B" (stop rules 4/5 before colour rules 2/3,
recommended) / "A" (printed order, E3-A1); ``split_when_no_rule`` True / False (E3-A2);
``text_children`` False (the segmentation descends into the element children with text, as
in the spec's pseudo-code) / True (text runs are children too) [DEFAULT option];
``class_children`` "dom" / "elements": the children meant by "all children are text (link)
nodes" in Definitions 10-11 - the DOM children, text runs included (literal reading,
[DEFAULT]; then a ``<p>`` of plain text with one inline link is not a link node), or the
element children only (then it is, whatever its plain text).

Geometry and colours come from :mod:`extraction.geometry`, an **approximated** layout (§0.4
option ii): areas are estimated, colours are the explicitly set ones with "unset = parent's
value" (E3-A3); results say ``info["geometry"] = "approximated"``.  Text hidden by
``display:none`` / ``hidden`` counts as absent (a rendered page does not show it) [DEFAULT];
the area of a unit is its estimated box and is not re-laid-out after Rule 1 deletions (E3-A4
holds for the unit list and every text measure, not for the estimated boxes).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..document import ELEMENT, Document
from ..geometry import depth_levels, inherited, layout
from ..result import Selection, empty

ALPHA_DEFAULT = 0.7          # [DEFAULT] text-node threshold (not given in the source)
BETA_DEFAULT = 0.7           # [DEFAULT] link-node threshold (not given in the source)
WEIGHTS_DEFAULT = (0.2, 0.2, 0.2, 0.2, 0.2)   # [DEFAULT] wa, wp, wld, wtd, wl (sum = 1 [SRC])


def node_classes(doc: Document, text: np.ndarray, link: np.ndarray, alive: np.ndarray,
                 children_mask: np.ndarray, alpha: float = ALPHA_DEFAULT,
                 beta: float = BETA_DEFAULT) -> tuple[np.ndarray, np.ndarray]:
    """Definitions 10 and 11: masks of *text nodes* and *link nodes*.

    ``td = nonlink/len > alpha`` (resp. ``ld = link/len > beta``), or all children (the alive
    nodes of ``children_mask``) are text (resp. link) nodes; ``len = 0`` gives 0 [DEFAULT].
    Computed bottom-up over the depth levels (no recursion).  When every node may be a child
    (DOM children: text runs included), a node's densities are the length-weighted means of
    its children's, so the recursive clause can never add a node and is skipped.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        ld = np.where(text > 0, link / np.maximum(text, 1), 0.0)
        td = np.where(text > 0, 1.0 - ld, 0.0)
    is_text = td > alpha
    is_link = ld > beta
    if children_mask.all():
        return is_text, is_link
    kid = alive & children_mask
    kid[0] = False
    n = doc.size
    count = np.zeros(n, dtype=np.int64)
    not_text = np.zeros(n, dtype=np.int64)
    not_link = np.zeros(n, dtype=np.int64)
    parent = doc.parent
    for level in reversed(depth_levels(doc)):
        # this level's classes are final: all deeper levels were folded in before
        has = count[level] > 0
        is_text[level] |= has & (not_text[level] == 0)
        is_link[level] |= has & (not_link[level] == 0)
        k = level[kid[level]]
        if len(k):
            p = parent[k]
            np.add.at(count, p, 1)
            np.add.at(not_text, p, ~is_text[k])
            np.add.at(not_link, p, ~is_link[k])
    return is_text, is_link


def visual_units(doc: Document, *, alpha: float = ALPHA_DEFAULT, beta: float = BETA_DEFAULT,
                 rule_order: str = "B", split_when_no_rule: bool = True,
                 text_children: bool = False, class_children: str = "dom",
                 page_width: float = 1000.0,
                 root: int | None = None) -> tuple[list[int], dict]:
    """Segment the page into visual units (§3.4, iterative); units in document order.

    Returns ``(units, measures)`` where ``measures`` holds the per-node arrays used (``text``,
    ``link``, ``ends``) and the layout.
    """
    if rule_order not in ("A", "B"):
        raise ValueError("rule_order must be 'A' or 'B'")
    lay = layout(doc, page_width)
    visible = ~lay.hidden if lay.hidden is not None else np.ones(doc.size, dtype=bool)
    own = doc.tlen * visible
    text = doc.subtree_sum(own)
    link = doc.subtree_sum(own * doc.in_link)
    alive = text > 0                                                   # Rule 1
    if class_children not in ("dom", "elements"):
        raise ValueError("class_children must be 'dom' or 'elements'")
    every = np.ones(doc.size, dtype=bool)
    children_mask = every if text_children else doc.kind == ELEMENT
    is_text, is_link = node_classes(doc, text, link, alive,
                                    every if class_children == "dom" else doc.kind == ELEMENT,
                                    alpha, beta)
    bg = inherited(doc, lay.background)
    fg = inherited(doc, lay.color)
    start = doc.body if root is None else root
    units: list[int] = []
    stack = [start]
    kids_of = doc.children
    while stack:
        n = stack.pop()
        if not alive[n]:                                               # Rule 1: delete
            continue
        ks = kids_of(n)
        ks = ks[alive[ks] & children_mask[ks]]
        split = False
        if len(ks):
            if len(ks) == 1:
                colour = False
            else:
                kl = ks.tolist()
                b0, f0 = bg[kl[0]], fg[kl[0]]
                colour = any(bg[k] != b0 or fg[k] != f0 for k in kl[1:])   # Rules 2, 3
            uniform = bool(is_text[ks].all() or is_link[ks].all())         # Rules 4, 5
            if rule_order == "A":
                split = True if colour else (False if uniform else split_when_no_rule)
            else:
                split = False if uniform else (True if colour else split_when_no_rule)
        if split:
            stack.extend(ks[::-1].tolist())                            # keep document order
        else:
            units.append(int(n))
    return units, {"text": text, "link": link, "visible": visible, "layout": lay}


def unit_features(doc: Document, units: Sequence[int], measures: dict) -> dict[str, np.ndarray]:
    """Features of Definitions 1-5 (§3.5) for every unit: sa, sp, sld, std, sl."""
    idx = np.asarray(units, dtype=np.int64)
    lay = measures["layout"]
    text, link = measures["text"][idx], measures["link"][idx]
    ends = doc.subtree_sum(doc.stats.own_ends * measures["visible"], idx)
    body = doc.body
    page_area = float(lay.width[body] * lay.height[body])             # [DEFAULT] <body> box
    area = lay.width[idx] * lay.height[idx]
    sa = area / page_area if page_area > 0 else np.zeros(len(idx))    # [RECON]
    sp = (ends > 0).astype(np.float64)                                 # [SRC]
    sld = link / np.maximum(text, 1)                                   # [RECON]
    std = 1.0 - sld                                                    # [RECON]
    lo, hi = float(text.min()), float(text.max())
    sl = (text - lo) / (hi - lo) if hi > lo else np.ones(len(idx))     # [RECON]; [DEFAULT] 1
    return {"sa": np.minimum(sa, 1.0), "sp": sp, "sld": sld, "std": std, "sl": sl}


def score_units(features: dict[str, np.ndarray],
                weights: Sequence[float] = WEIGHTS_DEFAULT) -> np.ndarray:
    """``wa*sa + wp*sp - wld*sld + wtd*std + wl*sl`` (§3.6), weights normalised to sum 1."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (5,) or (w < 0).any() or w.sum() <= 0:
        raise ValueError("weights must be five non-negative numbers (wa, wp, wld, wtd, wl)")
    wa, wp, wld, wtd, wl = w / w.sum()
    f = features
    return wa * f["sa"] + wp * f["sp"] - wld * f["sld"] + wtd * f["std"] + wl * f["sl"]


def extract_e3(doc: Document, siblings: Sequence[Document] = (), *,
               alpha: float = ALPHA_DEFAULT, beta: float = BETA_DEFAULT,
               weights: Sequence[float] = WEIGHTS_DEFAULT, rule_order: str = "B",
               split_when_no_rule: bool = True, text_children: bool = False,
               class_children: str = "dom", page_width: float = 1000.0) -> Selection:
    """E3: the text of the highest-scoring visual unit.  ``siblings`` are not used."""
    info = {"geometry": "approximated", "rule_order": rule_order}
    units, measures = visual_units(doc, alpha=alpha, beta=beta, rule_order=rule_order,
                                   split_when_no_rule=split_when_no_rule,
                                   text_children=text_children,
                                   class_children=class_children, page_width=page_width)
    if not units:
        return empty("no visual unit with text", **info)
    features = unit_features(doc, units, measures)
    scores = score_units(features, weights)
    best = int(np.argmax(scores))                                      # first maximum
    node = units[best]
    keep = np.zeros(doc.size, dtype=bool)
    keep[node:doc.end[node]] = True
    keep &= measures["visible"]
    text = doc.text_of(keep)
    info.update(unit_tag=doc.tag_names[node], node=node, units=len(units),
                score=round(float(scores[best]), 4),
                features={k: round(float(v[best]), 4) for k, v in features.items()})
    if not text:
        return empty("no visual unit with text", **info)
    return Selection(text, confidence=float(np.clip(scores[best], 0.0, 1.0)), info=info,
                     nodes=np.flatnonzero(keep))
