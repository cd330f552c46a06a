"""The dynamic topic feature library of S2 (ALGORITHMS.md §8.5, §8.6, §8.9).

The source says the library is "dynamically updated during page crawling" but not when, from
which pages, nor how candidates are accepted.  This is the closest implementable reading
[DEFAULT, §8.9]:

- every accepted page contributes ``σ(p)`` (§8.5 [RECON]): its ``sigma_top`` terms by
  Definition-2-block-weighted frequency times IDF;
- every ``update_every`` accepted pages, candidates are weighted by formula (6) [RECON]
  ``W_e = Σ_{p∈WSet} (f_p(e)/f_max,p) · log(|WSet|/df_WSet(e))`` over the σ terms of the pages
  since the last update (terms already in the library excluded); the ``top_n`` best are listed;
- a candidate is accepted automatically (``auto_accept``) when ``W_e/|WSet| >= min_weight`` and
  it co-occurred in the same block with library terms on at least ``min_support`` accepted
  pages; its category (``fc``) is the most frequent category of those library terms;
- every candidate is written to a reviewable TSV (``term, key, weight, support, category,
  status, round, language``); an operator may set ``status`` to ``accepted`` or ``rejected``
  and reload (the paper's ``fe``: user examination).  Accepted terms extend the topic vector
  of their language (the keys of pages in it; empty: English and languages read as English;
  a file without the column is read as all English).
"""
from __future__ import annotations

import csv
import heapq
import io
import json
import logging
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING

from .frequencies import atomic_write_text
from .tokenize import base_code, lexicon

if TYPE_CHECKING:  # pragma: no cover
    from .model import PageTerms, Relevance, TopicVector

STATUSES = ("pending", "accepted", "rejected")
COLUMNS = ("term", "key", "weight", "support", "category", "status", "round", "language")
OLD_COLUMNS = COLUMNS[:-1]      # (files written before the language column)
log = logging.getLogger(__name__)


def sigma(page: PageTerms, idf_many: Callable[[Iterable[str]], list[float]],
          top_n: int = 30) -> dict[str, float]:
    """σ(p) (§8.5 [RECON]): term -> Σ over occurrences of the block weight, times IDF; top n.
    ``idf_many`` gives the IDF of many terms at once (``DocumentFrequencies.idf_many``)."""
    acc: dict[str, float] = {}
    for b in page.blocks:
        for t, tf in b.counts.items():
            acc[t] = acc.get(t, 0.0) + b.weight * tf
    scored = heapq.nlargest(top_n, zip(map(mul, acc.values(), idf_many(acc)), acc))
    return {t: v for v, t in scored}


def formula6(pages: list[Mapping[str, float]]) -> dict[str, float]:
    """``W_e = Σ_p (f_p(e)/f_max,p) · log(|WSet|/df(e))`` (6) [RECON] over max-normalised term
    frequencies ``pages`` (one mapping per page)."""
    df: Counter = Counter()
    for p in pages:
        df.update(p.keys())
    n = len(pages)
    out: dict[str, float] = {}
    for p in pages:
        for t, f in p.items():
            out[t] = out.get(t, 0.0) + f * math.log(n / df[t])
    return out


@dataclass
class Candidate:
    """One learnt term as listed in the candidates file."""

    term: str
    key: str
    weight: float
    support: int
    category: str
    status: str = "pending"
    round: int = 0
    language: str = ""      # the lexicon whose keys ``key`` is in ("": English)


class FeatureLibrary:
    """The DTFL: candidate terms learnt from accepted pages (see the module docstring)."""

    FILENAME = "candidates.tsv"
    STATE_FILENAME = "library_state.json"

    def __init__(self, *, update_every: int = 200, top_n: int = 10, sigma_top: int = 30,
                 min_weight: float = 0.05, min_support: int = 3, auto_accept: bool = True,
                 max_terms: int = 200_000):
        self.update_every, self.top_n, self.sigma_top = update_every, top_n, sigma_top
        self.max_terms = max_terms
        self.min_weight, self.min_support, self.auto_accept = min_weight, min_support, auto_accept
        self.candidates: dict[str, Candidate] = {}
        self.version = 0          # bumped whenever the set of accepted terms changes
        self.rounds = 0
        self._pending: list[dict[str, float]] = []
        self._support: Counter = Counter()
        self._votes: dict[str, Counter] = {}
        self._surface: dict[str, str] = {}
        # term -> pages it was a σ term of, per lexicon code ("": English); only for terms
        # met on a page in another language than English (most terms have no entry)
        self._language: dict[str, Counter] = {}

    # ------------------------------------------------------------------ learning
    def observe(self, page: PageTerms, relevance: Relevance, vector: TopicVector,
                idf_many: Callable[[Iterable[str]], list[float]]) -> list[Candidate]:
        """Learn from one page if it was judged relevant; returns the terms accepted by an
        update this call triggered (usually none)."""
        if not relevance.relevant or not page.blocks:
            return []
        known = vector.known_terms
        sig = [t for t in sigma(page, idf_many, self.sigma_top) if t not in known]
        if not sig:
            return []
        total = page.totals()
        fmax = max(total.values())
        self._pending.append({t: total[t] / fmax for t in sig})
        wanted = set(sig)
        in_topic, category = vector.weights.__contains__, vector.category.__getitem__
        cooc: dict[str, dict[str, int]] = {}
        for b in page.blocks:
            if wanted.isdisjoint(b.counts):
                continue
            cats = Counter(map(category, filter(in_topic, b.counts)))
            if cats:
                for t in wanted.intersection(b.counts):
                    acc = cooc.get(t)
                    if acc is None:
                        cooc[t] = dict(cats)
                    else:           # (plain dict adds: Counter.update is slow on tiny maps)
                        for cat, n in cats.items():
                            acc[cat] = acc.get(cat, 0) + n
        for t, cats in cooc.items():
            self._support[t] += 1
            self._votes.setdefault(t, Counter()).update(cats)
        new = [t for t in sig if t not in self._surface]
        if new:
            surface = page.surfaces_of(new)
            for t in new:
                self._surface[t] = surface.get(t, t)
        code = lexicon(page.language).code or ""
        languages = self._language
        for t in sig:
            if code or t in languages:
                seen = languages.get(t)
                if seen is None:
                    seen = languages[t] = Counter()
                seen[code] += 1
        if len(self._pending) >= self.update_every:
            return self.update(vector)
        return []

    def update(self, vector: TopicVector) -> list[Candidate]:
        """Run one update round over the pages since the last one; returns the new
        acceptances."""
        pages, self._pending = self._pending, []
        if not pages:
            return []
        self.rounds += 1
        n = len(pages)
        known = vector.known_terms
        weights = formula6(pages)
        ranked = sorted((t for t in weights if t not in known and weights[t] > 0),
                        key=lambda t: (-weights[t], t))
        for t in ranked[:self.top_n]:
            votes = self._votes.get(t)
            cat = votes.most_common(1)[0][0] if votes else "terms"
            old = self.candidates.get(t)
            if old is None:
                self.candidates[t] = Candidate(self._surface.get(t, t), t,
                                               round(weights[t] / n, 6), self._support[t], cat,
                                               round=self.rounds, language=self._majority(t))
            elif old.status == "pending":
                old.weight = max(old.weight, round(weights[t] / n, 6))
                old.support, old.category = self._support[t], cat
                old.language = self._majority(t)
        self._bound()
        accepted = []
        if self.auto_accept:
            for c in self.candidates.values():
                c.support = max(c.support, self._support[c.key])
                if c.status == "pending" and c.weight >= self.min_weight \
                        and c.support >= self.min_support:
                    c.status = "accepted"
                    accepted.append(c)
        if accepted:
            self.version += 1
        return accepted

    def _majority(self, term: str) -> str:
        """The language of most pages ``term`` was learnt from ("": English)."""
        seen = self._language.get(term)
        return max(seen, key=seen.__getitem__) if seen else ""

    def _bound(self) -> None:
        """Keep the per-term statistics (support, category votes, surface) of at most
        :attr:`max_terms` terms: candidates and the best supported.  Every σ term of every
        relevant page enters them (about 15 new terms a page), so a long crawl would grow them
        (and ``library_state.json``) without end."""
        if len(self._surface) <= self.max_terms:
            return
        keep = set(self.candidates)
        keep.update(t for _, t in heapq.nlargest(self.max_terms // 2, (
            (n, t) for t, n in self._support.items() if t not in keep)))
        for t in list(self._surface):
            if t not in keep:
                del self._surface[t]
                self._language.pop(t, None)
        self._support = Counter({t: n for t, n in self._support.items() if t in keep})
        self._votes = {t: v for t, v in self._votes.items() if t in keep}

    def accepted(self, language: str | None = None) -> dict[str, tuple[str, str]]:
        """Accepted terms ``{key: (category, label)}`` for the topic vector of ``language``
        (a lexicon's code; None: English)."""
        code = language or ""
        return {c.key: (c.category, c.term) for c in self.candidates.values()
                if c.status == "accepted" and c.language == code}

    # ------------------------------------------------------------------ persistence
    def to_tsv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="\t", lineterminator="\n")
        w.writerow(COLUMNS)
        for c in sorted(self.candidates.values(), key=lambda c: (c.round, -c.weight, c.key)):
            w.writerow([c.term, c.key, f"{c.weight:.6f}", c.support, c.category, c.status,
                        c.round, c.language])
        return buf.getvalue()

    def save(self, state_dir: str | Path) -> Path:
        """Write the candidates TSV (and the learning state to resume) atomically."""
        state_dir = Path(state_dir)
        path = state_dir / self.FILENAME
        atomic_write_text(path, self.to_tsv())
        state = {"version": 1, "rounds": self.rounds, "pending": self._pending,
                 "support": dict(self._support),
                 "votes": {t: dict(v) for t, v in self._votes.items()},
                 "surface": self._surface,
                 "language": {t: dict(c) for t, c in self._language.items()}}
        atomic_write_text(state_dir / self.STATE_FILENAME, json.dumps(state, ensure_ascii=False))
        return path

    @staticmethod
    def read_candidates(path: str | Path) -> dict[str, Candidate]:
        """Parse a candidates TSV (possibly edited by an operator); errors name file and line.
        A byte-order mark (a spreadsheet's or an editor's) is accepted."""
        try:
            with open(path, encoding="utf-8-sig", newline="") as fh:
                rows = csv.reader(fh, delimiter="\t")
                try:
                    return _candidates(path, rows)
                except csv.Error as err:        # an unbalanced quote runs to the limit
                    raise ValueError(f"{path}: line {rows.line_num}: {err} (a quote left "
                                     "open on an earlier line?)") from err
        except UnicodeDecodeError as err:
            raise ValueError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") \
                from err

    @classmethod
    def load(cls, state_dir: str | Path, **options) -> FeatureLibrary:
        """A library with the candidates (and operator decisions) saved in ``state_dir``."""
        lib = cls(**options)
        state_dir = Path(state_dir)
        path = state_dir / cls.FILENAME
        if path.exists():
            lib.candidates = cls.read_candidates(path)
            lib.version = 1 if any(c.status == "accepted" for c in lib.candidates.values()) \
                else 0
        state_path = state_dir / cls.STATE_FILENAME
        if state_path.exists():
            try:
                state = json.loads(state_path.read_text(encoding="utf-8"))
                lib.rounds = int(state.get("rounds", 0))
                lib._pending = [dict(p) for p in state.get("pending", [])]
                lib._support = Counter(state.get("support", {}))
                lib._votes = {t: Counter(v) for t, v in state.get("votes", {}).items()}
                lib._surface = dict(state.get("surface", {}))
                lib._language = {t: Counter({c: 1} if isinstance(c, str) else c)
                                 for t, c in state.get("language", {}).items()}
            except (ValueError, TypeError, AttributeError) as err:
                raise ValueError(f"{state_path}: not a library state file: {err}") from err
        return lib

    def as_rows(self) -> list[dict]:
        return [asdict(c) for c in self.candidates.values()]


def _candidates(path, rows) -> dict[str, Candidate]:
    """The candidates of a candidates TSV's rows (see :meth:`FeatureLibrary.read_candidates`)."""
    out: dict[str, Candidate] = {}
    header = next(rows, None)
    columns = tuple(h.strip() for h in header) if header is not None else ()
    if columns not in (COLUMNS, OLD_COLUMNS):
        raise ValueError(f"{path}: line 1: expected the header {' '.join(COLUMNS)}")
    if columns == OLD_COLUMNS:
        log.warning("%s: written before its language column: every term is read as English "
                    "(a term learnt on pages in another language matches them again once its "
                    "language is set in the column added on the next save)", path)
    for line, row in enumerate(rows, start=2):
        if not row or not "".join(row).strip():
            continue
        if len(row) == len(columns) - 1 and columns == COLUMNS:
            row = [*row, ""]    # (an editor that trims trailing tabs took an empty language)
        if len(row) != len(columns):
            raise ValueError(f"{path}: line {line}: expected {len(columns)} columns "
                             f"({', '.join(columns)}), got {len(row)}")
        rec = dict(zip(columns, (x.strip() for x in row)))
        if rec["status"] not in STATUSES:
            raise ValueError(f"{path}: line {line}: status {rec['status']!r} is not "
                             f"one of {', '.join(STATUSES)}")
        language = rec.get("language", "")
        code = lexicon(language).code or "" if language else ""
        if language and not code and base_code(language) not in ("en", "zh"):
            raise ValueError(f"{path}: line {line}: language {language!r} is not a language "
                             "code the relevance model reads by its own rules (empty: English)")
        try:
            out[rec["key"]] = Candidate(rec["term"], rec["key"], float(rec["weight"]),
                                        int(rec["support"]), rec["category"],
                                        rec["status"], int(rec["round"]), code)
        except ValueError as err:
            raise ValueError(f"{path}: line {line}: {err}") from err
    return out
