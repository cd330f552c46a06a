"""``python -m extraction extract URL``: pages fetched over loopback HTTP (a local server in
a thread, never the internet)."""
import gzip
import json
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from extraction.cli import main
from extraction.fetch import FetchError, fetch_page, is_url

PAGES = Path(__file__).parent / "pages"
ARTICLE = (PAGES / "article-en.html").read_bytes()
# the GBK page without its in-page declaration: only the HTTP header names the encoding
GBK = (PAGES / "article-zh-gbk.html").read_bytes().replace(
    b'<meta http-equiv="Content-Type" content="text/html; charset=gb2312">', b"")


class _Handler(BaseHTTPRequestHandler):
    routes = {
        "/article": (200, "text/html", ARTICLE, {}),
        "/zh": (200, "text/html; charset=GBK", GBK, {}),
        "/gzip": (200, "text/html; charset=utf-8", gzip.compress(ARTICLE),
                  {"Content-Encoding": "gzip"}),
        "/deflate": (200, "text/html; charset=utf-8", zlib.compress(ARTICLE),
                     {"Content-Encoding": "deflate"}),
        "/paper.pdf": (200, "application/pdf", b"%PDF-1.4 binary", {}),
        "/big": (200, "text/html", b"<p>" + b"x" * 5000 + b"</p>", {}),
        "/broken-gzip": (200, "text/html", b"\x1f\x8b\x08\x00garbage",
                         {"Content-Encoding": "gzip"}),
    }

    def do_GET(self):
        if self.path == "/moved":
            self.send_response(301)
            self.send_header("Location", "/article")
            self.end_headers()
            return
        if self.path == "/slow":
            time.sleep(1.5)
        status, ctype, body, extra = self.routes.get(self.path, (404, "text/html", b"gone", {}))
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in extra.items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):   # the client gave up (a timeout test)
            pass

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_extract_reads_a_url_like_a_file(server, capsys):
    assert main(["extract", f"{server}/article"]) == 0
    from_url = capsys.readouterr().out
    assert main(["extract", str(PAGES / "article-en.html"), "--url", f"{server}/article"]) == 0
    assert from_url == capsys.readouterr().out and "harvesting the tides" in from_url


def test_the_http_header_names_the_encoding_and_redirects_give_the_final_url(server, capsys):
    assert main(["extract", f"{server}/zh", f"{server}/moved", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "三峡" in rows[0]["text"] and rows[0]["encoding"] in ("gbk", "gb18030")
    assert rows[1]["url"] == f"{server}/article" and rows[1]["file"] == f"{server}/moved"
    assert "harvesting the tides" in rows[1]["text"]


def test_gzip_and_deflate_bodies_are_decoded(server):
    for path in ("/gzip", "/deflate"):
        assert fetch_page(f"{server}{path}").body == ARTICLE


@pytest.mark.parametrize("path, message", [
    ("/missing", "HTTP 404"), ("/paper.pdf", "not an HTML page (application/pdf)"),
    ("/broken-gzip", "damaged gzip body")])
def test_a_page_that_cannot_be_fetched_is_a_message_and_exit_status_1(server, capsys, path,
                                                                       message):
    assert main(["extract", f"{server}{path}", f"{server}/article"]) == 1
    captured = capsys.readouterr()
    assert f"{server}{path}: {message}" in captured.err and "Traceback" not in captured.err
    assert "harvesting the tides" in captured.out       # the next page is still read


def test_size_cap_timeout_and_unreachable_server(server):
    with pytest.raises(FetchError, match="larger than 1000 bytes"):
        fetch_page(f"{server}/big", max_bytes=1000)
    with pytest.raises(FetchError, match="no answer within 0.3 s"):
        fetch_page(f"{server}/slow", timeout=0.3)
    closed = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    port = closed.server_address[1]
    closed.server_close()                   # nothing listens on this port any more
    with pytest.raises(FetchError, match="cannot fetch"):
        fetch_page(f"http://127.0.0.1:{port}/article")


def test_only_http_urls_are_fetched(tmp_path, capsys):
    assert is_url("HTTPS://example.org/a") and not is_url("ftp://example.org/a")
    assert not is_url(str(tmp_path / "http-notes.html"))
    with pytest.raises(FetchError, match="not an http"):
        fetch_page("http:///no-host")
    with pytest.raises(SystemExit):
        main(["extract", "x.html", "--timeout", "0"])
    assert "seconds > 0" in capsys.readouterr().err
