"""Title, language and page metadata (meta tags, Open Graph, then JSON-LD for what they lack)."""
from __future__ import annotations

import heapq
import json
import re
from functools import lru_cache
from itertools import groupby, islice
from os.path import commonprefix
from typing import Any, Sequence
from urllib.parse import urljoin, urlsplit

import langcodes
import numpy as np
from langcodes.data_dicts import MACROLANGUAGES
from lxml import etree

from .chars import collapse, word_parts
from .dates import ascii_digits, iso_date, text_date, url_date
from .document import TEXT, Document, ParseError, parse, tag_code

# (citation_*: the Highwire Press tags of academic publishers, repositories and preprint
# servers, which Google Scholar reads; dc./dcterms.: Dublin Core)
_META_KEYS = {
    "description": ("description", "og:description", "twitter:description"),
    "author": ("author", "article:author", "citation_author", "dc.creator", "dcterms.creator",
               "byl"),
    "date": ("article:published_time", "date", "pubdate", "publishdate", "dc.date",
             "dc.date.issued", "sailthru.date", "og:published_time", "publish-date",
             "citation_publication_date", "citation_date", "citation_online_date",
             "dcterms.issued", "dcterms.date", "dcterms.created", "publication_date",
             "publish_date", "publicationdate", "originalpublicationdate", "displaydate",
             "rnews:datepublished"),
    "site_name": ("og:site_name", "application-name"),
    "keywords": ("keywords", "news_keywords"),
    "og_title": ("og:title", "twitter:title", "citation_title"),
    "content_language": ("content-language", "language", "dc.language"),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image",
              "twitter:image:src"),
}
# meta names whose values are lists: a post's sections and tags (Open Graph's article:section,
# article:tag, one meta per value)
_LIST_KEYS = {"categories": ("article:section",), "tags": ("article:tag",)}
_HAN = re.compile(r"[\u4e00-\u9fff]")
_XML_LANG = "xml:lang"     # (an XHTML page's language, as the HTML parser names it)
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_CJK_ANY = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_LATIN_WORD = re.compile(r"[a-zA-Z]+")
_EN_STOP = frozenset("the of and to in is that for it was on with as by be are this from at".split())


# meta names a page gives once per person: their values are joined
_MANY = frozenset(("citation_author", "dc.creator", "dcterms.creator"))
MAX_AUTHORS = 20
MAX_TERMS = 30          # [ours] categories or tags of one page: more is a site's tag cloud
MAX_TERM_CHARS = 80     # ... and a longer "tag" is a sentence


def _meta(doc: Document) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The page's meta tags by lower-cased name: the first value of each, the authors of
    :data:`_MANY` joined with "; ", and every value of the :data:`_LIST_KEYS` names."""
    found: dict[str, str] = {}
    many: dict[str, list[str]] = {}
    lists: dict[str, list[str]] = {}
    listed = {key for keys in _LIST_KEYS.values() for key in keys}
    for el in doc.root.iterfind(".//meta"):
        key = (el.get("name") or el.get("property") or el.get("http-equiv") or "").strip().lower()
        value = el.get("content")
        if not key or not value:
            continue
        if key in listed:
            _add_terms(lists.setdefault(key, []), value)
        elif key in _MANY:
            names = many.setdefault(key, [])
            value = collapse(value)
            if value and value not in names and len(names) < MAX_AUTHORS:
                names.append(value)
        elif key not in found:
            found[key] = collapse(value)
    found.update((key, "; ".join(names)) for key, names in many.items() if names)
    return found, lists


def _add_term(terms: list[str], value: Any) -> None:
    """Add a category or tag to ``terms`` unless it is empty, too long, already there (in
    any case) or ``terms`` is full (:data:`MAX_TERMS` + 1 marks a list that overflowed)."""
    if not isinstance(value, str) or len(terms) > MAX_TERMS:
        return
    value = collapse(value)
    if value and len(value) <= MAX_TERM_CHARS \
            and value.casefold() not in {t.casefold() for t in terms}:
        terms.append(value)


def _add_terms(terms: list[str], value: Any) -> None:
    """:func:`_add_term` for each comma-separated part of a meta tag's or JSON-LD's value
    ("sally ride, obituary")."""
    if isinstance(value, str):
        for part in value.split(",")[:MAX_TERMS + 1]:
            _add_term(terms, part)


def _terms(terms: list[str]) -> list[str] | None:
    """``terms`` when there are some and not more than :data:`MAX_TERMS` (a tag cloud)."""
    return terms if 0 < len(terms) <= MAX_TERMS else None


def _first_text(doc: Document, tag: str) -> str | None:
    i = doc.find(tag)
    if i < 0:
        return None
    text = collapse(doc.text_of(nodes=[i]))
    return text or None


def html_title(doc: Document) -> str | None:
    """The document's ``<title>``: the head's, else the first outside inline SVG / MathML
    (whose ``<title>`` elements label a drawing, not the page)."""
    for title in doc.root.iter("title"):
        if any(a.tag in ("svg", "math") for a in title.iterancestors()):
            continue
        return collapse("".join(title.itertext())) or None
    return None


def detect_language(text: str, declared: str | None = None) -> str | None:
    """ISO 639-1 code (639-3 where a language has none) of the page: Chinese, Japanese or
    Korean from the script; the declaration, unless the text is plainly English or written in
    another script than the declared language's (a template's ``lang="en"`` over Russian);
    English from its function words; else ``py3langid``'s guess when it is sure of it."""
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
        if kana and declared and declared_code(declared) == "ja":
            return "ja"     # (a declared Japanese text of mostly kanji: a list, headlines)
        return "ja" if kana > 0.1 * (han + kana) else "zh"
    words = _LATIN_WORD.findall(sample.lower())
    english = sum(map(_EN_STOP.__contains__, words)) / len(words) if words else 0.0
    code = declared_code(declared) if declared else None
    if code and code not in ("zh", "ja", "ko"):
        # a template's lang attribute is often wrong: plainly English text (English
        # function words are a quarter of it; 1-5% in German, Dutch or French) is English
        if len(words) >= 50 and english > EN_OVER_DECLARED:
            return "en"
        if code == "en" and len(words) >= 50 and english < EN_UNDER_DECLARED:
            # the other way round: a template's default lang="en" over text in another
            # language (a tenth of English function words where English has a quarter)
            return identified_language(sample) or code
        # (the whole tag: "sr-Latn" is Serbian in Latin script; a malformed one, "en-" or
        # "en_US.UTF-8", is read as its language)
        tag = declared.strip().replace("_", "-")[:35]
        if not _other_script(tag if tag and langcodes.tag_is_valid(tag) else code, sample):
            return code
        # text in another script than the declared language's: what it is, below, else the
        # declaration (a Russian install guide full of Latin commands stays Russian)
    else:
        code = None
    if len(words) >= 20 and english > 0.08:
        return "en"
    return identified_language(sample) or code


_LETTER = re.compile(r"[^\W\d_]")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]")
IDENTIFY_CHARS = 1000       # [ours] characters of the text py3langid reads
IDENTIFY_MIN_LETTERS = 30   # [ours] fewer letters: no guess
IDENTIFY_MIN_PROB = 0.8     # [ours] py3langid's normalised probability needed to take its guess


@lru_cache(maxsize=1024)
def _latin_script(tag: str) -> bool | None:
    """Whether the language tag ``tag`` is written in Latin script (its script subtag, else
    its language's usual one; None: unknown)."""
    try:
        script = langcodes.Language.get(tag).maximize().script
    except ValueError:
        return None
    return None if script is None else script == "Latn"


def _other_script(tag: str, sample: str) -> bool:
    """The text is plainly not in the declared language's script: at least 30 letters, under
    20% Latin for a Latin-script language, over 80% for another."""
    latin = _latin_script(tag)
    if latin is None:
        return False
    head = sample[:2000]
    letters = len(_LETTER.findall(head))
    if letters < IDENTIFY_MIN_LETTERS:
        return False
    share = len(_LATIN_LETTER.findall(head)) / letters
    return share < 0.2 if latin else share > 0.8


@lru_cache(maxsize=1)
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def identified_language(text: str) -> str | None:
    """``py3langid``'s language of ``text`` (its first :data:`IDENTIFY_CHARS` characters) as
    an ISO 639 code, or None when there are too few letters or it is unsure (normalised
    probability under :data:`IDENTIFY_MIN_PROB`).  Its model loads at the first call (~1 s)."""
    head = text[:IDENTIFY_CHARS]
    if len(_LETTER.findall(head)) < IDENTIFY_MIN_LETTERS:
        return None
    # close languages split the probability (ar / arz / ary, hr / bs / sr): summed by
    # macrolanguage to judge how sure it is, the group's best member named
    totals: dict[str, float] = {}
    best: dict[str, str | None] = {}
    for code, prob in _identifier().rank(head):
        if prob < 1e-4:
            break           # ranked best first: the rest adds nothing
        group = MACROLANGUAGES.get(code, code)
        totals[group] = totals.get(group, 0.0) + prob
        best.setdefault(group, _own_language(code))
    group, prob = max(totals.items(), key=lambda kv: kv[1])
    return best[group] if prob >= IDENTIFY_MIN_PROB else None


@lru_cache(maxsize=512)
def _own_language(code: str) -> str | None:
    """A py3langid code as :func:`declared_code` gives it; a dialect without a two-letter
    code as its macrolanguage's (``arz``, ``ary`` -> ``ar``); hr, bs, id, nn stay themselves
    (their macrolanguages sh, ms, no would rename them)."""
    own = declared_code(code)
    if own is None or len(own) == 2:
        return own
    return declared_code(MACROLANGUAGES.get(code, code))


EN_OVER_DECLARED = 0.15   # [ours] English function-word share that overrides a declared language
EN_UNDER_DECLARED = 0.08  # [ours] share under which a declared English is checked by py3langid

# ISO 639-2 codes that name no language: undetermined, no linguistic content, multiple, uncoded
_NO_LANGUAGE = frozenset(("und", "zxx", "mul", "mis"))


@lru_cache(maxsize=4096)
def declared_code(declared: str) -> str | None:
    """The language of a ``lang`` attribute or Content-Language value as an ISO 639 code, the
    two-letter one where the language has one (``eng``, ``en-US`` and ``EN_gb`` are ``en``,
    ``ger`` is ``de``, the withdrawn ``iw`` is ``he``, by ``langcodes``); None for a value that
    is no language code or names no language (``und``, ``mul``)."""
    code = declared.strip().lower().replace("_", "-").split("-")[0]
    if not re.fullmatch(r"[a-z]{2,3}", code) or code in _NO_LANGUAGE \
            or "qaa" <= code <= "qtz" or not langcodes.tag_is_valid(code):
        return None             # (no such code: "xx"; qaa-qtz: private use)
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
_GENERIC_WORKS = frozenset("webpage aboutpage faqpage qapage itempage medicalwebpage "
                           "creativework".split())
_LD_TEXT_FIELDS = {"date": ("datePublished", "dateCreated"), "date_modified": ("dateModified",),
                   "description": ("description",), "og_title": ("headline", "name"),
                   "keywords": ("keywords",), "content_language": ("inLanguage",)}


# a type named in full ("http://schema.org/NewsArticle") or with a prefix ("schema:Article")
_SCHEMA_PREFIX = re.compile(r"^(?:https?://(?:www\.)?schema\.org/|schema:)", re.I)


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


def _ld_page_objects(doc: Document):
    """Every JSON object of the page's JSON-LD scripts (:func:`_ld_objects`); a script that
    is not JSON is skipped."""
    for text in doc.json_ld:
        try:        # (strict=False: raw line breaks inside strings, common on real pages)
            data = json.loads(_LD_WRAPPER.sub("", text), strict=False)
        except (ValueError, RecursionError):    # nested too deeply: skipped like bad JSON
            continue
        yield from _ld_objects(data)


def json_ld_article_body(doc: Document) -> str:
    """The longest ``articleBody`` of the page's JSON-LD (a client-rendered page's article
    text, which its HTML may lack), lines as written, blanks collapsed within them; markup
    inside it read as HTML; "" when there is none."""
    best = ""
    for obj in _ld_page_objects(doc):
        body = obj.get("articleBody")
        if isinstance(body, list):          # (some templates give one string a paragraph)
            body = "\n".join(b for b in body if isinstance(b, str))
        if isinstance(body, str) and len(body) > len(best):
            best = body
    if _LD_MARKUP.search(best):
        try:
            fragment = parse(f"<html><body>{best}</body></html>")
        except ParseError:
            return ""
        return fragment.text_of(fragment.kind == TEXT)
    lines = (collapse(line) for line in best.splitlines())
    return "\n".join(line for line in lines if line)


_LD_MARKUP = re.compile(r"<(?:p|br|div|span|a|em|strong|b|i|h[1-6]|ul|ol|li)\b[^>]*>", re.I)


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


# what old pages wrap a script's JSON in for old browsers: CDATA markers (commented out or
# not) and HTML comment markers, at its ends
_LD_WRAPPER = re.compile(r"^\s*(?://\s*)?(?:<!\[CDATA\[|<!--)|(?://\s*)?(?:\]\]>|-->)\s*$")


def json_ld_metadata(doc: Document) -> dict[str, str]:
    """Fields of the page's own schema.org object (an Article, a WebPage, ...) in its
    JSON-LD: date, date_modified, author, description, headline (as ``og_title``), keywords,
    language, publisher (as ``site_name``), image, license, articleSection (as the list
    ``categories``).  Unreadable JSON is skipped."""
    works: list[tuple[int, dict]] = []
    by_id: dict[str, dict] = {}         # (Yoast's "image": {"@id": ".../#primaryimage"})
    for obj in _ld_page_objects(doc):
        if isinstance(obj.get("@id"), str):
            by_id.setdefault(obj["@id"], obj)
        kinds = obj.get("@type")
        kinds = {_SCHEMA_PREFIX.sub("", k.strip()).lower()
                 for k in (kinds if isinstance(kinds, list) else [kinds])
                 if isinstance(k, str)}
        if kinds & _CREATIVE_WORKS:
            # the article before the page that holds it (a @graph may list the WebPage
            # first: its name is the site's page title, its date the site's)
            works.append((0 if kinds - _GENERIC_WORKS else 1, obj))
    if sum(1 for rank, _ in works if rank == 0) > 1:
        # several articles (a listing's posts): none is the page, the WebPage is
        works = [(1 - rank, obj) for rank, obj in works]
    out: dict[str, str] = {}
    for _, obj in sorted(works, key=lambda rank_obj: rank_obj[0]):
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
        for field, key in (("image", "image"), ("license", "license")):
            url = _ld_url(obj.get(key), by_id)
            if url and field not in out:
                out[field] = url
        sections = obj.get("articleSection")
        if "categories" not in out and isinstance(sections, (str, list)):
            terms: list[str] = []
            for value in [sections] if isinstance(sections, str) else sections[:MAX_TERMS + 1]:
                _add_terms(terms, value)
            if _terms(terms):
                out["categories"] = terms
    return out


def _ld_url(value: Any, by_id: dict[str, dict]) -> str | None:
    """A URL in JSON-LD: a string, an ``ImageObject``'s ``url`` / ``contentUrl`` (also one
    named by its ``@id`` elsewhere in the page's JSON-LD), the first of a list."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        if set(value) <= {"@id", "@type"} and isinstance(value.get("@id"), str):
            value = by_id.get(value["@id"], {})
        value = value.get("url") or value.get("contentUrl")
    if isinstance(value, list):          # ("url": ["https://...", ...])
        value = value[0] if value else None
    return value.strip() if isinstance(value, str) and value.strip() else None


MAX_MARKUP_ELEMENTS = 500     # [ours] microdata, <time> and rel links read per page
_MARKUP_XPATH = etree.XPath("//*[@itemprop] | //time[@datetime] | //a[@rel]")


def _element_text(el) -> str | None:
    """The element's text when it is short enough to be a name or a date (200 characters)."""
    pieces, size = [], 0
    for piece in el.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > 2000:         # (white space collapses: a margin before giving up)
            return None
    text = collapse(" ".join(pieces))
    return text if text and len(text) <= 200 else None


def _in_comment(el) -> bool:
    """Inside a comment's microdata (``itemprop="comment"``, an ``itemtype`` of a Comment)."""
    for a in el.iterancestors():
        if "comment" in (a.get("itemprop") or "").lower().split() \
                or "comment" in (a.get("itemtype") or "").lower():
            return True
    return False


def _in_article(el) -> bool:
    return any(a.tag in ("article", "main") for a in el.iterancestors())


# a year in a date: 1500-2099 (not Go's zero time "0001-01-01", not "TBD" or a clock "4:04 PM")
_DATE_FIELDS = ("date", "date_modified")
# an ISO 8601 date ("2019-11-20", "2019-11-20T13:42:06+08:00")
_ISO_DATE = re.compile(r"\s*\d{4}-\d{2}-\d{2}")
_DATE_YEAR = re.compile(r"(?:^|\D)(?:1[5-9]|20)\d\d")


def plausible_date(value: str) -> bool:
    """``value`` names a year a page can be from: a date field without one (an unfilled
    template's "TBD", a Slashdot ``datetime="on Tuesday July 24, @09:04AM"``, Go's zero
    time) is not reported."""
    return _DATE_YEAR.search(ascii_digits(value)) is not None


# the text of a rel="author" link that names no one: a label of the link to the profile
_LINK_LABEL = re.compile(
    r"(?:view\s+(?:my\s+)?(?:complete\s+|full\s+)?profile|(?:my\s+)?profile|about(?:\s+(?:us|me|"
    r"the\s+author|this\s+author))?|google\s*(?:\+|plus|profile)|(?:more\s+)?posts?(?:\s+by.*)?"
    r"|author(?:'s)?\s+(?:page|profile|website)|website|homepage|home|contact|more|bio)\W*",
    re.I)
# a byline's lead word ("By Jane Doe")
_BY = re.compile(r"by\s+(?=\S)", re.I)


def _author_name(text: str | None) -> str | None:
    """A person's name from an author element's text: not a URL, not a link's label ("View
    Profile", "About Me", "Google+"), without a leading "By "."""
    if not text or _is_url(text):
        return None
    stripped = text.strip()
    if _LINK_LABEL.fullmatch(stripped):
        return None
    by = _BY.match(stripped)
    return stripped[by.end():] if by else text


def markup_metadata(doc: Document) -> dict[str, str]:
    """Date and author from the page's markup, where meta tags and JSON-LD say nothing:
    schema.org microdata (``itemprop="datePublished"`` / ``"author"``, its ``name`` inside),
    a ``rel="author"`` link's text, else the first ``<time datetime>`` (one marked
    ``pubdate`` or ``datePublished`` first, then one in an ``<article>`` or ``<main>``); a
    comment's microdata is not the page's.  The first :data:`MAX_MARKUP_ELEMENTS` such
    elements are read."""
    return _markup(doc)[0]


def _markup(doc: Document) -> tuple[dict[str, str], list[str]]:
    """:func:`markup_metadata`, and every date candidate of the markup in its order of
    trust (the microdata's, then the ``<time datetime>`` as ranked there): when the first
    does not read as a date, the next is tried."""
    out: dict[str, str] = {}
    times = []
    published = []
    places = _Places(doc)
    authors_read = 0
    for k, el in enumerate(_MARKUP_XPATH(doc.root)[:MAX_MARKUP_ELEMENTS]):
        if _in_comment(el):     # a commenter's name and date are not the page's
            continue
        prop = (el.get("itemprop") or "").lower().split()
        if "datepublished" in prop and len(published) < 5:
            # (Blogger: <abbr itemprop="datePublished" title="2012-10-07T16:04">4:04 PM</abbr>)
            value = el.get("content") or el.get("datetime") \
                or (el.get("title") if el.tag == "abbr" else None) or _element_text(el)
            if value and plausible_date(value):
                published.append(collapse(value))
        elif "author" in prop and "author" not in out:
            if authors_read >= 3:   # nested ones, each around the whole text: read few
                continue
            authors_read += 1
            name = next((n for n in el.iter(tag=etree.Element) if n.get("itemprop") == "name"),
                        None)
            value = _author_name(el.get("content")
                                 or (name.get("content") if name is not None else None)
                                 or _element_text(el if name is None else name))
            if value:
                out["author"] = value
        elif el.tag == "a" and "author" in (el.get("rel") or "").lower().split() \
                and "author" not in out:
            value = _author_name(_element_text(el))
            if value:
                out["author"] = value
        if el.tag == "time" and el.get("datetime") and plausible_date(el.get("datetime")) \
                and not places.undated(doc.node_of(el)):
            marked = el.get("pubdate") is not None or "datepublished" in prop
            # then one in the article (a header's <time> shows today's date)
            rank = 0 if marked else 1 if _in_article(el) else 2
            times.append((rank, k, el.get("datetime")))
    dates = published + [collapse(value) for _, _, value in sorted(times)[:5]]
    if dates:
        out["date"] = dates[0]
    return out, dates


_CREDIT = re.compile(r"\W*(?:!|team|inc\b|ltd\b|llc\b|gmbh\b|group\b|developers?\b|"
                     r"project\b|community\b|and\b|&|\s*$)", re.I)


# a word of a class or id that marks an element as holding the page's date: one starting or
# ending with "date", "meta", "byline", "stamp" ("entry-date", "storydate", "metadata",
# "datestamp", WordPress's "entry-meta"), "time" and the times of a post ("posttime"),
# "posted..." and "publish...", Drupal's "submitted", "created", German "datum", Spanish
# "fecha"; not "candidate", "datenschutz", "metal", "timeline", "timezone", a citation's
# "accessdate"
_DATED_WORD = re.compile(
    r"(?:date|meta|byline|datum|fecha)\w*|\w*(?:date|meta|byline|stamp|datum|fecha)"
    r"|time|times?tamp|(?:date|post|pub|publish|create|mod|entry|article|story)time"
    r"|posted\w*|publish(?:ed|ing)?\w*|pub(?:date|lished)\w*|submitted|created?")
_NOT_DATED_WORDS = frozenset((
    "candidate", "candidates", "update", "updates", "validate", "mandate", "datenschutz",
    "metal", "timeline", "timelines", "accessdate", "publisher", "publishers"))
_DATED_MARK = re.compile(r"date|time|posted|publish|pub|byline|meta|stamp|datum|fecha"
                         r"|submitted|create", re.I)
# ... and the words that mark one whose date is not the page's: a comment's, a link to
# another post; a date field of a form (words: "no-related" is a related
# post's mark, "category-reviews" a post's, "correspondent" no "respond"; an ancestor
# holding half the page or more, a page-wide wrapper, is no mark)
_COMMENT_WORDS = frozenset(("comment", "comments", "commentlist", "reply", "replies",
                            "respond", "responses", "disqus"))
_UNDATED_WORDS = _COMMENT_WORDS | frozenset((
    "nav", "navigation", "pagination", "pagenavi", "pager", "prev", "previous", "related",
    "recent", "recommended"))
_UNDATED_TAGS = frozenset(("form", "select", "option"))
MAX_FORM_NODES = 300        # [ours] a bigger form wraps the page (ASP.NET's aspnetForm)
# ... and what marks a date as a later one, in the element's marks or the words before it
_UPDATE = re.compile(r"update|modif|edited|lastmod|revised|mis à jour|aktualisiert"
                     r"|actualizad|aggiornat|bijgewerkt", re.I)
# ... and a page's own bar, where a site shows today's date
_SITE_BAR_WORDS = frozenset(("header", "masthead", "branding", "logo", "topbar", "brandingbar"))
_POST_WORDS = frozenset(("entry", "post", "article", "story"))
MAX_DATED_ELEMENTS = 40     # [ours] dated elements holding a year read per page
MAX_DATED_NODES = 60        # [ours] ... each of at most this many nodes (a date is short)
_TIME = tag_code("time")


def _mark_words(marks: str) -> set[str]:
    return set(word_parts(marks))


def _class_and_id(doc: Document, node: int) -> str:
    return " ".join(filter(None, doc.hints.get(node, (None, None))))


def _marks(doc: Document, node: int) -> str:
    """A node's class, id and itemprop (the id of the CleanEval wrapper, a URL, left out)."""
    cls, ident = doc.hints.get(node, (None, None))
    prop = doc.elements[node].get("itemprop")
    return " ".join(v for v in (cls, ident, prop) if v and "://" not in v)


class _Places:
    """Whether a node is in a place whose dates are not the page's (an element, not a
    wrapper of half the page or more, with a class, id or itemprop word of ``words``,
    :data:`_UNDATED_WORDS`, or one of ``tags``, a form only when small), each ancestor
    judged once."""

    def __init__(self, doc: Document, words: frozenset[str] | None = None,
                 tags: frozenset[str] | None = None, token: re.Pattern | None = None):
        self.doc = doc
        self.words = _UNDATED_WORDS if words is None else words
        self.tags = _UNDATED_TAGS if tags is None else tags
        self.token = token      # ... or a class or id token it matches whole
        self.big = max(1, int(doc.end[doc.body] - doc.body) // 2) if doc.body >= 0 \
            else doc.size
        self.known: dict[int, bool] = {}

    def undated(self, node: int | None) -> bool:
        if node is None:        # (an element the node table does not hold)
            return False
        doc, known, chain = self.doc, self.known, []
        verdict = False
        while node >= 0 and node not in known:
            chain.append(node)
            name = doc.tag_names[node]
            if name in ("body", "html"):
                break
            size = int(doc.end[node]) - node
            marks = _marks(doc, node)
            if name in self.tags and (name != "form" or size <= MAX_FORM_NODES) \
                    or size < self.big and marks and (
                        not self.words.isdisjoint(_mark_words(marks))
                        or self.token is not None
                        and any(map(self.token.fullmatch, marks.split()))):
                verdict = True
                break
            node = int(doc.parent[node])
        else:
            verdict = known.get(node, False)
        for n in chain:
            known[n] = verdict
        return verdict


def _dated(doc: Document, node: int) -> bool:
    marks = _class_and_id(doc, node)
    return bool(marks) and _DATED_MARK.search(marks) is not None \
        and any(_DATED_WORD.fullmatch(w) and w not in _NOT_DATED_WORDS
                for w in _mark_words(marks))


def text_date_of(doc: Document, day_first: bool = False) -> str | None:
    """The date the page's text states in an element marked as dated (``<time>``, a class
    or id word naming a date, a time, a byline, "posted", "published", "submitted", an
    entry's meta line; each small, :data:`MAX_DATED_ELEMENTS` holding a year at most),
    outside comments, links to other posts and forms; the innermost such element
    that gives a date (not the meta line around a "published" and an "updated" date), one in
    an ``<article>`` or ``<main>`` first, then one outside the page's ``<header>``, ``<nav>``,
    ``<aside>``, ``<footer>`` and site bar (where a site shows today's date), then in
    document order, a date marked or written as an update last; ``None`` when there is
    none."""
    search = _DATED_MARK.search
    marked = (i for i, (cls, ident) in doc.hints.items()    # (in node order)
              if (cls and search(cls) or ident and search(ident)) and _dated(doc, i))
    times = np.flatnonzero(doc.tag == _TIME).tolist()
    places = _Places(doc)
    found: list[tuple[int, str, str]] = []      # (node, date, text)
    read = 0
    for i, _ in groupby(heapq.merge(marked, times)):
        if read >= MAX_DATED_ELEMENTS:
            break
        if doc.end[i] - i > MAX_DATED_NODES:
            continue        # too big for a date
        text = _element_text(doc.elements[i])
        if not text or not _DATE_YEAR.search(ascii_digits(text)):
            continue
        read += 1
        if places.undated(i):
            continue
        date = text_date(text, day_first)
        if date:
            found.append((i, date, text))
    # the innermost: an element around another that gave a date gives way to it
    inner = [(i, date, text) for k, (i, date, text) in enumerate(found)
             if not (k + 1 < len(found) and found[k + 1][0] < doc.end[i])]
    if not inner:
        return None
    return min((_date_rank(doc, i, text), i, date) for i, date, text in inner)[2]


def _date_rank(doc: Document, node: int, text: str) -> tuple[int, bool]:
    """Where a dated element stands: 0 in an ``<article>`` or ``<main>`` (its own header
    included; not a teaser's in an aside, a nav or a footer), 2 in the page's ``<header>``,
    ``<nav>``, ``<aside>``, ``<footer>`` or a site bar (a class or id word: header,
    masthead, branding, logo, topbar; not a post's header), 1 elsewhere; and whether its
    marks or the words before its date name an update."""
    names, parent = doc.tag_names, doc.parent
    in_article = bar_inside = bar_around = False
    up = int(parent[node])
    while up >= 0:
        name = names[up]
        if name in ("article", "main"):
            in_article = True
        elif in_article:
            bar_around |= name in ("aside", "nav", "footer")
        elif name in ("header", "nav", "aside", "footer"):
            bar_inside = True
        else:
            words = _mark_words(_class_and_id(doc, up))
            bar_inside |= not _SITE_BAR_WORDS.isdisjoint(words) \
                and _POST_WORDS.isdisjoint(words)
        up = int(parent[up])
    place = (2 if bar_around else 0) if in_article else (2 if bar_inside else 1)
    marks = _class_and_id(doc, node)
    before = text[:_first_digit(text)]
    return place, _UPDATE.search(marks) is not None or _UPDATE.search(before) is not None


def _first_digit(text: str) -> int:
    m = re.search(r"\d", text)
    return m.start() if m else len(text)


def _day_first(declared: str | None) -> bool:
    """Whether the page writes "05/04/2003" for 5 April: a page declared in a language
    (``declared_code``) other than English, or in English of a region other than the US
    (an undeclared page, or one whose declaration names no language, is read in the US
    order)."""
    code = declared_code(declared) if declared else None
    if code is None:
        return False
    if code != "en":
        return True
    region = declared.strip().lower().replace("_", "-").partition("-")[2]
    return bool(region) and region != "us"


def _dates_in_iso(doc: Document, out: dict[str, Any],
                  dates: dict[str, list[tuple[int, str]]]) -> None:
    """``out``'s dates: the first of each field's candidates (``(source, value)``: meta tags
    0 in the order of their keys, JSON-LD 1, markup 2) that reads as a date, in ISO 8601
    (:func:`dates.iso_date`), with the time
    and offset of an ISO 8601 candidate of the same day where it has them; without one,
    the date in the page's URL or canonical URL, else the one its text states
    (:func:`text_date_of`)."""
    day_first = _day_first(out.get("declared_language"))
    for field, values in dates.items():
        read = [(v, found) for _, v in sorted(values, key=lambda sv: sv[0])
                if (found := iso_date(v, day_first))]
        if read:
            value = read[0][1]
            # the same day written in ISO 8601 elsewhere tells its time and offset too
            value = max((found for v, found in read if found[:10] == value[:10]
                         and _ISO_DATE.match(v)), key=len, default=value)
            out[field] = value
    if "date" not in out:
        value = url_date(doc.url) or url_date(out.get("canonical_url")) \
            or text_date_of(doc, day_first)
        if value:
            out["date"] = value


def _software_credit(author: str, generator: str | None) -> bool:
    """Whether ``author`` credits the software of the page's ``<meta name="generator">``:
    the generator itself, or its product name followed by "!", "Team", "Inc", "and"...
    ("Discuz! Team and Comsenz UI Team" of "Discuz! X3.4"; not "Hugo Ferreira" of "Hugo
    0.121", nor "Victor Hugo")."""
    if not generator:
        return False
    if author.casefold() == generator.casefold():
        return True
    words = _LATIN_WORD.findall(generator)
    product = words[0] if words and len(words[0]) >= 3 else None
    return product is not None and author.casefold().startswith(product.casefold()) \
        and _CREDIT.match(author, len(product)) is not None


def read_metadata(doc: Document) -> dict[str, Any]:
    """Metadata of the page: title candidates, description, author, date, canonical URL...
    from meta tags and Open Graph, and from JSON-LD where they say nothing."""
    meta, meta_lists = _meta(doc)
    out: dict[str, Any] = {}
    dates: dict[str, list[tuple[int, str]]] = {field: [] for field in _DATE_FIELDS}
    generator = meta.get("generator")
    for field, keys in _META_KEYS.items():
        for key in keys:
            value = meta.get(key)
            if field in dates:
                if value and plausible_date(value):
                    dates[field].append((0, value))
                continue
            # an author that is a URL (article:author) or the credit of the software that
            # made the page (Discuz!'s "Discuz! Team and Comsenz UI Team" on every forum page);
            # an image that is no address (an inline "data:" placeholder)
            if value and field == "image" and not _web_url(None, value, relative=True):
                continue
            if value and not (field == "author" and (
                    _is_url(value) or _software_credit(value, generator))):
                out[field] = value
                break
    for field, keys in _LIST_KEYS.items():
        terms = _terms(next((meta_lists[k] for k in keys if meta_lists.get(k)), []))
        if terms:
            out[field] = terms
    later = [json_ld_metadata(doc)] if doc.json_ld else []
    if "author" not in out or not any(_ISO_DATE.match(v) for _, v in dates["date"]):
        markup, markup_dates = _markup(doc)
        markup.pop("date", None)
        dates["date"] += [(2, v) for v in markup_dates]
        later.append(markup)
    for source, found in enumerate(later, 1):
        for field, value in found.items():
            if field in dates:
                if plausible_date(value):
                    dates[field].append((source, value))
            else:
                out.setdefault(field, value)
    out["html_title"] = html_title(doc)
    out["h1"] = _first_text(doc, "h1")
    html = doc.root if doc.root.tag == "html" else None
    declared = (html.get("lang") or html.get(_XML_LANG)) if html is not None else None
    out["declared_language"] = declared or out.pop("content_language", None)
    base = page_base(doc)
    links = link_hrefs(doc)
    if "canonical" in links:      # (relative to the page, or to its <base>: "/news/story-1")
        out["canonical_url"] = resolved(base, links["canonical"])
    rel_links = _rel_links(doc, base)
    for field in ("tags", "categories"):
        out[field] = out.get(field) or rel_links.get(field)
    # the page's license: a <link rel="license">, an <a rel="license"> (a Creative Commons
    # badge), JSON-LD's; its image: Open Graph's, Twitter's, JSON-LD's, <link rel="image_src">
    for field, candidates, fits in (
            ("license", (links.get("license"), rel_links.get("license"), out.get("license")),
             _license_url),
            ("image", (out.get("image"), links.get("image_src")), bool)):
        urls = (_web_url(base, c) for c in candidates)
        out[field] = next((url for url in urls if url and fits(url)), None)
    _dates_in_iso(doc, out, dates)
    return {k: v for k, v in out.items() if v}


MAX_REL_LINKS = 500     # [ours] <a rel> elements read per page
# where a blog's tag links are not the post's: a comment (:data:`_COMMENT_WORDS`), a <nav>,
# an <aside>, a site's tag cloud by its class or id (WordPress's "widget_tag_cloud" and
# "tagcloud"; not the words "widget", "sidebar" or "nav": Blogger's post is a "widget Blog",
# a post tagged "cloud" has the class "tag-cloud", a post's tags sit in an "entry_nav" or a
# "content-sidebar-wrap")
_TAG_PLACE_TAGS = frozenset(("nav", "aside"))
_TAG_CLOUD = re.compile(r"(?:wp-|widget[-_])tag[-_]?cloud\w*|tag_?cloud\w*|tags[-_]?cloud\w*"
                        r"|tag-cloud[-_]\w+", re.I)
# ... and where a license link is not the page's: a comment, a photo's credit
_CREDIT_TAGS = frozenset(("figure", "figcaption"))
_URL_LIKE = re.compile(r"^(?:https?:)?//|^[^\s]*[./][^\s]*$", re.I)


def _rel_links(doc: Document, base: str | None) -> dict[str, Any]:
    """The post's tags and categories from its ``<a rel="tag">`` / ``rel="category tag"`` /
    ``rel="category"`` links (WordPress and other blogs; outside comments, a tag cloud,
    ``<nav>`` and ``<aside>``, each container judged once; none when more than
    :data:`MAX_TERMS`), and the address of the first ``<a
    rel="license">`` that names one, outside comments and figures (a sidebar's badge is the
    site's license, so the page's)."""
    found: dict[str, list[str]] = {"tags": [], "categories": []}
    license_url = None
    post_places = _Places(doc, _COMMENT_WORDS, _TAG_PLACE_TAGS, _TAG_CLOUD)
    license_places = _Places(doc, _COMMENT_WORDS, _CREDIT_TAGS)
    # (the node table's anchors: an XPath over the tree cost twice the time)
    anchors = (doc.elements[i] for i in np.flatnonzero(doc.is_tag("a")))
    for el in islice((el for el in anchors if el.get("rel")), MAX_REL_LINKS):
        rel = el.get("rel").lower().split()
        if "license" in rel and license_url is None:
            url = _web_url(base, (el.get("href") or "").strip())
            if url and _license_url(url) and not license_places.undated(doc.node_of(el)):
                license_url = url
        if ("tag" in rel or "category" in rel) \
                and not post_places.undated(doc.node_of(el)):
            _add_term(found["categories" if "category" in rel else "tags"], _link_text(el))
    out: dict[str, Any] = {field: _terms(terms) for field, terms in found.items()}
    out["license"] = license_url
    return out


def _link_text(el) -> str | None:
    """A tag link's words ("Java<b>Script</b>" is "JavaScript"), None when longer than a
    tag."""
    text = "".join(islice(el.itertext(), 20))
    return text if len(text) <= 4 * MAX_TERM_CHARS else None


def _license_url(url: str) -> bool:
    """Whether an http(s) ``url`` may be a license's address: not a site's root ("/")."""
    try:
        return urlsplit(url).path not in ("", "/")
    except ValueError:
        return False


def _web_url(base: str | None, href: str | None, relative: bool = False) -> str | None:
    """``href`` read against ``base`` when that gives an http(s) address and ``href`` looks
    like one (no spaces, a dot or a slash: not "CC BY 4.0", "undefined", "#primaryimage"),
    else None; ``relative``: a relative ``href`` that looks like an address is kept as
    written."""
    if not href or href.startswith("#") or not _URL_LIKE.match(href) \
            or href.lower().startswith(("data:", "javascript:")):
        return None
    url = resolved(base, href)
    if url and url.lower().startswith(("http://", "https://")):
        return url
    return href if relative and url and ":" not in href.split("/", 1)[0] else None


def link_hrefs(doc: Document, rels: tuple[str, ...] = ("canonical", "license", "image_src")
               ) -> dict[str, str]:
    """The href (as written, stripped) of the page's first ``<link>`` of each of ``rels``."""
    links: dict[str, str] = {}
    for link in doc.root.iterfind(".//link"):
        href = (link.get("href") or "").strip()
        for rel in (link.get("rel") or "").lower().split():
            if href and rel in rels:
                links.setdefault(rel, href)
    return links


def page_base(doc: Document) -> str | None:
    """The URL the page's relative links are read against: its ``<base href>`` (itself
    relative to the page's URL) or the page's URL."""
    base = next((el.get("href") for el in doc.root.iterfind(".//base") if el.get("href")), None)
    if base is None:
        return doc.url
    return resolved(doc.url, base.strip()) or doc.url


def resolved(base: str | None, href: str) -> str | None:
    """``href`` read against ``base``; None when either is no URL urllib can read
    (``//[object Object]``, an unfilled template ``https://[{{ canonical }}]``): a bad link
    in the metadata costs that field, not the page."""
    try:
        url = urljoin(base, href) if base else href
        urlsplit(url)               # (checks the host part: brackets, ports)
    except ValueError:
        return None
    return url


# " | ", " - ", " – ", " — ", " · ", " • ", " » ", " › ", " « ", " :: ", "｜" between a headline and
# a site name
# (" - " between two numbers is a score or a span: "Arsenal 2 - 1 Chelsea", "2020 - 2021");
# "_" and "--" touching Chinese or Japanese ("标题_频道_网站", "标题--网站"), and "_" before a
# capitalised word after a lower-case one ("Headline_English_Xinhua"; "snake_case" stays);
# a run of "_" or "-" is matched from its start only (linear time)
_CJK_SIDE = "\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e）】」』》"
_TITLE_SEPARATOR = re.compile(
    r"\s+(?:[|–—·•»›«]|::)\s+|(?<!\d)\s+-\s+|\s+-\s+(?!\d)|\s*[|»•｜]\s*"
    rf"|(?<=[{_CJK_SIDE}])(?:_+|-{{2,}})|(?<![_-])(?:_+|-{{2,}})(?=[{_CJK_SIDE}])"
    r"|(?<=[a-z)])_(?=[A-Z][a-z])")
# a heading's permalink mark (Sphinx's ¶, §, 🔗; Markdown renderers' " #", not C#'s)
_HEADING_MARKS = "¶§🔗"
_JOINED = re.compile(r"_+|-{2,}")
# a page number after a separator ("Thread - Page 3", "Archives - Page 2 of 14"): never the
# headline, and it makes the pages of one thread look different
_SPACED_MARK = r"\s+(?:[-|–—·•»›«｜]|::)\s+"
_PAGE_NUMBER = re.compile(
    rf"{_SPACED_MARK}(?:page|p\.|pg\.?|seite|página|pagina)\s*\d+"
    rf"(?:\s*(?:of|/|von|de)\s*\d+)?(?={_SPACED_MARK}|\s*$)", re.I)
_TOKEN = re.compile(r"[^\W\d_]{3,}")
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
MAX_HEADINGS = 5


def _key(text: str) -> str:
    """Text compared without case, punctuation and spacing."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _tokens(text: str) -> set[str]:
    """Words of three letters or more, cut to five (``houseplant``, ``houseplants`` and
    ``repotting``, ``repot`` meet), and pairs of CJK characters."""
    low = text.lower()
    cjk = "".join(_CJK_CHAR.findall(low))
    return {w[:5] for w in _TOKEN.findall(low)} | {cjk[i:i + 2] for i in range(len(cjk) - 1)}


def _without_marks(text: str) -> str:
    """``text`` without the permalink marks at its end (at most three: linear time)."""
    for _ in range(3):
        cut = text.rstrip().rstrip(_HEADING_MARKS).rstrip()
        if cut.endswith(" #") or cut == "#":
            cut = cut[:-1].rstrip()
        if cut == text:
            break
        text = cut
    return text


def _headings(doc: Document) -> list[str]:
    """The texts of the page's first :data:`MAX_HEADINGS` ``<h1>``, permalink marks removed."""
    out = []
    for i in np.flatnonzero(doc.tag == tag_code("h1"))[:MAX_HEADINGS].tolist():
        text = _without_marks(collapse(doc.text_of(nodes=[i])))
        if text:
            out.append(text)
    return out


# labels of a host that name no site: generic and country second-level domains
_GENERIC_LABELS = frozenset("www com net org gov edu mil int co ac".split())


def _site_keys(site_name: str | None, url: str | None) -> list[str]:
    """What a site's name looks like in a title: ``og:site_name``, and the labels of the
    page's host but the last, ``www`` and generic ones (``stackoverflow`` of
    stackoverflow.com, ``smh`` of www.smh.com.au)."""
    keys = [_key(site_name)] if site_name and _key(site_name) else []
    try:
        host = (urlsplit(url).hostname or "") if url else ""
    except ValueError:      # "http://[::1/": no host to read
        host = ""
    keys += [label for label in host.split(".")[:-1]
             if len(label) >= 3 and label not in _GENERIC_LABELS]
    return keys


def title_parts(title: str, site_name: str | None = None, url: str | None = None,
                by_position: bool = True) -> tuple[str, str | None]:
    """``(headline, site)`` of a ``<title>`` cut by separators such as `` | `` and `` - ``:
    the end segment that names the site (``og:site_name``, a label of the page's host) taken
    off, else (neither or both do) the last one ("Headline | Site", the common order; not
    ``by_position``: none);
    of three segments or more left (a breadcrumb, "Home | News | Headline"), the longest.  A
    title without separators is all headline."""
    parts = _TITLE_SEPARATOR.split(title)
    seps = _TITLE_SEPARATOR.findall(title)
    # blank end segments off ("Headline |"): sliced once, a title of thousands of
    # separators took quadratic time when cut one segment at a time
    last = len(parts) - 1
    while last > 0 and not parts[last].strip():
        last -= 1
    first = 0
    while first < last and not parts[first].strip():
        first += 1
    parts, seps = parts[first:last + 1], seps[first:last]
    if len(parts) < 2:
        return parts[0].strip() if parts else title, None
    if all(_JOINED.fullmatch(sep) for sep in seps):
        # only "_" / "--": a CMS's "Headline_Channel_Site" when the headline is twice as
        # long as any other part and the title a phrase; else a name ("令和5年度_事業報告書",
        # "2023年度_決算報告", "test_GetUser")
        head = parts[0].strip()
        if (_CJK_CHAR.search(title) or any(ch.isspace() for ch in title)) \
                and len(head) >= 2 * max(len(p.strip()) for p in parts[1:]):
            return head, parts[-1].strip()
        return title.strip(), None

    def without(k: int) -> tuple[str, str]:
        rest = parts[:-1] if k else parts[1:]
        if len(rest) >= 3:
            return max(rest, key=len).strip(), parts[k]
        glue = seps[:-1] if k else seps[1:]
        return "".join(p + s for p, s in zip(rest, glue + [""])).strip(), parts[k]

    keys = _site_keys(site_name, url)
    named = [k for k in (-1, 0) if any(key in _key(parts[k]) for key in keys)]
    if len(named) == 1 and len(parts[named[0]]) < len(title) / 2:
        return without(named[0])
    if len(named) == 2 and by_position:
        # both ends name the site: by position ("Welcome to Flaskish — Flaskish
        # Documentation"), unless the last is twice the first ("Microsoft News | Microsoft
        # announces ...")
        return without(0 if len(parts[-1]) >= 2 * len(parts[0]) else -1)
    return without(-1) if by_position else (title, None)


# between the segments of a title once its template is known: the usual separators, " > ",
# " -- " (not French " : ", inside headlines); a template at the start may also end with
# "Site: " or "Site : " when that names the site
_SEGMENTS = re.compile(_TITLE_SEPARATOR.pattern + r"|\s+(?:>|--)\s+")
_TEMPLATE_CUT = re.compile(_SEGMENTS.pattern + r"|:\s+")


def template_free(title: str, others: Sequence[str], site_name: str | None = None,
                  url: str | None = None) -> tuple[str, bool]:
    """``(rest, templated)``: ``title`` without the beginning and the end it shares, up to a
    separator, with one of ``others`` (the titles of other pages of the same site):
    "TheStar.com | Sports | ..." -> "Sports | ...", "... | Technology | Reuters" -> "... |
    Technology".  A template is never longer than what it leaves (so "Mission: Impossible –
    Fallout" keeps its shared "Mission: Impossible – ") unless it ends "Site: ", which must
    name the site (``og:site_name``, the host: "Ukraine war: ..." is a headline's kicker).  ``rest``
    is "" when ``title`` is a bare name (no separator) that ``others`` share: a site that
    gives every page its name.  The same title with separators on another page is the same
    page under another URL, no evidence.  An end of one segment found whole on two other
    pages is template however long ("... — Python 3.12 documentation").  ``templated``:
    something was taken off."""
    title = title.strip()
    if not title or not others:
        return title, False
    front = back = 0
    seen = []
    for other in others:
        other = collapse(other or "")
        if not other:
            continue
        seen.append(other)
        if other.casefold() == title.casefold():
            if _SEGMENTS.search(title) is None:
                return "", True
            continue
        front = max(front, len(commonprefix((title, other))))
        back = max(back, len(commonprefix((title[::-1], other[::-1]))))
    if not front and not back:
        return title, False
    n = len(title)
    keys = _site_keys(site_name, url)
    heads, tails = [], []     # (cut, the template is the site's name before a colon)
    for m in _TEMPLATE_CUT.finditer(title):
        here = _SEGMENTS.match(title, m.start())     # in context: "_" needs its CJK neighbour
        segment = here is not None and here.end() == m.end()
        # (a site's name is short: the first 200 characters are read for it, not the title's
        # every beginning, which took quadratic time)
        if m.end() <= front and (segment or m.start() <= 200 and any(
                key in _key(title[:m.start()]) for key in keys)):
            heads.append((m.end(), not segment))
        if m.start() >= n - back and segment:
            tails.append(m.start())
    # the longest end allowed: no longer than what it leaves, or one segment (no "_" or "--")
    # found whole on two other pages ("... — Python 3.12 documentation"; not "- The Long
    # Night - Fanfiction" of a story's chapters)
    end = next((e for e in tails if n - e <= e or (
        not _JOINED.match(title, e) and _SEGMENTS.search(title, _SEGMENTS.match(title, e).end())
        is None and sum(other.endswith(title[e:]) for other in seen) >= 2)), n)
    start = max((b for b, named in heads if named or b <= end - b), default=0)
    rest = title[start:end].strip()
    if not rest or (start, end) == (0, n):
        return title, False
    if start:       # "Site | Section | Headline": the headline comes last
        segments = [p.strip() for p in _SEGMENTS.split(rest)]
        if len(segments) > 1 and all(2 * len(p) <= len(segments[-1]) for p in segments[:-1]):
            rest = segments[-1]
    if _TITLE_SEPARATOR.search(rest) and all(
            _JOINED.fullmatch(sep) for sep in _TITLE_SEPARATOR.findall(rest)):
        rest = title_parts(rest)[0]       # "标题_频道" left: the CMS's order, headline first
    return rest, True


def choose_title(meta: dict[str, Any], doc: Document | None = None,
                 sibling_titles: Sequence[str] = ()) -> str | None:
    """The page's title: the Open Graph title (a segment naming the site taken off); else an
    ``<h1>`` making up most of the ``<title>``'s headline (:func:`title_parts`), the longest;
    else the first ``<h1>`` of two words or more sharing one (not a function word) with that
    headline (the visible headline, worded differently); else the headline; else the first
    ``<h1>``.  An ``<h1>`` that is the site's name (a logo) is never the title.  ``doc``
    gives every ``<h1>`` (else only ``meta["h1"]``).  A page number ("- Page 2 of 14") is no
    part of a ``<title>``.  ``sibling_titles``, the ``<title>`` of other pages of the site,
    show its template (:func:`template_free`): what is left of the ``<title>`` is the
    headline, unless what was cut is this page's ``<h1>``; a ``<title>`` that is all
    template gives way to the first ``<h1>``."""
    html_title, og, site_name = meta.get("html_title"), meta.get("og_title"), \
        meta.get("site_name")
    url = doc.url if doc is not None else None
    if og:      # only a segment that names the site: "Arsenal 2 - 1 Chelsea" stays whole
        headline, _ = title_parts(og, site_name, url, by_position=False)
        return headline or og
    h1 = meta.get("h1")
    headings = _headings(doc) if doc is not None else ([h1] if h1 else [])
    if not html_title:
        return headings[0] if headings else None
    raw = collapse(html_title)      # (runs of spaces made the separators quadratic)
    html_title = _PAGE_NUMBER.sub("", raw) or raw
    others = []
    for other in sibling_titles:
        other = collapse(other or "")
        unpaged = _PAGE_NUMBER.sub("", other)
        if unpaged.casefold() != html_title.casefold() or other.casefold() == raw.casefold():
            others.append(unpaged)      # (another page of the same thread: no evidence)
    rest, templated = template_free(html_title, others, site_name, url)
    if templated and rest:
        # a beginning shared with other pages that is this page's <h1> is a product's or a
        # thread's name ("Phone X - Specs", "Phone X - Reviews"), not the site's template
        keys = _site_keys(site_name, url)
        whole, left = _key(html_title), _key(rest)
        templated = not any(k and whole.startswith(k) and k not in left
                            and not any(key in k for key in keys) for k in map(_key, headings))
    if templated:
        site, headline = None, rest
    else:
        headline, site = title_parts(html_title, site_name, url)
    logos = {_key(site_name or ""), _key(site or "")} - {""}
    if templated and not rest:
        logos.add(_key(html_title))
    candidates = [h for h in headings if _key(h) and _key(h) not in logos]
    if templated and not rest:
        return candidates[0] if candidates else title_parts(html_title, site_name, url)[0]
    line = _key(headline)
    held = [h for h in candidates if _key(h) in line and 2 * len(_key(h)) >= len(line)]
    if held:
        return max(held, key=len)
    # the headline's own words: its longest segment, not a section named beside it
    words = _tokens(max(_TITLE_SEPARATOR.split(headline), key=len)) - _EN_STOP
    for h in candidates:
        own = _tokens(h) - _EN_STOP
        if len(own) >= 2 and words & own:
            return h
    return headline or html_title
