"""Per-node statistics of a page, computed in one pass and shared by every algorithm.

Own values are counted once per text run (one loop over the text nodes) or read from the tag
codes; subtree totals are prefix-sum differences over the pre-order intervals of
:class:`~extraction.document.Document`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .document import TEXT, Document


@dataclass
class NodeStats:
    """Subtree totals per node (arrays of length ``doc.size``).

    ``text``       characters of text (whitespace collapsed, §0.4)
    ``link_text``  characters of text with an ``<a>`` ancestor
    ``own_text``   characters of the node's direct text children (E5 text rate)
    ``punct``      punctuation marks of E2 (ASCII and full-width)
    ``nbsp``       U+00A0 characters (``&nbsp;`` after parsing)
    ``stops``      full stops (``。`` and ``.`` before whitespace/end; E4 x5)
    ``ends``       sentence-ending marks (E3 ``sp``)
    ``anchors``, ``bold``, ``breaks``, ``images``, ``paragraphs``, ``elements``: element counts
    ``text_nodes`` number of text runs
    """

    text: np.ndarray
    link_text: np.ndarray
    own_text: np.ndarray
    punct: np.ndarray
    nbsp: np.ndarray
    stops: np.ndarray
    ends: np.ndarray
    anchors: np.ndarray
    bold: np.ndarray
    breaks: np.ndarray
    images: np.ndarray
    paragraphs: np.ndarray
    elements: np.ndarray
    text_nodes: np.ndarray
    # own (per text node) values, kept for algorithms that need masked sums
    own_len: np.ndarray
    own_link: np.ndarray
    own_punct: np.ndarray
    own_nbsp: np.ndarray
    own_stops: np.ndarray
    own_ends: np.ndarray

    @classmethod
    def of(cls, doc: Document) -> "NodeStats":
        n = doc.size
        is_text = doc.kind == TEXT

        def own(key: str) -> np.ndarray:
            values = np.zeros(n, dtype=np.int64)
            values[is_text] = doc.runs[key]
            return values

        own_punct, own_nbsp, own_stops, own_ends = own("punct"), own("nbsp"), own("stops"), \
            own("ends")
        own_len = doc.tlen.astype(np.int64)
        own_link = own_len * doc.in_link
        own_text = np.bincount(doc.parent[is_text], weights=own_len[is_text], minlength=n)[:n] \
            if is_text.any() else np.zeros(n)
        # every subtree total a prefix-sum difference, one quantity at a time
        (text, link_text, punct, nbsp, stops, ends, anchors, bold, breaks, images, paragraphs,
         elements, text_nodes) = (doc.subtree_sum(own) for own in (
            own_len, own_link, own_punct, own_nbsp, own_stops, own_ends, doc.is_tag("a"),
            doc.is_tag("b"), doc.is_tag("br"), doc.is_tag("img"), doc.is_tag("p"),
            doc.kind != TEXT, is_text))
        return cls(
            text=text, link_text=link_text, own_text=own_text, punct=punct, nbsp=nbsp,
            stops=stops, ends=ends, anchors=anchors, bold=bold, breaks=breaks, images=images,
            paragraphs=paragraphs, elements=elements, text_nodes=text_nodes,
            own_len=own_len, own_link=own_link, own_punct=own_punct, own_nbsp=own_nbsp,
            own_stops=own_stops, own_ends=own_ends,
        )

    def link_density(self) -> np.ndarray:
        """Link text / text per node (0 where a node has no text)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.text > 0, self.link_text / np.maximum(self.text, 1), 0.0)
