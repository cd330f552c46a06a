"""Decode HTML bytes to text: BOM, HTTP header, in-document declaration, then detection.

Declarations are read with w3lib (which also maps labels the WHATWG way: gb2312 -> gb18030,
big5 -> big5hkscs, shift_jis -> cp932, latin-1 -> cp1252).  A declared encoding is only trusted
when the bytes decode under it (almost) cleanly; mislabelled pages fall through to detection
with charset-normalizer.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

# Bytes looked at for the declaration and for detection (detection cost grows with input).
_DECLARATION_WINDOW = 8192
_DETECTION_WINDOW = 256 * 1024
# A declared encoding is rejected when more than this share of its decoded characters are
# replacement characters (a handful of broken bytes is normal on the real web).
_MAX_BAD_SHARE = 0.002
# CleanEval-style wrapper line `<text id=... encoding="...">`, used by some corpora.
_WRAPPER_RE = re.compile(rb'^\s*<text\b[^>]*\bencoding="([A-Za-z0-9_.:-]+)"', re.I)
_HIGH_BYTES = bytes(range(0x80, 0x100))
_WIDE_PROBE = 256      # bytes looked at for BOM-less UTF-16 / UTF-32
# markup, for the detection sample: scripts and styles whole, comments, tags
_MARKUP = re.compile(rb"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^<>]*>", re.S | re.I)
_SPACES = re.compile(rb"\s+")
# a meta declaring the encoding, looked for past the first window (after long inline styles)
_META_CHARSET = re.compile(rb"<meta\b[^>]*charset", re.I)
_LATE_DECLARATION_WINDOW = 64 * 1024
_SINGLE_BYTE = {"cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp874", "mac_roman",
                "iso8859_15", "iso8859_2", "ascii"}


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    source: str  # "bom" | "http" | "declared" | "utf-8" | "detected" | "fallback" | "str"


def _python_name(label: str | None) -> str | None:
    if not label:
        return None
    enc = resolve_encoding(label)
    if enc is None:
        return None
    try:
        return codecs.lookup(enc).name
    except LookupError:
        return None


def _bad_share(data: bytes, encoding: str) -> float:
    try:
        text = data.decode(encoding, errors="replace")
    except LookupError:
        return 1.0
    if not text:
        return 0.0
    return text.count("\ufffd") / len(text)


def _fits(data: bytes, encoding: str) -> bool:
    try:
        data[:_DETECTION_WINDOW].decode(encoding)
        return True
    except UnicodeDecodeError:
        pass
    except LookupError:
        return False
    return _bad_share(data[:_DETECTION_WINDOW], encoding) <= _MAX_BAD_SHARE


def _looks_utf8(data: bytes) -> bool:
    sample = data[:_DETECTION_WINDOW]
    if sample.isascii():
        return False  # pure ASCII: says nothing
    try:
        sample.decode("utf-8")
        return True
    except UnicodeDecodeError as err:
        # a multi-byte sequence cut by the window end is fine
        return err.start >= len(sample) - 3


def wide_encoding(data: bytes) -> str | None:
    """UTF-32 or UTF-16 (LE/BE) without a byte-order mark, from where the NUL bytes fall in
    the first bytes: the markup of an HTML page is ASCII, whose characters are one non-NUL
    byte and one (UTF-16) or three (UTF-32) NULs; None for anything else."""
    probe = data[:_WIDE_PROBE]
    probe = probe[:len(probe) // 4 * 4]
    if len(probe) < 16 or probe.count(0) < len(probe) // 4:
        return None

    def nuls(start: int, step: int) -> float:
        lane = probe[start::step]
        return lane.count(0) / len(lane)

    if min(nuls(1, 4), nuls(2, 4), nuls(3, 4)) > 0.9 and nuls(0, 4) < 0.5:
        found = "utf-32-le"
    elif min(nuls(0, 4), nuls(1, 4), nuls(2, 4)) > 0.9 and nuls(3, 4) < 0.5:
        found = "utf-32-be"
    elif nuls(1, 2) > 0.6 and nuls(0, 2) < 0.2:
        found = "utf-16-le"
    elif nuls(0, 2) > 0.6 and nuls(1, 2) < 0.2:
        found = "utf-16-be"
    else:
        return None
    head = probe.decode(found, errors="replace")
    return found if "<" in head and head.count("\ufffd") <= len(head) // 20 else None


def _text_bytes(sample: bytes) -> bytes:
    """``sample`` without its markup (tags, comments, scripts, styles) and with whitespace
    runs collapsed: the bytes of its text, where a legacy multi-byte encoding shows.  Tags
    are ASCII in every encoding detected here (no trail byte of GBK, Big5 or Shift_JIS is
    ``<`` or ``>``)."""
    return _SPACES.sub(b" ", _MARKUP.sub(b" ", sample))


def _detect(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    sample = data[:_DETECTION_WINDOW]
    text = _text_bytes(sample)
    if not text.isascii():
        # detection samples a few chunks of its input: on the raw page they are mostly
        # markup (a page of 200 menu links and one Big5 paragraph came out as cp1252)
        sample = text
    best = from_bytes(sample).best()
    if best is None:
        return None
    enc = _python_name(best.encoding)
    # Mostly-ASCII pages with a few high bytes (smart quotes, accents) are, by far most often,
    # windows-1252; detectors pick an arbitrary single-byte code page from so little evidence.
    high = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    if enc and _is_single_byte(enc) and high < 0.01 * len(sample):
        return "cp1252"
    return enc


def _is_single_byte(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name in _SINGLE_BYTE or len("\u00e9".encode(encoding)) == 1 \
            and all(len(bytes([b]).decode(encoding)) == 1 for b in (0x80, 0xA0, 0xFF))
    except (UnicodeError, LookupError):
        return False


def decode_html(data: bytes | str, content_type: str | None = None) -> Decoded:
    """Decode a page; never raises.  ``content_type`` is the HTTP Content-Type header value."""
    if isinstance(data, str):
        return Decoded(data, "unicode", "str")
    bom_enc, bom = read_bom(data)
    if bom_enc:
        enc = _python_name(bom_enc) or "utf-8"
        return Decoded(data[len(bom):].decode(enc, errors="replace"), enc, "bom")
    wide = wide_encoding(data)
    if wide:
        return Decoded(data.decode(wide, errors="replace"), wide, "detected")

    candidates: list[tuple[str, str]] = []
    http_enc = _python_name(http_content_type_encoding(content_type)) if content_type else None
    if http_enc:
        candidates.append((http_enc, "http"))
    head = data[:_DECLARATION_WINDOW]
    declared = _python_name(html_body_declared_encoding(head) or _late_declaration(data))
    if declared is None:
        m = _WRAPPER_RE.match(head)
        declared = _python_name(m.group(1).decode("ascii")) if m else None
    if declared:
        candidates.append((declared, "declared"))

    for enc, source in candidates:
        # A single-byte declaration decodes anything; prefer UTF-8 when the bytes are UTF-8.
        if enc in _SINGLE_BYTE and _looks_utf8(data):
            return Decoded(data.decode("utf-8", errors="replace"), "utf-8", "utf-8")
        if enc in _SINGLE_BYTE and not data[:_DETECTION_WINDOW].isascii():
            # (ASCII bytes hold no multi-byte text that the declaration could mislabel)
            detected = _detect(data)
            if detected and detected not in _SINGLE_BYTE and _fits(data, detected) \
                    and _cjk_share(data, detected) > 0.2:
                return Decoded(data.decode(detected, errors="replace"), detected, "detected")
        if _fits(data, enc):
            return Decoded(data.decode(enc, errors="replace"), enc, source)

    if data[:_DETECTION_WINDOW].isascii() or _looks_utf8(data):
        return Decoded(data.decode("utf-8", errors="replace"), "utf-8", "utf-8")
    detected = _detect(data)
    if detected and _fits(data, detected):
        return Decoded(data.decode(detected, errors="replace"), detected, "detected")
    enc = candidates[0][0] if candidates else "cp1252"
    return Decoded(data.decode(enc, errors="replace"), enc, "fallback")


def _late_declaration(data: bytes) -> str | None:
    """The encoding a ``<meta>`` declares past the first window (w3lib reads 4 KB), before
    the body: pages whose head starts with a long inline style or script."""
    window = data[:_LATE_DECLARATION_WINDOW]
    found = _META_CHARSET.search(window, 1024)
    body = re.search(rb"<body\b", window[:found.start()], re.I) if found else None
    if found is None or body is not None:
        return None
    return html_body_declared_encoding(window[found.start():found.start() + 4096])


def _cjk_share(data: bytes, encoding: str) -> float:
    text = data[:_DETECTION_WINDOW].decode(encoding, errors="replace")
    non_ascii = [c for c in text if ord(c) > 0x7F]
    if not non_ascii:
        return 0.0
    cjk = sum(1 for c in non_ascii if "\u3000" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af"
              or "\uff00" <= c <= "\uffef")
    return cjk / len(non_ascii)
