"""Duplicate detection across the run and across runs.

Three levels: the canonical URL was already written; the exact main text was already written
(SHA-1 of the whitespace-normalised text); or a near-duplicate was (MinHash LSH of word 5-gram
shingles, Chinese by character 5-grams, Jaccard >= ``threshold``; datasketch).  Printer copies,
mirrors and session-id variants fall in the last two.
"""
from __future__ import annotations

import hashlib
import pickle
import re
from pathlib import Path

from datasketch import MinHash, MinHashLSH

_HAN = re.compile(r"[\u4e00-\u9fff]")
_WORDS = re.compile(r"\w+")


def text_sha1(text: str) -> str:
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()


def shingles(text: str, n: int = 5) -> set[bytes]:
    text = text.lower()
    if len(_HAN.findall(text[:2000])) > 200:
        units = [c for c in text if not c.isspace()]
    else:
        units = _WORDS.findall(text)
    if len(units) < n:
        return {" ".join(units).encode("utf-8")} if units else set()
    return {" ".join(units[i:i + n]).encode("utf-8") for i in range(len(units) - n + 1)}


class DuplicateIndex:
    def __init__(self, threshold: float = 0.85, num_perm: int = 64):
        self.threshold = threshold
        self.num_perm = num_perm
        self.urls: dict[str, str] = {}      # canonical URL -> itself (written)
        self.hashes: dict[str, str] = {}    # text sha1 -> URL
        self.lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)

    def _minhash(self, text: str) -> MinHash | None:
        grams = shingles(text)
        if not grams:
            return None
        m = MinHash(num_perm=self.num_perm, seed=1)
        m.update_batch(list(grams))
        return m

    def check(self, url: str, text: str) -> tuple[str | None, str | None, MinHash | None]:
        """(kind, original URL, minhash): kind is "url", "exact", "near" or None."""
        if url in self.urls:
            return "url", url, None
        digest = text_sha1(text)
        if digest in self.hashes:
            return "exact", self.hashes[digest], None
        m = self._minhash(text)
        if m is not None:
            hits = self.lsh.query(m)
            if hits:
                return "near", sorted(hits)[0], m
        return None, None, m

    def add(self, url: str, text: str, minhash: MinHash | None = None) -> str:
        digest = text_sha1(text)
        self.urls[url] = url
        self.hashes[digest] = url
        m = minhash if minhash is not None else self._minhash(text)
        if m is not None and url not in self.lsh:
            self.lsh.insert(url, m)
        return digest

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            pickle.dump({"version": 1, "threshold": self.threshold, "num_perm": self.num_perm,
                         "urls": self.urls, "hashes": self.hashes, "lsh": self.lsh}, handle)
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "DuplicateIndex":
        path = Path(path)
        if not path.is_file():
            return cls()
        with open(path, "rb") as handle:
            data = pickle.load(handle)
        index = cls(data["threshold"], data["num_perm"])
        index.urls, index.hashes, index.lsh = data["urls"], data["hashes"], data["lsh"]
        return index
