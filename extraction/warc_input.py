"""HTML pages read from WARC archives (a crawl's ``CORPUS_WARC``, Common Crawl, wget, Heritrix),
for ``python -m extraction batch --input FILE.warc.gz``.

A page is a ``response`` record with status 200 (or a ``resource`` record) whose HTTP
Content-Type names HTML, or that has none and starts like markup; its body is given decoded
(chunked transfer and gzip / deflate / brotli / zstd content encodings, by ``warcio``'s
readers).
Everything else (a record the archive's end cuts short included) is counted in
:attr:`WarcPages.skipped` by reason, never raised.
"""
from __future__ import annotations

import gzip
import logging
import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from w3lib.encoding import read_bom
from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader, ChunkedDataReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecordLoader

log = logging.getLogger(__name__)


class _OneStream:
    """A brotli or zstd decoder as warcio's readers call one: ``decompress`` and a falsy
    ``unused_data`` (one compressed stream per body).  warcio's own brotli entry sets that
    attribute on the decoder object, which brotli 1.1+ refuses, so every ``br`` body failed."""

    unused_data = b""

    def __init__(self, decode):
        self.decompress = decode


def _register_decoders() -> None:
    try:
        import brotli
    except ImportError:
        pass
    else:
        BufferedReader.DECOMPRESSORS["br"] = lambda: _OneStream(brotli.Decompressor().process)
    try:        # Python 3.14's compression.zstd, or its backport (a dependency of Scrapy)
        from compression import zstd
    except ImportError:
        try:
            from backports import zstd
        except ImportError:
            return
    BufferedReader.DECOMPRESSORS["zstd"] = lambda: _OneStream(zstd.ZstdDecompressor().decompress)


_register_decoders()
# content codings under another name (RFC 9110 8.4.1.3: x-gzip is gzip)
_CODING_ALIASES = {"x-gzip": "gzip", "x-deflate": "deflate"}


def _content_stream(record):
    """The body of ``record`` de-chunked and decoded: warcio's own reader compares the
    Transfer-Encoding with "chunked" exactly ("Chunked" left the chunk sizes in the text) and
    does not know x-gzip."""
    headers = record.http_headers
    if not headers:
        return record.raw_stream
    codings = [_CODING_ALIASES.get(c, c) for c in _tokens(headers.get_header("Content-Encoding"))
               if c != "identity"]
    coding = codings[0] if len(codings) == 1 \
        and codings[0] in BufferedReader.get_supported_decompressors() else None
    if "chunked" in _tokens(headers.get_header("Transfer-Encoding")):
        return ChunkedDataReader(record.raw_stream, decomp_type=coding)
    if coding:
        return BufferedReader(record.raw_stream, decomp_type=coding)
    return record.raw_stream


def _tokens(value: str | None) -> list[str]:
    """The comma-separated tokens of a header value, lower-cased."""
    return [t.strip().lower() for t in (value or "").split(",") if t.strip()]


def shown(name: str | os.PathLike) -> str:
    """A file name as text that encodes: bytes that are not UTF-8 ("caf\\xe9.html" of a
    Latin-1 file system) escaped, so a JSON row or a message can always be written."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


MAX_PAGE_BYTES = 32 << 20   # [ours] a larger record body is skipped, not read into memory
WARC_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")


@dataclass(frozen=True)
class WarcPage:
    record_id: str
    url: str | None
    date: str | None
    content_type: str | None
    body: bytes


# what ends the reading of an archive: damage, an unreadable file
_DAMAGE = (ArchiveLoadFailed, OSError, EOFError, ValueError)


class _Damage(Exception):
    """The archive cannot be read further (its cause chained)."""


class _Loader(ArcWarcRecordLoader):
    """warcio's record loader, for which a WARC record without ``WARC-Target-URI`` is a record
    without a URL: warcio's own failed on it (``None.startswith``), ending the archive."""

    def _ensure_target_uri_format(self, rec_headers):
        uri = super()._ensure_target_uri_format(rec_headers)
        return "" if uri is None else uri


def is_warc(path: Path) -> bool:
    return path.name.lower().endswith(WARC_SUFFIXES)


def _html_type(content_type: str | None, body_start: bytes) -> bool:
    if content_type:
        ctype = content_type.lower()
        return "html" in ctype
    _, bom = read_bom(body_start)
    if bom:                     # (a UTF-16 body: its ASCII bytes between NULs)
        body_start = body_start[len(bom):].replace(b"\x00", b"")
    return body_start.lstrip()[:1] == b"<"


class WarcPages:
    """The HTML pages of one WARC file, in file order; ``skipped`` counts the other records
    (``request``, ``warcinfo``, a ``status 404``, ``not HTML``, ``too large``, ...)."""

    def __init__(self, path: str | Path, max_bytes: int = MAX_PAGE_BYTES):
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.skipped: Counter = Counter()
        self.records = 0

    def __iter__(self) -> Iterator[WarcPage]:
        try:
            try:
                yield from self._read(lambda: open(self.path, "rb"), skip=0)
            except _Damage as err:
                cause = err.__cause__
                if not (isinstance(cause, ArchiveLoadFailed) and "non-chunked gzip" in str(cause)):
                    raise
                # a WARC gzipped whole ("gzip crawl.warc"), not record by record: read again
                # as one stream, past the records already read
                yield from self._read(lambda: gzip.open(self.path, "rb"), skip=self.records)
        except _Damage as err:
            self._damaged(err.__cause__)

    def _read(self, opener, skip: int) -> Iterator[WarcPage]:
        """The pages of the archive ``opener`` opens, past its first ``skip`` records; what
        stops reading it (damage, warcio's own failures) raised as :class:`_Damage`, the
        rest (a fault in this module) as itself."""
        arc = self.path.name.lower().endswith((".arc", ".arc.gz"))
        name = shown(self.path.name)
        try:
            stream = opener()
        except OSError as err:
            raise _Damage() from err
        with stream:
            records = ArchiveIterator(stream, arc2warc=True)
            records.loader = _Loader(verify_http=False, arc2warc=True)
            k = 0
            while True:
                try:
                    record = next(records)
                except StopIteration:
                    return
                except _DAMAGE as err:
                    raise _Damage() from err
                k += 1
                if k <= skip:
                    continue
                self.records += 1
                try:
                    page = self._page(record)
                    if page is not None and arc:
                        # an ARC record has no id: warcio makes a random one up, another at
                        # each run; its place in the file instead (asked once the body is
                        # read: warcio reads the record to its end to tell it)
                        page = replace(page, record_id=f"<arc:{name}:"
                                                       f"{records.get_record_offset()}>")
                except _DAMAGE as err:      # (reading the record's body)
                    raise _Damage() from err
                if page is not None:
                    yield page

    def _damaged(self, err: Exception) -> None:
        # a truncated or damaged archive (or an unreadable file): the pages before the
        # damage are kept
        log.warning("%s: unreadable after %d records: %.200r", self.path, self.records,
                    str(err))
        self.skipped["archive damaged"] += 1

    def _page(self, record) -> WarcPage | None:
        kind = record.rec_type
        if kind not in ("response", "resource"):
            self.skipped[kind or "unknown record"] += 1
            return None
        headers = record.http_headers
        if kind == "response":
            if not record.rec_headers.get_header("WARC-Target-URI") and record.format != "arc":
                self.skipped["response without WARC-Target-URI"] += 1
                return None
            if headers is None:
                self.skipped["response without HTTP headers"] += 1
                return None
            status = headers.get_statuscode()
            if status != "200":
                self.skipped[f"status {status}"] += 1
                return None
            content_type = headers.get_header("Content-Type")
        else:
            content_type = record.rec_headers.get_header("Content-Type")
        try:
            body = _content_stream(record).read(self.max_bytes + 1)
        except Exception as err:  # noqa: BLE001 - any decoding failure of one record
            log.info("%s: record %s unreadable: %r", self.path,
                     record.rec_headers.get_header("WARC-Record-ID"), err)
            self.skipped["body unreadable"] += 1
            return None
        if len(body) > self.max_bytes:
            self.skipped["too large"] += 1
            return None
        raw = record.raw_stream
        while raw.read(1 << 16):    # what the decoder left (a CRLF after the last chunk)
            pass
        if getattr(raw, "limit", 0) > 0:
            # the archive ended inside the record: its page would be written cut short
            self.skipped["truncated"] += 1
            return None
        if not _html_type(content_type, body[:1024]):
            self.skipped["not HTML"] += 1
            return None
        rec = record.rec_headers
        return WarcPage(record_id=rec.get_header("WARC-Record-ID") or f"#{self.records}",
                        url=rec.get_header("WARC-Target-URI"), date=rec.get_header("WARC-Date"),
                        content_type=content_type, body=body)
