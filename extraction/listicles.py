"""The items of a numbered list article [ours, not in ALGORITHMS.md].

A list article ("12 things we found ...", "The 25 best ...") is a run of sibling items, each
with a numbered heading ("#1 ...", "1. ...", "7) ..."), a picture, a caption and a paragraph.
``auto``'s model judges a block partly by its place in the page, so on a Bored Panda-like page
it kept the first four items and rejected the rest one by one. On a page where at least
:data:`MIN_ITEMS` sibling elements of the same tag and first class each hold a heading
(``h2``-``h4``) that opens with a number, the numbers counting up or down by one from item to
item (:data:`MIN_IN_STEP` of the steps), and two items or more already hold chosen blocks,
every item's blocks at the paths (tags and first classes from the item down) chosen in at least
half of those items are taken.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter

import numpy as np

from .document import Document, tag_code
from .features import BlockTable
from .threads import Paths, record_groups, record_spans

MIN_ITEMS = 5
MIN_IN_STEP = 0.8
_HEADINGS = frozenset(tag_code(t) for t in ("h2", "h3", "h4"))
_NUMBER = re.compile(r"\s*(?:#|No\.\s*)?(\d{1,3})(?:[.):]|\s)")


def list_items(doc: Document, table: BlockTable, chosen: np.ndarray) -> np.ndarray:
    """The blocks of a numbered list article's items to take with ``chosen`` (see the module
    docstring); none on other pages."""
    ids = table.ids
    found = np.zeros(len(ids), dtype=bool)
    owners = ids.tolist()
    headings = [k for k, owner in enumerate(owners)
                if owner < doc.size and int(doc.tag[owner]) in _HEADINGS and table.texts[k]]
    numbers = {k: int(m[1]) for k in headings if (m := _NUMBER.match(table.texts[k]))}
    if len(numbers) < MIN_ITEMS:
        return found
    paths = Paths(doc)
    picked = chosen.tolist()
    for records in record_groups(doc, ids[list(numbers)], paths):
        if len(records) < MIN_ITEMS:
            continue
        spans = record_spans(doc, ids, records)
        if not _in_step(headings, numbers, spans):
            continue
        holding, counts = 0, Counter()
        for r, (lo, hi) in zip(records, spans):
            chosen_paths = {paths.up(owners[k], r) for k in range(lo, hi)
                            if picked[k] and owners[k] < doc.size}
            if chosen_paths:
                holding += 1
                counts.update(chosen_paths)
        if holding < 2:
            continue
        wanted = {path for path, count in counts.items() if 2 * count >= holding}
        for r, (lo, hi) in zip(records, spans):
            for k in range(lo, hi):
                if owners[k] < doc.size and paths.up(owners[k], r) in wanted:
                    found[k] = True
    return found


def _in_step(headings: list[int], numbers: dict[int, int],
             spans: list[tuple[int, int]]) -> bool:
    """Whether each item's first heading (``headings``: the heading blocks in order) opens with
    a number (``numbers``) and the numbers count up or down by one from item to item
    (:data:`MIN_IN_STEP` of the steps)."""
    found = []
    for lo, hi in spans:
        first = bisect_left(headings, lo)
        if first == len(headings) or headings[first] >= hi or headings[first] not in numbers:
            return False
        found.append(numbers[headings[first]])
    steps = [b - a for a, b in zip(found, found[1:])]
    return max(steps.count(1), steps.count(-1)) >= MIN_IN_STEP * len(steps)
