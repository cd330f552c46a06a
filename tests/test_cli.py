"""The command line: extract, batch, evaluate (against the reference evaluator)."""
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from extraction.cli import main
from extraction.datasets import load
from extraction.evaluation import evaluate_files

PAGES = Path(__file__).parent / "pages"


def test_extract_prints_main_text(capsys):
    assert main(["extract", str(PAGES / "article-en.html"), "--method", "e1"]) == 0
    out = capsys.readouterr().out
    assert "harvesting the tides" in out


def test_extract_json(capsys):
    main(["extract", str(PAGES / "article-zh-gbk.html"), "--json"])
    row = json.loads(capsys.readouterr().out)
    assert row["method"] == "auto" and "三峡" in row["text"] and row["encoding"] == "gb18030"


def test_extract_and_batch_give_markdown_on_request(tmp_path, capsys):
    assert main(["extract", str(PAGES / "qa-page.html"), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "\n```\ndf['timestamp'] = pd.to_datetime(" in out and "Pass `utc=True`." in out
    main(["extract", str(PAGES / "qa-page.html"), "--markdown", "--json"])
    row = json.loads(capsys.readouterr().out)
    assert row["markdown"].startswith(out.strip()[:200]) and "```" not in row["text"]
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "qa.html").write_bytes((PAGES / "qa-page.html").read_bytes())
    (folder / "empty.html").write_bytes(b"")
    for extra in ([], ["--full"]):
        pred = tmp_path / "pred.jsonl"
        assert main(["batch", "--input", str(folder), "--output", str(pred), "--quiet",
                     "--markdown", *extra]) == 0
        rows = {r["id"]: r for r in map(json.loads, pred.read_text().splitlines())}
        assert rows["qa"]["markdown"] == row["markdown"] and rows["empty"]["markdown"] == ""


def test_extract_and_batch_give_markdown_with_links_on_request(tmp_path, capsys):
    page = tmp_path / "doc.html"
    page.write_text("<html><body><article><h1>Retries</h1><p>" + "Jobs fail and run again. " * 12
                    + 'See <a href="idempotency.html">Writing idempotent jobs</a> and <a href='
                    + '"javascript:void(0)">this</a>.</p></article></body></html>')
    assert main(["extract", str(page), "--links", "--url", "https://docs.test/guide/"]) == 0
    out = capsys.readouterr().out
    assert "See [Writing idempotent jobs](https://docs.test/guide/idempotency.html) and this." \
        in out
    pred = tmp_path / "pred.jsonl"
    assert main(["batch", "--input", str(tmp_path), "--output", str(pred), "--quiet",
                 "--links"]) == 0
    row = json.loads(pred.read_text().splitlines()[0])
    assert "[Writing idempotent jobs](idempotency.html)" in row["markdown"]   # (no URL given)


def test_extract_and_batch_give_markdown_with_images_on_request(tmp_path, capsys):
    page = tmp_path / "doc.html"
    page.write_text("<html><body><article><h1>Retries</h1><p>" + "Jobs fail and run again. " * 12
                    + '</p><figure><img src="flow.png" alt="The retry flow"><figcaption>How a '
                    + "failed job is queued again after a delay.</figcaption></figure><p>"
                    + "Each retry waits longer than the last. " * 6
                    + "</p></article></body></html>")
    assert main(["extract", str(page), "--images", "--url", "https://docs.test/guide/"]) == 0
    assert "![The retry flow](https://docs.test/guide/flow.png)" in capsys.readouterr().out
    pred = tmp_path / "pred.jsonl"
    assert main(["batch", "--input", str(tmp_path), "--output", str(pred), "--quiet",
                 "--images"]) == 0
    assert "![The retry flow](flow.png)" in json.loads(pred.read_text().splitlines()[0])[
        "markdown"]
    assert main(["extract", str(page), "--markdown"]) == 0
    assert "![" not in capsys.readouterr().out


def test_extract_and_batch_favor_precision_or_recall_for_auto(tmp_path, capsys):
    from extraction import extract

    folder = Path(__file__).resolve().parent.parent / "bench" / "extraction_unseen" / \
        "forum-misc-en"
    pages = sorted(folder.glob("misc-*.html"))[:4]
    for favor in ("precision", "recall"):
        wanted = {p.stem: extract(p.read_bytes(), favor=favor).text for p in pages}
        balanced = {p.stem: extract(p.read_bytes()).text for p in pages}
        assert wanted != balanced
        assert main(["extract", str(pages[0]), "--favor", favor]) == 0
        assert capsys.readouterr().out == wanted[pages[0].stem] + "\n"
        pred = tmp_path / f"{favor}.jsonl"
        inputs = tmp_path / "in"
        inputs.mkdir(exist_ok=True)
        for page in pages:
            (inputs / page.name).write_bytes(page.read_bytes())
        assert main(["batch", "--input", str(inputs), "--output", str(pred), "--quiet",
                     "--favor", favor, "--workers", "2"]) == 0
        assert {r["id"]: r["text"] for r in map(json.loads, pred.read_text().splitlines())} \
            == wanted
    with pytest.raises(SystemExit):
        main(["extract", str(pages[0]), "--method", "e1", "--favor", "precision"])
    assert "--favor applies to the auto method only, not e1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["batch", "--input", str(folder), "--output", str(tmp_path / "x.jsonl"),
              "--favor", "speed"])
    assert "invalid choice: 'speed'" in capsys.readouterr().err


def test_unknown_method_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        main(["extract", str(PAGES / "article-en.html"), "--method", "nope"])
    assert "unknown extraction method" in capsys.readouterr().err


def test_a_missing_sibling_file_is_a_message_not_a_traceback(tmp_path, capsys):
    missing = tmp_path / "missing.html"
    assert main(["extract", str(PAGES / "article-en.html"), "--siblings", str(missing)]) == 2
    assert capsys.readouterr().err == f"{missing}: cannot read sibling page: No such file or " \
        "directory\n"


def test_batch_never_aborts_on_a_bad_page(tmp_path, caplog):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.html").write_bytes((PAGES / "article-en.html").read_bytes())
    (folder / "binary.html").write_bytes(b"\x00\x01\x02\xff" * 500)
    (folder / "empty.html").write_bytes(b"")
    out = tmp_path / "pred.jsonl"
    assert main(["batch", "--input", str(folder), "--output", str(out), "--quiet"]) == 0
    rows = {r["id"]: r["text"] for r in map(json.loads, out.read_text().splitlines())}
    assert set(rows) == {"good", "binary", "empty"}
    assert "harvesting the tides" in rows["good"] and rows["binary"] == rows["empty"] == ""
    # the warning gives the reason without --with-reason (it said "empty text ()")
    assert "empty: empty text (empty input)" in caplog.text


def test_batch_skips_pages_over_max_bytes_with_the_reason(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    page = (PAGES / "article-en.html").read_bytes()
    (folder / "small.html").write_bytes(page)
    (folder / "big.html").write_bytes(page.replace(b"</body>", b"<p>x</p>" * 5000 + b"</body>"))
    out = tmp_path / "pred.jsonl"
    limit = str(len(page) + 100)
    assert main(["batch", "--input", str(folder), "--output", str(out), "--quiet",
                 "--with-reason", "--max-bytes", limit]) == 0
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert "harvesting the tides" in rows["small"]["text"]
    assert rows["big"]["text"] == "" and "over --max-bytes" in rows["big"]["reason"]


def _warc(path: Path, records: list[tuple[str, str, list, bytes]], truncate: int = 0) -> None:
    """A gzip WARC of ``(url, status line, HTTP headers, body)`` response records, a request
    record before each; ``truncate`` cuts that many bytes off the end."""
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    for url, status, headers, body in records:
        writer.write_record(writer.create_warc_record(
            url, "request", payload=io.BytesIO(b""),
            http_headers=StatusAndHeaders(f"GET {url} HTTP/1.1", [], is_http_request=True)))
        http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                      http_headers=http))
    data = buf.getvalue()
    path.write_bytes(data[:len(data) - truncate] if truncate else data)


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_reads_the_html_pages_of_a_warc_archive(tmp_path, capsys, workers):
    """``batch --input FILE.warc.gz``: the 200 HTML responses (gzip content encoding and
    chunked transfer decoded, the HTTP charset used), in archive order, with URL, title and
    language; the other records counted by reason."""
    import gzip

    brotli = pytest.importorskip("brotli")
    zstd = pytest.importorskip("backports.zstd")
    article = (PAGES / "article-en.html").read_bytes()
    gbk = (PAGES / "article-zh-gbk.html").read_bytes()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(article), article)
    html = ("Content-Type", "text/html")
    _warc(tmp_path / "crawl.warc.gz", [
        ("http://a.test/zh", "200 OK", [("Content-Type", "text/html; charset=gbk")], gbk),
        ("http://a.test/gz", "200 OK", [html, ("Content-Encoding", "gzip")],
         gzip.compress(article)),
        ("http://a.test/chunked", "200 OK", [html, ("Transfer-Encoding", "chunked")], chunked),
        # brotli (warcio's own decoder failed on every such body) and zstd, which Scrapy
        # accepts and the crawler archives as received; a CRLF after the last chunk
        ("http://a.test/br", "200 OK", [html, ("Content-Encoding", "br")],
         brotli.compress(article)),
        ("http://a.test/zstd", "200 OK", [html, ("Content-Encoding", "zstd")],
         zstd.compress(article)),
        ("http://a.test/crlf", "200 OK", [html, ("Transfer-Encoding", "chunked")],
         chunked + b"\r\n"),
        ("http://a.test/missing", "404 Not Found", [html], b"<p>gone</p>"),
        ("http://a.test/moved", "301 Moved", [("Location", "/zh")], b""),
        ("http://a.test/doc.pdf", "200 OK", [("Content-Type", "application/pdf")], b"%PDF-1.4"),
        ("http://a.test/binary", "200 OK", [html], b"\x00\x01\x02\xff" * 500),
    ])
    out = tmp_path / "out" / "pages.jsonl"
    assert main(["batch", "--input", str(tmp_path / "crawl.warc.gz"), "--output", str(out),
                 "--quiet", "--workers", str(workers)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["url"] for r in rows] == ["http://a.test/zh", "http://a.test/gz",
                                        "http://a.test/chunked", "http://a.test/br",
                                        "http://a.test/zstd", "http://a.test/crlf",
                                        "http://a.test/binary"]
    zh, gz, chunk, br, zst, crlf, binary = rows
    assert gz["text"] == br["text"] == zst["text"] == crlf["text"]
    assert "三峡" in zh["text"] and zh["language"] == "zh" and zh["id"].startswith("<urn:uuid:")
    assert "harvesting the tides" in gz["text"] and gz["text"] == chunk["text"]
    assert gz["title"] and gz["language"] == "en" and gz["warc_date"]
    assert binary["text"] == ""
    err = capsys.readouterr().err
    assert "7 pages" in err and "1 empty" in err and "20 WARC records" in err
    assert "10 request" in err and "1 status 404" in err and "1 status 301" in err
    assert "1 not HTML" in err


def test_batch_keeps_the_pages_before_the_damage_of_a_truncated_warc(tmp_path, capsys):
    article = (PAGES / "article-en.html").read_bytes()
    records = [(f"http://a.test/{k}", "200 OK", [("Content-Type", "text/html")], article)
               for k in range(3)]
    _warc(tmp_path / "cut.warc.gz", records, truncate=200)
    out = tmp_path / "pages.jsonl"
    assert main(["batch", "--input", str(tmp_path), "--output", str(out), "--quiet",
                 "--full"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["url"] for r in rows] == ["http://a.test/0", "http://a.test/1"]
    assert all("harvesting the tides" in r["text"] and r["metadata"] for r in rows)
    assert "1 truncated" in capsys.readouterr().err


def test_batch_refuses_an_input_it_cannot_read(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    assert main(["batch", "--input", str(tmp_path), "--output", str(tmp_path / "o.jsonl")]) == 1
    assert main(["batch", "--input", str(tmp_path / "notes.txt"),
                 "--output", str(tmp_path / "o.jsonl")]) == 1
    assert "no *.html or WARC files" in capsys.readouterr().err
    (tmp_path / "page.warc.gz").write_bytes(b"<html><body><p>not an archive</p></body></html>")
    assert main(["batch", "--input", str(tmp_path / "page.warc.gz"),
                 "--output", str(tmp_path / "o.jsonl")]) == 1
    assert "no WARC record could be read" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["batch", "--input", str(tmp_path), "--output", "o.jsonl", "--workers", "0"])


def test_module_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "extraction", "extract", "--method", "e1",
                          str(PAGES / "article-en.html")], capture_output=True, text=True,
                         check=True)
    assert "Tide mills" in out.stdout


@pytest.mark.shared
@pytest.mark.parametrize("tokenizer", ["auto", "words"])
def test_evaluate_gives_the_reference_numbers(shared, tmp_path, tokenizer):
    spec = importlib.util.spec_from_file_location(
        "reference_eval", shared / "tools" / "evaluate_extraction.py")
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    ds = load("zh-wce-dev")
    rng = random.Random(7)
    pred = tmp_path / "pred.jsonl"
    with open(pred, "w", encoding="utf-8") as handle:
        for page in ds.pages[:-2]:          # two pages missing, one extra id
            words = page.gold.split()
            rng.shuffle(words)
            handle.write(json.dumps({"id": page.id, "text": " ".join(words[: len(words) // 2])
                                     + " noise 噪音"}, ensure_ascii=False) + "\n")
        handle.write(json.dumps({"id": "not-a-page", "text": "x"}) + "\n")
    ours = evaluate_files(ds.path, pred, tokenizer)
    ref = reference.evaluate(reference.read_jsonl(ds.path / "gold.jsonl"),
                             reference.read_jsonl(pred), tokenizer)
    for key in ("pages", "precision", "recall", "f1", "missing", "extra"):
        assert getattr(ours, key) == ref[key], key
    assert [r["f1"] for r in ours.per_page] == [r["f1"] for r in ref["per_page"]]


def test_output_piped_into_a_reader_that_stops_ends_without_a_traceback(tmp_path):
    """``python -m extraction extract ... | head``: the reader goes away, the command ends
    quietly with a shell's SIGPIPE status instead of a BrokenPipeError traceback."""
    page = tmp_path / "page.html"
    page.write_text("<html><body><article>" + "<p>A paragraph of the article text.</p>" * 400
                    + "</article></body></html>", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "extraction", "extract"] + [str(page)] * 40,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()                     # the reader stops
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141 and b"Traceback" not in err


def test_review_odd_files_of_a_folder_cost_only_themselves(tmp_path, capsys, caplog):
    """Found by a review: a file name that is not UTF-8 crashed ``batch`` (no row written), a
    malformed siblings.jsonl gave a traceback, an unreadable sibling emptied its page, an
    output that cannot be written gave a traceback."""
    import os

    article = (PAGES / "article-en.html").read_bytes()
    folder = tmp_path / "in"
    (folder / "siblings").mkdir(parents=True)
    (folder / "good.html").write_bytes(article)
    latin1 = os.fsencode(folder) + b"/caf\xe9.html"
    with open(latin1, "wb") as handle:
        handle.write(article)
    (folder / "siblings.jsonl").write_text('{"id": "good", "siblings": ["gone.html"]}\n'
                                           '{"id": "good", "siblings": [\n[1, 2]\n')
    (folder / "siblings" / "gone.html").mkdir()        # unreadable as a file
    out = tmp_path / "pred.jsonl"
    assert main(["batch", "--input", str(folder), "--output", str(out), "--quiet",
                 "--with-reason"]) == 0
    rows = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert set(rows) == {"good", "caf\\xe9"}
    assert all("harvesting the tides" in r["text"] for r in rows.values())
    assert "siblings.jsonl: line 2 is not" in caplog.text and "line 3 is not" in caplog.text
    assert "sibling page of good not read" in caplog.text
    assert main(["batch", "--input", str(folder), "--output", str(folder / "good.html" / "o"),
                 "--quiet"]) == 2
    assert "cannot write" in capsys.readouterr().err
    row = subprocess.run([sys.executable, "-m", "extraction", "extract", "--json",
                          os.fsdecode(latin1)], capture_output=True, check=True,
                         env={**os.environ, "PYTHONIOENCODING": "utf-8"}).stdout
    assert json.loads(row.decode("utf-8"))["file"].endswith("caf\\xe9.html")


def _raw_warc_record(url: str | None, http: bytes) -> bytes:
    head = [b"WARC/1.1", b"WARC-Type: response", b"WARC-Record-ID: <urn:uuid:%s>"
            % str(random.random()).encode(), b"WARC-Date: 2024-01-01T00:00:00Z",
            b"Content-Type: application/http; msgtype=response",
            b"Content-Length: %d" % len(http)]
    if url is not None:
        head.insert(2, b"WARC-Target-URI: " + url.encode())
    return b"\r\n".join(head) + b"\r\n\r\n" + http + b"\r\n\r\n"


def test_review_warc_whole_file_gzip_odd_codings_and_a_record_without_url(tmp_path, capsys):
    """Found by a review: a WARC gzipped whole ("gzip crawl.warc") gave its first page only;
    "Transfer-Encoding: Chunked" left chunk sizes in the text and x-gzip lost the page; a
    response without WARC-Target-URI crashed the batch, losing the rows before it (and then,
    read as damage, the records after it)."""
    import gzip

    article = (PAGES / "article-en.html").read_bytes()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(article), article)

    def http(body: bytes, headers: bytes = b"Content-Type: text/html\r\n") -> bytes:
        return b"HTTP/1.1 200 OK\r\n" + headers + b"\r\n" + body

    records = [_raw_warc_record(f"http://a.test/{k}", http(article)) for k in range(3)]
    (tmp_path / "whole.warc.gz").write_bytes(gzip.compress(b"".join(records)))
    odd = [_raw_warc_record("http://a.test/x-gzip", http(gzip.compress(article),
           b"Content-Type: text/html\r\nContent-Encoding: x-gzip\r\n")),
           _raw_warc_record("http://a.test/Chunked", http(chunked,
           b"Content-Type: text/html\r\nTransfer-Encoding: Chunked\r\n")),
           _raw_warc_record(None, http(article)),
           _raw_warc_record("http://a.test/after", http(article))]
    (tmp_path / "odd.warc").write_bytes(b"".join(odd))
    for name, urls in (("whole.warc.gz", [f"http://a.test/{k}" for k in range(3)]),
                       ("odd.warc", ["http://a.test/x-gzip", "http://a.test/Chunked",
                                     "http://a.test/after"])):
        out = tmp_path / f"{name}.jsonl"
        assert main(["batch", "--input", str(tmp_path / name), "--output", str(out),
                     "--quiet"]) == 0
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [r["url"] for r in rows] == urls
        assert all(r["text"] == rows[0]["text"] and "harvesting the tides" in r["text"]
                   for r in rows)
    err = capsys.readouterr().err
    assert "1 response without WARC-Target-URI" in err and "damaged" not in err


def test_review_evaluate_names_a_malformed_prediction_row(tmp_path, capsys):
    (tmp_path / "gold.jsonl").write_text('{"id": "a", "text": "some words"}\n')
    for bad in ('{"text": "no id"}', '["a"]', '{"id": "a", "text": 5}'):
        (tmp_path / "pred.jsonl").write_text(bad + "\n")
        assert main(["evaluate", "--data", str(tmp_path), "--pred",
                     str(tmp_path / "pred.jsonl")]) == 2
        assert "pred.jsonl: row 1 is not" in capsys.readouterr().err


def test_review_an_arc_records_id_is_the_same_in_every_run(tmp_path):
    """warcio makes up a random WARC-Record-ID for an ARC record: the rows of one archive got
    other ids at every run (a review)."""
    article = (PAGES / "article-en.html").read_bytes()
    head = b"1 0 IA\nURL IP-address Archive-date Content-type Archive-length\n"
    arc = b"filedesc://t.arc 0.0.0.0 20240101000000 text/plain %d\n" % len(head) + head + b"\n"
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + article
    arc += b"http://arc.test/1 1.2.3.4 20240101000000 text/html %d\n" % len(block) + block + b"\n"
    (tmp_path / "t.arc").write_bytes(arc)
    ids = []
    for run in range(2):
        out = tmp_path / f"run{run}.jsonl"
        assert main(["batch", "--input", str(tmp_path / "t.arc"), "--output", str(out),
                     "--quiet"]) == 0
        row = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
        assert "harvesting the tides" in row["text"]
        ids.append(row["id"])
    assert ids[0] == ids[1] and ids[0].startswith("<arc:t.arc:")
    import os                           # an ARC file name that is not UTF-8 (a review)
    folder = tmp_path / "arcs"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/caf\xe9.arc", "wb") as handle:
        handle.write(arc)
    out = tmp_path / "latin1.jsonl"
    assert main(["batch", "--input", str(folder), "--output", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["id"].startswith("<arc:caf\\xe9.arc:")
