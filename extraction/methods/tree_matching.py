"""E6: tree pre-pruning, simple-tree-matching clustering and common extraction path (§6).

"Research on web page main-text extraction based on tree pre-pruning" (authors and venue not
in the source).  Pages become *simple trees* (``<body>`` and its element children), are
clustered with a modified simple tree matching (STM) at a similarity threshold of **80%**
[SRC]; on a sample page of a cluster the DOM is *pre-pruned* (noise tags, zero-size and
text-less nodes out) and a *common extraction path* is found by descending from ``<body>`` into
the most important child until the children's importance no longer varies (threshold **0.1**
[SRC], applied to a formula the source does not give).  The path is then applied to the pages
of the cluster.

Provenance: 0.8 and 0.1 and the noise-tag list are [SRC]; the STM iteration (E6-A1), ``|T|``
(E6-A2), attribute equality (E6-A3), the clustering procedure, the importance ``ipt`` and the
variance / entropy tests are [RECON]/[DEFAULT] (§6.3).  Options (defaults first):
``reading`` "S" (order-preserving maximum matching) / "L" (literal one-to-one double loop);
``count_root`` False / True (E6-A2); ``same`` "attrs" / "id_class" (E6-A3); ``mode``
"variance" (normalised) / "raw_variance" / "entropy" with ``stop`` 0.1; ``sample`` "first"
(the cluster's first page) / "sibling" (the first other page of the cluster) / "random";
``text`` "all" (all text of the node reached, [DEFAULT]) / "pruned" (only its pre-pruned part);
``unwrap`` False / True (simple trees skip single-child wrappers below ``<body>``, not in the
source); ``clustering`` "leader" / "single".

Widths and heights come from :mod:`extraction.geometry`, an **approximated** layout (§0.4
option ii, §10.1): the "width = 0 or height = 0" pruning and ``ipt`` depend on that estimate;
results say ``info["geometry"] = "approximated"``.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from ..document import ELEMENT, Document
from ..geometry import layout
from ..result import Selection, empty

SIMILARITY_THRESHOLD = 0.8    # [SRC] "80% is used here as the threshold"
STOP_THRESHOLD = 0.1          # [SRC] threshold of the (missing) stop formula
# [SRC] prose list of noise tags (E6-I1: body/div/span/p are judged, not deleted; E6-I4:
# "image" read as img; DOCTYPE and comments never reach the node table).
NOISE_TAGS = ("head", "style", "script", "link", "img", "h2", "ul", "a")


# ------------------------------------------------------------------------------ simple trees
@dataclass
class SimpleTree:
    """``<body>`` and its direct element children (each a (tag, attributes) key)."""

    root: str
    children: list[tuple]

    def __len__(self) -> int:
        return len(self.children)


def _key(el, same: str) -> tuple:
    if same == "id_class":
        return (el.tag, el.get("id"), el.get("class"))
    return (el.tag, tuple(sorted(el.attrib.items())))


def simple_tree(doc: Document, same: str = "attrs", unwrap: bool = False) -> SimpleTree:
    """SIMPLE_TREE(page): root ``<body>`` (the root element when there is none) and the keys
    of its element children in document order.  ``same``: "attrs" = tag and all attributes
    equal [DEFAULT], "id_class" = tag, id and class only (E6-A3 option).  ``unwrap=True``
    [DEFAULT option, not in the source]: the root is the first node below ``<body>`` that is
    not a single-element-child wrapper without text of its own (e.g. ``<div id=wrapper>``, or
    the ``<text id=URL>`` line of CleanEval files, which holds the whole page)."""
    if same not in ("attrs", "id_class"):
        raise ValueError("same must be 'attrs' or 'id_class'")
    root = doc.body
    kids = doc.element_children(root)
    if unwrap:
        own_text = doc.stats.own_text
        while len(kids) == 1 and own_text[root] == 0:
            root = int(kids[0])
            kids = doc.element_children(root)
        name = "body"                                   # wrappers differ between pages
    else:
        name = doc.tag_names[root]
    return SimpleTree(name, [_key(doc.elements[k], same) for k in kids.tolist()])


def stm(ta: SimpleTree, tb: SimpleTree, reading: str = "S") -> int:
    """Modified simple tree matching: number of matched children (roots not counted).

    Reading "S" [RECON, recommended]: order-preserving maximum matching over one level (LCS of
    the child keys), computed bit-parallel (Hyyrö's bit-vector LCS: one big-integer row per
    child of ``ta``, so 40,000 children a side take 0.1 s, not the 14 s of a row-by-row DP).
    Reading "L": the literal double loop, each child of ``tb`` used at most once (= per key,
    the smaller count).
    """
    if ta.root != tb.root:
        return 0
    if reading == "L":
        ca, cb = Counter(ta.children), Counter(tb.children)
        return sum(min(v, cb[k]) for k, v in ca.items())
    if reading != "S":
        raise ValueError("reading must be 'S' or 'L'")
    if not ta.children or not tb.children:
        return 0
    return lcs_length(ta.children, tb.children)


def lcs_length(a: Sequence, b: Sequence) -> int:
    """Length of a longest common subsequence of ``a`` and ``b`` (hashable items).  Bit ``j``
    of ``v`` is 1 while ``b[j]`` is unmatched; each item of ``a`` advances the matches with one
    addition and one subtraction on ``len(b)``-bit integers; the zeros left are the LCS."""
    if not a or not b:
        return 0
    # an item found once in b keeps its position and its mask is made when needed: a mask per
    # item took memory quadratic in len(b) for children with unique ids (40,000: 150 MB)
    single: dict = {}
    masks: dict = {}
    for j, item in enumerate(b):
        if item in masks:
            masks[item] |= 1 << j
        elif item in single:
            masks[item] = (1 << single.pop(item)) | (1 << j)
        else:
            single[item] = j
    full = (1 << len(b)) - 1
    v = full
    for item in a:
        m = masks.get(item)
        if m is None:
            j = single.get(item)
            if j is None:
                continue
            m = 1 << j
        u = v & m
        v = ((v + u) | (v - u)) & full
    return len(b) - v.bit_count()


def similarity(ta: SimpleTree, tb: SimpleTree, reading: str = "S",
               count_root: bool = False) -> float:
    """``STM(Ta, Tb) / ((|Ta| + |Tb|) / 2)`` [SRC].  ``|T|`` = number of children [DEFAULT];
    ``count_root=True`` counts the (matched) root in both (classic STM, E6-A2).  Two empty
    simple trees: 0 (§10.4)."""
    if not ta.children and not tb.children:
        return 0.0
    matched = stm(ta, tb, reading)
    size_a, size_b = len(ta), len(tb)
    if count_root:
        matched += 1 if ta.root == tb.root else 0
        size_a, size_b = size_a + 1, size_b + 1
    denom = (size_a + size_b) / 2
    return matched / denom if denom else 0.0


def cluster(trees: Sequence[SimpleTree], threshold: float = SIMILARITY_THRESHOLD,
            reading: str = "S", count_root: bool = False,
            method: str = "leader") -> list[list[int]]:
    """Cluster simple trees; clusters are lists of input positions (first = representative).

    "leader" [DEFAULT]: in input order, join the existing cluster whose representative is most
    similar if that similarity is >= ``threshold``, else start a new cluster.  "single":
    single-link agglomerative clustering at ``threshold`` (option).
    """
    if method == "leader":
        clusters: list[list[int]] = []
        for i, t in enumerate(trees):
            best, best_sim = -1, -1.0
            for c, members in enumerate(clusters):
                s = similarity(trees[members[0]], t, reading, count_root)
                if s > best_sim:
                    best, best_sim = c, s
            if best >= 0 and best_sim >= threshold:
                clusters[best].append(i)
            else:
                clusters.append([i])
        return clusters
    if method != "single":
        raise ValueError("method must be 'leader' or 'single'")
    root = list(range(len(trees)))

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for i in range(len(trees)):
        for j in range(i + 1, len(trees)):
            if find(i) != find(j) and similarity(trees[i], trees[j], reading,
                                                 count_root) >= threshold:
                root[find(j)] = find(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(trees)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


# ------------------------------------------------------------------------------ pre-pruning
def prune(doc: Document, page_width: float = 1000.0,
          noise: Sequence[str] = NOISE_TAGS) -> tuple[np.ndarray, np.ndarray]:
    """Pre-pruned DOM: ``(alive, nonlink)``.

    Noise-tag subtrees never enter the tree; of the rest, an element with estimated width 0,
    height 0 or no non-link text (measured without the noise subtrees) is deleted with its
    subtree.  ``nonlink`` is the non-link text length per node in the pruned tree.
    """
    lay = layout(doc, page_width)
    noise_mask = doc.inside(noise)
    own = doc.tlen * ~noise_mask * ~doc.in_link
    nonlink = doc.subtree_sum(own)
    is_el = doc.kind == ELEMENT
    dead = is_el & (noise_mask | (lay.width <= 0) | (lay.height <= 0) | (nonlink <= 0))
    hits = np.flatnonzero(dead)
    if len(hits):
        diff = np.zeros(doc.size + 1, dtype=np.int32)
        np.add.at(diff, hits, 1)
        np.add.at(diff, doc.end[hits], -1)
        alive = np.cumsum(diff[:-1]) == 0
    else:
        alive = np.ones(doc.size, dtype=bool)
    return alive, doc.subtree_sum(own * alive) * alive


def importance(heights: np.ndarray, widths: np.ndarray, texts: np.ndarray) -> np.ndarray:
    """``ipt`` [RECON]: mean over (height, width, non-link text) of each child's share among
    its siblings (attributes whose total is 0 are skipped)."""
    out = np.zeros(len(heights))
    for values in (heights, widths, texts):
        total = float(np.sum(values))
        if total > 0:
            out += np.asarray(values, dtype=np.float64) / total
    return out / 3.0


def variance(v: np.ndarray) -> float:
    return float(np.var(v))


def norm_variance(v: np.ndarray) -> float:
    """Variance divided by its maximum ``(j-1)/j^2`` for shares (0 equal .. 1 one holds all)."""
    j = len(v)
    return variance(v) * j * j / (j - 1) if j > 1 else 0.0


def normalised_entropy(v: np.ndarray) -> float:
    total = float(np.sum(v))
    if len(v) < 2 or total <= 0:
        return 0.0
    p = np.asarray(v, dtype=np.float64) / total
    p = p[p > 0]
    return float(-(p * np.log(p)).sum() / math.log(len(v)))


class Step(NamedTuple):
    """One extraction-path step [DEFAULT]: tag, id, class, index among same-tag siblings."""

    tag: str
    id: str | None
    cls: str | None
    index: int


def _step(doc: Document, node: int) -> Step:
    el = doc.elements[node]
    p = int(doc.parent[node])
    sibs = doc.element_children(p) if p >= 0 else np.array([node])
    same_tag = sibs[doc.tag[sibs] == doc.tag[node]]
    return Step(doc.tag_names[node], el.get("id"), el.get("class"),
                int(np.searchsorted(same_tag, node)))


def extraction_path(doc: Document, stop: float = STOP_THRESHOLD, mode: str = "variance",
                    page_width: float = 1000.0) -> tuple[list[Step], int]:
    """The extraction path from ``<body>`` on the pre-pruned DOM, and the node it ends at.

    At each node with more than one surviving child: compute ``ipt``; stop when the children
    are comparable (mode "variance": normalised variance < ``stop``; "raw_variance": variance
    < ``stop``; "entropy": normalised entropy > 1 - ``stop``), else descend into the first
    child with max ``ipt``.  A single surviving child is descended into [DEFAULT].
    """
    if mode not in ("variance", "raw_variance", "entropy"):
        raise ValueError("mode must be 'variance', 'raw_variance' or 'entropy'")
    alive, nonlink = prune(doc, page_width)
    lay = layout(doc, page_width)
    path: list[Step] = []
    node = doc.body
    while True:
        kids = doc.element_children(node)
        kids = kids[alive[kids]]
        if not len(kids):
            break
        if len(kids) > 1:
            ipt = importance(lay.height[kids], lay.width[kids], nonlink[kids])
            if mode == "variance" and norm_variance(ipt) < stop:
                break
            if mode == "raw_variance" and variance(ipt) < stop:
                break
            if mode == "entropy" and normalised_entropy(ipt) > 1 - stop:
                break
            best = int(kids[int(np.argmax(ipt))])
        else:
            best = int(kids[0])
        path.append(_step(doc, best))
        node = best
    return path, node


def apply_path(doc: Document, path: Sequence[Step]) -> tuple[int, int]:
    """Follow ``path`` from ``<body>`` of ``doc``: each step matches a child of the same tag by
    id, then class, then index among same-tag siblings [DEFAULT].  Returns ``(node, steps
    matched)``; the walk stops at the first step that matches nothing."""
    node = doc.body
    for done, step in enumerate(path):
        kids = doc.element_children(node)
        cands = [int(k) for k in kids.tolist() if doc.tag_names[k] == step.tag]
        found = -1
        if step.id:
            found = next((k for k in cands if doc.elements[k].get("id") == step.id), -1)
        if found < 0 and step.cls:
            same_cls = [k for k in cands if doc.elements[k].get("class") == step.cls]
            if len(same_cls) == 1:
                found = same_cls[0]
            elif same_cls:
                by_index = [k for k in same_cls if cands.index(k) == step.index]
                found = by_index[0] if by_index else same_cls[0]
        if found < 0 and step.index < len(cands):
            found = cands[step.index]
        if found < 0:
            return node, done
        node = found
    return node, len(path)


# ------------------------------------------------------------------------------ the method
def extract_e6(doc: Document, siblings: Sequence[Document] = (), *,
               stop: float = STOP_THRESHOLD, mode: str = "variance", reading: str = "S",
               count_root: bool = False, similarity_threshold: float = SIMILARITY_THRESHOLD,
               sample: str = "first", same: str = "attrs", clustering: str = "leader",
               text: str = "all", unwrap: bool = False, seed: int = 0,
               page_width: float = 1000.0) -> Selection:
    """E6 on ``doc``: cluster ``[doc, *siblings]``, find the common extraction path on the
    sample page of ``doc``'s cluster and apply it to ``doc``.  Without siblings, or when none
    clusters with ``doc``, the path is found on ``doc`` alone (``info["cluster"]`` says so);
    when a sibling's path does not apply to ``doc`` the page's own path is used
    (``info["path_fallback"]``).  Output: the text of the node reached, in document order,
    without text hidden by ``display:none``/``hidden`` [DEFAULT].  ``confidence``: 1.0 when the
    page clustered with a sibling, else 0.5 [DEFAULT]."""
    if sample not in ("first", "sibling", "random"):
        raise ValueError("sample must be 'first', 'sibling' or 'random'")
    if text not in ("all", "pruned"):
        raise ValueError("text must be 'all' or 'pruned'")
    info: dict = {"geometry": "approximated", "mode": mode, "stop": stop}
    if not len(doc.element_children(doc.body)):
        return empty("no <body> children", **info)
    pages = [doc, *siblings]
    trees = [simple_tree(p, same, unwrap) for p in pages]
    members = next(c for c in cluster(trees, similarity_threshold, reading, count_root,
                                      clustering) if 0 in c)
    info["cluster_size"] = len(members)
    if len(siblings) == 0:
        info["cluster"] = "no siblings: path found on the page alone"
    elif len(members) == 1:
        info["cluster"] = "no sibling clusters with the page: path found on the page alone"
    else:
        info["cluster"] = "clustered with %d sibling(s)" % (len(members) - 1)
        info["similarity"] = round(similarity(trees[0], trees[members[1]], reading,
                                              count_root), 4)
    if sample == "first" or len(members) == 1:
        pick = members[0]
    elif sample == "sibling":
        pick = next(m for m in members if m != 0)
    else:
        pick = random.Random(seed).choice(members)
    path, end_node = extraction_path(pages[pick], stop, mode, page_width)
    info["sample"] = "page" if pick == 0 else "sibling %d" % pick
    info["path"] = [list(s) for s in path]
    node = end_node
    if pick != 0:
        node, matched = apply_path(doc, path)
        info["path_matched"] = matched
        if matched < len(path):                       # the template differs here: own path
            info["path_fallback"] = "path did not apply; found on the page alone"
            path, node = extraction_path(doc, stop, mode, page_width)
    info.update(node=int(node), tag=doc.tag_names[node])
    keep = np.zeros(doc.size, dtype=bool)
    keep[node:doc.end[node]] = True
    if text == "pruned":
        keep &= prune(doc, page_width)[0]
    else:
        lay = layout(doc, page_width)
        if lay.hidden is not None:
            keep &= ~lay.hidden
    out = doc.text_of(keep)
    if not out:
        return empty("no text at the end of the extraction path", **info)
    return Selection(out, confidence=1.0 if len(members) > 1 else 0.5, info=info,
                     nodes=np.flatnonzero(keep))
