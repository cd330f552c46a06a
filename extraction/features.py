"""Block features for the learned ``auto`` extractor.

A block is the set of text runs whose nearest block-level ancestor (``p``, ``div``, ``li``,
``td``, headings, ...) is the same element.  Every feature is computed from the document's node
arrays with vectorised group sums; the evidence of the paper algorithms (E1's main-topic
subtree and CleanTree, E2's block score) enters as features too.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np

from .chars import collapse
from .document import BLOCK_LEVEL, CELL_LEVEL, TEXT, Document, tag_code, tag_codes
from .methods.attenuation import clean_tree, find_mt, tag_tree
from .methods.pso_blocks import PAPER_PARAMS, combo_scores, nearest_block, pre_block

BLOCK_TAGS = tuple(sorted(BLOCK_LEVEL | CELL_LEVEL | {"dd", "dt", "figcaption", "pre"}))
OWNER_TAGS = ("p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
              "blockquote", "dd", "dt", "tr", "table", "section", "article", "body",
              "span", "font", "center", "form", "header", "footer", "nav", "aside", "ul")
ANCESTOR_TAGS = ("nav", "header", "footer", "aside", "form", "li", "ul", "ol", "table", "a",
                 "article", "main", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                 "button", "label", "select", "figure", "figcaption", "dl", "menu", "time",
                 "address", "strong", "b", "em", "i", "small", "sup", "pre", "code", "center")
# class/id hints: substrings, plus whole words for short or ambiguous ones
NEGATIVE = ("nav", "menu", "foot", "header", "masthead", "sidebar", "side-bar", "aside",
            "widget", "comment", "respon", "reply", "share", "social", "related", "recommend",
            "promo", "advert", "banner", "sponsor", "crumb", "copyright", "legal", "subscri",
            "newsletter", "signup", "login", "popup", "modal", "cookie", "tagcloud", "toolbar",
            "paginat", "pager", "byline", "author", "topbar", "skip", "hidden", "print", "rss",
            "feed", "popular", "trending", "outbrain", "taboola", "disqus", "shoutbox", "combx",
            "community", "utility", "rating", "vote", "caption", "credit", "gallery", "thumb",
            "teaser")
NEGATIVE_WORDS = frozenset(("ad", "ads", "tag", "tags", "meta", "date", "more", "extra", "tool",
                            "tools", "most", "links", "list"))
POSITIVE = ("article", "content", "entry", "post", "story", "body", "text", "main", "blog",
            "news", "detail", "column", "zhengwen", "正文", "read", "paragraph", "hentry")
POSITIVE_WORDS = frozenset(("page", "art", "con", "txt"))
COMMENT = ("comment", "respon", "reply", "disqus", "discuss", "review")
_WORD_CHARS = "a-z0-9\u4e00-\u9fff"   # a class/id hint's words are runs of these
# (the lookahead on the alternatives' first characters only makes the scan faster)
_COPYRIGHT = re.compile(r"(?=[©(ca版隐免])(?:©|\(c\)|copyright|all rights reserved|版权|隐私|免责)",
                        re.I)
_SEPARATORS = re.compile(r"[|»›·•]")
# what _COPYRIGHT can match, lower-cased, and the characters re.I also matches to its letters
# beyond str.lower() (İ, ı and ſ): a text holding none of them has no match
_COPYRIGHT_LITERALS = ("©", "(c)", "copyright", "all rights reserved", "版权", "隐私", "免责")
_COPYRIGHT_ODD = ("\u0130", "\u0131", "\u017f")


def _may_match_copyright(text: str) -> bool:
    """False only when :data:`_COPYRIGHT` has no match in ``text`` (a few substring tests
    instead of the regex's scan of every character)."""
    low = text.lower()
    return any(s in low for s in _COPYRIGHT_LITERALS) or any(c in text for c in _COPYRIGHT_ODD)


@dataclass
class BlockTable:
    ids: np.ndarray          # owner node id of each block (doc.size = outside any block)
    owner: np.ndarray        # per node: owner block id
    x: np.ndarray            # (n_blocks, n_features) float32
    texts: list[str]         # block text (runs joined), for labelling and output checks
    text_mask: np.ndarray    # per node: text node that belongs to some block


def _hint_pattern(substrings: tuple[str, ...], words: frozenset[str] = frozenset()) -> re.Pattern:
    """Any of ``substrings`` anywhere, or any of ``words`` as a whole word (a run of
    _WORD_CHARS)."""
    parts = [re.escape(k) for k in substrings]
    if words:
        alternatives = "|".join(map(re.escape, sorted(words)))
        parts.append(rf"(?<![{_WORD_CHARS}])(?:{alternatives})(?![{_WORD_CHARS}])")
    return re.compile("|".join(parts))


_HINT_PATTERNS = (_hint_pattern(NEGATIVE, NEGATIVE_WORDS), _hint_pattern(POSITIVE, POSITIVE_WORDS),
                  _hint_pattern(COMMENT))


# [ours] class words that hold a hint's substring but name a layout, not what the element
# holds: "responsive" holds "respon" (responses: comments), and WordPress puts
# "wp-embed-responsive" on the <body> of most of its sites, MediaWiki "skin--responsive",
# Bootstrap "table-responsive" around a data table: every block of such a page read as
# inside comments (a wikiHow-like page 0.21 F1, 0.94 without the word)
LAYOUT_WORDS = ("responsive",)
# Whether hints skip LAYOUT_WORDS.  The shipped model's trees were grown with the words read
# (the training code turns this off, :func:`layout_words_read`): grown again without them the
# trees change 341 texts of the shared and project pages by chance (see README)
SKIP_LAYOUT_WORDS = True


@contextmanager
def layout_words_read() -> Iterator[None]:
    """Within it, hints read :data:`LAYOUT_WORDS` as the shipped model's training did."""
    global SKIP_LAYOUT_WORDS
    saved, SKIP_LAYOUT_WORDS = SKIP_LAYOUT_WORDS, False
    try:
        yield
    finally:
        SKIP_LAYOUT_WORDS = saved


@lru_cache(maxsize=65536)
def _hint_flags(pair: tuple[str | None, str | None], skip_layout: bool = True
                ) -> tuple[bool, bool, bool]:
    """Negative, positive, comment pattern matches of an element's ``(class, id)``."""
    hint = (pair[0] or "") + " " + (pair[1] or "")
    if len(hint) <= 2:
        return (False, False, False)
    hint = hint.lower()
    if skip_layout:
        for word in LAYOUT_WORDS:
            hint = hint.replace(word, " ")
    return tuple(pattern.search(hint) is not None for pattern in _HINT_PATTERNS)


def hint_masks(doc: Document) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Elements whose class/id match the negative, positive and comment patterns."""
    flags = np.zeros((doc.size, 3), dtype=bool)
    if doc.hints:
        skip = SKIP_LAYOUT_WORDS
        flags[list(doc.hints)] = [_hint_flags(pair, skip) for pair in doc.hints.values()]
    return flags[:, 0], flags[:, 1], flags[:, 2]


def _covered_at(doc: Document, hits: np.ndarray, cols: np.ndarray, k: int,
                query: np.ndarray) -> np.ndarray:
    """(len(query), k) mask: query node inside (or at) a ``hits`` node of column ``cols``."""
    m = len(query)
    if not len(hits):
        return np.zeros((m, k), dtype=bool)
    order = np.argsort(query, kind="stable")
    sorted_q = query[order]
    lo = np.searchsorted(sorted_q, hits, "left")
    hi = np.searchsorted(sorted_q, doc.end[hits], "left")
    size = (m + 1) * k
    if size > _COVERED_AT_ONCE:     # a column at a time: all at once is 3 int64 (m, k) arrays
        out = np.zeros((m, k), dtype=bool)
        for c in np.unique(cols).tolist():
            at = cols == c
            diff = np.bincount(lo[at], minlength=m + 1) - np.bincount(hi[at], minlength=m + 1)
            out[order, c] = np.cumsum(diff[:m]) > 0
        return out
    diff = np.bincount(lo * k + cols, minlength=size) - np.bincount(hi * k + cols, minlength=size)
    cov = np.cumsum(diff[:m * k].reshape(m, k), axis=0) > 0
    out = np.empty_like(cov)
    out[order] = cov
    return out


_COVERED_AT_ONCE = 2_000_000    # (m + 1) * k cells: 16 MB an array


def _group(owner_of: np.ndarray, values: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(index, weights=values, minlength=size)[:size] if len(index) else \
        np.zeros(size)


_END_CODES = np.array([ord(c) for c in "。！？.!?\"”)"])
_SEPARATOR_CODES = np.array([ord(c) for c in "|»›·•"])


def _block_texts(doc: Document, text_ids: np.ndarray, inv: np.ndarray, runs: np.ndarray
                 ) -> list[str]:
    """Text of every block: its runs in document order, joined, whitespace collapsed."""
    order = np.argsort(inv, kind="stable")
    pieces = [doc.texts[i] for i in text_ids[order].tolist()]
    seps = np.full(len(pieces), " ", dtype=object)
    seps[np.cumsum(runs.astype(np.int64)) - 1] = "\x00"
    joined = collapse("".join(chain.from_iterable(zip(pieces, seps))))
    return [t.strip() for t in joined.split("\x00")[:len(runs)]]


def _code_points(text: str) -> np.ndarray:
    """The code points of ``text`` in the narrowest unsigned type that holds them (1 byte a
    character for a Latin-1 text: 4 took 80 MB on a 20 MB page)."""
    top = ord(max(text)) if text else 0
    if top < 0x100:
        return np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
    if top < 0x10000:       # (a lone surrogate is one UTF-16 unit too)
        return np.frombuffer(text.encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


class _BlockChars:
    """Code points of all block texts joined by NUL, with each character's block index."""

    def __init__(self, texts: list[str]):
        self.n = len(texts)
        self.joined = "\x00".join(texts)
        codes = _code_points(self.joined)
        sep = codes == 0            # (block texts hold no NUL: the parser made it a space)
        self.lengths = np.array([len(t) for t in texts], dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(self.lengths + 1)[:-1]))
        # per-character arrays in 32 bits: on a 20 MB page the 64-bit ones peaked at 700 MB
        index = np.int32 if len(codes) < 2 ** 31 else np.int64
        self.block = np.cumsum(sep, dtype=index) if len(codes) else np.zeros(0, dtype=index)
        self.codes = codes
        self.solid = ~sep
        self.starts = starts
        if len(codes):
            place = np.arange(len(codes), dtype=index)
            place -= starts.astype(index)[self.block]       # the character's place in its block
            self.head200 = self.solid & (place < 200)
            del place
        else:
            self.head200 = np.zeros(0, dtype=bool)
        last = starts + self.lengths - 1
        self.last = np.where(self.lengths > 0, codes[np.maximum(last, 0)] if len(codes) else 0,
                             -1)

    def count(self, mask: np.ndarray) -> np.ndarray:
        return np.bincount(self.block[mask & self.solid], minlength=self.n)[:self.n] \
            .astype(float)

    def count_matches(self, pattern: re.Pattern) -> np.ndarray:
        starts = [m.start() for m in pattern.finditer(self.joined)]
        return np.bincount(self.block[starts], minlength=self.n)[:self.n].astype(float) \
            if starts else np.zeros(self.n)


def _ancestor_flags(doc: Document, masks: tuple[np.ndarray, ...], query: np.ndarray
                    ) -> np.ndarray:
    """Per query node: inside an element of each ANCESTOR_TAGS tag, then of each mask
    (a boolean matrix)."""
    codes = _ANCESTOR_CODES()
    lut = np.full(max(int(doc.tag.max()), int(codes.max())) + 1, -1, dtype=np.int64)
    lut[codes] = np.arange(len(codes))
    col = lut[doc.tag]
    col[doc.kind == TEXT] = -1
    hits = [np.flatnonzero(col >= 0)]
    cols = [col[hits[0]]]
    for j, mask in enumerate(masks):
        h = np.flatnonzero(mask)
        hits.append(h)
        cols.append(np.full(len(h), len(codes) + j, dtype=np.int64))
    k = len(codes) + len(masks)
    return _covered_at(doc, np.concatenate(hits), np.concatenate(cols), k, query)


@lru_cache(maxsize=1)
def _paper_combo_scores() -> np.ndarray:
    """E2's Definition-2 score of each interval combination under the paper's parameters."""
    scores = combo_scores(PAPER_PARAMS)
    scores.flags.writeable = False
    return scores


@lru_cache(maxsize=1)
def _ANCESTOR_CODES() -> np.ndarray:
    return tag_codes(ANCESTOR_TAGS).astype(np.int64)


# The columns of BlockTable.x, in order (auto.json records the list its model was trained on).
FEATURE_NAMES: tuple[str, ...] = (
    "log_len", "link_density", "punct_rate", "stops", "ends_with_stop", "runs", "words", "cjk",
    "copyright", "separators", *(f"owner_{t}" for t in OWNER_TAGS),
    *(f"in_{t}" for t in ANCESTOR_TAGS), "hint_neg", "hint_pos", "hint_comment",
    "hint_neg_self", "hint_pos_self", "depth", "depth_rel", "pos_chars", "pos_blocks", "share",
    "parent_share", "parent_link_density", "parent_paragraphs", "grandparent_share",
    "grandparent_link_density",
    *(f"{side}{k}_{what}" for k in (1, 2, 3) for what in ("ld", "len")
      for side in ("prev", "next")),
    "window_clean", "page_log_len", "page_link_density", "page_blocks",
    "e1_in_mt", "e1_kept", "e1_mt_share", "e1_attenuation", "e2_score")


def block_table(doc: Document) -> BlockTable:
    """Blocks of the page and their feature matrix (see FEATURE_NAMES)."""
    n = doc.size
    s = doc.stats
    is_text = doc.kind == TEXT
    is_block = doc.is_tag(BLOCK_TAGS)
    owner = nearest_block(doc, is_block)
    text_ids = np.flatnonzero(is_text)
    owners_of_text = owner[text_ids]
    uniq, inv = np.unique(owners_of_text, return_inverse=True)
    nb = len(uniq)
    tl = doc.tlen[text_ids].astype(float)
    length = np.bincount(inv, weights=tl, minlength=nb)
    link = np.bincount(inv, weights=tl * doc.in_link[text_ids], minlength=nb)
    punct = np.bincount(inv, weights=s.own_punct[text_ids], minlength=nb)
    stops = np.bincount(inv, weights=s.own_stops[text_ids], minlength=nb)
    runs = np.bincount(inv, minlength=nb).astype(float)
    first_text = np.full(nb, n, dtype=np.int64)
    np.minimum.at(first_text, inv, text_ids)
    texts = _block_texts(doc, text_ids, inv, runs)
    chars = _BlockChars(texts)

    # per-node ancestor context, read at the block's first text node
    ctx = first_text
    feats: dict[str, np.ndarray] = {}
    total = max(length.sum(), 1.0)
    feats["log_len"] = np.log1p(length)
    feats["link_density"] = link / np.maximum(length, 1)
    feats["punct_rate"] = punct / np.maximum(length, 1)
    feats["stops"] = np.log1p(stops)
    # (0/1 features stay booleans until x: 72 of the 112 columns, 8 times smaller)
    feats["ends_with_stop"] = np.isin(chars.last, _END_CODES)
    feats["runs"] = np.log1p(runs)
    feats["words"] = np.log1p(chars.count(chars.codes == 32) + 1.0)
    feats["cjk"] = chars.count(chars.head200 & (chars.codes >= 0x4E00) & (chars.codes <= 0x9FFF)) \
        / np.maximum(1, np.minimum(chars.lengths, 200))
    feats["copyright"] = (chars.count_matches(_COPYRIGHT) > 0).astype(float) \
        if _may_match_copyright(chars.joined) else np.zeros(nb)
    feats["separators"] = chars.count(np.isin(chars.codes, _SEPARATOR_CODES))
    valid_owner = np.minimum(uniq, n - 1)
    owner_tag = np.where(uniq < n, doc.tag[valid_owner], -1)
    for t in OWNER_TAGS:
        feats[f"owner_{t}"] = owner_tag == tag_code(t)
    neg, pos, com = hint_masks(doc)
    context = _ancestor_flags(doc, (neg, pos, com), ctx)
    for k, t in enumerate(ANCESTOR_TAGS):
        feats[f"in_{t}"] = context[:, k]
    k = len(ANCESTOR_TAGS)
    feats["hint_neg"], feats["hint_pos"], feats["hint_comment"] = \
        context[:, k], context[:, k + 1], context[:, k + 2]
    feats["hint_neg_self"] = np.where(uniq < n, neg[valid_owner], False)
    feats["hint_pos_self"] = np.where(uniq < n, pos[valid_owner], False)
    feats["depth"] = doc.depth[ctx].astype(float)
    feats["depth_rel"] = feats["depth"] / max(1.0, float(doc.depth.max()))
    cum = np.cumsum(length) - length
    feats["pos_chars"] = cum / total
    feats["pos_blocks"] = np.arange(nb) / max(1, nb - 1)
    feats["share"] = length / total

    # parent container of the block: its text share and link density
    parent = np.where(uniq < n, doc.parent[valid_owner], -1)
    par = np.where(parent >= 0, parent, 0)
    feats["parent_share"] = s.text[par] / total
    feats["parent_link_density"] = s.link_text[par] / np.maximum(s.text[par], 1)
    feats["parent_paragraphs"] = np.log1p(s.paragraphs[par])
    gpar = np.where(doc.parent[par] >= 0, doc.parent[par], 0)
    feats["grandparent_share"] = s.text[gpar] / total
    feats["grandparent_link_density"] = s.link_text[gpar] / np.maximum(s.text[gpar], 1)

    # neighbours (previous / next blocks in document order)
    ld = feats["link_density"]
    ll = feats["log_len"]
    for k in (1, 2, 3):
        feats[f"prev{k}_ld"] = np.concatenate((np.ones(k), ld[:-k]))[:nb]
        feats[f"next{k}_ld"] = np.concatenate((ld[k:], np.ones(k)))[:nb]
        feats[f"prev{k}_len"] = np.concatenate((np.zeros(k), ll[:-k]))[:nb]
        feats[f"next{k}_len"] = np.concatenate((ll[k:], np.zeros(k)))[:nb]
    clean = np.concatenate(([0.0], np.cumsum(length * (1 - ld))))
    lo, hi = np.maximum(np.arange(nb) - 3, 0), np.minimum(np.arange(nb) + 4, nb)
    window = clean[hi] - clean[lo]
    feats["window_clean"] = window / total

    # page level
    feats["page_log_len"] = np.full(nb, np.log1p(total))
    feats["page_link_density"] = np.full(nb, link.sum() / total)
    feats["page_blocks"] = np.full(nb, np.log1p(nb))

    # evidence of the paper algorithms
    alive = tag_tree(doc)
    lc = doc.subtree_sum(doc.tlen * alive * ~doc.in_link)
    mt, attenuation = find_mt(doc, alive, lc, 0)
    kept = clean_tree(doc, alive, mt)
    in_mt = np.zeros(n, dtype=bool)
    in_mt[mt:doc.end[mt]] = True
    feats["e1_in_mt"] = in_mt[ctx]
    feats["e1_kept"] = _group(None, kept[text_ids].astype(float), inv, nb) / np.maximum(runs, 1)
    feats["e1_mt_share"] = np.full(nb, lc[mt] / max(lc[0], 1))
    feats["e1_attenuation"] = np.full(nb, attenuation)
    e2 = pre_block(doc)
    e2_scores = np.zeros(n + 1)
    if len(e2.ids):
        e2_scores[e2.ids] = _paper_combo_scores()[e2.combos()]
    feats["e2_score"] = e2_scores[e2.owner[ctx]]

    if len(feats) != len(FEATURE_NAMES):
        raise AssertionError("block_table's features and FEATURE_NAMES differ")
    x = np.empty((nb, len(FEATURE_NAMES)), dtype=np.float32)    # (no float64 copy of it all)
    for j, name in enumerate(FEATURE_NAMES):
        x[:, j] = feats.pop(name)
    text_mask = is_text.copy()
    return BlockTable(uniq, owner, x, texts, text_mask)


STAGE2_NAMES = ("p", "p_max", "p_rel", "p_rank", "p_prev1", "p_next1", "p_prev2", "p_next2",
                "p_window", "p_parent_mean", "p_parent_max", "dist_best", "same_parent_best",
                "same_grandparent_best", "share_above_half", "log_len", "link_density")


def stage2_features(table: BlockTable, doc: Document, prob: np.ndarray) -> np.ndarray:
    """Page-relative features of every block from the stage-1 probabilities ``prob``."""
    nb = len(prob)
    names = FEATURE_NAMES
    log_len = table.x[:, names.index("log_len")].astype(float)
    length = np.exp(log_len) - 1
    best = int(np.argmax(prob * np.sqrt(length + 1)))
    n = doc.size
    owner = np.minimum(table.ids, n - 1)
    parent = doc.parent[owner]
    grand = np.where(parent >= 0, doc.parent[np.maximum(parent, 0)], -1)
    _, pinv = np.unique(parent, return_inverse=True)
    pmax = np.zeros(pinv.max() + 1)
    np.maximum.at(pmax, pinv, prob)
    psum = np.bincount(pinv, weights=prob)
    pcount = np.bincount(pinv)
    pad = np.concatenate(([0.0, 0.0], prob, [0.0, 0.0]))
    window = np.convolve(pad, np.ones(5) / 5, "valid")[:nb]
    ranks = np.empty(nb)
    ranks[np.argsort(-prob, kind="stable")] = np.arange(nb)
    total = max(length.sum(), 1.0)
    cols = [
        prob, np.full(nb, prob.max()), prob / max(prob.max(), 1e-6), ranks / max(nb - 1, 1),
        pad[1:nb + 1], pad[3:nb + 3], pad[0:nb], pad[4:nb + 4], window,
        (psum / pcount)[pinv], pmax[pinv], np.abs(np.arange(nb) - best) / max(nb - 1, 1),
        (parent == parent[best]).astype(float), (grand == grand[best]).astype(float),
        np.full(nb, length[prob >= 0.5].sum() / total), log_len,
        table.x[:, names.index("link_density")],
    ]
    return np.column_stack(cols).astype(np.float32)
