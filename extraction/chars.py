"""Character classes and vectorised per-text-run counts.

All text runs of a page are joined with NUL separators (NUL never occurs in parsed text) and
mapped to code points in one numpy array; a lookup table of character classes then gives every
per-run count with ``bincount``, instead of one Python call per run and per class.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Sequence

import numpy as np

# the words of a class name, an id or a file name: "postedOn" -> "posted", "on",
# "entry-date" -> "entry", "date", "iconReportTypo" -> "icon", "report", "typo"
_WORD_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def word_parts(name: str) -> list[str]:
    """The lower-case words of ``name``, split at any non-letter and at a capital letter."""
    return [w.lower() for w in _WORD_PART.findall(name)]


# Punctuation of E2 ("commas, full stops etc.", ASCII and full-width; ALGORITHMS.md §2.4).
PUNCTUATION = "，。、；：？！,.;:?!…"
# Sentence-ending marks of E3 (§3.5); "." counts only before whitespace or the end of the text.
SENTENCE_END = "。！？!?…"
FULL_STOP = "。"

SPACE, PUNCT, END, NBSP, STOP, DOT, SEP = 1, 2, 4, 8, 16, 32, 64

_LUT = np.zeros(0x110000, dtype=np.uint8)
for _c in range(0x3001):
    if chr(_c).isspace():
        _LUT[_c] |= SPACE
for _ch in PUNCTUATION:
    _LUT[ord(_ch)] |= PUNCT
for _ch in SENTENCE_END:
    _LUT[ord(_ch)] |= END
_LUT[0xA0] |= NBSP
_LUT[ord(FULL_STOP)] |= STOP
_LUT[ord(".")] |= DOT
_LUT[0] = SEP
CHAR_CLASSES = _LUT   # the class bits of every code point (read by the compiled node walk)

CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


# the counts of run_counts, in the order the compiled node walk gives them
RUN_COUNTS = ("length", "punct", "ends", "stops", "nbsp")


def run_counts(texts: Sequence[str]) -> dict[str, np.ndarray]:
    """Counts per text run: ``length`` (whitespace collapsed, §0.4), ``punct``, ``ends``,
    ``stops`` (full stops, E4 x5) and ``nbsp``."""
    n = len(texts)
    if n == 0:
        z = np.zeros(0, dtype=np.int64)
        return {"length": z, "punct": z, "ends": z, "stops": z, "nbsp": z}
    joined = "\x00".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    cls = _LUT[codes]
    sep = (cls & SEP) > 0
    seg = np.cumsum(sep)  # run index of every character
    space_or_sep = (cls & (SPACE | SEP)) > 0
    solid = ~space_or_sep
    prev_gap = np.concatenate(([True], space_or_sep[:-1]))
    next_gap = np.concatenate((space_or_sep[1:], [True]))
    word_start = solid & prev_gap
    dot_stop = ((cls & DOT) > 0) & next_gap

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(seg[mask], minlength=n)[:n]

    words = count(word_start)
    return {
        "length": count(solid) + np.maximum(words - 1, 0),
        "punct": count((cls & PUNCT) > 0),
        "ends": count((cls & END) > 0) + count(dot_stop),
        "stops": count((cls & STOP) > 0) + count(dot_stop),
        "nbsp": count((cls & NBSP) > 0),
    }


# format characters that render as nothing and only split words for a reader of the text: soft
# hyphen, zero-width space, word joiner, a BOM inside the text, the noncharacters U+FFFE/U+FFFF
# (zero-width (non-)joiners stay: Persian and Indic scripts need them)
INVISIBLE = re.compile("[\u00ad\u200b\u2060\ufeff\ufffe\uffff]")
_WHITESPACE = re.compile(r"\s")       # (the characters str.split splits at, Unicode's)
_CHUNK = 1_000_000


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and strip (ALGORITHMS.md §0.4).  A text of
    over a million characters a million at a time, cut at white space: ``str.split`` holds
    every word of what it splits as a string (a 20 MB page's 3.5 million words took 190 MB),
    and a regex substitution took ten times as long."""
    if len(text) <= _CHUNK:
        return " ".join(text.split())
    parts = []
    start, end_of_text = 0, len(text)
    while start < end_of_text:
        end = start + _CHUNK
        if end < end_of_text:
            space = _WHITESPACE.search(text, end)
            end = space.start() if space else end_of_text
        part = " ".join(text[start:end].split())
        if part:
            parts.append(part)
        start = end
    return " ".join(parts)


def cjk_share(text: str) -> float:
    """Share of CJK characters among the non-space characters of ``text``."""
    solid = len(text) - text.count(" ") - text.count("\n")
    return len(CJK_RE.findall(text)) / solid if solid > 0 else 0.0


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text)
