"""Load a test web (``web.warc.gz`` + ``labels.csv`` + ``seeds.txt``) into memory.

The folder format is described in ``shared/testweb/README.md``.  Each WARC ``response`` record
becomes a :class:`Record`; headers are kept exactly as recorded (decoded as latin-1, so that
encoding them back as latin-1 gives the recorded bytes) and the body is the raw recorded payload
(never decompressed; de-chunked only if it was recorded chunked).
"""
from __future__ import annotations

import csv
import logging
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator

log = logging.getLogger(__name__)

WARC_NAME = "web.warc.gz"
LABELS_NAME = "labels.csv"
SEEDS_NAME = "seeds.txt"
DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"

Headers = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Record:
    """One recorded HTTP response."""

    url: str
    status: int
    reason: str
    headers: Headers
    body: bytes

    def header(self, name: str, default: str | None = None) -> str | None:
        """The first header called ``name`` (case-insensitive)."""
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return default

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-cased (``""`` when absent)."""
        return (self.header("Content-Type") or "").split(";", 1)[0].strip().lower()

    @property
    def location(self) -> str | None:
        return self.header("Location")


@dataclass(slots=True)
class WebArchive:
    """A test web held in memory: records by URL, hosts, labels and seeds."""

    records: dict[str, Record]
    labels: dict[str, list[str]] = field(default_factory=dict)
    seeds: list[str] = field(default_factory=list)
    path: Path | None = None
    hosts: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.hosts:
            self.hosts = frozenset(host_of(url) for url in self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __contains__(self, url: object) -> bool:
        return url in self.records

    def get(self, url: str) -> Record | None:
        """The record of ``url`` (exact match; ``http://host`` also finds ``http://host/``)."""
        rec = self.records.get(url)
        if rec is None and url.count("/") == 2:
            rec = self.records.get(url + "/")
        return rec

    def subjects(self, url: str) -> list[str]:
        """The labelled subjects of ``url`` (empty when unlabelled or labelled with none)."""
        return self.labels.get(url, [])

    def on_topic(self, url: str, prefix: str) -> bool:
        """Whether ``url`` is labelled with ``prefix`` or a subject below it."""
        return any(s == prefix or s.startswith(prefix + ".") for s in self.subjects(url))


def host_of(url: str) -> str:
    """The lower-cased ``host[:port]`` part of an absolute URL."""
    return urlsplit(url).netloc.lower()


def load_web(path: str | Path) -> WebArchive:
    """Load a test-web folder, a single ``.warc.gz`` file, or a folder of ``*.warc.gz`` files
    with no ``web.warc.gz`` (a crawl's ``CORPUS_WARC`` directory; the first record of a URL
    wins, files in name order); the last two without labels or seeds.

    ``"demo"`` names the built-in demo web (``crawler/demo``).
    """
    path = DEMO_DIR if str(path) == "demo" else Path(path)
    if path.is_dir():
        warcs = [path / WARC_NAME]
        if not warcs[0].is_file():
            warcs = sorted(path.glob("*.warc.gz")) or warcs
        labels = read_labels(path / LABELS_NAME) if (path / LABELS_NAME).is_file() else {}
        seeds = read_seeds(path / SEEDS_NAME) if (path / SEEDS_NAME).is_file() else []
    else:
        warcs, labels, seeds = [path], {}, []
    records: dict[str, Record] = {}
    for warc in warcs:
        if not warc.is_file():
            raise FileNotFoundError(f"no WARC at {warc}")
        for url, record in read_warc(warc).items():
            records.setdefault(url, record)
    return WebArchive(records=records, labels=labels, seeds=seeds, path=path)


def read_warc(path: str | Path) -> dict[str, Record]:
    """Map ``WARC-Target-URI`` to :class:`Record` for every ``response`` record (first one wins)."""
    records: dict[str, Record] = {}
    with open(path, "rb") as stream:
        for rec in ArchiveIterator(stream, no_record_parse=True):
            if rec.rec_type != "response":
                continue
            url = (rec.rec_headers.get_header("WARC-Target-URI") or "").strip()
            block = rec.raw_stream.read()
            if not url or url in records:
                if url:
                    log.warning("duplicate response record for %s ignored", url)
                continue
            try:
                records[url] = parse_http_response(url, block)
            except ValueError as exc:
                log.warning("unreadable response record for %s: %s", url, exc)
    return records


def parse_http_response(url: str, block: bytes) -> Record:
    """Parse a recorded HTTP response block (status line, headers, body) into a :class:`Record`."""
    end = block.find(b"\r\n\r\n")
    sep = 4
    if end < 0:
        end, sep = block.find(b"\n\n"), 2
    if end < 0:
        raise ValueError("no end of HTTP headers")
    head, body = block[:end].decode("latin-1"), block[end + sep:]
    lines = head.replace("\r\n", "\n").split("\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"bad status line {lines[0]!r}")
    status, reason = int(parts[1]), (parts[2] if len(parts) > 2 else "").strip()
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if line[:1] in (" ", "\t") and headers:  # obsolete line folding
            name, value = headers[-1]
            headers[-1] = (name, value + " " + line.strip())
        elif ":" in line:
            name, value = line.split(":", 1)
            headers.append((name.strip(), value.strip()))
    if any(k.lower() == "transfer-encoding" and "chunked" in v.lower() for k, v in headers):
        body = dechunk(body)
    return Record(url, status, reason, tuple(headers), body)


def dechunk(data: bytes) -> bytes:
    """Decode a ``Transfer-Encoding: chunked`` body (tolerant of a missing last chunk)."""
    out, pos = bytearray(), 0
    while pos < len(data):
        eol = data.find(b"\n", pos)
        if eol < 0:
            break
        size_text = data[pos:eol].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            break
        if size == 0:
            break
        out += data[eol + 1:eol + 1 + size]
        pos = eol + 1 + size
        if data[pos:pos + 2] == b"\r\n":
            pos += 2
        elif data[pos:pos + 1] == b"\n":
            pos += 1
    return bytes(out)


def read_labels(path: str | Path) -> dict[str, list[str]]:
    """``labels.csv`` as ``url -> [subject, ...]`` (an empty list for a page of no subject)."""
    labels: dict[str, list[str]] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            url = (row.get("url") or "").strip()
            if url:
                subjects = (row.get("subjects") or "").split(";")
                labels[url] = [s.strip() for s in subjects if s.strip()]
    return labels


def read_seeds(path: str | Path) -> list[str]:
    """``seeds.txt``: one absolute URL per line (blank lines and ``#`` comments skipped)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")]
