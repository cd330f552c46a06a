"""Topic files: the static topic feature library of S2 (ALGORITHMS.md §8.4) as TOML.

Shape (every other key is an error)::

    name = "information-technology"          # required
    description = "Computers, software"       # optional
    languages = ["en"]                        # optional: ISO 639 codes of the pages kept;
                                              # every language when omitted
    threshold = 0.2                           # optional, in [0, 1]: the relevance threshold eta
    seeds = ["http://example.test/"]          # optional
    [features]                                # required, at least one term in all
    subjects = ["IBM"]                        # bodies, organisations, people (F_b)
    terms = ["operating system"]              # domain-specific terms (F_s)
    judgments = ["released"]                  # "intelligence judgment" words (F_v)
    [synonyms]                                # optional: concept -> variants (§8.8)
    computer = ["computers", "PC"]

:func:`load_topic` fails fast with :class:`TopicError`, whose message names the file, the key
and the problem.
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from extraction.metadata import declared_code

from .tokenize import term_tokens

CATEGORIES = ("subjects", "terms", "judgments")
LANGUAGES = ("en", "zh")      # named in the message of an unknown code
TOP_KEYS = ("name", "description", "languages", "threshold", "seeds", "features", "synonyms")


class TopicError(ValueError):
    """A malformed topic file; the message names the file, the key and the problem."""


@dataclass(frozen=True)
class Topic:
    """A topic: its static feature library by category and its synonym table."""

    name: str
    subjects: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    judgments: tuple[str, ...] = ()
    synonyms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    description: str = ""
    languages: tuple[str, ...] = ()
    threshold: float | None = None
    seeds: tuple[str, ...] = ()
    path: str | None = None

    def features(self) -> dict[str, tuple[str, ...]]:
        """The three categories of §8.4, in the order subjects, terms, judgments."""
        return {c: getattr(self, c) for c in CATEGORIES}


def _fail(path: str, key: str, problem: str) -> TopicError:
    return TopicError(f"{path}: key '{key}': {problem}")


def _type_name(value: Any) -> str:
    return {str: "string", int: "integer", float: "float", bool: "boolean", list: "array",
            dict: "table"}.get(type(value), type(value).__name__)


def _string_list(path: str, key: str, value: Any, *, allow_empty: bool = True) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(path, key, f"expected an array of strings, got {_type_name(value)}")
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise _fail(path, f"{key}[{i}]", f"expected a string, got {_type_name(item)}")
        item = " ".join(item.split())
        if not item:
            raise _fail(path, f"{key}[{i}]", "empty string")
        if item not in out:
            out.append(item)
    if not out and not allow_empty:
        raise _fail(path, key, "must not be empty")
    return tuple(out)


def gives_key(term: str, languages: Sequence[str]) -> bool:
    """Whether ``term`` gives a key in one of ``languages`` (English when none): "SO"
    (sistema operativo) is a Spanish term, not the English stop word."""
    return any(term_tokens(term, lang) for lang in languages or (None,))


def _indexable(path: str, key: str, term: str, languages: tuple[str, ...]) -> None:
    """A term must give a key in one of the topic's languages (:func:`gives_key`)."""
    if not gives_key(term, languages):
        raise _fail(path, key, f"term {term!r} has no indexable word (only stop words, "
                               "numbers or single letters)")


def topic_from_dict(data: Mapping[str, Any], path: str = "<topic>") -> Topic:
    """Validate a parsed topic table (see the module docstring) and build the :class:`Topic`."""
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise _fail(path, unknown[0], f"unknown top-level key (allowed: {', '.join(TOP_KEYS)})")
    name = data.get("name")
    if name is None:
        raise _fail(path, "name", "missing (every topic needs a name)")
    if not isinstance(name, str) or not name.strip():
        raise _fail(path, "name", f"expected a non-empty string, got {_type_name(name)}")
    if not name.isprintable():      # (it heads every document and the WARC's warcinfo record)
        raise _fail(path, "name", f"expected one line of printable text, got {name!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _fail(path, "description", f"expected a string, got {_type_name(description)}")
    languages: tuple[str, ...] = ()
    if "languages" in data:
        languages = _string_list(path, "languages", data["languages"], allow_empty=False)
        codes = []
        for i, code in enumerate(languages):
            known = declared_code(code)
            if known is None:
                raise _fail(path, f"languages[{i}]",
                            f"unknown language code {code!r} (an ISO 639 code: "
                            f"{', '.join(LANGUAGES)}, de, fr, ja, ...)")
            codes.append(known)
        languages = tuple(dict.fromkeys(codes))
    threshold = data.get("threshold")
    if threshold is not None:
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise _fail(path, "threshold", f"expected a number, got {_type_name(threshold)}")
        if not 0.0 <= threshold <= 1.0:
            raise _fail(path, "threshold", f"{threshold} is outside [0, 1]")
        threshold = float(threshold)
    seeds = _string_list(path, "seeds", data.get("seeds", []))
    for i, url in enumerate(seeds):
        try:
            parts = urlsplit(url)
            ok = parts.scheme in ("http", "https") and bool(parts.hostname)
            parts.port                  # noqa: B018 (raises on a port out of range)
        except ValueError as err:
            raise _fail(path, f"seeds[{i}]", f"{url!r} is not a valid URL: {err}") from err
        if not ok:
            raise _fail(path, f"seeds[{i}]", f"{url!r} is not an absolute http(s) URL")
    features = data.get("features")
    if features is None:
        raise _fail(path, "features", "missing (the static feature library is required)")
    if not isinstance(features, dict):
        raise _fail(path, "features", f"expected a table, got {_type_name(features)}")
    unknown = sorted(set(features) - set(CATEGORIES))
    if unknown:
        raise _fail(path, f"features.{unknown[0]}",
                    f"unknown feature category (allowed: {', '.join(CATEGORIES)})")
    cats = {c: _string_list(path, f"features.{c}", features.get(c, [])) for c in CATEGORIES}
    if not any(cats.values()):
        raise _fail(path, "features", "empty: give at least one of subjects, terms, judgments")
    for c, items in cats.items():
        for i, term in enumerate(items):
            _indexable(path, f"features.{c}[{i}]", term, languages)
    raw_syn = data.get("synonyms", {})
    if not isinstance(raw_syn, dict):
        raise _fail(path, "synonyms", f"expected a table, got {_type_name(raw_syn)}")
    synonyms: dict[str, tuple[str, ...]] = {}
    for concept, variants in raw_syn.items():
        key = f"synonyms.{concept}"
        if not concept.strip():
            raise _fail(path, key, "empty concept name")
        _indexable(path, key, concept, languages)
        spaced = " ".join(concept.split())
        if spaced in synonyms:
            raise _fail(path, key, f"the same concept as another key ({spaced!r}, spaces aside)")
        synonyms[spaced] = _string_list(path, key, variants, allow_empty=False)
        for i, variant in enumerate(synonyms[spaced]):
            _indexable(path, f"{key}[{i}]", variant, languages)
    return Topic(name=name.strip(), description=description.strip(), languages=languages,
                 threshold=threshold, seeds=seeds, synonyms=synonyms, path=path, **cats)


# a topic file is a few kilobytes; a wrong path (a log, a dump) is refused before it fills memory
MAX_TOPIC_BYTES = 16 << 20


def load_topic(path: str | Path) -> Topic:
    """Read and validate a topic TOML file; raises :class:`TopicError` when it is malformed."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_TOPIC_BYTES + 1)
    except OSError as err:
        raise TopicError(f"{p}: cannot read the topic file: {err.strerror or err}") from err
    if len(raw) > MAX_TOPIC_BYTES:
        raise TopicError(f"{p}: larger than {MAX_TOPIC_BYTES >> 20} MiB, too large for a "
                         "topic file (is it the right file?)")
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))      # a byte-order mark is dropped
    except UnicodeDecodeError as err:
        raise TopicError(f"{p}: not UTF-8 text ({err.reason} at byte {err.start})") from err
    except tomllib.TOMLDecodeError as err:
        raise TopicError(f"{p}: TOML syntax error: {err}") from err
    except RecursionError as err:
        raise TopicError(f"{p}: TOML nested too deeply to read") from err
    return topic_from_dict(data, str(p))
