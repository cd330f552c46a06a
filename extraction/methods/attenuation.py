"""E1: information-attenuation extraction, FindMT + CleanTree (ALGORITHMS.md §1).

Chen Yang, Chen Xingshu, Wu Qi, Computer Engineering and Design 33(7), 2012.  Paper parameters:
attenuation threshold ``T = 0.34``, maximum link density ``DLmax = 0.65``.

Options for the points where the printed pseudo-code and the prose disagree (§1.8), defaults
first: ``return_parent`` (D1: Reading A returns curNode, B returns MT), ``text_children``
(D3: text nodes are children), ``single_child`` ("A1" descend / "A2" literal fall-through, D2),
``single_anchor_is_link`` (C3: Reading A any element with DL > DLmax; B needs >= 2 anchors),
``unwrap`` (C1: Reading B unwraps link nodes instead of removing their subtree).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..document import ELEMENT, TEXT, Document
from ..result import Selection, empty

T_PAPER = 0.34
DLMAX_PAPER = 0.65
# R2 of §2.1: subtrees removed before the search (script and style never reach the tree).
PRUNED_TAGS = ("script", "style", "select", "option", "iframe", "textarea", "object", "input")


def tag_tree(doc: Document) -> np.ndarray:
    """Mask of the nodes of the cleaned tag tree (§1.4): R2 subtrees out, then R1 text-less
    nodes out (R3, entities, is done by the parser)."""
    alive = ~doc.inside(PRUNED_TAGS)
    text = doc.subtree_sum(doc.tlen * alive)
    return alive & (text > 0)


def find_mt(doc: Document, alive: np.ndarray, lc: np.ndarray, start: int, T: float = T_PAPER,
            return_parent: bool = True, text_children: bool = True,
            single_child: str = "A1") -> tuple[int, float]:
    """FindMT (Algorithm 1): the main-topic subtree root and the attenuation at the stop."""
    cur = start
    while True:
        kids = doc.children(cur)
        kids = kids[alive[kids]]
        if not text_children:
            kids = kids[doc.kind[kids] == ELEMENT]
        clen = lc[cur]
        if len(kids) == 0 or clen == 0:                 # D4: leaf, or only link text below
            return cur, 1.0 if clen else 0.0
        mt = int(kids[np.argmax(lc[kids])])             # first maximum in document order
        if len(kids) == 1 and single_child == "A1":     # D2 Reading A1: descend
            cur = mt
            continue
        r = (clen - lc[mt]) / clen
        if r > T:                                       # D5: strict ">"
            return (cur if return_parent else mt), float(r)
        cur = mt


def clean_tree(doc: Document, alive: np.ndarray, root: int, DLmax: float = DLMAX_PAPER,
               single_anchor_is_link: bool = True, unwrap: bool = False) -> np.ndarray:
    """CleanTree (Algorithm 2) on the subtree of ``root``: mask of the text nodes kept.

    DL is computed in pre-order on the node before its descendants are cleaned, so a node's DL
    is that of the cleaned tag tree; removing a node removes its subtree (C1 Reading A).
    """
    s = doc.stats
    in_root = np.zeros(doc.size, dtype=bool)
    in_root[root:doc.end[root]] = True
    in_root &= alive
    own = doc.tlen * alive
    text = doc.subtree_sum(own)
    links = doc.subtree_sum(own * doc.in_link)
    dl = np.where(text > 0, links / np.maximum(text, 1), 0.0)  # C5: DL = 0 without text
    is_link = (dl > DLmax) & (doc.kind == ELEMENT) & in_root     # C2: elements only
    if not single_anchor_is_link:                                 # C3 Reading B
        is_link &= (s.anchors >= 2) & ~doc.is_tag("a")
    keep = in_root & (doc.kind == TEXT)
    if unwrap:                                                    # C1 Reading B
        return keep & ~doc.in_link if is_link.any() else keep
    removed = np.zeros(doc.size + 1, dtype=np.int32)
    hits = np.flatnonzero(is_link)
    np.add.at(removed, hits, 1)
    np.add.at(removed, doc.end[hits], -1)
    return keep & (np.cumsum(removed[:-1]) == 0)


def extract_e1(doc: Document, siblings: Sequence[Document] = (), *, T: float = T_PAPER,
               DLmax: float = DLMAX_PAPER, return_parent: bool = True,
               text_children: bool = True, single_child: str = "A1",
               single_anchor_is_link: bool = True, unwrap: bool = False,
               start: str = "html") -> Selection:
    """E1 with the paper's ``T`` and ``DLmax``; see the module docstring for the options."""
    alive = tag_tree(doc)
    root = 0 if start == "html" else doc.body                   # D6: start at the root
    if not alive[root]:
        return empty("no text in the cleaned tag tree")
    lc = doc.subtree_sum(doc.tlen * alive * ~doc.in_link)       # Lc: non-link text length
    mt, attenuation = find_mt(doc, alive, lc, root, T, return_parent, text_children,
                              single_child)
    keep = clean_tree(doc, alive, mt, DLmax, single_anchor_is_link, unwrap)
    text = doc.text_of(keep)
    info = {"main_topic_subtree": doc.tag_names[mt], "node": int(mt),
            "attenuation": round(attenuation, 4)}
    if not text:
        return empty("main-topic subtree removed as a link node (C4)", **info)
    return Selection(text, confidence=min(1.0, attenuation), info=info, nodes=np.flatnonzero(keep))
