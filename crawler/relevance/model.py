"""Page relevance of S2 (ALGORITHMS.md §8.7-§8.8): tag blocks, concept substitution, TF-IDF with
position weights, similarity with the topic vector, threshold η.

Reading R1 (default, §8.7): one page vector built from ``u_t = (Σ_l f_l(t)·tf_{t,l})·idf_t``
with position weights ``f_l(t) = λ_type(l)`` [DEFAULT (14)] (option
``position_weights="block"``: the Definition-2 block weight).  Reading R2 (option):
``R_type = sim(vector of the blocks of that type, T)`` per type, ``R = Σ λ_type·R_type``.

Normalisation (13), option ``normalise`` [DEFAULT]:

- ``"type"`` (default): the vector of each block type is scaled to unit length before the
  λ-weighted sum, so each type carries its λ share whatever its length (the weighted sum
  ``R(wp)`` of §8.7 realised in one vector).  With the literal reading a title counts for
  nothing next to 2,000 words of body text.
- ``"page"``: the literal (13), one length normalisation of the whole page vector.

Similarity (15), option ``similarity``; the topic vector is 1.0 per concept [DEFAULT] (option
``category_weights``, scaled by their maximum in the two projections):

- ``"hellinger"`` (default) [DEFAULT, not from the source]: the projection below computed on the
  square roots of the term weights, ``sqrt(Σ_{t∈T} c_t·u_t / Σ_t u_t)``: the square root of
  the share of the page's weighted term mass that the topic's concepts carry.  It does not
  depend on how many terms the topic file lists and rewards several matched concepts as much
  as one repeated concept; one threshold (0.2) served eight different topics in the offline
  evaluation (``bench/relevance_offline.py``).
- ``"projection"`` [DEFAULT]: ``cos(w', projection of w' on the topic concepts) =
  sqrt(Σ_{t∈T} (c_t·w'_t)²)``, dominated by the single strongest concept.
- ``"cosine"``: the literal (15) [RECON], ``Σ_t w'_t·c_t / ||c||``.  Its value shrinks as
  ``1/sqrt(|T|)`` with the size of the topic library, so no threshold carries over between
  topics.

Concept cap, option ``min_concepts`` [not from the source; off by default]: with the
"hellinger" and "projection" similarities the score is ``sqrt(Σ_t part_t)`` over the topic
concepts; ``min_concepts=k`` caps each concept's part at ``η² / k``, so no single concept can
carry a page to the threshold: a relevant page needs at least ``k`` concepts at the cap (or
more, less prominent ones).  Without it, a page about one topic word used in another sense
("binary" star, Arctic "circle", "Saint" Kitts) or about one listed name (the biography of a
listed person) scores like a page spread over the topic's vocabulary; with it, so does a page
about one genuine concept of the topic (a page on "Islam" for a religion topic) score lower.
``None`` (default) leaves the parts uncapped; the "cosine" similarity is never capped.

Concept substitution (§8.8): every synonym variant (multi-word ones too, as phrases) is
replaced by its concept before counting.  Terms learnt by a :class:`~.library.FeatureLibrary`
extend the topic vector (the ETFL of §8.4).
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, combinations, repeat
from operator import add, mul
from typing import Any

from extraction.document import TEXT, Document
from extraction.metadata import detect_language

from .blocks import NAV_LINK_DENSITY, tag_blocks
from .frequencies import DocumentFrequencies, atomic_write_text
from .library import Candidate, FeatureLibrary
from .tokenize import (
    STOP_MARK,
    PhraseMatcher,
    first_surfaces,
    is_stop_key,
    key_info,
    lexicon,
    phrase_key,
    same_language,
    surfaces,
    term_tokens,
    tokenize,
)
from .topic import CATEGORIES, Topic

__all__ = [
    "LAMBDA",
    "THRESHOLD",
    "BlockTerms",
    "DocumentFrequencies",
    "FeatureLibrary",
    "PageTerms",
    "Relevance",
    "RelevanceModel",
    "TopicVector",
    "atomic_write_text",
    "build_topic_vector",
]

log = logging.getLogger(__name__)

# [DEFAULT] §8.7 block-type weights λ (placeholders; the source gives none).
LAMBDA = {"title": 0.3, "content": 0.4, "anchor": 0.15, "navigation": 0.05, "other": 0.1}
# [DEFAULT] relevance threshold η (= θ of §8.8), for the default "hellinger" similarity.
THRESHOLD = 0.2
READINGS = ("R1", "R2")
SIMILARITIES = ("hellinger", "projection", "cosine")
NORMALISATIONS = ("type", "page")
CONCEPT_MEMO_MAX = 1 << 18   # texts whose concept hits a topic vector remembers
MAX_UNMARKED = 4     # [ours] stop-listed words of a term read either way (2**4 variants)


@dataclass(frozen=True)
class TopicVector:
    """The topic side: concept key -> weight, category and display label; the substitution
    template (variant key -> concept key) and the phrase matcher of all multi-token terms."""

    weights: Mapping[str, float]
    category: Mapping[str, str]
    label: Mapping[str, str]
    template: Mapping[str, str]
    matcher: PhraseMatcher
    language: str | None = None     # whose lexicon made the keys (None: English)
    # text -> concept_hits(text); the vector never changes (a grown library builds a new one)
    _hits: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.weights)

    @cached_property
    def known_terms(self) -> frozenset[str]:
        """Concept keys and variant keys: the terms the feature library never proposes."""
        return frozenset(self.weights) | frozenset(self.template)

    def concept_hits(self, text: str) -> float:
        """Summed weight of the topic concepts among the tokens of ``text`` (phrases joined,
        variants substituted).  Remembered per text: anchor and context texts recur.  Han is
        segmented only in a text that is itself Chinese (a stray name in an English context
        does not load jieba)."""
        hits = self._hits.get(text)
        if hits is None:
            if len(self._hits) >= CONCEPT_MEMO_MAX:
                self._hits.clear()
            keys = self.matcher.join(tokenize(text, segment_han=None, language=self.language))
            hits = self._hits[text] = float(sum(self.weights.get(self.template.get(k, k), 0.0)
                                                for k in keys))
        return hits


def build_topic_vector(topic: Topic, category_weights: Mapping[str, float] | None = None,
                       extra: Mapping[str, tuple[str, str]] | None = None,
                       language: str | None = None) -> TopicVector:
    """Topic vector of ``F_b ∪ F_s ∪ F_v`` plus synonym concepts (as ``terms`` when not listed)
    plus ``extra`` learnt terms ``{key: (category, label)}``; weight = the category weight.
    Its keys are those of pages in ``language`` (:func:`~.tokenize.lexicon`: stop words and
    stemmer).  A term holding a word of that language's stop list (French *force*, Portuguese
    *Sistema Solar*) keeps it as a marked key, and the word's stem is a variant of it
    (*sistemas solares* is a variant of *Sistema Solar*), each such word either way (*sistemas
    de arquivos*: *sistema* stemmed, *de* kept), in synonyms' variants too."""
    lex = lexicon(language)
    language = lex.code
    cw = {c: 1.0 for c in CATEGORIES}
    cw.update(category_weights or {})
    weights: dict[str, float] = {}
    category: dict[str, str] = {}
    label: dict[str, str] = {}
    phrases: list[tuple[str, ...]] = []
    unmarked: list[tuple[tuple[str, ...], str]] = []

    def add(term: str, cat: str) -> str | None:
        toks = term_tokens(term, language)
        if not toks:
            return None
        key = phrase_key(toks)
        if len(toks) > 1:
            phrases.append(toks)
        if key not in weights:
            weights[key], category[key], label[key] = float(cw.get(cat, 1.0)), cat, term
            if STOP_MARK in key:
                unmarked.append((toks, key))
        return key

    for cat, items in topic.features().items():
        for term in items:
            add(term, cat)
    template: dict[str, str] = {}
    for concept, variants in topic.synonyms.items():
        ckey = add(concept, "terms")
        if ckey is None:
            continue
        for v in variants:
            toks = term_tokens(v, language)
            if toks:
                if len(toks) > 1:
                    phrases.append(toks)
                vkey = phrase_key(toks)
                if vkey != ckey:
                    template.setdefault(vkey, ckey)
                    if STOP_MARK in vkey:
                        unmarked.append((toks, ckey))
    for toks, key in unmarked:
        # a stop-listed word of a term may be a content word, as pages stem it when inflected
        # (sistemas de arquivos, forces de gravité), or the function word it is (de): every
        # choice of them, at most MAX_UNMARKED of a term's
        marked = [i for i, t in enumerate(toks) if t.startswith(STOP_MARK)][:MAX_UNMARKED]
        for n in range(1, len(marked) + 1):
            for chosen in combinations(marked, n):
                plain = tuple(lex.stem(t[1:]) if i in chosen else t for i, t in enumerate(toks))
                if len(plain) > 1:
                    phrases.append(plain)
                template.setdefault(phrase_key(plain), key)
    for key, (cat, lab) in (extra or {}).items():
        if key not in weights and key not in template:
            weights[key], category[key], label[key] = float(cw.get(cat, 1.0)), cat, lab
            if " " in key:
                phrases.append(tuple(key.split(" ")))
    return TopicVector(weights, category, label, template, PhraseMatcher(phrases), language)


@dataclass
class BlockTerms:
    """The counted concept-page terms of one tag block."""

    type: str
    weight: float
    counts: Counter


@dataclass
class PageTerms:
    """A page analysed into blocks of concept terms (after substitution, §8.8).

    ``surface`` maps each token key to its first surface form on the page; :meth:`analyse`
    leaves it to be computed on first access (only the feature library reads it, and only
    for relevant pages).  It reads and assigns like the plain field it is declared as."""

    blocks: list[BlockTerms] = field(default_factory=list)
    language: str | None = None
    url: str | None = None
    reason: str | None = None
    surface: dict[str, str] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def terms(self) -> set[str]:
        """Distinct terms of the page: what :meth:`DocumentFrequencies.add` counts."""
        out: set[str] = set()
        for b in self.blocks:
            out.update(b.counts)
        return out

    def totals(self) -> Counter:
        total: Counter = Counter()
        for b in self.blocks:
            total.update(b.counts)
        return total

    def surfaces_of(self, keys: Iterable[str]) -> dict[str, str]:
        """``surface`` restricted to ``keys`` (those on the page), without computing the
        whole of it when it is still deferred."""
        units = self.__dict__.get("_surface_units")
        if units is None:
            surface = self.surface
            return {k: surface[k] for k in keys if k in surface}
        return first_surfaces(chain.from_iterable(units), keys, self.language)

    def _defer_surface(self, units: list[Iterable[str]]) -> None:
        """Let ``surface`` be computed on first access from the blocks' distinct units (see
        :func:`~.tokenize.key_info`), in page order."""
        self.__dict__["_surface_units"] = units


def _get_surface(self: PageTerms) -> dict[str, str]:
    state = self.__dict__
    units = state.get("_surface_units")
    if units is not None:                   # deferred by analyse(): compute it now
        state["_surface"] = surfaces(dict.fromkeys(chain.from_iterable(units)), self.language)
        state.pop("_surface_units", None)
    return state["_surface"]


def _set_surface(self: PageTerms, value: dict[str, str]) -> None:
    self.__dict__.pop("_surface_units", None)
    self.__dict__["_surface"] = value


# the dataclass field ``surface`` (constructor argument, repr, eq, asdict) read through this
PageTerms.surface = property(_get_surface, _set_surface,  # type: ignore[assignment]
                             doc="Token key -> its first surface form on the page.")


@dataclass(frozen=True)
class Relevance:
    """Score in [0, 1], the decision, per-block-type contributions (they sum to the score) and
    the matched concepts (label -> contribution); ``reason`` says why a score is forced to 0."""

    score: float
    relevant: bool
    threshold: float
    by_type: dict[str, float] = field(default_factory=dict)
    matched: dict[str, float] = field(default_factory=dict)
    language: str | None = None
    reason: str | None = None
    url: str | None = None
    reading: str = "R1"

    def to_dict(self) -> dict[str, Any]:
        return {"score": round(self.score, 6), "relevant": self.relevant,
                "threshold": self.threshold, "reading": self.reading,
                "by_type": {k: round(v, 6) for k, v in self.by_type.items()},
                "matched": {k: round(v, 6) for k, v in self.matched.items()},
                "language": self.language, "reason": self.reason, "url": self.url}


class RelevanceModel:
    """Scores pages against one topic (§8.7-§8.8).

    ``stats`` supplies the IDF (shared and fed by the caller: ``stats.add(page.terms)``);
    ``library`` (optional) adds its accepted terms to the topic vector.  Options (defaults
    first, see the module docstring): ``reading`` R1/R2, ``position_weights`` "type"/"block",
    ``normalise`` "type"/"page", ``similarity`` hellinger/projection/cosine, ``lambdas``,
    ``category_weights``, ``threshold`` (else the topic's, else :data:`THRESHOLD`),
    ``sublinear_tf`` (``1 + log tf`` per block; off = the source's raw counts),
    ``min_concepts`` (cap of one concept's part at ``η²/min_concepts``; None = uncapped),
    ``nav_link_density`` and ``block_options`` (``lambda0``, ``lambda1``, ``impact1`` of
    :func:`~.blocks.tag_blocks`).
    """

    def __init__(self, topic: Topic, stats: DocumentFrequencies | None = None, *,
                 library: FeatureLibrary | None = None, reading: str = "R1",
                 position_weights: str = "type", normalise: str = "type",
                 similarity: str = "hellinger",
                 lambdas: Mapping[str, float] | None = None,
                 category_weights: Mapping[str, float] | None = None,
                 threshold: float | None = None, sublinear_tf: bool = False,
                 min_concepts: float | None = None,
                 nav_link_density: float = NAV_LINK_DENSITY,
                 block_options: Mapping[str, Any] | None = None):
        if reading not in READINGS:
            raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
        if similarity not in SIMILARITIES:
            raise ValueError(f"similarity must be one of {SIMILARITIES}, got {similarity!r}")
        if position_weights not in ("type", "block"):
            raise ValueError("position_weights must be 'type' or 'block', "
                             f"got {position_weights!r}")
        if normalise not in NORMALISATIONS:
            raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
        self.topic = topic
        self.stats = stats if stats is not None else DocumentFrequencies()
        self.library = library
        self.reading, self.position_weights, self.similarity = reading, position_weights, similarity
        self.normalise = normalise
        self.lambdas = dict(LAMBDA, **(lambdas or {}))
        self.category_weights = dict(category_weights or {})
        if threshold is None:
            threshold = topic.threshold if topic.threshold is not None else THRESHOLD
        if min_concepts is not None and not min_concepts > 0:
            raise ValueError(f"min_concepts must be positive or None, got {min_concepts!r}")
        self.min_concepts = min_concepts
        self.set_threshold(threshold)
        self.sublinear_tf = sublinear_tf
        self.block_options = dict(block_options or {}, nav_link_density=nav_link_density)
        self._library_version = -1
        self._vectors: dict[str | None, TopicVector] = {}

    # ------------------------------------------------------------------ topic side
    @property
    def vector(self) -> TopicVector:
        """The current topic vector in the topic's first language (English when it names
        none): the one a text of no known language is scored with."""
        return self.vector_for(self.topic.languages[0] if self.topic.languages else None)

    def vector_for(self, language: str | None) -> TopicVector:
        """The current topic vector with the keys of pages in ``language`` (built once per
        language; all rebuilt when the library accepted new terms)."""
        version = self.library.version if self.library is not None else 0
        if version != self._library_version:
            self._vectors.clear()
            self._library_version = version
        vec = self._vectors.get(language)       # (keyed by the code as given, and by lexicon)
        if vec is None:
            code = lexicon(language).code
            vec = self._vectors.get(code)
            if vec is None:
                extra = self.library.accepted(code) if self.library is not None else None
                vec = self._vectors[code] = build_topic_vector(
                    self.topic, self.category_weights, extra, code)
            self._vectors[language] = vec
        return vec

    def learn(self, page: PageTerms, relevance: Relevance) -> list[Candidate]:
        """Feed a scored page to the dynamic library (if any); returns newly accepted terms.
        The topic vector picks them up on the next score."""
        if self.library is None:
            return []
        return self.library.observe(page, relevance, self.vector_for(page.language),
                                    self.stats.idf_many)

    def set_threshold(self, threshold: float) -> None:
        """Use η = ``threshold`` from the next page on (and the concept cap that follows
        from it)."""
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold {threshold} outside [0, 1]")
        self.threshold = float(threshold)
        # the cap of one concept's part of the squared score (None: uncapped)
        self._part_cap = (self.threshold ** 2 / self.min_concepts
                          if self.min_concepts is not None and self.threshold > 0 else None)

    # ------------------------------------------------------------------ page side
    def analyse(self, doc: Document, main_text: str | None, url: str | None = None,
                language: str | None = None) -> PageTerms:
        """Blocks of concept terms of a parsed page (never raises).  ``language``: the page's
        language when the caller has it (the extraction's, detected on the same main text);
        detected here otherwise; undetected on a topic that names languages, its first."""
        url = url or doc.url
        try:
            blocks = tag_blocks(doc, main_text, **self.block_options)
        except (RecursionError, MemoryError, ValueError, IndexError) as err:
            return PageTerms(url=url, reason=f"block model failed: {err!r}")
        if not blocks:
            return PageTerms(url=url, reason="no text in the page")
        sample = main_text or " ".join(b.content for b in blocks if b.type != "navigation")
        if language is None:
            html = doc.root if getattr(doc.root, "tag", None) == "html" else None
            language = detect_language(sample[:5000],
                                       html.get("lang") if html is not None else None)
        languages = self.topic.languages
        if language is None and languages:
            language = languages[0]     # (undetected: read as the topic's, like its links)
        page = PageTerms(language=language, url=url, info={"blocks": len(blocks)})
        if languages and not same_language(language, languages):
            # (rejected by score_page: not read with its language's lexicon, and no page of
            # the IDF statistics: ``off_language``)
            page.reason = _off_language(language, languages)
            page.info["off_language"] = True
            return page
        vec = self.vector_for(language)
        marked = vec.language is not None
        join = vec.matcher.join if vec.matcher else None
        substitute = vec.template.get if vec.template else None
        seen: list[Iterable[str]] = []
        segment_han = language == "zh"
        for b in blocks:
            keys, distinct = key_info(b.content, segment_han, language)
            if not keys:
                continue
            seen.append(distinct)
            if join is not None:
                keys = join(keys)
            counts = Counter(keys if substitute is None else map(substitute, keys, keys))
            if marked:          # the language's stop words that are no concept of the topic
                for k in [k for k in counts if is_stop_key(k) and k not in vec.weights]:
                    del counts[k]
                if not counts:
                    continue
            page.blocks.append(BlockTerms(b.type, b.weight, counts))
        page._defer_surface(seen)      # first surface of each key: computed when first read
        if not page.blocks:
            page.reason = "no indexable words in the page"
        return page

    def score(self, doc: Document | None, main_text: str | None,
              url: str | None = None) -> Relevance:
        """Relevance of a parsed page given its extracted main text; never raises."""
        if doc is None or doc.size == 0 or not (doc.kind == TEXT).any():
            return self._zero("empty page: no text", url)
        try:
            return self.score_page(self.analyse(doc, main_text, url))
        except Exception as err:  # a bug must not stop a crawl: report it on the page
            log.exception("relevance scoring failed on %s", url or doc.url)
            return self._zero(f"internal error: {err!r}", url or doc.url)

    def score_html(self, html: str | bytes | None, url: str | None = None, *,
                   method: str = "auto", content_type: str | None = None) -> Relevance:
        """Parse, extract (``method``) and score raw HTML; bad input scores 0 with a reason."""
        from extraction import ParseError, extract_document, parse

        try:
            doc = parse(html, url, content_type)
        except ParseError as err:
            return self._zero(f"not scored: {err}", url)
        result = extract_document(doc, method=method)
        return self.score(doc, result.text, url)

    def score_page(self, page: PageTerms) -> Relevance:
        """Relevance of an analysed page (R1 or R2)."""
        if page.reason or not page.blocks:
            return self._zero(page.reason or "no text", page.url, page.language)
        langs = self.topic.languages
        if langs and page.language and not same_language(page.language, langs):
            return self._zero(_off_language(page.language, langs), page.url, page.language)
        vec = self.vector_for(page.language)
        by_type: dict[str, float] = {}
        contrib: dict[str, float] = {}
        if self.reading == "R1":
            per_type = self._type_vectors(page.blocks, weighted=True)
            if self.normalise == "type":
                norms = {bt: _norm(u) for bt, u in per_type.items()}
                per_type = {bt: _scaled(u, self._type_share(page.blocks, bt) / norms[bt])
                            for bt, u in per_type.items() if norms[bt] > 0}
            total: dict[str, float] = {}
            for u in per_type.values():
                _accumulate(total, u.keys(), u.values())
            score, contrib = self._similarity(total, vec)
            for bt, u in per_type.items():  # split each concept's share by block type
                by_type[bt] = sum(c * u.get(t, 0.0) / total[t] for t, c in contrib.items())
        else:
            score = 0.0
            for bt, u in self._type_vectors(page.blocks, weighted=False).items():
                s, c = self._similarity(u, vec)
                lam = self.lambdas[bt]
                by_type[bt] = lam * s
                score += lam * s
                for t, x in c.items():
                    contrib[t] = contrib.get(t, 0.0) + lam * x
        score = min(1.0, max(0.0, score))
        matched = {vec.label[t]: x for t, x in sorted(contrib.items(), key=lambda kv: -kv[1])}
        return Relevance(score=score, relevant=score >= self.threshold, threshold=self.threshold,
                         by_type={k: v for k, v in by_type.items() if v > 0}, matched=matched,
                         language=page.language, url=page.url, reading=self.reading)

    # ------------------------------------------------------------------ internals
    def _zero(self, reason: str, url: str | None, language: str | None = None) -> Relevance:
        return Relevance(0.0, False, self.threshold, reason=reason, url=url, language=language,
                         reading=self.reading)

    def _position_weight(self, b: BlockTerms) -> float:
        """f_l(t) (14): λ of the block's type, or its Definition-2 weight."""
        return self.lambdas[b.type] if self.position_weights == "type" else b.weight

    def _type_share(self, blocks: list[BlockTerms], btype: str) -> float:
        """Weight of a whole block type: λ_type, or the sum of its blocks' Definition-2
        weights."""
        if self.position_weights == "type":
            return self.lambdas[btype]
        return sum(b.weight for b in blocks if b.type == btype)

    def _type_vectors(self, blocks: list[BlockTerms], weighted: bool
                      ) -> dict[str, dict[str, float]]:
        """Per block type: ``Σ_l f_l·tf_{t,l} · idf_t`` (``weighted``) or ``Σ_l tf_{t,l} ·
        idf_t`` (``f_l`` kept only for Definition-2 weights, as within-type weights)."""
        out: dict[str, dict[str, float]] = {}
        use_f = weighted or self.position_weights == "block"
        sublinear = self.sublinear_tf
        log = math.log
        for b in blocks:
            f = self._position_weight(b) if use_f else 1.0
            if f <= 0:
                continue
            counts = b.counts
            u = out.get(b.type)
            if sublinear:
                if u is None:
                    out[b.type] = {t: f * (1.0 + log(tf)) for t, tf in counts.items()}
                else:
                    get = u.get
                    for t, tf in counts.items():
                        u[t] = get(t, 0.0) + f * (1.0 + log(tf))
            elif u is None:             # 0.0 + x == x: the first block of a type starts it
                out[b.type] = dict(zip(counts, map(mul, repeat(f), map(float, counts.values()))))
            else:                       # (a plain loop beats C-level maps on small blocks)
                get = u.get
                for t, tf in counts.items():
                    u[t] = get(t, 0.0) + f * float(tf)
        idf_many = self.stats.idf_many
        for bt, u in out.items():
            out[bt] = dict(zip(u, map(mul, u.values(), idf_many(u))))
        return out

    def _similarity(self, u: Mapping[str, float], vec: TopicVector
                    ) -> tuple[float, dict[str, float]]:
        """(similarity of page vector ``u`` with the topic, contribution of each concept);
        the contributions sum to the similarity."""
        weights = vec.weights
        hits = {t: u[t] for t in filter(weights.__contains__, u) if u[t] > 0}
        if not hits:
            return 0.0, {}
        if self.similarity == "cosine":
            norm = _norm(u)
            tnorm = math.sqrt(sum(w * w for w in weights.values()))
            if not norm or not tnorm:
                return 0.0, {}
            contrib = {t: weights[t] * x / (norm * tnorm) for t, x in hits.items()}
            return sum(contrib.values()), contrib
        wmax = max(weights.values()) or 1.0
        if self.similarity == "projection":
            norm = _norm(u)
            parts = {t: (weights[t] / wmax * x / norm) ** 2 for t, x in hits.items()}
        else:  # hellinger: the projection computed on the square roots of the weights
            mass = sum(u.values())
            parts = {t: weights[t] / wmax * x / mass for t, x in hits.items()}
        cap = self._part_cap
        if cap is not None:
            parts = {t: (p if p < cap else cap) for t, p in parts.items()}
        score = math.sqrt(sum(parts.values()))
        if score == 0:
            return 0.0, {}
        return score, {t: p / score for t, p in parts.items() if p > 0}


def _off_language(language: str, languages: tuple[str, ...]) -> str:
    return f"page language {language!r} not in the topic's {list(languages)}"


def _accumulate(acc: dict[str, float], keys: Iterable[str], values: Iterable[float]) -> None:
    """``acc[t] = acc.get(t, 0.0) + x`` for each (distinct) ``t`` with its ``x``, in order: the
    same floats and the same key order as that loop, without a bytecode step per term."""
    keys = list(keys)
    acc.update(zip(keys, list(map(add, map(acc.get, keys, repeat(0.0)), values))))


def _scaled(u: Mapping[str, float], factor: float) -> dict[str, float]:
    return {t: x * factor for t, x in u.items()}


def _norm(u: Mapping[str, float]) -> float:
    return math.sqrt(sum(map(mul, u.values(), u.values())))
