"""Document frequencies gathered during the crawl, for the IDF of S2 (ALGORITHMS.md §8.7).

``idf_t = log((N + 1) / (df_t + 1)) + 1`` [DEFAULT] over the pages seen so far (optionally
started from a background corpus saved by an earlier run).  Persisted as JSON in a state
directory with an atomic write (temporary file + ``os.replace``).
"""
from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from collections.abc import Iterable
from itertools import repeat
from operator import add
from pathlib import Path

FORMAT_VERSION = 1
# the version of the token keys (crawler.relevance.tokenize): 2 since pages in languages other
# than English and Chinese are read by their own stop words and stemmer (2026-12-02), 3 since
# Thai and Lao pages are segmented into words, Khmer and Burmese ones into syllables (the same
# day)
TOKENS_VERSION = 3
log = logging.getLogger(__name__)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, never a part."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new file, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)   # mkstemp's 0600 would hide state files from their reviewers
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class DocumentFrequencies:
    """Number of pages ``N`` and, per term, the number of pages holding it (``df``).

    ``max_terms`` bounds the vocabulary: beyond it the rarest terms are dropped (they then
    count as unseen, i.e. get the largest IDF).
    """

    FILENAME = "document_frequencies.json"

    def __init__(self, df: dict[str, int] | None = None, n_docs: int = 0,
                 max_terms: int | None = 500_000):
        self.df: dict[str, int] = dict(df or {})
        self.n_docs = int(n_docs)
        self.max_terms = max_terms

    def __len__(self) -> int:
        return len(self.df)

    def add(self, doc_terms: Iterable[str]) -> None:
        """Count one page; ``doc_terms`` are its terms (duplicates are counted once)."""
        df = self.df
        terms = list(set(doc_terms))            # df[t] = df.get(t, 0) + 1, in set order
        df.update(zip(terms, list(map(add, map(df.get, terms, repeat(0)), repeat(1)))))
        self.n_docs += 1
        if self.max_terms and len(df) > 1.2 * self.max_terms:
            self.prune(self.max_terms)

    def prune(self, keep: int) -> None:
        """Keep the ``keep`` terms of highest df (ties: the earliest seen)."""
        if len(self.df) > keep:
            top = sorted(self.df.items(), key=lambda kv: -kv[1])[:keep]
            self.df = dict(top)

    def idf(self, term: str) -> float:
        return math.log((self.n_docs + 1) / (self.df.get(term, 0) + 1)) + 1.0

    def idf_many(self, terms: Iterable[str]) -> list[float]:
        """``[idf(t) for t in terms]`` (the same floats), without a call per term."""
        dfs = list(map(self.df.get, terms, repeat(0)))
        n1 = self.n_docs + 1
        log = math.log
        by_df = {d: log(n1 / (d + 1)) + 1.0 for d in set(dfs)}    # few distinct df values
        return list(map(by_df.__getitem__, dfs))

    def to_dict(self) -> dict:
        return {"version": FORMAT_VERSION, "tokens": TOKENS_VERSION, "n_docs": self.n_docs,
                "df": self.df}

    @classmethod
    def path_in(cls, state_dir: str | Path) -> Path:
        return Path(state_dir) / cls.FILENAME

    def save(self, state_dir: str | Path) -> Path:
        """Write ``state_dir/document_frequencies.json`` atomically; returns the path."""
        path = self.path_in(state_dir)
        atomic_write_text(path, json.dumps(self.to_dict(), ensure_ascii=False,
                                           separators=(",", ":")))
        return path

    @classmethod
    def load(cls, state_dir: str | Path, missing_ok: bool = True,
             max_terms: int | None = 500_000) -> DocumentFrequencies:
        """Read the statistics saved in ``state_dir``; empty ones when there are none yet.

        A corrupt or foreign file raises ``ValueError`` naming the file.
        """
        path = cls.path_in(state_dir)
        if not path.exists():
            if missing_ok:
                return cls(max_terms=max_terms)
            raise FileNotFoundError(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") != FORMAT_VERSION:
                raise ValueError(f"unsupported version {data.get('version')!r}")
            df = {str(k): int(v) for k, v in data["df"].items()}
            stats = cls(df, int(data["n_docs"]), max_terms=max_terms)
            tokens = data.get("tokens", 1)
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"{path}: not a document-frequency file: {err}") from err
        if tokens != TOKENS_VERSION:
            log.warning("%s: gathered with token keys of version %s (now %s): the keys of pages "
                        "in languages other than English and Chinese differ, so those terms "
                        "count as unseen until the crawl meets them again", path, tokens,
                        TOKENS_VERSION)
        return stats
