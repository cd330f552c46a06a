"""The corpus: JSONL shards under ``<CORPUS_DIR>/documents/``, each published atomically.

A shard is written as ``.part-NNNNN.jsonl.tmp`` (hidden, flushed line by line) and renamed to
``part-NNNNN.jsonl`` when it is closed (full, or at the end of the crawl), so a reader that
lists ``part-*.jsonl`` never sees a partial file.  A shard left behind by a killed crawl is cut
at its last complete line and published when the next crawl starts.

With ``CORPUS_COMPRESS=gzip`` the shards are ``part-NNNNN.jsonl.gz``: each document is one
gzip member (a gzip file may hold several, and every reader reads them in a row), so each
carries its own CRC; a shard a killed crawl left behind is cut after its last whole member,
and nothing damaged can be read back as a document.
"""
from __future__ import annotations

import gzip
import json
import logging
import zlib
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import IO, Any

import numpy as np

from extraction import Document

from .jsonl import json_line
from .published import PublishedFiles, gzip_members_length

log = logging.getLogger(__name__)

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
            min_chars: int = 0, published: str | None = None,
            window: DateWindow | None = None) -> tuple[str, str] | None:
    """Why an on-topic page is not written, as ``(stats key, reason)``, or None to write it;
    ``chars``: its main text's :func:`text_chars`, refused below ``min_chars``;
    ``published``: its date (ISO 8601), refused outside ``window``."""
    if duplicate_of:
        return "corpus/duplicate", f"duplicate of {duplicate_of}"
    if "noindex" in robots:
        return "corpus/noindex", "noindex: the page asks not to be indexed (robots meta/header)"
    if share > max_share:
        return "corpus/hub", f"hub page: {share:.0%} of its main text is link text"
    if chars is not None and chars < min_chars:
        return "corpus/short", f"short: {chars} characters of main text (< {min_chars})"
    if window is not None:
        return window.refusal(published)
    return None


class DateWindow:
    """The publication dates the corpus takes (``CORPUS_SINCE``, ``CORPUS_UNTIL``, both
    included; ``CORPUS_UNDATED``: whether a page that states no date is taken)."""

    def __init__(self, since: date | None = None, until: date | None = None,
                 undated: bool = True):
        if since and until and since > until:
            raise ValueError(f"CORPUS_SINCE {since} is after CORPUS_UNTIL {until}")
        self.since, self.until, self.undated = since, until, undated

    @property
    def active(self) -> bool:
        return bool(self.since or self.until or not self.undated)

    def refusal(self, published: str | None) -> tuple[str, str] | None:
        """``(stats key, reason)`` for a page of date ``published`` (ISO 8601, the
        extraction's ``metadata["date"]``) outside the window, else None."""
        try:
            day = date.fromisoformat(published[:10]) if published else None
        except ValueError:
            day = None
        if day is None:
            return None if self.undated else ("corpus/undated", "undated: the page states "
                                              "no publication date (CORPUS_UNDATED=False)")
        if self.since and day < self.since:
            return "corpus/too_old", f"published {day}, before CORPUS_SINCE {self.since}"
        if self.until and day > self.until:
            return "corpus/too_new", f"published {day}, after CORPUS_UNTIL {self.until}"
        return None


def last_line_end(path: Path) -> int:
    """Bytes of ``path`` up to the end of its last complete line."""
    return path.read_bytes().rfind(b"\n") + 1


COMPRESSIONS = ("", "gzip")


def compression(value: Any) -> str:
    """``CORPUS_COMPRESS`` as ``""`` or ``"gzip"``; ``ValueError`` naming the setting."""
    text = str(value or "").strip().lower()
    if text not in COMPRESSIONS:
        raise ValueError(f"CORPUS_COMPRESS: expected gzip or nothing, got {value!r}")
    return text


class ShardWriter:
    """Writes documents as JSON lines into numbered shards of ``docs_per_shard`` lines
    (``compress``: ``""`` or ``"gzip"``: one gzip member per line)."""

    def __init__(self, directory: str | Path, docs_per_shard: int = 1000, compress: str = ""):
        self.compress = compress = compression(compress)
        plain, packed = ("jsonl", last_line_end), ("jsonl.gz", gzip_members_length)
        mine, other = (packed, plain) if compress else (plain, packed)
        # opening the other mode's files publishes a shard a killed crawl left in that mode;
        # numbering goes on after both modes' shards (the shards' order is the write order)
        earlier = PublishedFiles(directory, "part", *other)
        self.files = PublishedFiles(directory, "part", *mine)
        self.files.number = max(self.files.number, earlier.number)
        self.directory = self.files.directory
        self.docs_per_shard = max(1, docs_per_shard)
        self._count = 0
        self.written = 0

    def write(self, record: dict[str, Any]) -> None:
        """Append one document; an ``OSError`` (a full disk) leaves the shard cut back to its
        last complete line and published, and is raised."""
        data = json_line(record).encode("utf-8")
        if self.compress:
            data = gzip.compress(data, compresslevel=6, mtime=0)
        handle = self.files.handle or self.files.open(mode="wb")
        try:
            handle.write(data)
            handle.flush()
        except OSError:
            self._count = 0
            self.files.abandon()
            raise
        self.files.commit()
        self._count += 1
        self.written += 1
        if self._count >= self.docs_per_shard:
            self.close_shard()

    def close_shard(self) -> Path | None:
        self._count = 0
        return self.files.publish()

    def close(self) -> None:
        self.close_shard()


def read_shard(path: str | Path) -> list[dict[str, Any]]:
    """The documents of one published shard, plain or gzip."""
    with open_shard(path) as handle:
        return [json.loads(line) for line in handle]


def open_shard(path: str | Path, errors: str = "strict") -> IO[str]:
    """A corpus shard, plain or gzip, opened for reading its lines."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    return opener(path, "rt", encoding="utf-8", errors=errors)


SHARD_PATTERNS = ("part-*.jsonl", "part-*.jsonl.gz")
MTIME_SLACK = 2.0     # seconds: file systems with coarse timestamps


def documents_since(directory: str | Path, since: float | None, also: Iterable[str] = (),
                    unreadable: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """The documents of the published shards of ``directory`` last written at or after
    ``since`` (a ``time.time()``; None: every shard), and of the shards named in ``also``
    whenever written, in shard order.  A line or a shard that cannot be read is logged and
    skipped; the names of the shards that could not be read go to ``unreadable``."""
    directory = Path(directory)
    if not directory.is_dir():
        return
    also = set(also)
    shards = sorted(p for pattern in SHARD_PATTERNS for p in directory.glob(pattern))
    for path in shards:
        try:
            if since is not None and path.name not in also \
                    and path.stat().st_mtime < since - MTIME_SLACK:
                continue
            with open_shard(path, errors="replace") as handle:
                for number, line in enumerate(handle, 1):
                    try:
                        record = json.loads(line)
                    except ValueError:
                        log.warning("%s line %d is not a JSON document: skipped", path, number)
                        continue
                    if isinstance(record, dict):
                        yield record
        except (OSError, EOFError, zlib.error) as error:
            if unreadable is not None:
                unreadable.append(path.name)
            log.warning("cannot read the corpus shard %s: %s", path, error)
