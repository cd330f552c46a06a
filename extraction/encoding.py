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
from functools import lru_cache

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
# (an unclosed script, style or comment ends the sample: otherwise every one of many unclosed
# openers would be scanned to its end, quadratic)
_MARKUP = re.compile(rb"<(script|style)\b.*?(?:</\1\s*>|\Z)|<!--.*?(?:-->|\Z)|<[^<>]*>",
                     re.S | re.I)
_SPACES = re.compile(rb"\s+")
# a meta declaring the encoding, looked for past the first window (after long inline styles)
_META_CHARSET = re.compile(rb"<meta\b[^>]*charset", re.I)
_LATE_DECLARATION_WINDOW = 64 * 1024
# Python text codecs that are not character sets (they transform text, or refuse to decode)
_NOT_CHARSETS = frozenset(("idna", "punycode", "undefined", "raw-unicode-escape",
                           "unicode-escape", "raw_unicode_escape", "unicode_escape"))
# pairs of high bytes that are one character in a multi-byte encoding: Shift_JIS 亜, GBK /
# EUC-KR / EUC-JP 啊 / 가 / 偃, Big5 一, UTF-8 é
_MULTI_BYTE_PROBES = (b"\x88\x9f", b"\xb0\xa1", b"\xa4\x40", b"\xc3\xa9")
# a declared single-byte encoding gives way to a detected CJK one from this many CJK characters
# in the detection window (a menu's one Cyrillic word in windows-1251 is also valid GBK)
_CJK_OVER_DECLARED = 16


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    source: str  # "bom" | "http" | "declared" | "utf-8" | "detected" | "fallback" | "str"


def _python_name(label: str | None) -> str | None:
    """The Python codec of an encoding label, None for a label that names no text encoding
    that can decode a web page (``idna``, ``punycode``, ``rot13``, ``undefined``: Python codecs,
    not character sets)."""
    if not label:
        return None
    enc = resolve_encoding(label)
    if enc is None:
        return None
    try:
        info = codecs.lookup(enc)
        if not info._is_text_encoding or info.name in _NOT_CHARSETS:
            return None
        b"a\x80\xff".decode(info.name, "replace")
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None
    return info.name


def _bad_share(data: bytes, encoding: str) -> float:
    try:
        text = data.decode(encoding, errors="replace")
    except LookupError:
        return 1.0
    if not text:
        return 0.0
    return text.count("\ufffd") / len(text)


def _strict_fits(data: bytes, encoding: str) -> bool:
    """True when the sample decodes under ``encoding`` without one error (a multi-byte
    sequence cut by the window's end aside)."""
    sample = data[:_DETECTION_WINDOW]
    try:
        sample.decode(encoding)
        return True
    except UnicodeDecodeError as err:
        return len(sample) == _DETECTION_WINDOW and err.start >= len(sample) - 3
    except LookupError:
        return False


def _fits(data: bytes, encoding: str) -> bool:
    if _strict_fits(data, encoding):
        return True
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
    # detection samples a few chunks of its input: on the raw page they are mostly markup (a
    # page of 200 menu links and one Big5 paragraph came out as cp1252); when the text alone
    # gives no answer, the raw bytes are tried
    tries = (text, sample) if not text.isascii() else (sample,)
    for sample in tries:
        # any even-length ASCII run "decodes" as UTF-16: a detector saying so is believed only
        # when the page's markup is wide (a CJK page without BOM has too few NULs for
        # wide_encoding)
        matches = [m for m in from_bytes(sample)
                   if not m.encoding.startswith(_WIDE_NAMES) or _wide_markup(data, m.encoding)]
        if matches:
            break
    else:
        return None
    best = matches[0]
    enc = _python_name(best.encoding)
    if enc is None:
        return None
    high = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    if enc.replace("-", "_") in _LATIN_PAGES:
        page = _latin_by_language(text or sample, enc)
        if page is not None:
            return page
    if enc in _GUESSED_CODE_PAGES or _latin_single_byte(enc):
        # Mostly-ASCII pages with a few high bytes (smart quotes, accents) are, by far most
        # often, windows-1252; detectors pick an arbitrary single-byte code page from so little
        # evidence, or from a tie: windows-1252 decodes the sample as cleanly and the language
        # is one written in it (Italian as cp1258), or it fits the detector's language as well
        # and that is not one written in another Latin code page (Czech, Turkish)
        if high < 0.01 * len(sample) or any(
                m.encoding == "cp1252" and m.chaos <= best.chaos
                and (best.language in _CP1252_LANGUAGES or m.coherence >= best.coherence
                     and best.language not in _OTHER_LATIN_LANGUAGES)
                for m in matches):
            return "cp1252"
    elif enc != "utf-8" and _LATIN_WORDS.fullmatch(sample):
        # a multi-byte guess from a few accented letters, each alone inside a Latin word
        # ("Noël" as Big5): CJK text has runs of high bytes
        return "cp1252"
    elif enc in _KOREAN or enc in _BIG5:
        return _japanese_instead(sample, enc) or enc
    return enc


# the Latin code pages (Python's codec names, "-" read as "_") and the languages (ISO 639-1)
# written in each; the first four are the ones tried
_WESTERN = frozenset("en fr de nl it es pt sv da no nb nn fi is ca eu gl af id ms sw ga lb oc "
                     "wa br co fo fy gd rm".split())
_CENTRAL = frozenset("cs sk pl hu sl hr bs sr ro sq".split())
_BALTIC = frozenset("lt lv et".split())
_TURKISH = frozenset("tr az".split())
_LATIN_PAGES = {
    "cp1252": _WESTERN, "cp1250": _CENTRAL, "cp1257": _BALTIC, "cp1254": _TURKISH,
    **dict.fromkeys(("iso8859_1", "iso8859_15", "latin_1", "mac_roman"), _WESTERN),
    **dict.fromkeys(("iso8859_2", "mac_latin2", "iso8859_16"), _CENTRAL),
    **dict.fromkeys(("iso8859_13", "iso8859_4", "iso8859_10"), _BALTIC),
    **dict.fromkeys(("iso8859_9", "mac_turkish"), _TURKISH),
    "cp1258": frozenset(("vi",)), "iso8859_3": frozenset("mt eo".split()),
}
_TRIED_PAGES = ("cp1252", "cp1250", "cp1257", "cp1254")


def _latin_by_language(sample: bytes, detected: str) -> str | None:
    """The Latin code page whose reading of ``sample`` (text bytes) is in a language written in
    it: the detector's first, then windows-1252, -1250, -1257 and -1254; None when no reading
    is (too little text, py3langid unsure).  A detector picks cp1257 for French, mac-latin2
    for Dutch or windows-1252 for Hungarian from a few accented letters ("déją", "cafť",
    "tűrő" as "tûrõ"); the language of each reading tells them apart.  Only the words around
    the accented letters are read (an English menu first would make any reading English);
    English text is left to the rules that follow (its few accented letters are as often
    French words in windows-1252, "PREMIÈRE", as Czech names in windows-1250, "Dvořák")."""
    from .metadata import identified_language       # (metadata imports this module's users)

    around = _around_high_bytes(sample)
    name = detected.replace("-", "_")
    for page in (name, *(p for p in _TRIED_PAGES if p != name)):
        language = identified_language(around.decode(page, errors="replace"))
        if language in _LATIN_PAGES[page]:
            return page
        if page == name and language == "en":
            return None
    return None


_AROUND = 40            # bytes read on each side of a run of accented letters
_AROUND_MAX = 2000      # bytes read in all
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def _around_high_bytes(sample: bytes) -> bytes:
    """The stretches of ``sample`` around its high bytes, joined by spaces, at most
    :data:`_AROUND_MAX` bytes (cut at spaces, so no word is cut in two)."""
    pieces, total, end = [], 0, 0
    for match in _HIGH_RUN.finditer(sample):
        if match.start() < end:
            continue
        start = sample.rfind(b" ", 0, max(0, match.start() - _AROUND)) + 1
        end = sample.find(b" ", match.end() + _AROUND)
        end = len(sample) if end < 0 else end
        pieces.append(sample[start:end])
        total += end - start
        if total >= _AROUND_MAX:
            break
    return b" ".join(pieces)


_KOREAN = frozenset(("cp949", "euc_kr", "johab"))
_BIG5 = frozenset(("big5", "big5hkscs", "cp950"))
_KANA = re.compile("[\u3041-\u30ff]")
_JAMO = re.compile("[\u3131-\u318e]")
_OLD_JAMO = re.compile("[\u3165-\u318e]")     # letters modern Korean no longer writes
_SYLLABLES = re.compile("[\uac00-\ud7a3]")


def _japanese_instead(sample: bytes, detected: str) -> str | None:
    """EUC-JP or Shift_JIS for a short Japanese text a detector took for Korean or Big5.
    EUC-JP's hiragana row is EUC-KR's row of lone Korean letters (jamo), its second half
    the obsolete ones ("の", "に", "は", "を", "ん" among them), so "お問い合わせ" reads
    "ㄺ磬ㄴ밭ㅿㅋ"; Big5 has kana of its own.  Only when the Korean reading holds an obsolete
    jamo and jamo make at least 30% of its Hangul (informal "ㅋㅋ" and an alphabet lesson's
    "ㄱㄴㄷ" are modern), or the Big5 reading holds kana, and a Japanese codec decodes the
    bytes strictly into text at least 30% kana."""
    text = sample.decode(detected, errors="replace")
    if detected in _KOREAN:
        jamo = len(_JAMO.findall(text))
        if not _OLD_JAMO.search(text) or jamo < 0.3 * (jamo + len(_SYLLABLES.findall(text))):
            return None
    elif not _KANA.search(text):
        return None
    for codec in ("euc_jp", "cp932"):
        try:
            japanese = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        high = sum(1 for ch in japanese if ord(ch) > 0x7F)
        if high and len(_KANA.findall(japanese)) >= 0.3 * high:
            return codec
    return None


# languages (charset-normalizer's names) written in windows-1252
_CP1252_LANGUAGES = frozenset(("English", "French", "German", "Dutch", "Italian", "Spanish",
                               "Portuguese", "Swedish", "Norwegian", "Danish", "Finnish",
                               "Indonesian"))
# ... and those written in another Latin code page (cp1250, cp1254, cp1257)
_OTHER_LATIN_LANGUAGES = frozenset(("Czech", "Slovak", "Polish", "Hungarian", "Slovene",
                                    "Croatian", "Turkish", "Estonian", "Lithuanian"))
_WIDE_NAMES = ("utf_16", "utf_32", "utf-16", "utf-32")
# ASCII text whose every high byte is a windows-1252 letter (À-ÿ) alone beside an ASCII letter
# (possessive: each alternative takes one byte, so a failed match is not retried in every
# combination of the alternatives a byte between two letters fits: exponential)
_LATIN_WORDS = re.compile(rb"(?:[\x00-\x7f]|(?<=[A-Za-z])[\xc0-\xff](?![\x80-\xff])"
                          rb"|[\xc0-\xff](?=[A-Za-z]))*+")


def _wide_markup(data: bytes, encoding: str) -> bool:
    """True when (nearly) every ``<`` of the sample is a UTF-16/32 ``<`` in ``encoding``."""
    name = encoding.replace("-", "_")
    if name in ("utf_16", "utf_32"):
        name += "_le"
    try:
        wide_lt = "<".encode(name)
    except LookupError:
        return False
    sample = data[:_DETECTION_WINDOW]
    found = sample.count(wide_lt)
    return found > 0 and found >= 0.9 * sample.count(b"<")


# the non-Latin code pages a detector guesses from a few high bytes of a mostly-ASCII page
_GUESSED_CODE_PAGES = frozenset(("cp1250", "cp1251", "cp1253", "cp1254", "cp874"))


def _latin_single_byte(encoding: str) -> bool:
    """A single-byte codec of Latin text (it writes é as one byte)."""
    try:
        return len("\u00e9".encode(encoding)) == 1 and _is_single_byte(encoding)
    except (UnicodeError, LookupError):
        return False


@lru_cache(maxsize=256)
def _is_single_byte(encoding: str) -> bool:
    """Whether a codec reads one byte as one character: ASCII, Latin-1, the Windows, ISO 8859,
    KOI8, Mac and DOS code pages (every one Python has, not a list); not UTF-8, the CJK
    encodings or the 7-bit ISO-2022 ones (whose high bytes are errors)."""
    try:
        if codecs.lookup(encoding).name == "ascii":
            return True
        alone = sum(1 for b in range(0x80, 0x100)
                    if len(bytes([b]).decode(encoding, errors="ignore")) == 1)
        return alone >= 64 and all(len(p.decode(encoding, errors="replace")) == 2
                                   for p in _MULTI_BYTE_PROBES)
    except (UnicodeError, LookupError, TypeError, ValueError):
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
        if enc.startswith(_WIDE_NAMES):
            # a UTF-16/32 page was recognised above (BOM, NUL bytes); a declaration read
            # from 8-bit bytes is wrong (WHATWG reads a meta's utf-16 as utf-8)
            continue
        # A single-byte declaration decodes anything; prefer UTF-8 when the bytes are UTF-8,
        # also for a multi-byte declaration they do not strictly decode under (a UTF-8 page
        # declaring gb2312: a few curly quotes pass its 0.2% tolerance, mangled)
        single = _is_single_byte(enc)
        if _looks_utf8(data) and (single or not _strict_fits(data, enc)):
            return Decoded(data.decode("utf-8", errors="replace"), "utf-8", "utf-8")
        if single and not data[:_DETECTION_WINDOW].isascii():
            # (ASCII bytes hold no multi-byte text that the declaration could mislabel)
            detected = _detect(data)
            if detected and not _is_single_byte(detected) and _fits(data, detected) \
                    and _cjk_over_declared(data, detected):
                return Decoded(data.decode(detected, errors="replace"), detected, "detected")
        if _fits(data, enc):
            return Decoded(data.decode(enc, errors="replace"), enc, source)

    escaped = _iso2022(data[:_DETECTION_WINDOW])
    if escaped:
        return Decoded(data.decode(escaped, errors="replace"), escaped, "detected")
    if data[:_DETECTION_WINDOW].isascii() or _looks_utf8(data):
        return Decoded(data.decode("utf-8", errors="replace"), "utf-8", "utf-8")
    detected = _detect(data)
    if detected and _fits(data, detected):
        return Decoded(data.decode(detected, errors="replace"), detected, "detected")
    enc = candidates[0][0] if candidates else "cp1252"
    return Decoded(data.decode(enc, errors="replace"), enc, "fallback")


# the escape sequences that switch a 7-bit ISO-2022 text into its double-byte sets (RFC 1468
# for Japanese mail and old Japanese pages, RFC 1557 for Korean): ASCII bytes that are no ASCII
_ISO2022 = ((re.compile(rb"\x1b\$[@B]|\x1b\$\(D"), "iso2022_jp"),
            (re.compile(rb"\x1b\$\)C"), "iso2022_kr"))


def _iso2022(sample: bytes) -> str | None:
    """The ISO-2022 encoding whose escape sequences an undeclared 7-bit page holds, when it
    decodes under it without an error (its bytes are ASCII, so it would be read as UTF-8)."""
    if b"\x1b" not in sample:
        return None
    for pattern, encoding in _ISO2022:
        if pattern.search(sample) and _strict_fits(sample, encoding):
            return encoding
    return None


def _late_declaration(data: bytes) -> str | None:
    """The encoding a ``<meta>`` declares past the first window (w3lib reads 4 KB), before
    the body: pages whose head starts with a long inline style or script."""
    window = data[:_LATE_DECLARATION_WINDOW]
    found = _META_CHARSET.search(window, 1024)
    body = re.search(rb"<body\b", window[:found.start()], re.I) if found else None
    if found is None or body is not None:
        return None
    return html_body_declared_encoding(window[found.start():found.start() + 4096])


def _cjk_over_declared(data: bytes, encoding: str) -> bool:
    """Whether the detection window read in a detected CJK ``encoding`` is CJK text enough to
    override a declared single-byte encoding: a fifth of its non-ASCII characters and at
    least :data:`_CJK_OVER_DECLARED` of them."""
    text = data[:_DETECTION_WINDOW].decode(encoding, errors="replace")
    non_ascii = [c for c in text if ord(c) > 0x7F]
    # (not half-width katakana: what KOI8-R's small Cyrillic letters read as in Shift_JIS)
    cjk = sum(1 for c in non_ascii if "\u3000" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af"
              or "\uff00" <= c <= "\uff60" or "\uffa0" <= c <= "\uffef")
    return cjk >= _CJK_OVER_DECLARED and cjk > 0.2 * len(non_ascii)
