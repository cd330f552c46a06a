"""The crawl's HTTP responses as WARC files (``CORPUS_WARC``), next to the corpus.

``CORPUS_WARC = written`` archives the response of every document written to the corpus,
``all`` every response received (robots.txt, redirects, 404s and non-HTML included: a crawl
that can be replayed, e.g. served again with ``python -m crawler.testweb serve``).  Files are
``<CORPUS_DIR>/warc/crawl-NNNNN.warc.gz``, WARC 1.1, one gzip member per record (what
warcio, pywb and the shared test webs read), each beginning with a ``warcinfo`` record.

A file is written as ``.crawl-NNNNN.warc.gz.tmp`` and renamed when it is closed (it reached
``CORPUS_WARC_MAX_BYTES``, or the crawl ended), as the corpus shards are
(:mod:`crawler.published`); one left behind by a killed crawl is cut after its last complete
record and published when the next crawl starts.

The body is recorded as the crawler received it (before Scrapy decodes a
``Content-Encoding``); Scrapy's download handler has already removed any chunked transfer
coding, so ``Transfer-Encoding`` is dropped and ``Content-Length`` is the body's length.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime, timezone
from http.client import responses as REASONS
from pathlib import Path
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from .published import PublishedFiles, gzip_members_length
from .setting_values import number_setting


MODES = ("written", "all")
MAX_BYTES = 1_000_000_000      # the customary size of a WARC file (Heritrix, Common Crawl)
_DROPPED = {"transfer-encoding", "content-length"}


def warc_mode(value: Any) -> str | None:
    """``CORPUS_WARC`` as ``"written"``, ``"all"`` or None (off: unset, ``""``, ``off``,
    false); anything else raises ``ValueError`` naming the setting."""
    text = str(value).strip().lower() if value is not None else ""
    if text in ("", "0", "off", "false", "none", "no"):
        return None
    if text not in MODES:
        raise ValueError(f"CORPUS_WARC: expected one of {', '.join(MODES)} or off, "
                         f"got {value!r}")
    return text


class _ReceivedHeaders(StatusAndHeaders):
    """HTTP headers written back byte for byte: their values were decoded as latin-1 from the
    bytes received, and warcio's ``to_ascii_bytes`` would percent-encode a non-ASCII value as
    UTF-8 (a raw UTF-8 ``Location`` became ``http%3A//x.test/caf%C3%83%C2%A9``)."""

    def to_ascii_bytes(self, filter_func=None) -> bytes:
        try:
            return self.to_str(filter_func).encode("latin-1") + b"\r\n"
        except UnicodeEncodeError:
            return super().to_ascii_bytes(filter_func)


@dataclass(frozen=True, slots=True)
class RawResponse:
    """One HTTP response as received, ready to be archived."""

    url: str
    status: int
    protocol: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    fetched_at: datetime
    ip_address: str | None = None

    @classmethod
    def of(cls, response) -> RawResponse:
        """From a Scrapy response (header values decoded as latin-1, byte for byte)."""
        headers = tuple((name.decode("latin-1"), value.decode("latin-1"))
                        for name, values in response.headers.items() for value in values)
        ip = getattr(response, "ip_address", None)
        return cls(url=response.url, status=response.status,
                   protocol=getattr(response, "protocol", None) or "HTTP/1.1",
                   headers=headers, body=response.body,
                   fetched_at=datetime.now(timezone.utc),
                   ip_address=str(ip) if ip is not None else None)

    def http_headers(self) -> StatusAndHeaders:
        kept = [(k, v) for k, v in self.headers if k.lower() not in _DROPPED]
        kept.append(("Content-Length", str(len(self.body))))
        reason = REASONS.get(self.status, "")
        return _ReceivedHeaders(f"{self.status} {reason}".strip(), kept,
                                protocol=self.protocol)


@dataclass(frozen=True, slots=True)
class WarcLocation:
    """Where a record is: file name (inside the WARC directory), offset of its gzip member,
    and its ``WARC-Record-ID``."""

    file: str
    offset: int
    record_id: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "offset": self.offset, "record_id": self.record_id}


class WarcArchive:
    """Rotating WARC files under ``directory``; :meth:`write` returns the record's
    :class:`WarcLocation`."""

    def __init__(self, directory: str | Path, mode: str, max_bytes: int = MAX_BYTES,
                 info: dict[str, str] | None = None):
        self.mode = mode
        self.files = PublishedFiles(directory, "crawl", "warc.gz", gzip_members_length)
        self.directory = self.files.directory
        self.max_bytes = max(1, int(max_bytes))
        self.info = dict(info or {})
        self._writer: WARCWriter | None = None
        self.records = 0

    def _open(self) -> None:
        self._writer = WARCWriter(self.files.open(mode="wb"), gzip=True, warc_version="1.1")
        info = {"software": "focused-crawler (warcio)", "format": "WARC File Format 1.1",
                **self.info}
        self._writer.write_record(self._writer.create_warcinfo_record(
            self.files.name(self.files.number), info))

    def write(self, raw: RawResponse) -> WarcLocation:
        """Append a ``response`` record of ``raw`` (flushed at once).  An ``OSError`` (a full
        disk) leaves the file cut back to its last complete record and published, and is
        raised."""
        date = raw.fetched_at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        headers = {"WARC-Date": date}
        if raw.ip_address:
            headers["WARC-IP-Address"] = raw.ip_address
        try:
            if self.files.handle is None:
                self._open()        # its warcinfo record and the first response: one unit
            writer, handle = self._writer, self.files.handle
            offset = handle.tell()
            record = writer.create_warc_record(
                raw.url, "response", payload=io.BytesIO(raw.body), length=len(raw.body),
                warc_headers_dict=headers, http_headers=raw.http_headers())
            writer.write_record(record)
            handle.flush()
        except OSError:             # a full disk: no torn record is ever published
            self._writer = None
            self.files.abandon()
            raise
        self.files.commit()
        self.records += 1
        location = WarcLocation(self.files.name(self.files.number), offset,
                                record.rec_headers.get_header("WARC-Record-ID"))
        if handle.tell() >= self.max_bytes:
            self.close_file()
        return location

    def close_file(self) -> Path | None:
        """Close and publish the open file (None when none is open)."""
        self._writer = None
        return self.files.publish()

    def close(self) -> None:
        self.close_file()


def open_archive(settings, corpus_dir: Path, info: dict[str, str]) -> WarcArchive | None:
    """The crawl's archive from ``CORPUS_WARC`` / ``CORPUS_WARC_MAX_BYTES`` (None when off)."""
    mode = warc_mode(settings.get("CORPUS_WARC"))
    if mode is None:
        return None
    max_bytes = number_setting(settings, "CORPUS_WARC_MAX_BYTES", MAX_BYTES, integer=True,
                               minimum=1)
    return WarcArchive(corpus_dir / "warc", mode, max_bytes, info)
