"""The test-web proxy over real loopback HTTP: the built-in demo web and, when present, wikischools."""
from __future__ import annotations

import http.client
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from crawler.demo import build as demo_build
from crawler.testweb import DEMO_DIR, ProxyServer, load_web, normalize_url, serve_in_thread
from crawler.testweb.__main__ import main as cli_main

S, N, W = demo_build.S, demo_build.N, demo_build.W
HOP_BY_HOP = {"connection", "transfer-encoding", "keep-alive"}


@pytest.fixture(scope="module")
def demo():
    return load_web("demo")


@pytest.fixture(scope="module")
def proxy(demo):
    with serve_in_thread(demo) as handle:
        yield handle


def get(handle, url: str, method: str = "GET", headers: dict | None = None):
    conn = http.client.HTTPConnection(handle.host, handle.port, timeout=10)
    try:
        conn.request(method, url, headers=headers or {})
        resp = conn.getresponse()
        return resp, resp.read()
    finally:
        conn.close()


def raw_exchange(handle, data: bytes, until_close: bool = True) -> bytes:
    """Send raw bytes and read until the server closes (or a short timeout)."""
    with socket.create_connection((handle.host, handle.port), timeout=3) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if not until_close:
                    break
        except socket.timeout:
            pass
        return b"".join(chunks)


def assert_recorded(resp, body: bytes, record) -> None:
    assert resp.status == record.status
    assert resp.reason == record.reason
    assert body == record.body
    served = resp.getheaders()
    expected = [(k, v) for k, v in record.headers if k.lower() not in HOP_BY_HOP]
    assert [(k, v) for k, v in served if k.lower() not in HOP_BY_HOP] == expected
    assert resp.getheader("Content-Length") == str(len(record.body))
    assert resp.getheader("Transfer-Encoding") is None


# --------------------------------------------------------------------------------------------
# the archive and the demo web
# --------------------------------------------------------------------------------------------


def test_demo_archive_counts(demo):
    assert demo.hosts == {"www.sunwind.test", "www.nengyuan.test", "www.weekend.test"}
    assert 60 <= len(demo) <= 100
    assert demo.seeds == demo_build.SEEDS
    targets = [u for u in demo.labels if demo.on_topic(u, "subject.Energy")]
    assert len(targets) >= 30
    assert demo.on_topic(f"{W}/recipes/solar-oven-cooking.html", "subject.Energy")
    assert not demo.on_topic(f"{N}/shenghuo/meishi/jieneng-chufang.html", "subject.Energy")
    statuses = {rec.status for rec in demo.records.values()}
    assert statuses == {200, 301, 404}
    types = {rec.content_type for rec in demo.records.values()}
    assert {"text/html", "text/plain", "application/pdf", "image/png"} <= types
    assert (DEMO_DIR / "web.warc.gz").stat().st_size < 300_000


def test_demo_files_are_up_to_date(tmp_path):
    demo_build.build(tmp_path)
    for name in ("web.warc.gz", "labels.csv", "seeds.txt", "topic.toml"):
        assert (tmp_path / name).read_bytes() == (DEMO_DIR / name).read_bytes(), name


def test_demo_encodings(demo):
    gbk = demo.get(f"{N}/news/2023/dire-gongnuan.html")
    assert gbk.header("Content-Type") == "text/html; charset=gbk"
    assert b"charset=gb2312" in gbk.body
    assert "地热供暖" in gbk.body.decode("gbk")
    with pytest.raises(UnicodeDecodeError):
        gbk.body.decode("utf-8")
    mislabelled = demo.get(f"{N}/news/2023/lvqing-xiangmu.html")
    assert mislabelled.header("Content-Type") == "text/html; charset=utf-8"
    assert "绿氢" in mislabelled.body.decode("gbk")


def test_normalize_url():
    assert normalize_url("HTTP://Www.Sunwind.TEST:80") == "http://www.sunwind.test/"
    assert normalize_url("http://h.test/a%2b%7Eb?x=1#frag") == "http://h.test/a%2B~b?x=1"
    assert normalize_url("ftp://h.test/") is None
    assert normalize_url("http:///nohost") is None


def test_rejects_non_loopback(demo):
    with pytest.raises(ValueError):
        ProxyServer(demo).start_in_thread("0.0.0.0", 0)


def test_cli_info(capsys):
    assert cli_main(["info", "demo"]) == 0
    out = capsys.readouterr().out
    assert "recorded URLs: " in out and "www.nengyuan.test" in out and "application/pdf" in out


# --------------------------------------------------------------------------------------------
# serving the demo web
# --------------------------------------------------------------------------------------------


def test_200_recorded_body_and_headers(proxy, demo):
    for url in (f"{S}/solar/rooftop-panels-guide.html", f"{S}/files/solar-factsheet.pdf",
                f"{S}/images/offshore-wind-farm.png", f"{W}/calendar/2024/03/"):
        resp, body = get(proxy, url)
        assert_recorded(resp, body, demo.get(url))


def test_gbk_pages_are_byte_identical(proxy, demo):
    for url in (f"{N}/news/2023/dire-gongnuan.html", f"{N}/news/2023/lvqing-xiangmu.html",
                f"{N}/shenghuo/meishi/shougong-jiaozi.html"):
        resp, body = get(proxy, url)
        assert body == demo.get(url).body
        assert_recorded(resp, body, demo.get(url))


def test_301_is_not_followed(proxy, demo):
    resp, body = get(proxy, demo_build.REDIRECT[0])
    assert resp.status == 301
    assert resp.getheader("Location") == demo_build.REDIRECT[1]
    assert body == demo.get(demo_build.REDIRECT[0]).body


def test_recorded_404_and_unknown_urls(proxy, demo):
    resp, body = get(proxy, f"{W}/calendar/2025/01/")
    assert_recorded(resp, body, demo.get(f"{W}/calendar/2025/01/"))
    for url in demo_build.UNRECORDED + [f"{S}/no/such/page.html", f"{S}/solar/rooftop-panels-guide.html?x=1"]:
        resp, body = get(proxy, url)
        assert resp.status == 404
        assert resp.getheader("Content-Type") == "text/html; charset=utf-8"
        assert b"Not Found" in body


def test_unknown_host_is_502_and_nothing_forwarded(proxy):
    for url in ("http://example.com/", "http://www.sunwind.test.example.com/", "http://127.0.0.1:9/"):
        resp, body = get(proxy, url)
        assert resp.status == 502
        assert resp.getheader("Content-Type") == "text/html; charset=utf-8"


def test_head(proxy, demo):
    record = demo.get(f"{S}/wind/offshore-wind-basics.html")
    resp, body = get(proxy, record.url, method="HEAD")
    assert resp.status == 200 and body == b""
    assert resp.getheader("Content-Length") == str(len(record.body))
    resp, body = get(proxy, "http://nowhere.test/", method="HEAD")
    assert resp.status == 502 and body == b""


def test_origin_form_with_host_header(proxy, demo):
    conn = http.client.HTTPConnection(proxy.host, proxy.port, timeout=10)
    conn.putrequest("GET", "/wind/", skip_host=True)
    conn.putheader("Host", "www.sunwind.test")
    conn.endheaders()
    resp = conn.getresponse()
    assert_recorded(resp, resp.read(), demo.get(f"{S}/wind/"))
    conn.close()
    reply = raw_exchange(proxy, b"GET /robots.txt HTTP/1.1\r\nHost: WWW.WEEKEND.TEST:80\r\n"
                                b"Connection: close\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 200 OK\r\n") and reply.endswith(b"Disallow: /cart/\n")


def test_host_without_slash_and_percent_escapes(proxy, demo):
    resp, body = get(proxy, "http://www.nengyuan.test")
    assert resp.status == 200 and body == demo.get(f"{N}/").body
    resp, body = get(proxy, f"{S}/wind/wind%2Dforecasting.html")
    assert resp.status == 200 and body == demo.get(f"{S}/wind/wind-forecasting.html").body


def test_robots_txt(proxy):
    for host, rule in ((S, b"Disallow: /drafts/"), (N, b"Disallow: /search"), (W, b"Disallow: /cart/")):
        resp, body = get(proxy, f"{host}/robots.txt")
        assert resp.status == 200 and rule in body
        assert resp.getheader("Content-Type") == "text/plain; charset=utf-8"


def test_keep_alive_many_requests_on_one_connection(proxy, demo):
    before = proxy.stats.connections
    requests_before = proxy.stats.requests
    conn = http.client.HTTPConnection(proxy.host, proxy.port, timeout=10)
    urls = [f"{S}/", f"{S}/robots.txt", demo_build.REDIRECT[0], f"{S}/missing.html",
            "http://elsewhere.test/", f"{N}/news/", f"{S}/images/offshore-wind-farm.png"]
    sock = None
    for url in urls:
        conn.request("GET", url)
        resp = conn.getresponse()
        body = resp.read()
        if demo.get(url):
            assert body == demo.get(url).body
        assert resp.getheader("Connection") == "keep-alive"
        sock = sock or conn.sock
        assert conn.sock is sock  # the same socket throughout
    conn.close()
    assert proxy.stats.connections == before + 1
    assert proxy.stats.requests >= requests_before + len(urls)


def test_pipelined_requests(proxy, demo):
    data = (f"GET {S}/robots.txt HTTP/1.1\r\nHost: www.sunwind.test\r\n\r\n"
            f"HEAD {N}/robots.txt HTTP/1.1\r\n\r\n"
            f"GET {W}/robots.txt HTTP/1.1\r\nConnection: close\r\n\r\n").encode()
    reply = raw_exchange(proxy, data)
    assert reply.count(b"HTTP/1.1 200 OK\r\n") == 3
    assert reply.endswith(b"Disallow: /cart/\n")
    assert b"Disallow: /search" not in reply  # the HEAD has no body


def test_an_empty_line_split_across_reads_between_pipelined_requests(proxy):
    # RFC 9112 2.2: a server skips an empty line before a request; a CR at the end of one
    # read and its LF in the next gave 400
    parts = [f"GET {S}/robots.txt HTTP/1.1\r\n\r\n\r".encode(),
             f"\nGET {W}/robots.txt HTTP/1.1\r\nConnection: close\r\n\r\n".encode()]
    with socket.create_connection((proxy.host, proxy.port), timeout=3) as sock:
        chunks = []
        for part in parts:
            sock.sendall(part)
            time.sleep(0.2)
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except socket.timeout:
            pass
    reply = b"".join(chunks)
    assert reply.count(b"HTTP/1.1 200 OK\r\n") == 2 and b" 400 " not in reply


@pytest.mark.parametrize("request_bytes, status", [
    (b"THIS IS NOT HTTP\r\n\r\n", b"400"),
    (b"GET\r\n\r\n", b"400"),
    (b"GET http://www.sunwind.test/ HTTP/9\r\n\r\n", b"400"),
    (b"GET http://www.sunwind.test/ HTTP/2.0\r\n\r\n", b"505"),
    (b"GET /robots.txt HTTP/1.1\r\n\r\n", b"400"),                       # origin form, no Host
    (b"GET http://www.sunwind.test/ HTTP/1.1\r\nBad Header\r\n\r\n", b"400"),
    (b"GET nonsense HTTP/1.1\r\n\r\n", b"400"),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", b"400"),    # a TLS hello
    (b"CONNECT www.sunwind.test:443 HTTP/1.1\r\n\r\n", b"502"),
])
def test_malformed_requests(proxy, request_bytes, status):
    reply = raw_exchange(proxy, request_bytes)
    assert reply.startswith(b"HTTP/1.1 " + status + b" ")
    assert b"Connection: close" in reply


def test_other_methods_and_http10(proxy):
    reply = raw_exchange(proxy, f"POST {S}/ HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc".encode())
    assert reply.startswith(b"HTTP/1.1 405 ") and b"Allow: GET, HEAD" in reply
    reply = raw_exchange(proxy, f"GET {S}/robots.txt HTTP/1.0\r\n\r\n".encode())  # closes after one
    assert reply.startswith(b"HTTP/1.1 200 OK\r\n") and b"Connection: close" in reply
    assert reply.endswith(b"Disallow: /drafts/\n")


def test_oversized_head_is_refused(proxy):
    reply = raw_exchange(proxy, b"GET http://www.sunwind.test/ HTTP/1.1\r\nX: " + b"a" * 70_000)
    assert reply.startswith(b"HTTP/1.1 431 ")


def test_concurrent_clients_and_stats(demo):
    urls = [u for u in demo.records][:40]
    with serve_in_thread(demo) as handle:
        host, port, stop = handle  # also unpacks as a tuple

        def worker(_: int) -> int:
            conn = http.client.HTTPConnection(host, port, timeout=10)
            ok = 0
            for url in urls:
                conn.request("GET", url)
                resp = conn.getresponse()
                ok += resp.read() == demo.get(url).body
            conn.close()
            return ok

        with ThreadPoolExecutor(8) as pool:
            assert sum(pool.map(worker, range(8))) == 8 * len(urls)
        assert handle.stats.requests == 8 * len(urls)
        assert handle.stats.connections == 8
        assert len(handle.server.log) == 8 * len(urls)
        assert handle.server.log[0][0] == "GET"
    with pytest.raises(OSError):
        socket.create_connection((host, port), timeout=1).close()


def test_stop_is_idempotent(demo):
    handle = serve_in_thread(demo)
    resp, _ = get(handle, f"{S}/")
    assert resp.status == 200
    assert handle.thread.is_alive()
    handle.stop()
    handle.stop()
    assert not handle.thread.is_alive()
    with pytest.raises(OSError):
        socket.create_connection((handle.host, handle.port), timeout=1).close()


# --------------------------------------------------------------------------------------------
# the real test web (../shared/testweb/wikischools)
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wiki_proxy(wikischools):
    with serve_in_thread(wikischools) as handle:
        yield handle


@pytest.mark.shared
def test_wikischools_archive(wikischools):
    assert len(wikischools) == 8153
    assert wikischools.hosts == {"sci.wikischools.test", "hum.wikischools.test", "world.wikischools.test"}
    assert len(wikischools.labels) == 5462
    assert len(wikischools.seeds) == 3


@pytest.mark.shared
def test_wikischools_serving(wiki_proxy, wikischools):
    records = wikischools.records.values()
    samples = {}
    for rec in records:
        key = (rec.status, rec.content_type)
        samples.setdefault(key, rec)
    assert {(200, "text/html"), (301, "text/html"), (404, "text/html"), (200, "application/pdf"),
            (200, "image/png"), (200, "text/plain"), (200, "text/css")} <= set(samples)
    conn = http.client.HTTPConnection(wiki_proxy.host, wiki_proxy.port, timeout=10)
    for rec in samples.values():
        conn.request("GET", rec.url)
        resp = conn.getresponse()
        assert_recorded(resp, resp.read(), rec)
        if rec.status == 301:
            assert resp.getheader("Location") == rec.location
    for url in wikischools.seeds:
        conn.request("HEAD", url)
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read() == b""
    conn.request("GET", "http://sci.wikischools.test/wp/z/No_such_article_at_all.htm")
    resp = conn.getresponse()
    assert resp.status == 404 and b"Not Found" in resp.read()
    conn.request("GET", "http://wikischools.test/")
    resp = conn.getresponse()
    assert resp.status == 502
    resp.read()
    conn.close()
    resp, body = get(wiki_proxy, "http://sci.wikischools.test/wp/c/C%2b%2b.htm")  # lower-case escape
    assert resp.status == 200 and body == wikischools.get("http://sci.wikischools.test/wp/c/C%2B%2B.htm").body
    reply = raw_exchange(wiki_proxy, b"GET /robots.txt HTTP/1.1\r\nHost: sci.wikischools.test\r\n"
                                     b"Connection: close\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 200 OK") and reply.endswith(b"Disallow: /print/\n")


@pytest.mark.shared
def test_wikischools_every_url_served_by_resolve(wikischools):
    """Every recorded URL resolves to its own record (no HTTP; checks the lookup table)."""
    server = ProxyServer(wikischools)
    for url, rec in wikischools.records.items():
        head, body, status, resolved = server.resolve(url)
        assert (status, body, resolved) == (rec.status, rec.body, url)


def test_the_command_line_reports_a_missing_web_and_a_bad_address_in_one_line(tmp_path,
                                                                              capsys):
    """Found by a review: a mistyped folder, a port in use and ``--host 0.0.0.0`` each gave
    a Python traceback."""
    import gzip
    import socket

    from crawler.testweb.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["info", str(tmp_path / "nowhere")])
    assert stop.value.code == 2 and "no WARC at" in capsys.readouterr().err
    (tmp_path / "bad.warc.gz").write_bytes(gzip.compress(b"not a WARC\n"))
    with pytest.raises(SystemExit) as stop:            # warcio's own error, not an OSError
        main(["info", str(tmp_path / "bad.warc.gz")])
    assert stop.value.code == 2 and "Unknown archive format" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["serve", "demo", "--host", "0.0.0.0"])
    assert stop.value.code == 1 and "loopback only" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(SystemExit) as stop:
            main(["serve", "demo", "--port", str(taken.getsockname()[1])])
    assert stop.value.code == 1 and "cannot serve on 127.0.0.1" in capsys.readouterr().err
