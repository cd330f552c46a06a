"""The corpus: JSONL shards under ``<CORPUS_DIR>/documents/``, each published atomically.

A shard is written as ``.part-NNNNN.jsonl.tmp`` (hidden, flushed line by line) and renamed to
``part-NNNNN.jsonl`` when it is closed (full, or at the end of the crawl), so a reader that
lists ``part-*.jsonl`` never sees a partial file.  A shard left behind by a killed crawl is cut
at its last complete line and published when the next crawl starts.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from extraction import Document

from .published import PublishedFiles

# [ours] an on-topic page whose main text is more than this share link text is a hub (a home,
# section or tag page listing other pages), not a document: CORPUS_MAX_LINK_SHARE
MAX_LINK_SHARE = 0.5
# [ours] an on-topic page with less main text than this (non-space characters) is not written:
# an empty listing, a stub, a "nothing here yet" page: CORPUS_MIN_CHARS
MIN_CHARS = 200



def link_share(doc: Document, nodes: np.ndarray | None) -> float:
    """Share of the characters of the main text (its text ``nodes``) that lie inside links."""
    if nodes is None or not len(nodes):
        return 0.0
    chars = doc.tlen[nodes].astype(float)
    total = chars.sum()
    return float((chars * doc.in_link[nodes]).sum() / total) if total else 0.0


def text_chars(text: str) -> int:
    """Non-space characters of a text (a length that means the same in English and Chinese
    within a factor of a few, unlike words)."""
    return len(text) - sum(map(text.count, (" ", "\n", "\t", "\r", "\u3000", "\xa0")))


def refusal(duplicate_of: str | None, robots: frozenset | set, share: float,
            max_share: float = MAX_LINK_SHARE, chars: int | None = None,
            min_chars: int = 0) -> tuple[str, str] | None:
    """Why an on-topic page is not written, as ``(stats key, reason)``, or None to write it;
    ``chars``: its main text's :func:`text_chars`, refused below ``min_chars``."""
    if duplicate_of:
        return "corpus/duplicate", f"duplicate of {duplicate_of}"
    if "noindex" in robots:
        return "corpus/noindex", "noindex: the page asks not to be indexed (robots meta/header)"
    if share > max_share:
        return "corpus/hub", f"hub page: {share:.0%} of its main text is link text"
    if chars is not None and chars < min_chars:
        return "corpus/short", f"short: {chars} characters of main text (< {min_chars})"
    return None


def last_line_end(path: Path) -> int:
    """Bytes of ``path`` up to the end of its last complete line."""
    return path.read_bytes().rfind(b"\n") + 1


class ShardWriter:
    def __init__(self, directory: str | Path, docs_per_shard: int = 1000):
        self.files = PublishedFiles(directory, "part", "jsonl", last_line_end)
        self.directory = self.files.directory
        self.docs_per_shard = max(1, docs_per_shard)
        self._count = 0
        self.written = 0

    def write(self, record: dict[str, Any]) -> None:
        handle = self.files.handle or self.files.open(mode="w", encoding="utf-8")
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        self._count += 1
        self.written += 1
        if self._count >= self.docs_per_shard:
            self.close_shard()

    def close_shard(self) -> Path | None:
        self._count = 0
        return self.files.publish()

    def close(self) -> None:
        self.close_shard()
