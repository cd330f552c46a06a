"""Outgoing links of a parsed page: canonical URL, anchor text, context, main-content flag.

Links are read from the page's :class:`extraction.Document` (no second parse).  URLs are
canonicalised with w3lib (fragment dropped, query sorted) and session-id parameters removed;
schemes other than http(s) and file types that are never HTML are not returned.  The path keeps
its percent-escaped reserved characters (``C%2B%2B`` is not ``C++`` to a server, RFC 3986
§6.2.2.2): only escapes of unreserved characters are decoded.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote, urljoin, urlparse, urlsplit, urlunsplit

import idna
import numpy as np
from scrapy.linkextractors import IGNORED_EXTENSIONS
from w3lib.url import canonicalize_url, safe_url_string

from extraction.document import BLOCK_LEVEL, TEXT, Document
from extraction.methods.pso_blocks import nearest_block

SESSION_PARAMS = ("sid", "sessionid", "session_id", "session", "jsessionid", "phpsessid",
                  "sessid", "aspsessionid", "cfid", "cftoken", "zenid", "osCsid", "s_id")
_SESSION_NAMES = frozenset(p.lower() for p in SESSION_PARAMS)   # matched in any case
_SESSION_PATH = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/?#]*", re.I)
# names also used for content (a session of parliament, a section id, a story id): only a
# random-looking token of at least MIN_TOKEN letters and digits, both, is taken for a session
# (not "2023-autumn", "07/05/15/1234201" or "2023")
GENERIC_SESSION_NAMES = frozenset(("sid", "session", "s_id"))
MIN_TOKEN = 10
_TOKEN = re.compile(r"(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{%d,}\Z" % MIN_TOKEN)
# short names forums and shops give a session hash (vBulletin's ?s=<32 hex>); other short
# names with a hex value are content (?pid=<uuid>, ?f=<md5 of a file>, ?h=<commit>)
SHORT_SESSION_NAMES = frozenset(("s", "ses", "sess"))
_HEXLIKE = re.compile(r"^[0-9a-f]{16,32}$", re.I)
# what a query may hold unescaped (RFC 3986 3.4: pchar, "/" and "?"), and escapes
_QUERY_SAFE = "!$&'()*+,;=:@/?~-._%"
MAX_LINKS_PER_PAGE = 5000   # [ours] links read from one page (a 50,000-link page: ~20 s)
_SKIP_EXT = frozenset("." + e for e in (*IGNORED_EXTENSIONS, "gz", "tgz", "bz2", "xz"))
_SKIP_LONG_EXT = tuple(e for e in _SKIP_EXT if e.count(".") > 1)    # ".tar.gz"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_PCT_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
MAX_URL_LENGTH = 2000
# an absolute URL that canonicalisation leaves as it is: lower-case host without port, a path
# of characters neither w3lib nor the session-id rules touch, no query, fragment or escape
# (and no dot segment, checked apart); tests/test_crawler_units.py checks the claim
_PLAIN_URL = re.compile(r"https?://[a-z0-9-]+(?:\.[a-z0-9-]+)*/[A-Za-z0-9_~!$&'()*+,=@/.-]*\Z")
CONTEXT_CHARS = 240
_SCHEME_NAME = r"[A-Za-z][A-Za-z0-9+.-]*"      # RFC 3986 3.1
# a reference whose path (after any scheme and authority) holds an empty segment ("a//b")
_EMPTY_SEGMENT = re.compile(rf"(?>(?:{_SCHEME_NAME}:)?(?://[^/?#]*)?)[^?#]*?//")
_ABSOLUTE = re.compile(rf"{_SCHEME_NAME}://")     # scheme and authority
_SCHEME = re.compile(rf"({_SCHEME_NAME}):")


@dataclass
class Link:
    url: str                  # canonical absolute URL
    anchor: str = ""
    context: str = ""         # text of the block around the anchor
    in_content: bool = False  # the anchor lies in the extracted main text
    nofollow: bool = False
    count: int = 1            # times the page links this URL
    extra: dict = field(default_factory=dict)


def is_plain(url: str) -> bool:
    """True when ``url`` is already canonical (:func:`canonical` returns it unchanged) by its
    form alone; a cheap test that lets the common case skip w3lib."""
    return _PLAIN_URL.match(url) is not None and "/." not in url[8:]


def idna_host(host: str) -> str | None:
    """A host name in its IDNA 2008 / UTS #46 ASCII form (``straße.de`` ->
    ``xn--strae-oqa.de``), None when the idna package refuses it."""
    if host.isascii():
        return host.lower()
    try:
        return idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def uts46_host(url: str) -> str:
    """``url`` with a non-ASCII host in its IDNA 2008 / UTS #46 form, as browsers send it
    (``straße.de`` is ``xn--strae-oqa.de``; w3lib, through Python's IDNA 2003 codec, would make
    it ``strasse.de``, another domain).  A host the idna package refuses is left to w3lib."""
    if url.isascii():
        return url
    parts = urlsplit(url)
    host = parts.hostname
    if not host or host.isascii():
        return url
    ascii_host = idna_host(host)
    if ascii_host is None:
        return url
    userinfo, at, hostport = parts.netloc.rpartition("@")
    port = hostport[hostport.rfind(":"):] if hostport.rfind(":") > hostport.rfind("]") else ""
    return urlunsplit(parts._replace(netloc=f"{userinfo}{at}{ascii_host}{port}"))


@lru_cache(maxsize=1 << 16)
def canonical(url: str) -> str:
    """Canonical form used for dedup and as the request URL (w3lib + session ids removed).
    Cached: navigation links repeat on every page of a site."""
    url = _SESSION_PATH.sub("", uts46_host(url.strip()))
    parts = urlsplit(url)
    if parts.query:
        url = urlunsplit(parts._replace(query=_without_session_ids(parts.query), fragment=""))
    parts = urlsplit(url)
    if "%" not in parts.path:
        canon = canonicalize_url(url, keep_fragments=False)
    else:
        # w3lib also decodes escaped reserved characters of the path (%2B -> "+", %27 -> "'"),
        # which names another resource: the path's escapes go through it as "%25XX" (which it
        # keeps) and come back normalised; it still resolves dot segments and parameters
        protected = urlunsplit(parts._replace(path=parts.path.replace("%", "%25")))
        canon = canonicalize_url(protected, keep_fragments=False)
        parts = urlsplit(canon)
        path = _escaped_path(parts.path.replace("%25", "%"))
        if "/." in path:        # ("%2e%2e" decoded: its dot segments resolved, RFC 3986 6.2.2.3)
            path = _remove_dot_segments(path)
        canon = urlunsplit(parts._replace(path=path))
    parts = urlsplit(canon)
    if parts.hostname and parts.hostname.endswith("."):
        # a fully qualified name's root dot: the same host (a.test. is a.test), not another
        host = parts.netloc.rpartition("@")[2]
        canon = urlunsplit(parts._replace(netloc=parts.netloc[:len(parts.netloc) - len(host)]
                                          + host.replace(".:", ":").rstrip(".")))
    parts = urlsplit(canon)
    if parts.query:
        # w3lib form-encodes the query's reserved characters (?story=24/11/20 becomes
        # ?story=24%2F11%2F20, which a server need not read as the same); its pairs are
        # sorted and its escapes normalised here instead, the characters kept as written
        query = _normal_query(urlsplit(url).query)
        parts = parts._replace(query=query)
        canon = urlunsplit(parts)
    try:
        port = parts.port
    except ValueError:              # not a port: crawlable() refuses the URL
        port = None
    if port is not None and _DEFAULT_PORTS.get(parts.scheme) == port:
        canon = urlunsplit(parts._replace(netloc=parts.netloc.rpartition(":")[0]))
    return canon


def _without_session_ids(query: str) -> str:
    """The query without session-id parameters: a name of :data:`SESSION_PARAMS` in any case
    (for the generic names of :data:`GENERIC_SESSION_NAMES`, only with a random-looking token
    of letters and digits, at least :data:`MIN_TOKEN`: ``?session=2023-autumn`` names a
    parliament's session, ``?sid=07/05/15/1234201`` a story), or a name of
    :data:`SHORT_SESSION_NAMES` carrying a bare hex token of 16-32 characters that is not a
    plain decimal number (vBulletin's ``?s=``).  Other short names with a hex value are
    content (``?pid=<uuid>``, ``?f=<md5>``), kept."""
    kept = []
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        lower = name.lower()
        if lower in _SESSION_NAMES and (lower not in GENERIC_SESSION_NAMES
                                        or _TOKEN.match(value)):
            continue
        if (eq and lower in SHORT_SESSION_NAMES and _HEXLIKE.match(value)
                and not value.isdigit()):
            continue
        kept.append(pair)
    return "&".join(kept)


def _normal_query(query: str) -> str:
    """A query in canonical form: its pairs sorted and empty ones dropped, characters a query
    may not hold escaped (a space, non-ASCII as UTF-8), escapes normalised as the path's
    (RFC 3986 §6.2.2); reserved characters stay as written (``/``, ``:``, ``,``)."""
    return "&".join(sorted(_escaped_path(quote(p, safe=_QUERY_SAFE))
                           for p in query.split("&") if p))


def _escaped_path(path: str) -> str:
    """The path's escapes normalised (RFC 3986 §6.2.2), a stray ``%`` escaped first so that
    decoding never makes a new escape (``%a%41`` is not ``%aA``)."""
    return _PCT_ESCAPE.sub(_normal_escape, _STRAY_PERCENT.sub("%25", path))


def _normal_escape(match: re.Match) -> str:
    """RFC 3986 §6.2.2: an escaped unreserved character decoded, any other escape upper-case."""
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else match.group(0).upper()


def is_web_url(url: str) -> bool:
    """An http(s) URL (``False`` for a malformed one, ``http://[::1``, rather than an error)."""
    try:
        return urlsplit(url).scheme in ("http", "https")
    except ValueError:
        return False


def crawlable(url: str, any_type: bool = False) -> str | None:
    """Why ``url`` must not be requested (None when it may be); ``any_type``: a URL named as
    a feed or sitemap, whose file type (``.rss``, ``.xml``) does not count against it."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as err:
        return f"malformed URL ({err})"
    if parts.scheme not in ("http", "https"):
        return f"scheme {parts.scheme or '(none)'}"
    if not host:
        return "no host"
    if any(c.isspace() or not c.isprintable() for c in host):
        return "malformed host"
    if len(url) > MAX_URL_LENGTH:
        return "URL too long"
    if any_type:
        return None
    path = parts.path.lower()
    dot = path.rfind(".")
    if dot > path.rfind("/") and (path[dot:] in _SKIP_EXT or path.endswith(_SKIP_LONG_EXT)):
        return f"non-HTML file type {path[dot:]}"
    return None


def base_key(base: str) -> str:
    """What of ``base`` a reference with a path depends on when resolved (RFC 3986 merge):
    scheme, authority and the path up to its last ``/``; query and fragment dropped."""
    parts = urlsplit(base)
    path = parts.path
    return f"{parts.scheme}://{parts.netloc}{path[:path.rfind('/') + 1] or '/'}"


@lru_cache(maxsize=1 << 16)
def keeps_base_path(href: str) -> bool:
    """True when ``href`` has no path of its own (``""``, ``"?q"``, ``"//"``, ``"http:"``), so
    that resolving it keeps the base URL's own path rather than its directory."""
    parts = urlparse(href)
    return not parts.path and not parts.params


def join(base: str, href: str) -> str:
    """``href`` resolved against ``base`` (RFC 3986 §5.2).  ``urljoin`` drops empty path
    segments (CPython gh-84774: ``x//y`` becomes ``x/y``, and a Wayback URL
    ``/web/2020/http://a.test/p`` loses a slash), so a reference or base that holds one is
    resolved by :func:`_rfc3986_join`, which keeps them (and every escape as it is); so is an
    absolute ``href``, which ``urljoin`` joins as a relative one when its scheme is the
    base's (dropping an empty query or parameters: ``http://a.test/x ?`` lost its space,
    ``https://`` kept it).  Raises ValueError for a malformed URL."""
    if "\\" in href:
        href = _slashed(href)
    if _EMPTY_SEGMENT.match(href) is None and _EMPTY_SEGMENT.match(base) is None \
            and _ABSOLUTE.match(href) is None:
        return urljoin(base, href)
    return _rfc3986_join(base, href)


def _slashed(href: str) -> str:
    """A web reference's backslashes before its query read as slashes, as browsers read them
    (WHATWG URL: ``http://a.test\\x/..`` is ``http://a.test/``); other schemes' as written."""
    scheme = _SCHEME.match(href)
    if scheme is not None and scheme.group(1).lower() not in ("http", "https"):
        return href
    cut = min((i for i in (href.find("?"), href.find("#")) if i >= 0), default=len(href))
    return href[:cut].replace("\\", "/") + href[cut:]


def _rfc3986_join(base: str, href: str) -> str:
    """RFC 3986 §5.2.2 on the raw components (no decoding), empty segments kept; a reference
    with the base's scheme and no authority (``http:foo``) is relative, as the RFC's
    non-strict parsers, ``urljoin`` and browsers read it."""
    b, r = urlsplit(base), urlsplit(href)
    if r.scheme and r.scheme == b.scheme and not r.netloc:
        href = href[len(r.scheme) + 1:]
        r = urlsplit(href)
    has_query = "?" in href.partition("#")[0]
    if r.scheme:
        scheme, netloc, path, query = r.scheme, r.netloc, _remove_dot_segments(r.path), r.query
    elif href.startswith("//"):
        scheme, netloc, path, query = b.scheme, r.netloc, _remove_dot_segments(r.path), r.query
    elif not r.path:
        scheme, netloc, path = b.scheme, b.netloc, b.path
        query = r.query if has_query else b.query
    else:
        if r.path.startswith("/"):
            path = r.path
        elif b.netloc and not b.path:
            path = "/" + r.path
        else:
            path = b.path[:b.path.rfind("/") + 1] + r.path
        scheme, netloc, path, query = b.scheme, b.netloc, _remove_dot_segments(path), r.query
    url = urlunsplit((scheme, netloc, path, query, ""))
    if has_query and not query:
        url += "?"      # (an empty query is kept: "x// ?" keeps its space inside the URL)
    return url + "#" + r.fragment if "#" in href else url      # (an empty fragment too)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4: ``.`` and ``..`` segments resolved; empty segments stay."""
    segments = path.split("/")
    out: list[str] = []
    last = len(segments) - 1
    for i, seg in enumerate(segments):
        if seg == "..":
            if len(out) > 1 or (out and out[0] != ""):      # never above the root
                out.pop()
            if i == last:
                out.append("")
        elif seg == ".":
            if i == last:
                out.append("")
        else:
            out.append(seg)
    if path.startswith("/") and (not out or out[0] != ""):
        out.insert(0, "")
    return "/".join(out)


@lru_cache(maxsize=1 << 17)
def resolve(base: str, href: str, any_type: bool = False) -> str | None:
    """The canonical crawlable URL of ``href`` on a page at ``base``, or None (``any_type``
    as in :func:`crawlable`).  Cached: pages of one directory share their navigation links
    (call it with :func:`base_key` of the page URL for any ``href`` with a path of its own,
    see :func:`keeps_base_path`)."""
    try:
        if is_plain(href):
            url = href
        else:
            url = join(base, href)
            if not is_plain(url):
                url = canonical(safe_url_string(uts46_host(url)))
    except ValueError:
        return None
    return None if crawlable(url, any_type) else url


# elements that link a page: anchors, image-map areas and the frames of a frameset (whose
# page has no other text: its content is in the frames)
_LINK_TAGS = frozenset(("a", "area", "frame"))


def page_base(root, page_url: str) -> str:
    """The URL a page's relative references resolve against: its ``<base href>`` when that is
    a web URL, else the page's own (a malformed or ``javascript:`` base, as browsers do)."""
    base_el = root.find(".//base[@href]")
    if base_el is None:
        return page_url
    try:
        declared = join(page_url, base_el.get("href").strip())
    except ValueError:
        return page_url
    return declared if is_web_url(declared) else page_url


def extract_links(doc: Document, base_url: str, content_nodes: np.ndarray | None = None,
                  limit: int | None = MAX_LINKS_PER_PAGE) -> list[Link]:
    """All crawlable links of ``doc`` (one per canonical URL, in document order): ``<a>`` and
    ``<area>`` hrefs, ``<frame>`` sources; the first ``limit`` of them (None: all)."""
    base = page_base(doc.root, base_url)
    anchors = np.flatnonzero(doc.is_tag(_LINK_TAGS))
    if not len(anchors):
        return []
    in_content = np.zeros(doc.size, dtype=bool)
    if content_nodes is not None and len(content_nodes):
        in_content[content_nodes] = True
    owner = nearest_block(doc, doc.is_tag(BLOCK_LEVEL))
    contexts: dict[int, str] = {}
    found: dict[str, Link] = {}
    kinds, texts_of, ends = doc.kind.tolist(), doc.texts, doc.end.tolist()
    directory = base_key(base)

    def text_in(start: int, stop: int, limit: int) -> str:
        out, size = [], 0
        for t in range(start, stop):
            if kinds[t] == TEXT:
                out.append(texts_of[t])
                size += len(texts_of[t])
                if size > limit:
                    break
        return " ".join(" ".join(out).split())[:limit]

    for i in anchors.tolist():
        el = doc.elements[i]
        href = el.get("src") if el.tag == "frame" else el.get("href")
        if not href:
            continue
        href = href.strip()
        if href.startswith("#") or href[:11].lower().startswith(("javascript:", "mailto:",
                                                                   "data:", "tel:", "file:")):
            continue
        try:
            url = resolve(base if keeps_base_path(href) else directory, href)
        except ValueError:          # a malformed href ("http://[::1") loses only itself
            continue
        if url is None:
            continue
        end = ends[i]
        anchor = text_in(i + 1, end, 1000) or (el.get("title") or el.get("alt") or "").strip()
        block = int(owner[i])
        if block not in contexts:
            contexts[block] = text_in(block, ends[block], CONTEXT_CHARS * 4) \
                if block < doc.size else ""
        rel = (el.get("rel") or "").lower()
        link = found.get(url)
        inside = bool(in_content[i:end].any())
        if link is None:
            if limit is not None and len(found) >= limit:
                break
            found[url] = Link(url, anchor, contexts[block], inside, "nofollow" in rel)
        else:
            link.count += 1
            link.in_content |= inside
            if len(anchor) > len(link.anchor):
                link.anchor = anchor
    return list(found.values())
