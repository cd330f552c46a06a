"""Title, language and page metadata (meta tags, Open Graph, then JSON-LD for what they lack)."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import langcodes

from .chars import collapse
from .document import Document

_META_KEYS = {
    "description": ("description", "og:description", "twitter:description"),
    "author": ("author", "article:author", "dc.creator", "byl"),
    "date": ("article:published_time", "date", "pubdate", "publishdate", "dc.date",
             "dc.date.issued", "sailthru.date", "og:published_time", "publish-date"),
    "site_name": ("og:site_name", "application-name"),
    "keywords": ("keywords", "news_keywords"),
    "og_title": ("og:title", "twitter:title"),
    "content_language": ("content-language", "language", "dc.language"),
}
_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_CJK_ANY = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_LATIN_WORD = re.compile(r"[a-zA-Z]+")
_EN_STOP = frozenset("the of and to in is that for it was on with as by be are this from at".split())


def _meta(doc: Document) -> dict[str, str]:
    found: dict[str, str] = {}
    for el in doc.root.iterfind(".//meta"):
        key = (el.get("name") or el.get("property") or el.get("http-equiv") or "").strip().lower()
        value = el.get("content")
        if key and value and key not in found:
            found[key] = collapse(value)
    return found


def _first_text(doc: Document, tag: str) -> str | None:
    i = doc.find(tag)
    if i < 0:
        return None
    text = collapse(doc.text_of(nodes=[i]))
    return text or None


def _html_title(doc: Document) -> str | None:
    """The document's ``<title>``: the head's, else the first outside inline SVG / MathML
    (whose ``<title>`` elements label a drawing, not the page)."""
    for title in doc.root.iter("title"):
        if any(a.tag in ("svg", "math") for a in title.iterancestors()):
            continue
        return collapse("".join(title.itertext())) or None
    return None


def detect_language(text: str, declared: str | None = None) -> str | None:
    """ISO 639-1 code from the script of the text, else the declaration (unless the text is
    plainly English), else English stop words."""
    sample = text[:5000]
    if _CJK_ANY.search(sample) is None:     # most pages: one scan instead of three
        han = kana = hangul = 0
    else:
        han, kana, hangul = len(_HAN.findall(sample)), len(_KANA.findall(sample)), \
            len(_HANGUL.findall(sample))
    solid = max(1, len(sample) - sample.count(" "))
    if (han + kana + hangul) / solid > 0.2:
        if hangul > han + kana:
            return "ko"
        return "ja" if kana > 0.1 * (han + kana) else "zh"
    words = _LATIN_WORD.findall(sample.lower())
    english = sum(map(_EN_STOP.__contains__, words)) / len(words) if words else 0.0
    code = declared_code(declared) if declared else None
    if code:
        if code not in ("zh", "ja", "ko"):
            # a template's lang attribute is often wrong: plainly English text (English
            # function words are a quarter of it; 1-5% in German, Dutch or French) is English
            return "en" if len(words) >= 50 and english > EN_OVER_DECLARED else code
    if len(words) >= 20 and english > 0.08:
        return "en"
    return None


EN_OVER_DECLARED = 0.15   # [ours] English function-word share that overrides a declared language

# ISO 639-2 codes that name no language: undetermined, no linguistic content, multiple, uncoded
_NO_LANGUAGE = frozenset(("und", "zxx", "mul", "mis"))


@lru_cache(maxsize=4096)
def declared_code(declared: str) -> str | None:
    """The language of a ``lang`` attribute or Content-Language value as an ISO 639 code, the
    two-letter one where the language has one (``eng``, ``en-US`` and ``EN_gb`` are ``en``,
    ``ger`` is ``de``, the withdrawn ``iw`` is ``he``, by ``langcodes``); None for a value that
    is no language code or names no language (``und``, ``mul``)."""
    code = declared.strip().lower().replace("_", "-").split("-")[0]
    if not re.fullmatch(r"[a-z]{2,3}", code) or code in _NO_LANGUAGE:
        return None
    try:
        language = langcodes.Language.get(code).language
    except ValueError:
        return code
    # a two-letter code stays one (CLDR would turn ``tl`` into ``fil``)
    return language if language and len(language) <= len(code) else code


# schema.org types whose fields describe the page's own content
_CREATIVE_WORKS = frozenset(
    "article newsarticle blogposting report scholarlyarticle techarticle reportagenewsarticle "
    "analysisnewsarticle opinionnewsarticle reviewnewsarticle backgroundnewsarticle "
    "liveblogposting socialmediaposting webpage aboutpage faqpage qapage itempage "
    "medicalwebpage creativework review recipe howto".split())
_LD_TEXT_FIELDS = {"date": ("datePublished", "dateCreated"), "date_modified": ("dateModified",),
                   "description": ("description",), "og_title": ("headline", "name"),
                   "keywords": ("keywords",), "content_language": ("inLanguage",)}


def _ld_objects(value: Any, depth: int = 0):
    """Every JSON object in a JSON-LD value (``@graph`` lists and nesting included)."""
    if depth > 8:
        return
    if isinstance(value, dict):
        yield value
        for key in ("@graph", "mainEntity", "mainEntityOfPage"):
            yield from _ld_objects(value.get(key), depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _ld_objects(item, depth + 1)


def _ld_name(value: Any) -> str | None:
    """A person's or organisation's name: a string, ``{"name": ...}`` or a list of them."""
    if isinstance(value, list):
        names = [n for n in map(_ld_name, value[:10]) if n]
        return ", ".join(names) if names else None
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, str) and value.strip() and not _is_url(value):
        return collapse(value)
    return None


def _is_url(value: str) -> bool:
    return value.strip().lower().startswith(("http://", "https://", "www."))


def json_ld_metadata(doc: Document) -> dict[str, str]:
    """Fields of the page's own schema.org object (an Article, a WebPage, ...) in its
    JSON-LD: date, date_modified, author, description, headline (as ``og_title``), keywords,
    language, publisher (as ``site_name``).  Unreadable JSON is skipped."""
    out: dict[str, str] = {}
    for text in doc.json_ld:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):    # nested too deeply: skipped like bad JSON
            continue
        for obj in _ld_objects(data):
            kinds = obj.get("@type")
            kinds = kinds if isinstance(kinds, list) else [kinds]
            if not any(isinstance(k, str) and k.lower() in _CREATIVE_WORKS for k in kinds):
                continue
            for field, keys in _LD_TEXT_FIELDS.items():
                for key in keys:
                    value = obj.get(key)
                    if isinstance(value, list) and field == "keywords":
                        value = ", ".join(v for v in value if isinstance(v, str))
                    if isinstance(value, str) and value.strip() and field not in out:
                        out[field] = collapse(value)
            for field, key in (("author", "author"), ("site_name", "publisher")):
                name = _ld_name(obj.get(key))
                if name and field not in out:
                    out[field] = name
    return out


def read_metadata(doc: Document) -> dict[str, Any]:
    """Metadata of the page: title candidates, description, author, date, canonical URL...
    from meta tags and Open Graph, and from JSON-LD where they say nothing."""
    meta = _meta(doc)
    out: dict[str, Any] = {}
    for field, keys in _META_KEYS.items():
        for key in keys:
            value = meta.get(key)
            if value and not (field == "author" and _is_url(value)):   # article:author URLs
                out[field] = value
                break
    if doc.json_ld:
        for field, value in json_ld_metadata(doc).items():
            out.setdefault(field, value)
    out["html_title"] = _html_title(doc)
    out["h1"] = _first_text(doc, "h1")
    html = doc.root if doc.root.tag == "html" else None
    declared = html.get("lang") if html is not None else None
    out["declared_language"] = declared or out.pop("content_language", None)
    for link in doc.root.iterfind(".//link"):
        if (link.get("rel") or "").lower() == "canonical" and link.get("href"):
            out["canonical_url"] = link.get("href").strip()
            break
    return {k: v for k, v in out.items() if v}


def choose_title(meta: dict[str, Any]) -> str | None:
    """The page title: Open Graph title, else the h1 when the <title> contains it, else <title>."""
    html_title, h1, og = meta.get("html_title"), meta.get("h1"), meta.get("og_title")
    if og:
        return og
    if h1 and html_title and h1.lower() in html_title.lower():
        return h1
    return html_title or h1
