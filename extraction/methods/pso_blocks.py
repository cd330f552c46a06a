"""E2: content blocks scored by PSO-optimised feature weights (ALGORITHMS.md §2).

Wu Qi, Chen Xingshu, Tan Jun, J. South China Univ. of Technology 39(4), 2011.  A page is
pre-blocked by the nearest enclosing block tag of each text node; every block gets five
features t1..t5 (text length, punctuation, ``&nbsp;``, ``<b>``, ``<br>``), each mapped to an
interval with a support probability P(B=S|t_i) (Table 2); the block score is the weighted mean
of those probabilities with weights delta_1..delta_5 (Definition 2) and the block is content iff
Score > epsilon.  Paper values: weights (1.4571, 2.6976, 1.9782, 2.6838, 0.8203), epsilon 0.2922.

Options (defaults first): ``params`` "paper" | "trained" (extraction/models/e2.json, produced by
``python -m extraction train e2``) | a dict; ``block_tags`` "printed" (table, tr, p, div) |
"extended"; ``unwrap_form`` False (the literal removal of ``form`` deletes ASP.NET pages'
content; True keeps the form's content); ``bold_tags`` ("b",) (option adds "strong").
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..document import TEXT, Document
from ..result import Selection, empty

PRINTED_BLOCK_TAGS = ("table", "tr", "p", "div")
EXTENDED_BLOCK_TAGS = PRINTED_BLOCK_TAGS + ("td", "li", "ul", "ol", "section", "article",
                                            "h1", "h2", "h3", "h4", "h5", "h6")
REMOVED_TAGS = ("script", "form", "style", "iframe")
FEATURES = ("length", "punctuation", "nbsp", "bold", "br")
INTERVALS = (3, 2, 2, 2, 2)  # Table 1: length [0,10], (10,14), [14,inf); counts [0,1), [1,inf)
N_COMBOS = int(np.prod(INTERVALS))

# Table 2 of the paper: support probabilities per interval and the PSO-optimised weights.
PAPER_PARAMS: dict[str, Any] = {
    "probabilities": [[0.060, 0.546, 0.795], [0.274, 0.944], [0.375, 0.827], [0.295, 0.948],
                      [0.434, 0.875]],
    "weights": [1.4571, 2.6976, 1.9782, 2.6838, 0.8203],
    "epsilon": 0.2922,
    "source": "paper (Table 2, epsilon from §3)",
}
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "e2.json"


@dataclass
class Blocks:
    """The blocks of a page: ``owner`` maps every node to its block (-1: none)."""

    ids: np.ndarray        # block node ids (the root pseudo-block is doc.size)
    features: np.ndarray   # (n_blocks, 5) raw counts t1..t5
    owner: np.ndarray      # per node: block node id, doc.size for text outside any block
    alive: np.ndarray      # per node: not inside a removed tag

    def intervals(self) -> np.ndarray:
        """(n_blocks, 5) interval index of each feature (§2.4; length <= 10 -> first)."""
        f = self.features
        length = np.where(f[:, 0] <= 10, 0, np.where(f[:, 0] < 14, 1, 2))
        counts = (f[:, 1:] >= 1).astype(np.int64)
        return np.column_stack((length, counts))

    def combos(self) -> np.ndarray:
        """One integer in [0, 48) per block: the joint interval of its five features."""
        iv = self.intervals()
        return (((iv[:, 0] * 2 + iv[:, 1]) * 2 + iv[:, 2]) * 2 + iv[:, 3]) * 2 + iv[:, 4]


def nearest_block(doc: Document, is_block: np.ndarray) -> np.ndarray:
    """Nearest block ancestor-or-self of every node (pointer doubling; doc.size = none)."""
    n = doc.size
    up = np.append(np.where(doc.parent >= 0, doc.parent, n), n)
    ptr = np.where(np.append(is_block, True), np.arange(n + 1), up)
    while True:
        nxt = np.where(np.append(is_block, True)[ptr], ptr, ptr[ptr])
        if np.array_equal(nxt, ptr):
            return ptr[:n]
        ptr = nxt


def pre_block(doc: Document, block_tags: Sequence[str] = PRINTED_BLOCK_TAGS,
              unwrap_form: bool = False, bold_tags: Sequence[str] = ("b",)) -> Blocks:
    """Algorithm 2 steps 1-2: remove non-content tags, assign text nodes to blocks, count t1..t5."""
    removed = [t for t in REMOVED_TAGS if not (unwrap_form and t == "form")]
    alive = ~doc.inside(removed)
    is_block = doc.is_tag(block_tags) & alive
    owner = nearest_block(doc, is_block)
    n = doc.size
    is_text = (doc.kind == TEXT) & alive
    s = doc.stats

    def per_block(mask: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(owner[mask], weights=None if weights is None else weights[mask],
                           minlength=n + 1)

    length = per_block(is_text, doc.tlen)
    ids = np.flatnonzero(length > 0)
    feats = np.column_stack([
        length[ids],
        per_block(is_text, s.own_punct)[ids],
        per_block(is_text, s.own_nbsp)[ids],
        per_block(doc.is_tag(bold_tags) & alive)[ids],
        per_block(doc.is_tag("br") & alive)[ids],
    ])
    return Blocks(ids, feats, owner, alive)


def combo_scores(params: dict[str, Any]) -> np.ndarray:
    """Score (Definition 2) of each of the 48 interval combinations."""
    probs = params["probabilities"]
    weights = np.asarray(params["weights"], dtype=float)
    grid = np.array(np.unravel_index(np.arange(N_COMBOS), INTERVALS)).T  # (48, 5)
    p = np.array([[probs[i][grid[c, i]] for i in range(5)] for c in range(N_COMBOS)])
    total = weights.sum()
    if total <= 0:
        return np.zeros(N_COMBOS)  # §10.4: all weights 0 -> every block is noise
    return p @ weights / total


def block_scores(blocks: Blocks, params: dict[str, Any]) -> np.ndarray:
    return combo_scores(params)[blocks.combos()]


@lru_cache(maxsize=4)
def _load_model(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def resolve_params(params: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(params, dict):
        return params
    if params == "paper":
        return PAPER_PARAMS
    if params == "trained":
        if not MODEL_PATH.is_file():
            raise FileNotFoundError(f"{MODEL_PATH} missing: run `python -m extraction train e2`")
        return _load_model(str(MODEL_PATH))
    raise ValueError(f"E2 params must be 'paper', 'trained' or a dict, not {params!r}")


def extract_e2(doc: Document, siblings: Sequence[Document] = (), *,
               params: str | dict[str, Any] = "paper", block_tags: str = "printed",
               unwrap_form: bool = False, bold_tags: Sequence[str] = ("b",)) -> Selection:
    """E2 (Algorithm 2): output the text of every block with Score > epsilon."""
    p = resolve_params(params)
    tags = PRINTED_BLOCK_TAGS if block_tags == "printed" else EXTENDED_BLOCK_TAGS
    blocks = pre_block(doc, tags, unwrap_form, bold_tags)
    if len(blocks.ids) == 0:
        return empty("no text outside removed tags (script, form, style, iframe)")
    scores = block_scores(blocks, p)
    content = blocks.ids[scores > p["epsilon"]]
    keep = np.isin(blocks.owner, content) & (doc.kind == TEXT) & blocks.alive
    text = doc.text_of(keep)
    info = {"blocks": int(len(blocks.ids)), "content_blocks": int(len(content)),
            "params": p.get("source", "custom")}
    if not text:
        return empty("every block scored as noise", **info)
    chars = blocks.features[:, 0]
    share = float(chars[scores > p["epsilon"]].sum() / max(chars.sum(), 1))
    return Selection(text, confidence=share, info=info, nodes=np.flatnonzero(keep))


# E2 with the support probabilities, weights and epsilon re-learnt by PSO on our data: E2
# with another default for ``params`` (its signature E2's, so that a wrong option is the
# caller's error)
extract_e2_trained = partial(extract_e2, params="trained")
