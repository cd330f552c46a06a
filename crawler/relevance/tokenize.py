"""Tokens for topic relevance (ALGORITHMS.md §8.5, §10.3): English, Chinese and, per page
language, the other languages (:class:`Lexicon`).

A text is cut into runs by script.  **Han runs** are segmented with jieba (a real
dictionary/HMM segmenter, loaded lazily on first use, its start-up log silenced).  **Other
runs** are cut into word runs (letters and digits, inner apostrophes, a trailing ``+``/``#`` so
that ``C++`` and ``C#`` survive) and normalised by :func:`fold`.  So the tokeniser is chosen per
run by script.  The relevance model segments Han runs only on pages it detects as Chinese:
on any other page a Han run (a name in its original script) is one token, so an English page
never loads jieba (about 1.2 s, once per process).

English normalisation [DEFAULT], kept deliberately light (a crawler filter, not a linguist):

1. lower-case, drop a possessive ``'s``;
2. stop words (:data:`EN_STOP`), pure numbers and single letters are dropped; a hyphenated
   word gives its parts, single letters included (``e-mail`` -> ``e mail``);
3. plurals: ``-ies`` -> ``-y``; ``-sses/-shes/-ches/-xes/-zes`` lose ``-es``; a final ``-s``
   goes unless the word ends in ``-ss``, ``-us`` or ``-is`` (``computers`` -> ``computer``,
   ``processes`` -> ``process``, ``virus`` stays);
4. ``-ing``/``-ed`` go when at least 4 letters with a vowel remain, a doubled final consonant
   is undoubled (``programming``, ``programmed`` -> ``program``);
5. a final ``-e`` goes from words longer than 4 letters (``release``, ``released``,
   ``releases``, ``releasing`` -> ``releas``); a final ``-ie`` becomes ``-y`` as ``-ies`` does
   (``movie``, ``movies`` -> ``movy``).

Text is read in NFKC (full-width letters, decomposed accents, ligatures) without invisible
characters (soft hyphens, zero-width spaces and joiners), and a word keeps its combining marks
(Hindi, Thai, vowelled Arabic).

Other languages [DEFAULT, not from the source]: a page's key words depend on its language
(:func:`lexicon`): the Snowball stemmer of the language (PyStemmer: German, French, Spanish,
Russian, Polish, ... 33 languages) and its stop words (``stopwordsiso``) replace English
steps 2-5; its stop words are marked keys (:data:`STOP_MARK`), which the relevance model
drops from a page unless they are a concept of its topic (the lists hold content words:
French *force*, Portuguese *Sistema Solar*).  Japanese runs of Han and kana are segmented by
MeCab (``fugashi``, ``unidic-lite``) into dictionary forms, and not read in simplified
Chinese forms; Korean runs by MeCab-ko (``python-mecab-ko``) into morphemes; Thai and Lao
runs by their dictionary segmenters (PyThaiNLP, LaoNLP) into words
(:class:`SpacelessScript`); Khmer and Burmese runs into syllables (:class:`SyllableScript`).
The topic's terms are read with the same lexicon as the page (:class:`~.model.RelevanceModel`
builds one topic vector per language).

Keys are internal; show users the original terms.  Chinese: stop words (:data:`ZH_STOP`) and
punctuation are dropped, Latin words inside Chinese text get the English treatment.

Multi-word topic terms are matched as phrases by :class:`PhraseMatcher`, which joins a matching
token sequence into one token (``operating system`` -> ``"operat system"``).  Chinese topic
terms are also added to the segmenter's dictionary (:func:`term_tokens`), so that jieba keeps
them whole; a longer dictionary word that holds one (足球 in 中国足球队) gives the topic term
too, after itself.

Speed (the tokeniser runs on every block of every page): a text without Han characters is cut
with one ``findall`` of a Han-free word pattern (equivalent there) and each word run is mapped
through a cached table; short Han-free texts (anchor and navigation texts repeat across the
pages of a site) are cached whole.  Han text is never cached whole, since adding topic terms
to the segmenter changes its segmentation.
"""
from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import chain
from operator import itemgetter

HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def _mark_class() -> str:
    """The combining marks of the Basic Multilingual Plane (categories Mn, Mc, Me), as a regex
    character class body: ``\\w`` leaves them out, which cut Hindi, Thai or vowelled Arabic
    words at every vowel sign."""
    spans, start = [], None
    for cp in range(0x10000):
        if unicodedata.category(chr(cp)) in ("Mn", "Mc", "Me"):
            if start is None:
                start = cp
        elif start is not None:
            spans.append((start, cp - 1))
            start = None
    return "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "")
                   for a, b in spans)


MARKS = _mark_class()
# a letter run: letters and digits with the combining marks that follow them
_L = rf"[^\W_{HAN_CLASS}]+(?:[{MARKS}]+[^\W_{HAN_CLASS}]*)*"
_W = rf"{_L}(?:['’]{_L})*"
_RUN = re.compile(rf"(?P<han>[{HAN_CLASS}]+)|(?P<word>{_W}(?:-{_W})*[+#]*)")
# invisible characters inside words: soft hyphen, zero-width space (a line-break hint, which
# the extractors remove too), zero-width (non-)joiners, word joiner, BOM
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_INVISIBLE_RE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


def normal_text(text: str, simplify_han: bool = True) -> str:
    """``text`` as the tokeniser reads it: NFKC (full-width ``Ｐｙｔｈｏｎ`` is ``Python``, a
    decomposed accent is one letter, a ligature its letters) without invisible characters
    (``vol\u00adcano`` is ``volcano``), Han in its simplified forms unless ``simplify_han`` is
    false (Japanese).  ASCII text is returned as it is."""
    if text.isascii():
        return text
    if _INVISIBLE_RE.search(text) is not None:      # first: "e\u00ad\u0301" is then é
        text = text.translate(_INVISIBLE)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    if simplify_han and _HAN.search(text) is not None:
        text = simplified(text)
    return text


_CONVERTER: list = []


def simplified(text: str) -> str:
    """``text`` with its Traditional Chinese characters in their Simplified forms (OpenCC's
    character-level ``t2s``: 電腦軟件 is 电脑软件, 資訊 资讯), so that a topic written in either
    script and the pages of Hong Kong, Taiwan and the mainland meet on the same keys.
    Simplified text passes unchanged and a second reading changes nothing (a topic term is
    read twice).  Words that differ between Taiwan and the mainland (軟體 / 软件) stay apart:
    OpenCC's phrase tables (``tw2sp``) also rewrite mainland words (影片 as 视频, 尼日尔 as
    尼日尔尔) and give a term and the same word on a page different keys.  The converter
    loads on the first Han text."""
    if not _CONVERTER:
        with _SEG_LOCK:
            if not _CONVERTER:
                import opencc
                _CONVERTER.append(opencc.OpenCC("t2s"))
    return _CONVERTER[0].convert(text)


_HAN = re.compile(f"[{HAN_CLASS}]")
_HAN_RUN = re.compile(f"[{HAN_CLASS}]+")
_HAN_SPLIT = re.compile(f"([{HAN_CLASS}]+)")
_VOWELS = frozenset("aeiouy")
# The word alternative of _RUN for text known to hold no Han character (there the Han exclusion
# changes nothing).  Possessive quantifiers: every later part of the pattern starts with a
# character the previous part cannot match and is optional, so backtracking never changes the
# match; it only costs time.
_L0 = rf"[^\W_]++(?:[{MARKS}]++[^\W_]*+)*+"
_W0 = rf"{_L0}(?:['’]{_L0})*+"
_WORD_NO_HAN = re.compile(rf"{_W0}(?:-{_W0})*+[+#]*+")
_CACHE_TEXT_CHARS = 400     # Han-free texts up to this length are cached whole
_CACHE_TEXTS = 32_768       # ... up to this many of them

EN_STOP = frozenset("""
a about above after again against all almost also although always am among an and another any
are around as at be became because become becomes been before being below between both but by
can could did do does doing done down during each either else etc even ever every few for from
further had has have having he her here hers herself him himself his how however i if in into is
it its itself just least less like made make many may me might more most much must my myself
near neither no nor not now of off often on once one only or other others our ours ourselves out
over own per quite rather same several shall she should since so some still such than that the
their theirs them themselves then there these they this those though through thus to too under
until up upon us use used using very via was we well were what when where whether which while who
whom whose why will with within without would yet you your yours yourself yourselves
""".split())  # noqa: SIM905

ZH_STOP = frozenset("""
的 了 是 在 和 与 及 或 等 也 就 都 而 及其 以及 并 并且 之 其 这 那 这个 那个 这些 那些 一个 一些 我 你 他 她 它 我们 你们 他们 她们 它们 自己 什么
怎么 如何 为 为了 对 对于 从 到 把 被 让 给 向 由 于 上 下 中 内 外 将 已 已经 曾 会 能 可 可以 要 应 应该 还 又 再 很 更 最 没有 没 不 无 非 有 个
些 每 各 某 啊 吧 呢 吗 嗯 如果 因为 所以 但是 但 然而 虽然 因此 而且 或者 即 即使 以 以及 之一 等等 其中 通过 进行 由于 所 该 此
""".split())  # noqa: SIM905

log = logging.getLogger(__name__)

_SEGMENTER = None
_SEG_LOCK = threading.Lock()


def segmenter():
    """The shared jieba tokenizer, created on first use (about 1-3 s to load its dictionary)."""
    global _SEGMENTER
    if _SEGMENTER is None:
        with _SEG_LOCK:
            if _SEGMENTER is None:
                import jieba  # heavy import: only when Chinese text is seen

                jieba.setLogLevel(logging.WARNING)
                seg = jieba.Tokenizer()
                seg.initialize()
                _SEGMENTER = seg
    return _SEGMENTER


def has_han(text: str) -> bool:
    return _HAN.search(text) is not None


def detect_script(text: str) -> str:
    """``"zh"`` when Han characters make up more than 20% of the non-space characters, else
    ``"en"`` (the Latin-script treatment)."""
    sample = text[:5000]
    solid = max(1, sum(1 for c in sample if not c.isspace()))
    return "zh" if len(_HAN.findall(sample)) / solid > 0.2 else "en"


def fold(word: str) -> str:
    """English normalisation of one lower-case word (steps 3-5 of the module docstring)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        stem = word[:-len(suffix)]
        if word.endswith(suffix) and len(stem) >= 4 and _VOWELS.intersection(stem):
            if stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]
            word = stem
            break
    if len(word) > 4 and word.endswith("e"):
        # "-ie" as "-ies" folds (movie, movies -> movy)
        word = word[:-2] + "y" if word.endswith("ie") else word[:-1]
    return word


# the elided articles, pronouns and prepositions of French and Italian glued to the next word
# by an apostrophe (l'ordinateur, d'énergie, qu'il, dell'energia, all'interno): the word is
# the part after it.  English words do not start so ("don't", "o'clock" are left as they were)
_ELIDED = re.compile(r"^(?:[ldjmnstc]|qu|jusqu|lorsqu|puisqu|quoiqu|dell|dall|nell|sull|all"
                     r"|coll|dev|un|quell|quest|tutt|nessun|buon|bell)'(?=[^\W\d_]{2})")


def _words(word: str) -> tuple[list[str], bool]:
    """The lower-case words of one word run as :func:`_latin` judges them, and whether the run
    was split (hyphenated or with an apostrophe)."""
    low = word.lower()
    if "\u0307" in low or "ı" in low:
        # Turkish: "İ" lower-cases to "i" and a combining dot above, "I" to "i" where the
        # language writes "ı" (YAZILIM, yazılım): both read as "i"
        low = low.replace("i\u0307", "i").replace("ı", "i")
    if "-" not in low and "'" not in low and "’" not in low:    # one plain part (most words)
        return [low], False
    out = []
    for w in low.replace("’", "'").split("-"):
        w = w.removesuffix("'s")
        w = _ELIDED.sub("", w, count=1)     # l'ordinateur: ordinateur
        out.append(w.replace("'", ""))
    return out, True


# Stop words of a lexicon that marks them (every one but English) are keys with these first
# characters instead of no key: a topic term may hold them (French "force", Portuguese
# "Sistema Solar", Swedish "spelade in", Spanish "SO": stopwordsiso's lists hold content words)
# and must meet them on pages; the relevance model drops a marked key that is no concept of
# its topic (:func:`is_stop_key`).  An all-capital stop word keeps its case (the acronym "OS"
# is not the Portuguese article "os").
STOP_MARK, CAPS_MARK = "\x01", "\x02"


def is_stop_key(key: str) -> bool:
    """Whether ``key`` is a marked stop word (or a phrase starting with one)."""
    return key[:1] in (STOP_MARK, CAPS_MARK)


def _latin(word: str, stop: frozenset[str] = EN_STOP, stem: Callable[[str], str] = fold,
           mark: bool = False) -> tuple[str, ...]:
    """Keys of one word run; a hyphenated word gives one key per part, and there single
    letters are kept (``e-mail`` -> ``e``, ``mail``).  ``stop`` and ``stem``: the language's
    (:class:`Lexicon`), English by default; ``mark``: a stop word gives a marked key
    (:data:`STOP_MARK`) instead of none."""
    words, split = _words(word)
    if not split:
        low = words[0]
        if low.isdigit() or (len(low) < 2 and not "\uac00" <= low <= "\ud7a3"):
            return ()       # (a Hangul syllable is a word: 책, 꽃)
        if low in stop:
            if not mark:
                return ()
            return (CAPS_MARK + word if word.isupper() else STOP_MARK + low,)
        return (stem(low),)
    alone = len(words) == 1
    out = []
    for w in words:
        if not w or w.isdigit() or (len(w) < 2 and alone):
            continue
        if w not in stop:
            out.append(stem(w))
        elif mark:
            out.append(STOP_MARK + w)
    return tuple(out)


# longest run a segmenter is given at once [ours]: a natural run ends at punctuation or a
# space; a page of one 400,000-character Japanese run crashed MeCab (a segmentation fault,
# the whole crawl with it), Korean ones took quadratic time, and jieba did on one repeated
# character it does not know; longer runs are cut (a word at each cut may be split)
SEGMENT_CHUNK = 2000


def _chunks(run: str) -> Iterable[str]:
    """``run`` in pieces of at most :data:`SEGMENT_CHUNK` characters."""
    if len(run) <= SEGMENT_CHUNK:
        return (run,)
    return (run[i:i + SEGMENT_CHUNK] for i in range(0, len(run), SEGMENT_CHUNK))


def _han(run: str, inner_terms: bool = True) -> Iterable[tuple[str, str]]:
    cut = segmenter().cut
    for chunk in _chunks(run):
        for piece in cut(chunk, HMM=True):
            piece = piece.strip()
            if piece and piece not in ZH_STOP and has_han(piece):
                yield piece, piece
                if inner_terms and len(piece) > 2 and _HAN_TERMS:
                    for inner in _inner_terms(piece):
                        yield inner, inner


# Han topic terms (term_tokens): jieba keeps a dictionary compound whole even when a topic
# term is added to its dictionary (中国足球队 holds 足球), so a piece also gives the topic terms
# inside it
_HAN_TERMS: set[str] = set()
_INNER: dict[str, tuple[str, ...]] = {}


def _inner_terms(piece: str) -> tuple[str, ...]:
    """The Han topic terms inside ``piece`` (shorter than it), left to right."""
    found = _INNER.get(piece)
    if found is None:
        n = len(piece)
        found = tuple(piece[i:j] for i in range(n) for j in range(i + 2, min(n, i + n - 1) + 1)
                      if piece[i:j] in _HAN_TERMS)
        if len(_INNER) >= _UNIT_TABLE_MAX:
            _INNER.clear()
        _INNER[piece] = found
    return found


class _UnitTable(dict):
    """Unit -> its entries, filled on lookup: a missing unit is computed by ``dict``'s
    ``__missing__`` hook, so a C-level ``map(table.__getitem__, units)`` is one pass over a
    text's units, hits and misses alike.  Emptied when it outgrows :data:`_UNIT_TABLE_MAX`
    divided by ``share``."""

    __slots__ = ("_compute", "_share")

    def __init__(self, compute: Callable[[str], tuple], share: int = 1):
        super().__init__()
        self._compute, self._share = compute, share

    def __missing__(self, unit: str) -> tuple:
        if len(self) >= _UNIT_TABLE_MAX // self._share:
            self.clear()
        value = self[unit] = self._compute(unit)
        return value


_UNIT_TABLE_MAX = 262_144


# Japanese: runs of Han and kana (with the iteration marks) go to MeCab; the rest is cut into
# word runs as anywhere else
_JA_RUN = re.compile(f"([{HAN_CLASS}\u3005\u3006\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff]+)")
# MeCab (UniDic) parts of speech that carry no topic: particles, auxiliary verbs, symbols,
# pronouns; and the light verbs and adjectives (する, ある, いる, なる, できる: 非自立可能)
_JA_SKIP = frozenset(("助詞", "助動詞", "補助記号", "記号", "空白", "代名詞", "接頭辞", "接尾辞"))
_JA_LIGHT = frozenset(("動詞", "形容詞"))
_TAGGER: list = []


def _japanese_units(text: str) -> list[str]:
    """Units of Japanese text: each Han/kana run segmented by MeCab (``fugashi`` with the
    ``unidic-lite`` dictionary), every word as its dictionary form (走った, 走らない -> 走る;
    コンピュータ -> コンピューター), a name as written; particles, auxiliary and light verbs,
    pronouns, prefixes and suffixes (さん, 者), numbers and symbols left out."""
    return _script_units(text, _JA_RUN, _japanese_words)


def _japanese_words(run: str) -> Iterable[str]:
    import fugashi
    for word in _tagger(_TAGGER, fugashi.Tagger)(run):
        feature = word.feature
        pos, pos2 = feature.pos1, feature.pos2
        if pos in _JA_SKIP or pos2 == "数詞" or (pos in _JA_LIGHT and pos2 == "非自立可能"):
            continue
        # a name as written (the lemma of 東京 is its reading トウキョウ, shared by 伊藤 and
        # 伊東); a loanword's lemma carries its origin (コンピューター-computer)
        lemma = feature.orthBase if pos2 == "固有名詞" else feature.lemma
        yield lemma.split("-", 1)[0] if lemma else word.surface


def _script_units(text: str, runs: re.Pattern, words: Callable[[str], Iterable[str]]
                  ) -> list[str]:
    """Units of a text whose runs of one script (``runs``, a capturing split pattern) a
    segmenter cuts (``words``); the rest is cut into word runs as anywhere else."""
    out: list[str] = []
    for i, part in enumerate(runs.split(text)):
        if i % 2:
            for chunk in _chunks(part):
                out.extend(words(chunk))
        elif part:
            out.extend(_WORD_NO_HAN.findall(part))
    return out


def _tagger(slot: list, make: Callable[[], object]):
    """The segmenter held in ``slot``, made on first use (loads its dictionary)."""
    if not slot:
        with _SEG_LOCK:
            if not slot:
                slot.append(make())
    return slot[0]


# Korean: runs of Hangul go to MeCab-ko; the rest is cut into word runs as anywhere else
_KO_RUN = re.compile("([\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+)")
# MeCab-ko (Sejong tags) morphemes that carry a topic: common and proper nouns, roots, verb
# and adjective stems (not particles J*, endings E*, affixes X*, determiners, adverbs)
_KO_KEEP = frozenset(("NNG", "NNP", "XR", "VV", "VA", "SH"))
_KO_TAGGER: list = []


def _korean_units(text: str) -> list[str]:
    """Units of Korean text: each Hangul run segmented by MeCab-ko (``python-mecab-ko`` with
    its dictionary) into morphemes, nouns, roots and verb and adjective stems kept
    (읽었습니다 -> 읽, 컴퓨터들이 -> 컴퓨터; a compound noun as the dictionary has it,
    인공지능); particles, endings and affixes left out."""
    return _script_units(text, _KO_RUN, _korean_words)


def _korean_words(run: str) -> Iterable[str]:
    from mecab import MeCab
    for morpheme in _tagger(_KO_TAGGER, MeCab).parse(run):
        feature = morpheme.feature
        tag = feature.pos or ""
        if tag.split("+", 1)[0] not in _KO_KEEP:
            continue
        if "+" in tag and feature.expression:   # (a fused form: 예쁜 is 예쁘 + ㄴ)
            yield feature.expression.split("+", 1)[0].split("/", 1)[0]
        else:
            yield morpheme.surface


class SpacelessScript:
    """A script written without spaces between words (Thai, Lao), cut by a dictionary
    segmenter (maximal matching over character clusters, in the "safe" variant that bounds the
    time of long ambiguous runs); the rest of a text is cut into word runs as anywhere else.

    NFKC splits SARA AM into NIKHAHIT and SARA AA, which the dictionaries do not hold: a run is
    segmented with SARA AM whole and its words are given back in NFKC, as stop words are read.
    (A first version also gave a one-word topic term found inside a longer dictionary word, as
    Chinese does; it changed no result of the language benches, and, held for the whole
    process, made one topic's Thai terms change another's scores: removed.)"""

    def __init__(self, code: str, letters: str, am: str, decomposed_am: str,
                 skip: Iterable[str], segment: Callable[[str], list[str]],
                 stop_words: Callable[[], Iterable[str]]):
        self.code = code
        self.run = re.compile(f"([{letters}]+)")
        self.am, self.decomposed_am = am, decomposed_am
        self.skip = frozenset(skip)
        self._segment, self.stop_words = segment, stop_words

    def units(self, text: str) -> list[str]:
        """Units of a text read by :func:`normal_text`: each run of the script cut into
        words; the marks that repeat or abbreviate a word left out."""
        return _script_units(text, self.run, self.words)

    def written(self, text: str) -> str:
        """``text`` with SARA AM as written (a surface shown to users)."""
        return text.replace(self.decomposed_am, self.am) if self.decomposed_am in text \
            else text

    def words(self, run: str) -> Iterable[str]:
        am, nfkc = self.am, self.decomposed_am
        for word in self._segment(run.replace(nfkc, am)):
            if word not in self.skip and not word.isspace():
                yield word.replace(am, nfkc)


def _thai_segment(text: str) -> list[str]:
    from pythainlp.tokenize import word_tokenize
    return word_tokenize(text, engine="newmm-safe", keep_whitespace=False)


def _lao_segment(text: str) -> list[str]:
    from laonlp.tokenize import word_tokenize
    return word_tokenize(text, safe_mode=True)


def _lao_stop_words() -> Iterable[str]:
    from laonlp.corpus import lao_stopwords
    return lao_stopwords()


# Thai (PyThaiNLP's newmm and dictionary) and Lao (LaoNLP's): letters, vowels and tone marks;
# MAI YAMOK / KO LA (repeat the word) and PAIYANNOI / ELLIPSIS (abbreviation) are no words
THAI = SpacelessScript("th", "\u0e01-\u0e3a\u0e40-\u0e4e", "\u0e33", "\u0e4d\u0e32",
                       ("\u0e46", "\u0e2f"), _thai_segment, tuple)
LAO = SpacelessScript("lo", "\u0e81-\u0ebd\u0ec0-\u0ece\u0edc-\u0edf", "\u0eb3",
                      "\u0ecd\u0eb2", ("\u0ec6", "\u0eaf"), _lao_segment, _lao_stop_words)
SPACELESS = {script.code: script for script in (THAI, LAO)}


class SyllableScript:
    """A script written without spaces between words that no segmenter here knows (Khmer,
    Burmese): each run of it is cut into its orthographic syllables [ours, a fallback], by
    where one may begin: before a consonant or an independent vowel that is not stacked under
    the one before (Khmer COENG, Burmese VIRAMA) and, in Burmese, does not close the syllable
    before it (a consonant with ASAT, or stacking the next one).  A syllable is its own key;
    a topic term of several syllables is matched as a phrase of them."""

    def __init__(self, code: str, letters: str, breaks: str):
        self.code = code
        self.run = re.compile(f"([{letters}]+)")
        self.breaks = re.compile(breaks)

    def units(self, text: str) -> list[str]:
        """Units of a text read by :func:`normal_text`: each run of the script cut into
        syllables, the rest into word runs as anywhere else."""
        return _script_units(text, self.run, self.syllables)

    def syllables(self, run: str) -> list[str]:
        return [s for s in self.breaks.split(run) if s]


# Khmer: letters and signs (not its punctuation and digits); a syllable starts at a consonant
# or an independent vowel not after COENG (U+17D2), so "ខ្មែរ" is ខ្មែ + រ
KHMER = SyllableScript("km", "\u1780-\u17d3\u17dd", "(?<!\u17d2)(?=[\u1780-\u17b3])")
# Burmese: letters, signs and the extensions (not its punctuation and digits); a syllable
# starts at a consonant or independent vowel not after VIRAMA (U+1039) and not followed by
# ASAT (U+103A, with a DOT BELOW before it) or VIRAMA: "ကွန်ပျူတာ" is ကွန် + ပျူ + တာ
BURMESE = SyllableScript(
    "my", "\u1000-\u103f\u1050-\u109f",
    "(?<!\u1039)(?=[\u1000-\u102a\u103f\u104e](?![\u103a\u1039]|\u1037\u103a))")
SYLLABIC = {script.code: script for script in (KHMER, BURMESE)}
# a unit of these scripts is its own key, one letter long or not (a Khmer final consonant)
_SYLLABIC_UNIT = re.compile("[\u1000-\u109f\u1780-\u17ff]")


class Lexicon:
    """How the word runs of one language become keys: its stop words and its stemmer
    [DEFAULT, not from the source], with the unit tables and the short-text cache that go
    with them (the same unit has other keys in another language).  :func:`lexicon` gives
    the lexicon of a language code; Han pieces are their own keys in every lexicon."""

    def __init__(self, code: str | None, stop: frozenset[str], stem: Callable[[str], str],
                 segment: Callable[[str], list[str]] | None = None):
        self.code, self.stop, self.stem = code, stop, stem
        self.mark = code is not None        # stop words as marked keys (every one but English)
        # a language's own segmenter (Japanese, Korean, Thai, Lao, ...): text -> units, replacing
        # the script runs; its Han is not read in simplified forms
        self.segment = segment
        self.simplify_han = segment is None
        # (the other languages' tables are a quarter of English's: a crawl may meet dozens)
        share = 1 if code is None else 4
        self.keys = _UnitTable(self._unit_keys, share)      # unit -> its keys
        self.pairs = _UnitTable(self._unit_pairs, share)    # unit -> its (key, surface) pairs
        self.short_info = lru_cache(maxsize=_CACHE_TEXTS // share)(self._short_info)

    def __repr__(self) -> str:
        return f"Lexicon({self.code or 'en'!r})"

    def _unit_keys(self, unit: str) -> tuple[str, ...]:
        """Keys of one unit: a Han piece kept by :func:`_han` and a Khmer or Burmese syllable
        (:class:`SyllableScript`) are their own keys; a word run (the ``word`` branch of
        :data:`_RUN`, no Han character) goes through :func:`_latin`."""
        if _HAN.search(unit) is not None or _SYLLABIC_UNIT.match(unit) is not None:
            return (unit,)
        return _latin(unit, self.stop, self.stem, self.mark)

    def _unit_pairs(self, unit: str) -> tuple[tuple[str, str], ...]:
        """``(key, surface)`` pairs of one unit: a unit giving one key has itself (lower-cased)
        as its surface; the parts of a hyphenated word are their own surfaces."""
        keys = self.keys[unit]
        if len(keys) == 1:
            key = keys[0]
            surface = unit if key == unit else unit.lower()
            for script in SPACELESS.values():   # (SARA AM as written, not NFKC's two parts)
                surface = script.written(surface)
            return ((key, surface),)
        return tuple((k, k) for k in keys)

    def keys_of(self, units: list[str]) -> list[str]:
        """Keys of a list of units, in order."""
        return list(chain.from_iterable(map(self.keys.__getitem__, units)))

    def pairs_of(self, units: list[str]) -> list[tuple[str, str]]:
        """Pairs of a list of units, in order."""
        return list(chain.from_iterable(map(self.pairs.__getitem__, units)))

    def read(self, text: str) -> str:
        """``text`` as this language reads it (:func:`normal_text`); a text in capitals of
        three words or more is read in lower case where stop words are marked (a heading
        "OS OVOS E OS TOMATES" holds the article "os", not the acronym "OS"; a term or an
        anchor "OS" is one)."""
        text = normal_text(text, self.simplify_han)
        if self.mark and text.isupper() and len(text.split(None, 2)) > 2:
            text = text.lower()
        return text

    def units(self, text: str, segment_han: bool = True, inner_terms: bool = True
              ) -> list[str]:
        """:func:`units` of a text already read by :func:`normal_text`, by this language's
        segmenter when it has one."""
        if self.segment is not None:
            return self.segment(text)
        return _units(text, segment_han, inner_terms)

    def cached(self, text: str) -> bool:
        """Whether :meth:`short_info` serves ``text``: short, and Han-free unless the
        language segments its own Han (jieba's dictionary grows with topic terms)."""
        return len(text) <= _CACHE_TEXT_CHARS and (self.segment is not None
                                                   or _HAN.search(text) is None)

    def _short_info(self, text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        found = _WORD_NO_HAN.findall(text) if self.segment is None else self.segment(text)
        return tuple(self.keys_of(found)), tuple(dict.fromkeys(found))


# English (and every language without a lexicon of its own): EN_STOP and the light fold
ENGLISH = Lexicon(None, EN_STOP, fold)
_UNIT_KEYS, _UNIT_PAIRS = ENGLISH.keys, ENGLISH.pairs

# ISO 639-1 code -> Snowball stemmer (PyStemmer); English keeps :func:`fold`
SNOWBALL = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech",
    "da": "danish", "nl": "dutch", "eo": "esperanto", "et": "estonian", "fi": "finnish",
    "fr": "french", "de": "german", "el": "greek", "hi": "hindi", "hu": "hungarian",
    "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian", "ne": "nepali",
    "no": "norwegian", "fa": "persian", "pl": "polish",
    "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian", "st": "sesotho",
    "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish", "yi": "yiddish",
}
_SAME = {"nb": "no", "nn": "no"}        # codes read as one language (Norwegian)
# languages with a segmenter of their own (text -> units)
_SEGMENTERS = {"ja": _japanese_units, "ko": _korean_units,
               **{code: script.units for code, script in (*SPACELESS.items(),
                                                          *SYLLABIC.items())}}
_LEXICONS: dict[str, Lexicon] = {}         # base code -> its lexicon
_BY_NAME: dict[str | None, Lexicon] = {None: ENGLISH, "en": ENGLISH}    # code as given -> ...
_LEX_LOCK = threading.Lock()


def base_code(language: str | None) -> str:
    """A language tag's language as the lexicons read it (``pt-BR``, ``de_DE``: ``pt``,
    ``de``; Norwegian ``nb`` and ``nn``: ``no``); ``""`` for None."""
    code = (language or "").replace("_", "-").split("-")[0].strip().lower()
    return _SAME.get(code, code)


def same_language(code: str | None, codes: Iterable[str]) -> bool:
    """Whether language ``code`` is one of ``codes``, as the lexicons read them: Norwegian
    ``no``, ``nb`` and ``nn`` are one language (most Norwegian sites declare ``nb-NO``, a
    detector says ``no``)."""
    if code is None:
        return False
    base = base_code(code)
    return any(base_code(c) == base for c in codes)


def lexicon(language: str | None) -> Lexicon:
    """The lexicon of a language code (``de``, ``pt-BR``): its Snowball stemmer (PyStemmer)
    and its stop words (``stopwordsiso``), for each it has; Japanese, Korean, Thai, Lao,
    Khmer and Burmese have their segmenters (:data:`_SEGMENTERS`).  English, Chinese (whose
    Latin words are English ones), an unknown code and None: :data:`ENGLISH`."""
    lex = _BY_NAME.get(language)
    if lex is not None:
        return lex
    code = base_code(language)
    if code in ("", "en", "zh"):
        lex = ENGLISH
    else:
        with _LEX_LOCK:
            lex = _LEXICONS.get(code)
            if lex is None:
                lex = _LEXICONS[code] = _load_lexicon(code)
    if len(_BY_NAME) < 4096:           # (the codes a crawl meets: a few dozen)
        _BY_NAME[language] = lex
    return lex


def _load_lexicon(code: str) -> Lexicon:
    import stopwordsiso
    import Stemmer

    words = list(stopwordsiso.stopwords(code)) if stopwordsiso.has_lang(code) else []
    if code in SPACELESS:       # (Lao's stop words come with its segmenter)
        words += SPACELESS[code].stop_words()
    stop: set[str] = set()
    for w in words:
        w = normal_text(w, code != "ja")
        if _WORD_NO_HAN.fullmatch(w):           # single words only ("a ha" is two)
            parts, split = _words(w)            # as _latin reads them (aujourd'hui, bazı)
            stop.update(parts if not split else [w.lower()] + [p for p in parts if p])
    segment = _SEGMENTERS.get(code)
    if segment is not None:     # (the Latin words of its pages are mostly English ones)
        return Lexicon(code, frozenset(stop | EN_STOP), fold, segment)
    algorithm = SNOWBALL.get(code)
    if algorithm in Stemmer.algorithms():
        stem = Stemmer.Stemmer(algorithm).stemWord
    elif stop:
        stem = str      # stop words only (Vietnamese, Bulgarian, ...): no stemming
    else:
        return ENGLISH
    return Lexicon(code, frozenset(stop), stem)


def units(text: str, segment_han: bool = True, inner_terms: bool = True) -> list[str]:
    """The text cut into units, in order: word runs and (Han runs segmented by jieba) the Han
    pieces that give a token; with ``segment_han`` false each Han run is one unit, unsegmented
    (the stray Han names of a page in another language, which need not load jieba).  Without
    Han characters one ``findall``; with them, Han runs alternate with Han-free stretches (no
    word run can cross a Han character)."""
    return _units(normal_text(text), segment_han, inner_terms)


def _units(text: str, segment_han: bool = True, inner_terms: bool = True) -> list[str]:
    """:func:`units` of a text already read by :func:`normal_text`."""
    if _HAN.search(text) is None:
        return _WORD_NO_HAN.findall(text)
    out: list[str] = []
    for i, part in enumerate(_HAN_SPLIT.split(text)):
        if i % 2:
            if segment_han:
                out.extend(piece for piece, _ in _han(part, inner_terms))
            else:
                out.append(part)
        elif part:
            out.extend(_WORD_NO_HAN.findall(part))
    return out


def first_pairs(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Key -> its first surface, keys in order of first occurrence: what ``setdefault`` over
    ``pairs`` builds (the keys placed first, then the pairs applied last to first)."""
    first = dict.fromkeys(map(itemgetter(0), pairs))
    first.update(reversed(pairs))
    return first


def surfaces(distinct_units: Iterable[str], language: str | None = None) -> dict[str, str]:
    """Key -> first surface over a text given its distinct units in order of first occurrence
    (``dict.fromkeys(units(text))``).  The same as ``setdefault`` over all the text's pairs: a
    unit always gives the same pairs, so a key's first pair is at the first occurrence of the
    unit that first gives it.  ``language``: the text's, for :func:`lexicon`."""
    return first_pairs(lexicon(language).pairs_of(list(distinct_units)))


def first_surfaces(units_in_order: Iterable[str], wanted: Iterable[str],
                   language: str | None = None) -> dict[str, str]:
    """What :func:`surfaces` gives for the keys of ``wanted`` only (those found), reading the
    units in page order only until each of them is found."""
    left = set(wanted)
    out: dict[str, str] = {}
    lex = lexicon(language)
    keys_of, pairs = lex.keys.__getitem__, lex.pairs
    for unit in units_in_order:
        if not left:
            break
        if left.isdisjoint(keys_of(unit)):      # (pairs only for the few units that matter)
            continue
        for key, surface in pairs[unit]:
            if key in left:
                out[key] = surface
                left.discard(key)
    return out


def key_info(text: str, segment_han: bool = True, language: str | None = None
             ) -> tuple[Sequence[str], Iterable[str]]:
    """``(keys, distinct units)`` of ``text``: :func:`tokenize` and its units in order of first
    occurrence (for :func:`surfaces`); ``segment_han`` as in :func:`units`, ``language`` as in
    :func:`tokenize`.  Read-only: may come from a cache."""
    lex = _BY_NAME.get(language) or lexicon(language)
    text = lex.read(text)
    if len(text) <= _CACHE_TEXT_CHARS and (lex.segment is not None
                                           or _HAN.search(text) is None):   # (lex.cached)
        return lex.short_info(text)
    found = lex.units(text, segment_han)
    return lex.keys_of(found), dict.fromkeys(found)


def tokenize_surface(text: str, language: str | None = None) -> list[tuple[str, str]]:
    """``(key, surface)`` pairs in text order; ``surface`` is the lower-cased original word
    (a Japanese word's dictionary form)."""
    lex = lexicon(language)
    return lex.pairs_of(lex.units(lex.read(text)))


def tokenize(text: str, segment_han: bool | None = True, language: str | None = None
             ) -> list[str]:
    """Token keys of ``text`` in order (see the module docstring); ``segment_han`` as in
    :func:`units`, None: only when the text itself is Chinese (:func:`detect_script`);
    ``language``: the text's, whose stop words and stemmer make the keys (:func:`lexicon`;
    English by default)."""
    lex = lexicon(language)
    text = lex.read(text)
    if lex.cached(text):
        return list(lex.short_info(text)[0])
    if lex.segment is not None:
        return lex.keys_of(lex.segment(text))
    if _HAN.search(text) is None:
        return lex.keys_of(_WORD_NO_HAN.findall(text))
    if segment_han is None:
        segment_han = detect_script(text) == "zh"
    return lex.keys_of(_units(text, segment_han))


def term_tokens(term: str, language: str | None = None) -> tuple[str, ...]:
    """Keys of a topic term or variant, as a page in ``language`` (:func:`tokenize`) has them.
    Han terms are first added to the segmenter's dictionary so that pages keep them whole
    (this mutates the shared segmenter: additive)."""
    if lexicon(language).segment is not None:   # (Japanese, Korean, Thai...: as pages are)
        return tuple(tokenize(term, language=language))
    term = normal_text(" ".join(term.split()))     # (Han in its simplified form, as pages)
    if has_han(term):
        seg = segmenter()
        for run in _HAN_RUN.findall(term):
            if len(run) > 1:
                seg.add_word(run)
                if run not in _HAN_TERMS:
                    _HAN_TERMS.add(run)
                    _INNER.clear()
        # a term is its own pieces: the topic terms inside them (足球 in 足球场) are not part
        # of its key, whatever terms were registered before
        return tuple(lexicon(language).keys_of(units(term, inner_terms=False)))
    return tuple(tokenize(term, language=language))


def phrase_key(tokens: Sequence[str]) -> str:
    """The single token that stands for a multi-token term."""
    return " ".join(tokens)


class PhraseMatcher:
    """Joins runs of tokens that spell a known phrase into one token, longest match first."""

    def __init__(self, phrases: Iterable[Sequence[str]]):
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        for p in {tuple(p) for p in phrases if len(p) > 1}:
            self._by_first.setdefault(p[0], []).append(p)
        for lst in self._by_first.values():
            lst.sort(key=len, reverse=True)
        # first token -> ((phrase, length, joined key), ...), longest first
        self._cands: dict[str, tuple[tuple[tuple[str, ...], int, str], ...]] = {
            first: tuple((p, len(p), phrase_key(p)) for p in lst)
            for first, lst in self._by_first.items()}

    def __bool__(self) -> bool:
        return bool(self._by_first)

    def join(self, tokens: Sequence[str]) -> list[str]:
        cands = self._cands
        if not isinstance(tokens, (list, tuple)):
            tokens = list(tokens)
        if not cands or cands.keys().isdisjoint(tokens):
            return list(tokens)
        out: list[str] = []
        i = 0
        # only positions holding the first token of a phrase can start one: copy the stretches
        # between them whole (same greedy left-to-right result as trying every position)
        for j in [j for j, t in enumerate(tokens) if t in cands]:
            if j < i:                   # inside a phrase joined just before
                continue
            for p, n, key in cands[tokens[j]]:
                if tuple(tokens[j:j + n]) == p:
                    out.extend(tokens[i:j])
                    out.append(key)
                    i = j + n
                    break
        out.extend(tokens[i:])
        return out
