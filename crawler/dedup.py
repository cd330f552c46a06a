"""Duplicate detection across the run and across runs.

Three levels: the canonical URL was already written; the exact main text was already written
(SHA-1 of the whitespace-normalised text); or a near-duplicate was (MinHash LSH of word 5-gram
shingles, Chinese by character 5-grams, Jaccard >= ``threshold``; datasketch).  Printer copies,
mirrors and session-id variants fall in the last two.

Shingles miss short texts: one changed word in a 50-word page changes 5 of its 46 shingles, and
the Jaccard falls to 0.8.  So a short text (at most :data:`PATTERN_MAX_UNITS` words or Chinese
characters) is also a near-duplicate of a written one with the same words in the same order,
ignoring case and punctuation, apart from at most :data:`PATTERN_MAX_CHANGED` numbers (a view
counter, a date, a time stamp; ``X100`` is a word, not a number), when numbers are at most
:data:`PATTERN_MAX_NUMBER_SHARE` of its words (a table of figures is not a copy of another one).

Shingle hashing is vectorised: every word gets a stable 32-bit hash (``zlib.crc32`` of its UTF-8
bytes, cached per word; a Chinese character its code point), a shingle's 32-bit hash mixes the
hashes of its five units by position (numpy ``uint64`` arithmetic and the MurmurHash3 64-bit
finaliser), and datasketch's permutations of a ``MinHash(num_perm, seed=1)`` are applied to all
shingles at once with its own rule (``affine32``: the MurmurHash3 32-bit finaliser then
``a*h + b mod 2**32``; ``legacy``: ``(a*h + b) % (2**61 - 1) & (2**32 - 1)``), keeping the
minimum per permutation.  The MinHash built from these hash values goes into the datasketch LSH
as before.  Not Python's ``hash()``: it is randomised per process, and the index is persisted.

Near-duplicate candidates come from an LSH tuned for a Jaccard of :data:`CANDIDATE_JACCARD`
(10 bands of 6 rows at 64 permutations: a pair at 0.85 is a candidate 99% of the time) and each
is kept when the stored signatures agree on at least ``threshold`` of the permutations (the
MinHash estimate of the Jaccard).  The LSH of the threshold itself (4 bands of 15 rows) found
only 31% of the pairs at 0.85 and 60% at 0.90.

The persisted index (``pickle``) carries ``version`` :data:`FORMAT_VERSION` (3: the
signatures).  A version-2 index keeps its LSH, queried as before (unverified) next to the new
one.  A version-1 file (SHA-1 shingle hashes, not comparable) keeps its URL and exact-text
entries and starts an empty near-duplicate index, with a warning; any other version gives a
fresh index, with a warning.
"""
from __future__ import annotations

import hashlib
import inspect
import logging
import os
import pickle
import re
import zlib
from pathlib import Path
from collections.abc import Iterable
from typing import Any, Callable

import numpy as np
from datasketch import MinHash, MinHashLSH

log = logging.getLogger(__name__)

FORMAT_VERSION = 3
SHINGLE = 5
CANDIDATE_JACCARD = 0.6     # the LSH's own threshold: 10 bands of 6 rows at 64 permutations

# characters of scripts written without spaces between words: Han, kana, Thai, Lao, Burmese,
# Khmer (a Japanese sentence is one \w+ run)
_SPACELESS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]")
_WORDS = re.compile(r"\w+")
# a Han character, a run of kana, or a run of other word characters (a word, a number; "X100"
# is a word: another product); kana before a number (アクセス1234) is its own unit, so that
# the number can change
_PATTERN_UNITS = re.compile(
    r"[\u4e00-\u9fff]|[\u3040-\u30ff]+|[^\W\u4e00-\u9fff\u3040-\u30ff]+")

PATTERN_MAX_UNITS = 400         # longer texts are the shingles' job
PATTERN_MAX_CHANGED = 6         # differing numbers (e.g. a date and a time: 5)
PATTERN_MAX_NUMBER_SHARE = 0.25
PATTERN_KEEP = 8                # written texts kept per pattern key

_U32 = np.uint64(0xFFFFFFFF)
_MERSENNE = np.uint64((1 << 61) - 1)
# odd 64-bit multipliers, one per position in the shingle, and one for the unit count of a
# text shorter than a shingle
_POSITION = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD, 0xA0761D6478BD642F],
                     dtype=np.uint64)
_ROWS = 4096        # shingles per block of the (shingles x permutations) array


def text_sha1(text: str) -> str:
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()


def _units(text: str) -> tuple[list[str], bool]:
    """The shingled units of ``text`` (lower-cased words, or the non-space characters of a
    text mostly in a script written without spaces: Chinese, Japanese, Thai...) and whether
    they are characters.  (Before 2026-12-02 only Han counted: a Japanese article, mostly
    kana, was shingled by whole sentences, and a changed year made it no duplicate.)"""
    text = text.lower()
    head = text[:2000]
    spaceless = len(_SPACELESS.findall(head))
    if spaceless > min(200, 0.3 * (len(head) - head.count(" "))):
        return list("".join(text.split())), True
    return _WORDS.findall(text), False


def shingles(text: str, n: int = SHINGLE) -> set[bytes]:
    """The shingle set whose MinHash :class:`DuplicateIndex` estimates (kept for reference and
    tests; the index hashes the same shingles without building them)."""
    units, _ = _units(text)
    if len(units) < n:
        return {" ".join(units).encode("utf-8")} if units else set()
    return {" ".join(units[i:i + n]).encode("utf-8") for i in range(len(units) - n + 1)}


def text_pattern(text: str) -> tuple[bytes, tuple[str, ...]] | None:
    """(key, numbers) of a short text: the SHA-1 of its units (lower-cased words; a Han
    character is a unit, a number within Chinese text one more) with every number (a unit of
    digits only: ``X100`` or ``IPv6`` is a word) replaced by one mark, and the numbers in order.
    None for an empty text, a text of more than :data:`PATTERN_MAX_UNITS` units (or over 30
    characters a unit), or one whose numbers are more than :data:`PATTERN_MAX_NUMBER_SHARE` of
    its units."""
    if len(text) > 30 * PATTERN_MAX_UNITS:     # surely over the bound: no regex over it
        return None
    units = _PATTERN_UNITS.findall(text.lower())
    if not units or len(units) > PATTERN_MAX_UNITS:
        return None
    numbers = tuple(u for u in units if u.isdigit())
    if len(numbers) > PATTERN_MAX_NUMBER_SHARE * len(units):
        return None
    shape = "\x00".join("\x01" if u.isdigit() else u for u in units)
    return hashlib.sha1(shape.encode("utf-8")).digest(), numbers


def same_pattern(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two texts of one pattern key differ in at most :data:`PATTERN_MAX_CHANGED` of
    their numbers."""
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) <= PATTERN_MAX_CHANGED


# ---------------------------------------------------------------------------- unit hashes
class _WordHashes(dict):
    """Word -> crc32 of its UTF-8, filled on lookup (``__missing__``: one C-level pass over a
    text's words, hits and misses alike), emptied when it outgrows :data:`_WORD_HASH_MAX`."""

    __slots__ = ()

    def __missing__(self, word: str) -> int:
        if len(self) >= _WORD_HASH_MAX:
            self.clear()
        value = self[word] = zlib.crc32(word.encode("utf-8"))
        return value


_WORD_HASH_MAX = 500_000
_WORD_HASH = _WordHashes()


def _word_hashes(words: list[str]) -> np.ndarray:
    """crc32 of each word (UTF-8), as uint64."""
    return np.fromiter(map(_WORD_HASH.__getitem__, words), dtype=np.uint64, count=len(words))


def _char_hashes(chars: list[str]) -> np.ndarray:
    """Code point of each character, as uint64."""
    return np.frombuffer("".join(chars).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)


def _fmix64(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def _fmix32(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def shingle_hashes(text: str) -> np.ndarray:
    """32-bit hashes (``uint32``) of the shingles of ``text`` (:func:`shingles`), one per
    position (repeats included: a minimum does not care); empty when the text has no unit."""
    units, chars = _units(text)
    if not units:
        return np.zeros(0, dtype=np.uint32)
    n = SHINGLE
    # unit hashes, pre-mixed (crc32 and code points are too regular to combine linearly)
    h = _fmix64((_char_hashes(units) if chars else _word_hashes(units)) + _POSITION[n])
    if len(h) < n:      # one shingle of all units, told apart from full shingles by its length
        mixed = (h * _POSITION[:len(h)]).sum(dtype=np.uint64, keepdims=True) \
            + _POSITION[n:] * np.uint64(len(h))
    else:
        count = len(h) - n + 1
        mixed = h[:count] * _POSITION[0]
        for j in range(1, n):
            mixed += h[j:j + count] * _POSITION[j]
    return (_fmix64(mixed) >> np.uint64(32)).astype(np.uint32)


# ---------------------------------------------------------------------------- MinHash
_HAS_SCHEME = "scheme" in inspect.signature(MinHash.__init__).parameters
_TEMPLATES: dict[int, MinHash] = {}


def _template(num_perm: int) -> MinHash:
    """An empty ``MinHash(num_perm, seed=1)``: its permutations, scheme and initial values."""
    m = _TEMPLATES.get(num_perm)
    if m is None:
        m = _TEMPLATES[num_perm] = MinHash(num_perm=num_perm, seed=1)
    return m


def minhash_values(hv32: np.ndarray, template: MinHash) -> np.ndarray:
    """Hash values of ``template`` updated with the 32-bit shingle hashes ``hv32``: what
    ``update_batch`` does after its hash function, over all shingles at once."""
    a, b = template.permutations
    scheme = getattr(template, "scheme", "legacy")
    out = template.hashvalues.copy()
    for start in range(0, len(hv32), _ROWS):
        hv = hv32[start:start + _ROWS]
        if scheme == "legacy":
            phv = (hv.astype(np.uint64)[:, None] * a + b) % _MERSENNE & _U32
        elif scheme == "affine32":
            phv = _fmix32(hv.astype(np.uint32))[:, None] * a + b
        else:  # a 64-bit scheme: datasketch hashes to 64 bits there, so widen ours first
            phv = _fmix64(hv.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))[:, None] * a + b
        np.minimum(out, phv.min(axis=0), out=out)
    return out


def minhash_of(text: str, num_perm: int) -> MinHash | None:
    """The MinHash of the shingles of ``text`` (``None`` without any unit)."""
    hv = shingle_hashes(text)
    if not len(hv):
        return None
    t = _template(num_perm)
    values = minhash_values(hv, t)
    if _HAS_SCHEME:
        return MinHash(num_perm=num_perm, seed=1, hashvalues=values,
                       permutations=t.permutations, scheme=t.scheme)
    return MinHash(num_perm=num_perm, seed=1, hashvalues=values, permutations=t.permutations)


class DuplicateIndex:
    def __init__(self, threshold: float = 0.85, num_perm: int = 64):
        self.threshold = threshold
        self.num_perm = num_perm
        self.urls: dict[str, str] = {}      # canonical URL -> itself (written)
        self.hashes: dict[str, str] = {}    # text sha1 -> URL
        # candidates from an LSH tuned for a lower Jaccard, then each verified against its
        # stored signature: the LSH of the threshold itself (4 bands of 15 rows at 0.85)
        # found a pair at Jaccard 0.85 31% of the time, at 0.90 60%
        self.lsh = MinHashLSH(threshold=min(threshold, CANDIDATE_JACCARD), num_perm=num_perm)
        self.signatures: dict[str, np.ndarray] = {}     # URL -> its MinHash values (uint32)
        # an index saved before signatures (format 2): queried as it was, unverified
        self.legacy_lsh: MinHashLSH | None = None
        # short texts: pattern key -> [(URL, numbers)] of the first PATTERN_KEEP written
        self.patterns: dict[bytes, list[tuple[str, tuple[str, ...]]]] = {}
        # what was computed for the last text object (the pipeline checks a text, then adds it)
        self._last_text: str | None = None
        self._memo: dict[str, Any] = {}

    def _remembered(self, text: str, kind: str, compute: Callable[[str], Any]) -> Any:
        """``compute(text)``, reused for the same string object as the last call's."""
        if text is not self._last_text:
            self._last_text, self._memo = text, {}
        memo = self._memo
        if kind not in memo:
            memo[kind] = compute(text)
        return memo[kind]

    def _digest(self, text: str) -> str:
        return self._remembered(text, "digest", text_sha1)

    def _pattern(self, text: str) -> tuple[bytes, tuple[str, ...]] | None:
        return self._remembered(text, "pattern", text_pattern)

    def _minhash(self, text: str) -> MinHash | None:
        return minhash_of(text, self.num_perm)

    def check(self, url: str, text: str) -> tuple[str | None, str | None, MinHash | None]:
        """(kind, original URL, minhash): kind is "url", "exact", "near" or None."""
        if url in self.urls:
            return "url", url, None
        digest = self._digest(text)
        if digest in self.hashes:
            return "exact", self.hashes[digest], None
        m = self._minhash(text)
        if m is not None:
            hits = self._near(m)
            if hits:
                return "near", min(hits), m
        pattern = self._pattern(text)
        if pattern is not None:
            for seen_url, numbers in self.patterns.get(pattern[0], ()):
                if same_pattern(numbers, pattern[1]):
                    return "near", seen_url, m
        return None, None, m

    def _near(self, m: MinHash) -> list[str]:
        """Written URLs whose estimated Jaccard with ``m`` is at least the threshold."""
        values = m.hashvalues.astype(np.uint32)
        signatures = self.signatures
        hits = [u for u in self.lsh.query(m) if u in signatures
                and np.count_nonzero(signatures[u] == values) >= self.threshold * len(values)]
        if self.legacy_lsh is not None:
            hits.extend(self.legacy_lsh.query(m))
        return hits

    def add(self, url: str, text: str, minhash: MinHash | None = None) -> str:
        digest = self._digest(text)
        self.urls[url] = url
        self.hashes[digest] = url
        m = minhash if minhash is not None else self._minhash(text)
        if m is not None and url not in self.lsh:
            self.lsh.insert(url, m)
            self.signatures[url] = m.hashvalues.astype(np.uint32)
        pattern = self._pattern(text)
        if pattern is not None:
            kept = self.patterns.setdefault(pattern[0], [])
            if len(kept) < PATTERN_KEEP:
                kept.append((url, pattern[1]))
        return digest

    def catch_up(self, records: Iterable[dict[str, Any]]) -> int:
        """Index the written documents (corpus records) this index does not hold yet: those a
        crawl wrote after the index's last save, when it was killed before the next.  Returns
        how many were added."""
        added = 0
        for record in records:
            url, text = record.get("final_url") or record.get("url"), record.get("text")
            if not isinstance(url, str) or not isinstance(text, str) or url in self.urls:
                continue
            self.add(url, text)
            first = record.get("url")
            if isinstance(first, str) and first != url:
                self.urls[first] = url
            added += 1
        return added

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            pickle.dump({"version": FORMAT_VERSION, "threshold": self.threshold,
                         "num_perm": self.num_perm, "urls": self.urls, "hashes": self.hashes,
                         "lsh": self.lsh, "patterns": self.patterns,
                         "signatures": self.signatures, "legacy_lsh": self.legacy_lsh}, handle)
            handle.flush()
            os.fsync(handle.fileno())       # on disk before it replaces the old index
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> DuplicateIndex:
        path = Path(path)
        if not path.is_file():
            return cls()
        with open(path, "rb") as handle:
            data = pickle.load(handle)
        version = data.get("version") if isinstance(data, dict) else None
        if version == FORMAT_VERSION:
            index = cls(data["threshold"], data["num_perm"])
            index.urls, index.hashes, index.lsh = data["urls"], data["hashes"], data["lsh"]
            index.patterns = data.get("patterns", {})     # absent before 2026-11-25
            index.signatures = data["signatures"]
            index.legacy_lsh = data.get("legacy_lsh")
            return index
        if version == 2:
            index = cls(data["threshold"], data["num_perm"])
            index.urls, index.hashes = data["urls"], data["hashes"]
            index.patterns = data.get("patterns", {})
            index.legacy_lsh = data["lsh"]
            log.info("%s: duplicate index of format version 2: its near-duplicate index is "
                     "kept as it was (unverified candidates); documents written from now on "
                     "are verified against their signatures", path)
            return index
        if version == 1:
            index = cls(data["threshold"], data["num_perm"])
            index.urls, index.hashes = data["urls"], data["hashes"]
            log.warning("%s: duplicate index of format version 1 (SHA-1 shingle hashes, not "
                        "comparable with version %d): its %d URLs and text hashes are kept, the "
                        "near-duplicate index starts empty", path, FORMAT_VERSION,
                        len(index.urls))
            return index
        log.warning("%s: unknown duplicate index format version %r (expected %d): starting a "
                    "fresh index", path, version, FORMAT_VERSION)
        return cls()
