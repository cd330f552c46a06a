"""The WARC archive of the crawl's responses (crawler/warc.py, CORPUS_WARC)."""
import gzip
import shutil
from datetime import datetime, timezone

import pytest
from scrapy.settings import Settings
from scrapy.http import HtmlResponse, Request
from warcio.archiveiterator import ArchiveIterator

from crawler.testweb.archive import load_web, read_warc
from crawler.published import gzip_members_length
from crawler.warc import RawResponse, WarcArchive, open_archive, warc_mode

PAGE = "<html><head><title>Wind</title></head><body><p>Wind turbines 风能</p></body></html>"


def _raw(url="http://a.test/wind", status=200, body=PAGE.encode("utf-8"), headers=None):
    headers = headers or (("Content-Type", "text/html; charset=utf-8"),)
    return RawResponse(url=url, status=status, protocol="HTTP/1.1", headers=headers, body=body,
                       fetched_at=datetime(2026, 11, 24, 8, 30, 1, tzinfo=timezone.utc),
                       ip_address="127.0.0.1")


def _records(path):
    with open(path, "rb") as stream:
        return [(r.rec_type, r.rec_headers, r.http_headers, r.content_stream().read())
                for r in ArchiveIterator(stream)]


def test_mode_setting():
    assert warc_mode(None) is None and warc_mode("") is None and warc_mode("off") is None
    assert warc_mode(False) is None
    assert warc_mode("written") == "written" and warc_mode(" ALL ") == "all"
    with pytest.raises(ValueError, match="CORPUS_WARC.*'every'"):
        warc_mode("every")
    with pytest.raises(ValueError, match="CORPUS_WARC_MAX_BYTES"):
        open_archive(Settings({"CORPUS_WARC": "all", "CORPUS_WARC_MAX_BYTES": "0"}), None, {})


def test_records_read_back_byte_for_byte_at_their_offsets(tmp_path):
    archive = WarcArchive(tmp_path, "all", info={"isPartOf": "energy"})
    body = gzip.compress(PAGE.encode("gb18030", "replace"))
    first = archive.write(_raw(headers=(("Content-Type", "text/html; charset=gbk"),
                                        ("Content-Encoding", "gzip"),
                                        ("Transfer-Encoding", "chunked"),
                                        ("Content-Length", "999")), body=body))
    second = archive.write(_raw("http://a.test/gone", 404, b"not here"))
    assert not list(tmp_path.glob("crawl-*.warc.gz"))          # not published while open
    archive.close()
    path = tmp_path / "crawl-00000.warc.gz"
    assert first.file == second.file == path.name and 0 < first.offset < second.offset
    records = _records(path)
    assert [r[0] for r in records] == ["warcinfo", "response", "response"]
    assert b"isPartOf: energy" in records[0][3]
    _, warc_headers, http, payload = records[1]
    assert warc_headers.get_header("WARC-Target-URI") == "http://a.test/wind"
    assert warc_headers.get_header("WARC-Record-ID") == first.record_id
    assert warc_headers.get_header("WARC-Date") == "2026-11-24T08:30:01.000000Z"
    assert warc_headers.get_header("WARC-IP-Address") == "127.0.0.1"
    assert http.get_statuscode() == "200"
    assert http.get_header("Content-Encoding") == "gzip"        # the body as received
    assert http.get_header("Transfer-Encoding") is None
    assert http.get_header("Content-Length") == str(len(body))
    assert payload == PAGE.encode("gb18030", "replace")          # warcio decodes gzip
    # the recorded block as a test web reads it: the raw body, still compressed
    assert read_warc(path)["http://a.test/wind"].body == body
    assert read_warc(path)["http://a.test/gone"].status == 404
    with open(path, "rb") as stream:                             # offsets address records
        stream.seek(second.offset)
        record = next(iter(ArchiveIterator(stream)))
        assert record.rec_headers.get_header("WARC-Record-ID") == second.record_id


def test_raw_response_of_a_scrapy_response_keeps_every_header_value():
    response = HtmlResponse("http://a.test/", status=200, body=b"<p>x</p>",
                            headers={"Set-Cookie": ["a=1", "b=2"], "Content-Type": "text/html"},
                            request=Request("http://a.test/"))
    raw = RawResponse.of(response)
    assert raw.body == b"<p>x</p>" and raw.status == 200 and raw.url == "http://a.test/"
    assert [v for k, v in raw.headers if k == "Set-Cookie"] == ["a=1", "b=2"]
    assert raw.http_headers().statusline == "200 OK"


def test_files_rotate_and_numbering_continues_after_a_restart(tmp_path):
    archive = WarcArchive(tmp_path, "written", max_bytes=1)     # one record per file
    locations = [archive.write(_raw(f"http://a.test/{i}")) for i in range(3)]
    archive.close()
    assert [loc.file for loc in locations] == [f"crawl-{i:05d}.warc.gz" for i in range(3)]
    again = WarcArchive(tmp_path, "written")
    assert again.write(_raw("http://a.test/3")).file == "crawl-00003.warc.gz"
    again.close()
    web = load_web(tmp_path)                                     # a folder of WARC files
    assert sorted(web.records) == [f"http://a.test/{i}" for i in range(4)]


def test_a_file_left_by_a_killed_crawl_is_cut_and_published(tmp_path):
    archive = WarcArchive(tmp_path, "all")
    for i in range(3):
        archive.write(_raw(f"http://a.test/{i}"))
    temp = tmp_path / ".crawl-00000.warc.gz.tmp"
    whole = temp.read_bytes()
    archive.files.handle.close()                                # killed: never closed
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    (crashed / temp.name).write_bytes(whole[:-25])               # the last record torn
    (crashed / ".crawl-00001.warc.gz.tmp").write_bytes(b"\x1f\x8b garbage")
    assert 0 < gzip_members_length(crashed / temp.name) < len(whole) - 25
    recovered = WarcArchive(crashed, "all")
    assert sorted(p.name for p in crashed.iterdir()) == ["crawl-00000.warc.gz"]
    assert sorted(read_warc(crashed / "crawl-00000.warc.gz")) == \
        ["http://a.test/0", "http://a.test/1"]
    assert recovered.write(_raw()).file == "crawl-00001.warc.gz"
    recovered.close()
    shutil.rmtree(crashed)


class _DiskFullAfter:
    """A file handle that writes ``room`` more bytes, then fails as a full disk does."""

    def __init__(self, handle, room: int):
        self.handle, self.room = handle, room

    def write(self, data):
        if len(data) > self.room:
            self.handle.write(data[:self.room])
            self.handle.flush()
            self.room = 0
            raise OSError(28, "No space left on device")
        self.room -= len(data)
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_never_publishes_a_torn_record(tmp_path):
    """Found by a review: a write that failed half-way left its torn record in the file,
    published as it was when the crawl closed."""
    archive = WarcArchive(tmp_path, "all")
    archive.write(_raw("http://a.test/0"))
    archive.write(_raw("http://a.test/1"))
    archive.files.handle = _DiskFullAfter(archive.files.handle, 100)
    archive._writer.out = archive.files.handle
    with pytest.raises(OSError, match="No space"):
        archive.write(_raw("http://a.test/2"))
    archive.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crawl-00000.warc.gz"]
    records = _records(tmp_path / "crawl-00000.warc.gz")
    assert [r[1].get_header("WARC-Target-URI") for r in records[1:]] == [
        "http://a.test/0", "http://a.test/1"]
    # the next write (disk freed) opens the next file
    assert archive.write(_raw("http://a.test/3")).file == "crawl-00001.warc.gz"


def test_header_bytes_are_archived_as_received():
    """Found by a review: warcio percent-encoded a non-ASCII header value as UTF-8, so a raw
    UTF-8 ``Location`` was archived as ``http%3A//x.test/caf%C3%83%C2%A9.htm``."""
    response = HtmlResponse("http://x.test/r", status=301, body=b"",
                            headers={b"Location": "http://x.test/café.htm".encode("utf-8"),
                                     b"X-Latin": b"caf\xe9"}, request=Request("http://x.test/r"))
    headers = RawResponse.of(response).http_headers()
    headers.compute_headers_buffer()
    assert b"\r\nLocation: http://x.test/caf\xc3\xa9.htm\r\n" in headers.headers_buff
    assert b"\r\nX-Latin: caf\xe9\r\n" in headers.headers_buff
