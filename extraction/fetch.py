"""One page fetched over HTTP(S) for the command line (``python -m extraction extract URL``).

The standard library's ``urllib.request``: redirects followed, the HTTP ``Content-Type``
kept (it names the page's encoding for :func:`extraction.extract`), the body read up to a
byte cap, gzip and deflate bodies decoded.  Every failure is a :class:`FetchError` whose
message names the URL and the problem.  The extraction library itself never fetches.
"""
from __future__ import annotations

import socket
import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass
from http.client import HTTPException
from urllib.parse import urlsplit

# the crawler's USER_AGENT setting names the same project
USER_AGENT = "focused-crawler/0.1 (+https://example.invalid/focused-crawler; extract)"
TIMEOUT = 30.0
MAX_BYTES = 10 * 1024 * 1024      # the crawler's DOWNLOAD_MAXSIZE
# what extract() reads as a page; anything else (a PDF, an image, JSON) is refused by name
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml",
              "text/xml", "")


class FetchError(Exception):
    """A page that could not be fetched: the URL and why."""


@dataclass
class FetchedPage:
    body: bytes
    url: str            # the final URL, after redirects
    content_type: str   # the HTTP Content-Type header ("" when the server sent none)


def is_url(name: str) -> bool:
    """Whether a command-line argument names an http(s) URL rather than a file."""
    return name[:8].lower().startswith(("http://", "https://"))


def fetch_page(url: str, timeout: float = TIMEOUT, max_bytes: int = MAX_BYTES) -> FetchedPage:
    """GET ``url`` (http or https); :class:`FetchError` when it cannot be fetched, answers
    with an error status, is larger than ``max_bytes`` or is not an HTML page."""
    if not is_url(url) or not urlsplit(url).hostname:
        raise FetchError(f"{url}: not an http(s) URL")
    request = urllib.request.Request(url, headers={
        "User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate",
        "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            content_type = response.headers.get("Content-Type", "") or ""
            mime = content_type.split(";")[0].strip().lower()
            if mime not in HTML_TYPES:
                raise FetchError(f"{url}: not an HTML page ({mime})")
            body = response.read(max_bytes + 1)
            if len(body) > max_bytes:
                raise FetchError(f"{url}: larger than {max_bytes} bytes")
            encoding = (response.headers.get("Content-Encoding") or "").strip().lower()
            return FetchedPage(_decoded(body, encoding, url, max_bytes), response.geturl(),
                               content_type)
    except urllib.error.HTTPError as err:
        raise FetchError(f"{url}: HTTP {err.code} {err.reason}") from None
    except urllib.error.URLError as err:
        raise FetchError(f"{url}: cannot fetch: {err.reason}") from None
    except (socket.timeout, TimeoutError):
        raise FetchError(f"{url}: no answer within {timeout:g} s") from None
    except (HTTPException, OSError, ValueError) as err:
        raise FetchError(f"{url}: cannot fetch: {err}") from None


def _decoded(body: bytes, encoding: str, url: str, max_bytes: int) -> bytes:
    """``body`` without its gzip or deflate content coding (capped at ``max_bytes``)."""
    if encoding in ("", "identity"):
        return body
    try:
        if encoding in ("gzip", "x-gzip"):
            unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            unpacker = zlib.decompressobj()
            if body[:1] and (body[0] & 0x0F) != 8:      # raw deflate, without the zlib header
                unpacker = zlib.decompressobj(-zlib.MAX_WBITS)
        else:
            raise FetchError(f"{url}: content coding {encoding!r} not supported")
        out = unpacker.decompress(body, max_bytes + 1)
    except zlib.error as err:
        raise FetchError(f"{url}: damaged {encoding} body: {err}") from None
    if len(out) > max_bytes:
        raise FetchError(f"{url}: larger than {max_bytes} bytes once decoded")
    if not unpacker.eof:
        raise FetchError(f"{url}: damaged {encoding} body: it ends before its end mark")
    return out
