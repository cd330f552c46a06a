"""Draft a topic file from example pages ([ours]; not in ALGORITHMS.md).

    python -m crawler.topic_draft --name NAME --positive SRC [SRC ...] --negative SRC [SRC ...]
        [-o TOPIC.toml] [--terms 60] [--subjects 20] [--folds 5]

ACHE's users train its page classifier from positive and negative example pages; S2 reads a
topic file instead, and writing one well is the hard part of a new topic (on the test web the
best threshold ranges from 0.11 to 0.26 across eight hand-written files).  This writes a first
draft from examples, for a person to review:

- Each example is parsed once and its main text extracted (``auto``); the title and main text
  are cut into units by the relevance tokeniser (:func:`crawler.relevance.tokenize.units`).
- Candidates are words and pairs of adjacent words (no stop word between), by their token keys
  (so "computers" and "computer" are one candidate), shown in their most frequent written form.
- A candidate's weight is ``p * log((p + e) / (n + e))``: ``p`` and ``n`` the shares of positive
  and negative examples holding it, ``e = 1 / (negatives + 1)``.  A candidate must be on at
  least two positive examples and at least ``MIN_SHARE`` of them, and at least twice as common
  among positives as among negatives.
- Candidates written with a capital in at least ``CAPITAL_SHARE`` of their occurrences are
  names (occurrences in titles, or first in a sentence or clause, do not count): the best go to ``subjects``, the rest to ``terms``.  ``judgments`` and ``synonyms``
  are left to the reviewer.
- With enough examples (``--folds`` >= 2 and at least that many of each kind), the threshold
  is chosen by cross-validation: the draft is made again without each fold, and the fold's
  pages are scored by the relevance model with that draft.  Rule ``recall`` (default): the
  threshold keeps ``RECALL`` (0.75) of the positive examples' out-of-fold scores.  Rule
  ``f1``: the best F1 over all out-of-fold scores.  The negatives a user gives are mostly far
  from the topic, while a focused crawl meets its neighbours, which score higher: on the test
  web's eight topics the ``f1`` rule's threshold was 0.05 from the best one on the crawl's
  pages on average, the ``recall`` rule's 0.03 (README).  The out-of-fold precision and recall
  are written in a comment.  Without enough examples the file sets no threshold (the crawl's
  default and automatic threshold apply).

Sources (``SRC``): an ``http(s)`` URL (fetched with ``urllib``, which honours ``http_proxy``), an
HTML file, a directory (its ``*.htm`` / ``*.html`` files, sorted), or ``@FILE`` (one source per
line).  An example that cannot be read or has no text is reported and skipped.

Other languages: each example's words are read by the rules of its language, as the crawl
will read its pages (the language's stop words and stemmer; Japanese segmented, its kanji not
read as simplified Chinese, a pair of words written together); in German, where every noun
has a capital, case tells no name: everything goes to ``terms``.  When positive examples are
in such a language, the draft names the positives' languages (``languages``), and a term
that gives no key in them (Italian "via", an English stop word) is left out.

Chinese examples: building a topic adds its Chinese terms to the shared segmenter's
dictionary (:func:`crawler.relevance.tokenize.term_tokens`), as a crawl with the draft will, so
a second draft in the same process may segment Chinese pages a little differently.
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import re
import sys
import tomllib
import urllib.request
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from extraction import ParseError, extract_document, parse

from .relevance import DocumentFrequencies, RelevanceModel
from .relevance.tokenize import (
    ENGLISH,
    Lexicon,
    has_han,
    is_stop_key,
    lexicon,
    tokenize,
)
from .relevance.topic import Topic, TopicError, gives_key, topic_from_dict

RECALL = 0.75          # of the positive examples the ``recall`` threshold rule keeps
MIN_SHARE = 0.1         # of the positive examples a candidate must be on
CAPITAL_SHARE = 0.8     # of its occurrences written with a capital: a name (subjects)
MAX_EXAMPLE_BYTES = 10_000_000
_BREAKS = re.compile(r"[\n.,;:!?()\[\]{}\"“”/|·•–—。，；：！？、（）《》「」]+")
USER_AGENT = "focused-crawler-topic-draft/1 (+https://github.com/)"
_NOUNS_CAPITALISED = frozenset(("de", "lb"))


class DraftError(ValueError):
    """Nothing to draft from (no readable positive or negative example)."""


@dataclass
class Example:
    """One example page, parsed once: its source, ``doc``, ``title`` and ``main`` text."""

    source: str
    doc: object
    title: str
    main: str
    language: str | None


@dataclass
class Candidate:
    """A drafted term: ``key`` (token keys), ``surface`` (most frequent written form), the
    shares ``p`` / ``n`` of positive / negative examples holding it, and its ``weight``."""

    key: tuple[str, ...]
    surface: str
    p: float
    n: float
    weight: float
    capital: float = 0.0


@dataclass
class Draft:
    topic: dict
    subjects: list[Candidate] = field(default_factory=list)
    terms: list[Candidate] = field(default_factory=list)
    threshold: float | None = None
    cv: tuple[float, float, float] | None = None      # precision, recall, F1 at the threshold
    counts: tuple[int, int] = (0, 0)                   # positive, negative examples
    scores: tuple[list[float], list[float]] = ((), ())  # out-of-fold, positive / negative
    rule: str = ""


# ---------------------------------------------------------------------------- examples
def example_from_html(html: bytes | str, source: str, url: str | None = None,
                      content_type: str | None = None) -> Example | str:
    """The example of one page, or the reason it has none (never raises on bad input)."""
    try:
        doc = parse(html, url, content_type)
    except ParseError as err:
        return f"not parsed: {err}"
    result = extract_document(doc, method="auto")
    if not result.text.strip():
        return f"no main text ({result.reason or 'empty'})"
    return Example(source, doc, (result.title or "").strip(), result.text, result.language)


def expand_sources(specs: Iterable[str], warn=print, _lists: set | None = None) -> list[str]:
    """URLs and file paths of the sources: ``@FILE`` lists (each read once) and directories
    expanded; a list that cannot be read is reported through ``warn``."""
    out: list[str] = []
    lists = set() if _lists is None else _lists
    for spec in specs:
        spec = spec.strip()
        if not spec or spec.startswith("#"):
            continue
        if spec.startswith("@"):
            path = Path(spec[1:]).resolve()
            if path in lists:
                continue
            lists.add(path)
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError) as err:
                warn(f"skipped list {spec[1:]}: cannot read it ({err})")
                continue
            out.extend(expand_sources(lines, warn, lists))
        elif spec.startswith(("http://", "https://")):
            out.append(spec)
        elif Path(spec).is_dir():
            out.extend(str(p) for p in sorted(Path(spec).iterdir())
                       if p.suffix.lower() in (".htm", ".html") and p.is_file())
        else:
            out.append(spec)
    return out


def read_source(source: str, timeout: float = 20.0) -> tuple[bytes, str | None, str | None]:
    """(body, url, content type) of a URL or a file; raises ``OSError``
    (``urllib.error.URLError`` included) when it cannot be read."""
    if source.startswith(("http://", "https://")):
        request = urllib.request.Request(source, headers={"User-Agent": USER_AGENT})
        opener = urllib.request.build_opener()      # proxies read from the environment now
        with opener.open(request, timeout=timeout) as response:
            return (response.read(MAX_EXAMPLE_BYTES), response.geturl(),
                    response.headers.get("Content-Type"))
    with open(source, "rb") as handle:
        return handle.read(MAX_EXAMPLE_BYTES), None, None


def load_examples(specs: Iterable[str], warn=print) -> list[Example]:
    """The readable examples of ``specs``; each one skipped is reported through ``warn``."""
    examples = []
    for source in expand_sources(specs, warn):
        try:
            body, url, content_type = read_source(source)
        # http.client's errors (a non-numeric port, a malformed status line) are no OSError
        except (OSError, ValueError, http.client.HTTPException) as err:
            warn(f"skipped {source}: cannot read it ({err})")
            continue
        example = example_from_html(body, source, url, content_type)
        if isinstance(example, str):
            warn(f"skipped {source}: {example}")
        else:
            examples.append(example)
    return examples


# ---------------------------------------------------------------------------- candidates
def _unit_key(unit: str, lex: Lexicon = ENGLISH) -> tuple[str, ...]:
    """The key of a unit in its page's lexicon; none for a stop word (marked or dropped)."""
    key = tuple(tokenize(unit, segment_han=False, language=lex.code))
    return () if len(key) == 1 and is_stop_key(key[0]) else key


@dataclass
class Seen:
    """A candidate's occurrences on one page: its written ``forms`` and, among the occurrences
    whose case tells (not in the title, not starting a sentence or clause), how many were
    ``cased`` and how many of those ``capital`` (every word capitalised)."""

    forms: Counter = field(default_factory=Counter)
    cased: int = 0
    capital: int = 0
    nouns_capitalised: bool = False     # on a page whose language capitalises every noun


def page_candidates(main: str, language: str | None = None, title: str = ""
                    ) -> dict[tuple[str, ...], Seen]:
    """Key -> :class:`Seen` of the words and adjacent word pairs of a page's ``title`` and
    ``main`` text.  A pair is two word units in a row that each give one key: a stop word, a
    number or a hyphenated word between breaks it, and so does punctuation or a line break.
    Words are read by the rules of the page's ``language``, as the relevance model reads them
    (its stop words and stemmer; Japanese words segmented, written together in a pair)."""
    found: dict[tuple[str, ...], Seen] = {}
    segment_han = language == "zh"          # as the relevance model segments the page
    lex = lexicon(language)
    # (German and Luxembourgish write every noun with a capital: case tells no name there)
    nouns_capitalised = lex.code in _NOUNS_CAPITALISED
    for text, cased in ((title, False), (main, not nouns_capitalised)):
        for stretch in _BREAKS.split(text):
            units = lex.units(lex.read(stretch), segment_han)
            _stretch_candidates(units, found, cased, lex, nouns_capitalised)
    return found


def _stretch_candidates(seq: list[str], found: dict[tuple[str, ...], Seen], cased: bool,
                        lex: Lexicon = ENGLISH, nouns_capitalised: bool = False) -> None:
    prev_key: tuple[str, ...] = ()
    prev_unit = ""
    # jieba's pieces are words already (not paired); MeCab's are finer (人工 知能)
    segmented = lex.segment is not None
    space = "" if segmented else " "
    for i, unit in enumerate(seq):
        key = _unit_key(unit, lex)
        if len(key) != 1 or not any(c.isalpha() for c in unit):
            prev_key, prev_unit = (), ""
            continue
        upper = unit[:1].isupper()
        seen = found.get(key) or found.setdefault(key, Seen())
        seen.nouns_capitalised = nouns_capitalised
        seen.forms[unit] += 1
        if cased and i > 0:             # a stretch's first word is capitalised anyway
            seen.cased += 1
            seen.capital += upper
        if has_han(unit) and not segmented:     # a segmenter's piece is a word already; the
            prev_key, prev_unit = (), ""        # pieces around a dropped stop word are not
            continue                            # adjacent
        if prev_key:
            pair = found.get(prev_key + key) or found.setdefault(prev_key + key, Seen())
            pair.forms[prev_unit + space + unit] += 1
            if cased:                   # the first word's case tells only inside a stretch
                pair.cased += 1
                pair.capital += upper and (i - 1 == 0 or prev_unit[:1].isupper())
        prev_key, prev_unit = key, unit


def rank_candidates(positives: Sequence[dict], negatives: Sequence[dict],
                    min_share: float = MIN_SHARE) -> list[Candidate]:
    """Candidates of the positive pages' :func:`page_candidates`, best first (the module
    docstring gives the weight and the conditions)."""
    n_pos, n_neg = len(positives), len(negatives)
    if not n_pos:
        return []
    pos_df: Counter = Counter()
    total: dict[tuple[str, ...], Seen] = {}
    for page in positives:
        pos_df.update(page.keys())
        for key, seen in page.items():
            acc = total.get(key) or total.setdefault(key, Seen())
            acc.forms.update(seen.forms)
            acc.cased += seen.cased
            acc.capital += seen.capital
            acc.nouns_capitalised |= seen.nouns_capitalised
    neg_df: Counter = Counter()
    for page in negatives:
        neg_df.update(k for k in page if k in pos_df)
    e = 1.0 / (n_neg + 1)
    out = []
    for key, df in pos_df.items():
        p, n = df / n_pos, (neg_df[key] / n_neg if n_neg else 0.0)
        if df < 2 or p < min_share or p < 2 * n:
            continue
        seen = total[key]
        capital = seen.capital / seen.cased if seen.cased else 0.0
        surface = seen.forms.most_common(1)[0][0]
        if capital < CAPITAL_SHARE and not seen.nouns_capitalised:   # (Daten stays Daten)
            surface = surface.lower()
        out.append(Candidate(key, surface, p, n, p * math.log((p + e) / (n + e)), capital))
    out.sort(key=lambda c: (-c.weight, c.surface))
    return out


def select(ranked: Sequence[Candidate], n_terms: int, n_subjects: int
           ) -> tuple[list[Candidate], list[Candidate]]:
    """(subjects, terms): the best names and the best other candidates.  A word that a kept
    pair holding it matches on as many examples ("Helen" of "Helen Marsh") adds nothing:
    skipped, and the next candidate takes its place (which may keep one more pair, so the
    buckets are filled again until the skipped words no longer change)."""
    skipped: set[tuple[str, ...]] = set()
    while True:
        subjects, terms = _fill(ranked, n_terms, n_subjects, skipped)
        covered: dict[str, float] = {}
        for cand in subjects + terms:
            for k in cand.key if len(cand.key) > 1 else ():
                covered[k] = max(covered.get(k, 0.0), cand.p)
        now = {c.key for c in ranked if len(c.key) == 1 and covered.get(c.key[0], -1.0) >= c.p}
        if now == skipped:      # grows with each pass (a kept pair stays kept): ends
            return subjects, terms
        skipped = now


def _fill(ranked: Sequence[Candidate], n_terms: int, n_subjects: int,
          skipped: set[tuple[str, ...]]) -> tuple[list[Candidate], list[Candidate]]:
    """The buckets filled in rank order, ``skipped`` candidates left out."""
    subjects: list[Candidate] = []
    terms: list[Candidate] = []
    for cand in ranked:
        if cand.key in skipped:
            continue
        bucket, limit = ((subjects, n_subjects) if cand.capital >= CAPITAL_SHARE
                         else (terms, n_terms))
        if len(bucket) < limit:
            bucket.append(cand)
        if len(subjects) >= n_subjects and len(terms) >= n_terms:
            break
    return subjects, terms


def written_threshold(threshold: float) -> float:
    """The threshold as the file gets it: three decimals, rounded down (never above a kept
    score)."""
    return math.floor(threshold * 1000) / 1000


def topic_dict(name: str, subjects: Sequence[Candidate], terms: Sequence[Candidate],
               threshold: float | None = None, description: str = "",
               languages: Sequence[str] = ()) -> dict:
    data: dict = {"name": name}
    if description:
        data["description"] = description
    if languages:
        data["languages"] = list(languages)
    if threshold is not None:
        data["threshold"] = written_threshold(threshold)
    data["features"] = {"subjects": [c.surface for c in subjects],
                        "terms": [c.surface for c in terms], "judgments": []}
    return data


# ---------------------------------------------------------------------------- threshold
def score_examples(topic: Topic, examples: Sequence[Example], background: Sequence[Example]
                   ) -> list[float]:
    """Relevance of each of ``examples`` under ``topic``, IDF gathered over ``background``."""
    model = RelevanceModel(topic, DocumentFrequencies())
    for ex in background:
        model.stats.add(model.analyse(ex.doc, ex.main, language=ex.language).terms)
    return [model.score_page(model.analyse(ex.doc, ex.main, language=ex.language)).score
            for ex in examples]


def _scores_at(tp: int, fp: int, n_pos: int) -> tuple[float, float, float]:
    """(precision, recall, F1) of ``tp`` true and ``fp`` false positives of ``n_pos``."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / n_pos if n_pos else 0.0
    return precision, recall, (2 * precision * recall / (precision + recall)
                               if precision + recall else 0.0)


def best_threshold(pos_scores: Sequence[float], neg_scores: Sequence[float]
                   ) -> tuple[float, tuple[float, float, float]]:
    """The threshold with the best F1 of ``score >= threshold`` (midway between the two
    scores it falls between; ties: the lower), and (precision, recall, F1) there."""
    scored = sorted([(s, 1) for s in pos_scores] + [(s, 0) for s in neg_scores], reverse=True)
    n_pos = len(pos_scores)
    best = (-1.0, 0.0, (0.0, 0.0, 0.0))
    tp = fp = 0
    for i, (s, label) in enumerate(scored):
        tp += label
        fp += 1 - label
        if i + 1 < len(scored) and scored[i + 1][0] == s:
            continue            # a threshold cannot split equal scores
        at = _scores_at(tp, fp, n_pos)
        below = scored[i + 1][0] if i + 1 < len(scored) else 0.0
        if at[2] >= best[0]:
            best = (at[2], (s + below) / 2, at)
    return best[1], best[2]


def recall_threshold(pos_scores: Sequence[float], neg_scores: Sequence[float],
                     recall: float = RECALL) -> tuple[float, tuple[float, float, float]]:
    """The threshold that keeps ``recall`` of ``pos_scores`` (the score of the positive at that
    rank, so ties keep more), and (precision, recall, F1) there."""
    ranked = sorted(pos_scores, reverse=True)
    threshold = ranked[max(0, math.ceil(recall * len(ranked)) - 1)]
    tp = sum(s >= threshold for s in pos_scores)
    fp = sum(s >= threshold for s in neg_scores)
    return threshold, _scores_at(tp, fp, len(pos_scores))


THRESHOLD_RULES = {"recall": recall_threshold, "f1": best_threshold}


def draft(name: str, positives: Sequence[Example], negatives: Sequence[Example], *,
          n_terms: int = 60, n_subjects: int = 20, folds: int = 5,
          threshold_rule: str = "recall", description: str = "") -> Draft:
    """The draft topic of the examples (see the module docstring)."""
    if not name.strip():
        raise DraftError("the topic needs a name (--name)")
    if not positives:
        raise DraftError("no readable positive example")
    if not negatives:
        raise DraftError("no readable negative example (give pages like the ones the crawl "
                         "should leave out: other sections of the same sites work best)")
    pos = [page_candidates(ex.main, ex.language, ex.title) for ex in positives]
    neg = [page_candidates(ex.main, ex.language, ex.title) for ex in negatives]
    # examples in a language read by its own rules: the draft names the positives' languages
    # (its terms are read by them), and keeps only terms that give a key in one of them
    codes = sorted({ex.language for ex in positives if ex.language})
    languages = codes if any(lexicon(c).code for c in codes) else []

    def ranked(pos_pages: Sequence[dict], neg_pages: Sequence[dict]) -> list[Candidate]:
        return [c for c in rank_candidates(pos_pages, neg_pages)
                if gives_key(c.surface, languages)]

    subjects, terms = select(ranked(pos, neg), n_terms, n_subjects)
    out = Draft({}, subjects, terms, counts=(len(positives), len(negatives)))
    if not subjects and not terms:
        raise DraftError("no term is at least twice as common on the positive examples as on "
                         "the negative ones")
    if folds >= 2 and len(positives) >= folds and len(negatives) >= folds:
        pos_scores: list[float] = []
        neg_scores: list[float] = []
        for f in range(folds):              # fold f: every folds-th example from the f-th
            keep_p = [page for i, page in enumerate(pos) if i % folds != f]
            keep_n = [page for i, page in enumerate(neg) if i % folds != f]
            held_p, held_n = positives[f::folds], negatives[f::folds]
            s, t = select(ranked(keep_p, keep_n), n_terms, n_subjects)
            if not s and not t:
                pos_scores += [0.0] * len(held_p)
                neg_scores += [0.0] * len(held_n)
                continue
            topic = topic_from_dict(topic_dict(name, s, t, languages=languages),
                                    f"<fold of {name}>")
            scores = score_examples(topic, [*held_p, *held_n], [*positives, *negatives])
            pos_scores += scores[:len(held_p)]
            neg_scores += scores[len(held_p):]
        out.scores, out.rule = (pos_scores, neg_scores), threshold_rule
        out.threshold, out.cv = THRESHOLD_RULES[threshold_rule](pos_scores, neg_scores)
    out.topic = topic_dict(name, subjects, terms, out.threshold, description, languages)
    topic_from_dict(out.topic, f"<draft of {name}>")     # a draft always loads
    return out


# ---------------------------------------------------------------------------- TOML
def _toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes, and DEL, which TOML forbids raw)."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_list(items: Sequence[str], indent: str = "  ", width: int = 96) -> str:
    if not items:
        return "[]"
    lines, line = [], indent
    for item in items:
        quoted = _toml_string(item) + ","
        if len(line) + len(quoted) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += quoted + " "
    lines.append(line.rstrip())
    return "[\n" + "\n".join(lines) + "\n]"


def to_toml(d: Draft) -> str:
    """The draft as a commented topic file (TOML)."""
    t = d.topic
    head = [f"# Topic {t['name']!r}: drafted by `python -m crawler.topic_draft` from "
            f"{d.counts[0]} positive and {d.counts[1]} negative example pages.",
            "# Review it: drop terms that are accidents of the examples (site names, dates,",
            "# template words), add the words that mark valuable pages to `judgments` and",
            "# variants to [synonyms]."]
    if d.cv is not None:
        head.append(f"# threshold ({d.rule} rule), on the {d.counts[0] + d.counts[1]} examples "
                    f"scored out of fold: precision {d.cv[0]:.2f}, recall {d.cv[1]:.2f}, F1 "
                    f"{d.cv[2]:.2f}.")
    else:
        head.append("# No threshold: too few examples to choose one (the crawl's default and "
                    "automatic threshold apply).")
    out = head + ["", f"name = {_toml_string(t['name'])}"]
    if t.get("description"):
        out.append(f"description = {_toml_string(t['description'])}")
    if t.get("languages"):
        out += ["# the positive examples' languages, whose rules read the terms",
                f"languages = {_toml_list(t['languages'])}"]
    if "threshold" in t:
        out.append(f"threshold = {t['threshold']}")
    f = t["features"]
    out += ["", "[features]",
            f"subjects = {_toml_list(f['subjects'])}",
            f"terms = {_toml_list(f['terms'])}",
            f"judgments = {_toml_list(f['judgments'])}", ""]
    text = "\n".join(out)
    topic_from_dict(tomllib.loads(text), "<draft>")      # what is written loads back
    return text


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m crawler.topic_draft", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True, help="the topic's name")
    ap.add_argument("--description", default="")
    ap.add_argument("--positive", nargs="+", required=True, metavar="SRC",
                    help="pages of the topic: URLs, HTML files, directories, @FILE lists")
    ap.add_argument("--negative", nargs="+", required=True, metavar="SRC",
                    help="pages the crawl should leave out (same forms)")
    ap.add_argument("-o", "--output", type=Path, help="write here (default: standard output)")
    ap.add_argument("--terms", type=int, default=60, help="at most this many terms (60)")
    ap.add_argument("--subjects", type=int, default=20, help="at most this many subjects (20)")
    ap.add_argument("--folds", type=int, default=5,
                    help="cross-validation folds for the threshold (5; 0: no threshold)")
    ap.add_argument("--threshold-rule", choices=sorted(THRESHOLD_RULES), default="recall",
                    help="keep 75%% of the positive examples (recall, default) or the best F1 "
                         "on the examples (f1)")
    args = ap.parse_args(argv)

    def warn(message: str) -> None:
        print(message, file=sys.stderr)

    positives = load_examples(args.positive, warn)
    negatives = load_examples(args.negative, warn)
    try:
        d = draft(args.name, positives, negatives, n_terms=args.terms,
                  n_subjects=args.subjects, folds=args.folds,
                  threshold_rule=args.threshold_rule, description=args.description)
    except (DraftError, TopicError) as err:     # (TopicError: a name no topic file takes)
        print(f"topic_draft: {err}", file=sys.stderr)
        return 2
    text = to_toml(d)
    if args.output:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as err:
            print(f"topic_draft: cannot write {args.output}: {err.strerror or err}",
                  file=sys.stderr)
            return 2
        print(f"wrote {args.output}: {len(d.subjects)} subjects, {len(d.terms)} terms"
              + (f", threshold {written_threshold(d.threshold)}" if d.threshold is not None
                 else ""),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
