"""The crawl report (crawler/report.py): figures from a crawl log."""
import json

from crawler.report import main, outcome, read_log, render, summarise


def _row(url, status=200, accepted=False, **fields):
    return {"url": url, "final_url": url, "status": status, "accepted": accepted, **fields}


ROWS = [
    _row("http://a.test/robots.txt", robots=True),
    _row("http://a.test/", relevance=0.5, on_topic=True, reason="hub page: 80% of its main "
         "text is link text"),
    _row("http://a.test/1", relevance=0.6, on_topic=True, accepted=True),
    _row("http://a.test/2", relevance=0.7, on_topic=True, reason="near duplicate of "
         "http://a.test/1"),
    _row("http://a.test/3", relevance=0.1, on_topic=False, reason="off topic"),
    _row("http://a.test/4", status=404, note="HTTP 404"),
    _row("http://b.test/x.pdf", note="not HTML"),
    _row("http://b.test/sitemap.xml", note="sitemap: 3 URLs, 2 queued"),
    _row("http://b.test/5", status=None, error="TimeoutError: took too long"),
    _row("http://b.test/6", relevance=0.9, on_topic=True, accepted=True),
]


def test_outcomes_statuses_harvest_and_hosts():
    report = summarise(ROWS, windows=3)
    assert report["fetches"] == 9                          # robots.txt is no fetch
    assert report["written"] == 2 and report["harvest"] == round(2 / 9, 3)
    assert report["judged"] == 5 and report["on_topic"] == 4
    assert report["outcomes"] == {"written": 2, "hub": 1, "duplicate": 1, "off topic": 1,
                                  "HTTP 404": 1, "not HTML": 1, "listing": 1, "error": 1}
    assert report["statuses"] == {"200": 7, "404": 1, "error": 1}
    assert [s["fetches"] for s in report["harvest_by_stretch"]] == ["1-3", "4-6", "7-9"]
    assert len(summarise(ROWS * 3, windows=10)["harvest_by_stretch"]) == 10   # 27 fetches
    assert len(summarise(ROWS[:3], windows=10)["harvest_by_stretch"]) == 2
    assert [s["written"] for s in report["harvest_by_stretch"]] == [1, 0, 1]
    assert report["hosts"]["busiest"] == [
        {"host": "a.test", "fetches": 5, "written": 1, "harvest": 0.2},
        {"host": "b.test", "fetches": 4, "written": 1, "harvest": 0.25}]
    text = render(report, {"crawl/stop_reason": "frontier empty"})
    assert "last run: crawl/stop_reason: frontier empty" in text
    assert "| duplicate | 1 | 11.1% |" in text
    assert outcome({"reason": "short: 12 characters of main text (< 200)"}) == "short"
    assert summarise([])["fetches"] == 0 and "fetches: 0" in render(summarise([]))


def test_cli_reads_a_corpus_dir_with_a_torn_last_line(tmp_path, capsys):
    log = tmp_path / "crawl-log.jsonl"
    # odd lines: not objects, and a last line torn inside a character (the log is UTF-8)
    torn = json.dumps({"url": "http://a.test/7", "title": "风电"}, ensure_ascii=False)
    log.write_bytes(("".join(json.dumps(r) + "\n" for r in ROWS) + "[1, 2]\nnull\n\n"
                     ).encode() + torn.encode("utf-8")[:-4])
    (tmp_path / "crawl-summary.json").write_text(json.dumps({"elapsed_time_seconds": 3.5}))
    assert len(read_log(log)) == len(ROWS)
    assert main([str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["written"] == 2 and printed["stats"] == {"elapsed_time_seconds": 3.5}
    assert main([str(log)]) == 0
    assert "harvest: 0.222" in capsys.readouterr().out
    assert main([str(tmp_path / "nowhere")]) == 2

