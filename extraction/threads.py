"""The posts of a discussion thread [ours, not in ALGORITHMS.md].

A forum thread's replies are its content, but ``auto``'s model judges blocks by their place in
the page: on a phpBB thread it kept the opening post and dropped whole replies and the short
lines of others ("Nitrite: 0.5 ppm"); on Vanilla and old Reddit pages it kept the opening post
alone. On a page that says it is a thread (:func:`is_thread`: its URL has a forum engine's
thread path, or its schema.org markup a ``DiscussionForumPosting``), the posts are the records
of a group of at least :data:`MIN_RECORDS` sibling elements of the same tag and first class,
most of which hold two blocks or more (not an article's paragraphs). A post body is where a
record's long blocks (at least :data:`BODY_CHARS` characters, a CJK character counting three)
sit: the element owning the text, or the parent of a paragraph-like owner, found at the same
path (tags and first classes from the record down) in several records. The group is the one
whose records hold the chosen text (two of them or more, and at least half); when no group does
(the model chose the opening post, which sits apart from the replies), the group whose post
bodies hold the most text of long blocks with at most :data:`REPLY_MAX_LINKS` of it in links,
at the same path in at least half of its records. Every block inside the post bodies of all its
records is taken, and of the records of the same signature nested in them at any depth (a
reply to a reply; the elements above a nested body compared by tag alone); the records'
other blocks (author lines, "Quote" buttons, like counts, signatures) are returned too:
``auto`` leaves the short ones out.

Without the gate the first rule changed 26 of the 1,026 real pages of the shared and unseen
sets, 17 of them for the worse (blog comments, a site's repeated teasers): it is a thread rule,
not a page rule.
"""
from __future__ import annotations

import re
from collections import Counter

import numpy as np

from .chars import CJK_RE
from .document import Document, tag_code
from .features import FEATURE_NAMES, BlockTable
from .metadata import link_hrefs

_LINK_DENSITY = FEATURE_NAMES.index("link_density")

# a forum engine's thread URL: phpBB, vBulletin, XenForo/Discourse/Flarum/NodeBB, SMF,
# Invision, Reddit-like comment pages, Lemmy, Discuz!, Tieba, 2ch/5ch, Chinese BBS
THREAD_URL = re.compile(
    r"viewtopic\.php|showthread\.php|/threads?/|/t/[^/?#]+/\d+|/topic/|forumthread"
    r"|readboardthread|/comments/|/discussions?/|showtopic=|index\.php\?topic="
    r"|/post/\d+|/thread-\d+[-\d]*\.html|mod=viewthread|tieba\.baidu\.com/p/\d+|/read\.cgi/",
    re.I)
MIN_RECORDS = 3
BODY_CHARS = 100
CJK_EXTRA = 2          # a Chinese, Japanese or Korean character counts 1 + this in BODY_CHARS
REPLY_MAX_LINKS = 0.3  # a reply group's long blocks: at most this share of their text in links
MAX_UP = 12            # ancestors walked from a chosen block to find its record
NESTED = True          # the bodies of records nested in a record (replies to replies)
_PARAGRAPH_LIKE = frozenset(tag_code(t) for t in (
    "p", "li", "ul", "ol", "blockquote", "pre", "table", "dl", "h2", "h3", "h4"))


def is_thread(doc: Document) -> bool:
    """Whether the page says it is a discussion thread: its URL (:data:`THREAD_URL`; the
    page's canonical link when no URL was given) or its schema.org markup
    (``doc.discussion``)."""
    if doc.discussion:
        return True
    url = doc.url or link_hrefs(doc, ("canonical",)).get("canonical")
    return bool(url and THREAD_URL.search(url))


def thread_posts(doc: Document, table: BlockTable, chosen: np.ndarray,
                 length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blocks of the post bodies of the thread's records (see the module docstring), and
    all the blocks of those records; ``chosen``: the blocks chosen so far, ``length``:
    their lengths."""
    ids = table.ids
    found = np.zeros(len(ids), dtype=bool)
    inside = np.zeros(len(ids), dtype=bool)
    lengths = _weighted(length.tolist(), table.texts)
    owners, picked = ids.tolist(), chosen.tolist()
    paths = Paths(doc)
    groups = []
    for records in record_groups(doc, ids[chosen & (ids < doc.size)], paths):
        spans = record_spans(doc, ids, records)
        holding, bodies = _bodies(doc, records, spans, owners, picked, lengths, paths)
        if holding < 2 or 2 * holding < len(records):
            continue
        groups.append((records, spans, {path for path, count in bodies.items() if count >= 2}))
    if not groups:                          # the replies, apart from the chosen opening post
        light = (np.array(lengths) >= BODY_CHARS) \
            & (table.x[:, _LINK_DENSITY] <= REPLY_MAX_LINKS) & (ids < doc.size)
        light_list = light.tolist()
        best, best_text = None, 0.0
        for records in record_groups(doc, ids[light], paths):
            spans = record_spans(doc, ids, records)
            holding, bodies = _bodies(doc, records, spans, owners, light_list, lengths, paths)
            need = max(2, (len(records) + 1) // 2)
            wanted = {path for path, count in bodies.items() if count >= need}
            if holding < need or not wanted:
                continue
            text = sum(lengths[k] for r, (lo, hi) in zip(records, spans) for k in range(lo, hi)
                       if light_list[k] and _under(paths.up(owners[k], r), wanted))
            if text > best_text:
                best, best_text = (records, spans, wanted), text
        if best is not None:
            groups.append(best)
    for records, spans, wanted in groups:
        record = paths.signature(records[0]) if NESTED else None
        for r, (lo, hi) in zip(records, spans):
            inside[lo:hi] = True
            for k in range(lo, hi):
                if owners[k] < doc.size and _under(paths.up(owners[k], r), wanted, record):
                    found[k] = True
    return found, inside


def _weighted(lengths: list[float], texts: list[str]) -> list[float]:
    """Block lengths for :data:`BODY_CHARS`, a CJK character counting ``1 + CJK_EXTRA`` (a
    Tieba or 5ch reply of 40 characters says as much as an English one of 120)."""
    return [n + CJK_EXTRA * len(CJK_RE.findall(text)) if n < BODY_CHARS else n
            for n, text in zip(lengths, texts)]


def record_spans(doc: Document, ids: np.ndarray, records: list[int]) -> list[tuple[int, int]]:
    """The range of block indexes inside each record."""
    return list(zip(np.searchsorted(ids, records, "left").tolist(),
                    np.searchsorted(ids, doc.end[records], "left").tolist()))


def _bodies(doc: Document, records: list[int], spans: list[tuple[int, int]],
            owners: list[int], picked: list[bool], lengths: list[float], paths: "Paths"
            ) -> tuple[int, Counter]:
    """How many ``records`` hold a ``picked`` block of :data:`BODY_CHARS` characters or more,
    and how many records hold one at each body path; none when most records are one block."""
    bodies: Counter = Counter()
    holding = 0
    if sum(hi - lo >= 2 for lo, hi in spans) * 2 < len(records):
        return 0, bodies            # records of one block: paragraphs, not posts
    for r, (lo, hi) in zip(records, spans):
        long = {paths.up(_body_of(doc, owners[k]) if owners[k] != r else r, r)
                for k in range(lo, hi)
                if picked[k] and owners[k] < doc.size and lengths[k] >= BODY_CHARS}
        if long:
            holding += 1
            bodies.update(long)
    return holding, bodies


def _under(up: tuple, wanted: set, record: tuple[int, str] | None = None) -> bool:
    """Whether the element of path ``up`` (from it up to its record) lies in a body at one of
    the paths ``wanted``; with ``record`` (the records' signature), also in a body at one of
    their tag paths in a record nested in it (a reply to a reply, at any depth)."""
    if any(up[len(up) - len(w):] == w for w in wanted if len(w) <= len(up)):
        return True
    if record is not None and record in up:
        tags = [tag for tag, _ in up]
        for i, signature in enumerate(up):
            if signature == record and any(_nested_match(up, tags, i - len(w), i, w)
                                           for w in wanted if len(w) <= i):
                return True
    return False


def _nested_match(up: tuple, tags: list, lo: int, hi: int, body: tuple) -> bool:
    """Whether ``up[lo:hi]`` is the body path ``body``: the body element itself by tag and
    class, the elements above it by tag (Lemmy styles a reply's box by its depth)."""
    return up[lo] == body[0] and tags[lo + 1:hi] == [tag for tag, _ in body[1:]]


class Paths:
    """Signatures (tag, first class) of elements, and the path of signatures from an element
    up to (not including) a record, both memoised."""

    def __init__(self, doc: Document):
        self.doc = doc
        self._signatures: dict[int, tuple[int, str]] = {}
        self._paths: dict[tuple[int, int], tuple] = {}

    def signature(self, node: int) -> tuple[int, str]:
        found = self._signatures.get(node)
        if found is None:
            hint = self.doc.hints.get(node)
            classes = (hint[0] or "").split() if hint else ()
            found = self._signatures[node] = (int(self.doc.tag[node]),
                                              classes[0] if classes else "")
        return found

    def up(self, node: int, record: int) -> tuple:
        """The signatures from ``node`` up to ``record``'s child (``node``'s first)."""
        climbed = []
        found: tuple = ()
        while node != record and node >= 0:
            known = self._paths.get((node, record))
            if known is not None:
                found = known
                break
            climbed.append(node)
            node = int(self.doc.parent[node])
        for node in reversed(climbed):
            found = self._paths[(node, record)] = (self.signature(node),) + found
        return found


def record_groups(doc: Document, owners: np.ndarray, paths: Paths) -> list[list[int]]:
    """The groups of records holding the blocks owned by ``owners``: each ancestor-or-self (up
    to :data:`MAX_UP` levels) whose parent has at least :data:`MIN_RECORDS` element children
    of its signature, and those children (a Discuz! post's table rows and, above them, the
    posts)."""
    groups: dict[tuple[int, tuple[int, str]], list[int]] = {}
    children: dict[int, dict[tuple[int, str], list[int]]] = {}
    seen: set[int] = set()
    for owner in owners.tolist():
        node = owner
        for _ in range(MAX_UP):
            parent = int(doc.parent[node])
            if parent < 0 or node in seen:
                break
            seen.add(node)
            if parent not in children:
                by_signature: dict[tuple[int, str], list[int]] = {}
                for kid in doc.element_children(parent).tolist():
                    by_signature.setdefault(paths.signature(kid), []).append(kid)
                children[parent] = by_signature
            signature = paths.signature(node)
            kids = children[parent][signature]
            if len(kids) >= MIN_RECORDS:
                groups[(parent, signature)] = kids     # and on up: posts around rows
            node = parent
    return list(groups.values())


def _body_of(doc: Document, owner: int) -> int:
    """The element holding a post's text: the owner of a block, or a paragraph-like owner's
    parent."""
    return int(doc.parent[owner]) if int(doc.tag[owner]) in _PARAGRAPH_LIKE else owner
