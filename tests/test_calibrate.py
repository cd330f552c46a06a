"""crawler.calibrate: re-judging a crawl log's pages at other thresholds."""
import json

import pytest

from crawler.calibrate import judged_pages, main, read_labels, report, threshold_table


def log_lines():
    rows = [
        {"url": "http://a.test/", "final_url": "http://a.test/", "status": 200,
         "relevance": 0.05, "title": "Home"},
        {"url": "http://a.test/r", "final_url": "http://a.test/x", "status": 200,
         "relevance": 0.31, "title": "Solar panels"},
        {"url": "http://a.test/x", "final_url": "http://a.test/x", "status": 200,
         "relevance": 0.31, "title": "Solar panels"},           # same page again: once
        {"url": "http://a.test/y", "final_url": "http://a.test/y", "status": 200,
         "relevance": 0.18, "title": "Wind turbines"},
        {"url": "http://a.test/z", "final_url": "http://a.test/z", "status": 200,
         "relevance": 0.22, "title": "Cooking"},
        {"url": "http://a.test/gone", "final_url": "http://a.test/gone", "status": 404,
         "relevance": None},                                     # not judged
    ]
    return [json.dumps(r) for r in rows] + ["not json", "[1, 2]", ""]


def test_pages_and_thresholds_against_labels(tmp_path):
    pages = judged_pages(log_lines())
    assert [p.url for p in pages] == ["http://a.test/", "http://a.test/x", "http://a.test/y",
                                      "http://a.test/z"]
    labels = tmp_path / "labels.csv"
    labels.write_text("url,subjects\nhttp://a.test/x,subject.Energy.Solar\n"
                      "http://a.test/y,subject.Energy;subject.Weather\n"
                      "http://a.test/z,subject.Food\nhttp://a.test/,\n", encoding="utf-8")
    positives = read_labels(labels, "subject.Energy")
    assert positives == {"http://a.test/x", "http://a.test/y"}
    at_02, at_015 = threshold_table(pages, [0.2, 0.15], positives)
    assert (at_02["accepted"], at_02["precision"], at_02["recall"]) == (2, 0.5, 0.5)
    assert (at_015["accepted"], at_015["precision"], at_015["recall"]) == (3, 2 / 3, 1.0)
    assert at_015["f1"] == pytest.approx(0.8)
    text = report(pages, 0.2, positives, samples=2)
    below = text.split("just below 0.2 (rejected):")[1].split("just above")[0]
    above = text.split("just above 0.2 (accepted):")[1]
    assert "Wind turbines" in below and "Cooking" not in below
    assert "Cooking" in above and "Wind turbines" not in above
    assert "| 0.15 | 3 | 0.750 | 0.667 | 1.000 | 0.800 |" in text


def test_command_line(tmp_path, capsys):
    log = tmp_path / "crawl-log.jsonl"
    log.write_text("\n".join(log_lines()) + "\n", encoding="utf-8")
    topic = tmp_path / "t.toml"
    topic.write_text('name = "energy"\nthreshold = 0.3\n[features]\nterms = ["solar"]\n',
                     encoding="utf-8")
    assert main([str(log), "--topic", str(topic)]) == 0
    assert "at the current threshold 0.3: 1 on topic" in capsys.readouterr().out
    # the corpus folder, as crawler.report takes it ("Is a directory" before)
    assert main([str(tmp_path), "--topic", str(topic)]) == 0
    assert "at the current threshold 0.3: 1 on topic" in capsys.readouterr().out
    assert main([str(tmp_path / "missing.jsonl")]) == 2
    assert "No such file" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main([str(empty)]) == 0
    assert "no judged page" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(log), "--labels", str(tmp_path / "l.csv")])      # --prefix missing


def test_edges_nan_and_bom(tmp_path, capsys):
    from crawler.calibrate import JudgedPage, histogram
    pages = [JudgedPage(f"http://a.test/{k}", r, "") for k, r in enumerate((0.15, 0.3, 0.35))]
    bins = dict(histogram(pages))
    assert bins[0.15] == bins[0.3] == bins[0.35] == 1           # each in the bin it starts
    text = report(pages, 0.3)
    assert text.count("<- threshold") == 1
    assert [line for line in text.splitlines() if "<- threshold" in line][0].startswith("0.300")
    assert judged_pages(['{"url": "http://a.test/n", "relevance": NaN}']) == []
    labels = tmp_path / "labels.csv"
    labels.write_text("\ufeffurl,subjects\nhttp://a.test/x,subject.Energy\n", encoding="utf-8")
    assert read_labels(labels, "subject.Energy") == {"http://a.test/x"}
    latin = tmp_path / "latin.csv"
    latin.write_bytes("url,subjects\nhttp://a.test/\xe9,subject.Energy\n".encode("latin-1"))
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(log_lines()), encoding="utf-8")
    assert main([str(log), "--labels", str(latin), "--prefix", "subject.Energy"]) == 2
    assert "error:" in capsys.readouterr().err


def test_automatic_threshold_in_the_report(tmp_path, capsys):
    import numpy as np

    rng = np.random.default_rng(1)     # 600 off-topic pages near 0.05, 400 on-topic near 0.16
    scores = np.concatenate([rng.normal(0.05, 0.025, 600), rng.normal(0.16, 0.03, 400)])
    log = tmp_path / "crawl-log.jsonl"
    log.write_text("".join(json.dumps({"url": f"http://a.test/{k}", "final_url":
                                       f"http://a.test/{k}", "status": 200,
                                       "relevance": float(max(0.0, s)), "title": str(k)}) + "\n"
                           for k, s in enumerate(scores)), encoding="utf-8")
    assert main([str(log)]) == 0
    out = capsys.readouterr().out
    assert "at the current threshold 0.2:" in out
    rule = out.split("the automatic threshold's rule on these pages: ")[1].split(" ")[0]
    assert 0.08 < float(rule) < 0.14, out.splitlines()[1]
    # a crawl that ran with the automatic threshold: its final value is the current one
    (tmp_path / "crawl-summary.json").write_text(json.dumps({"relevance/threshold": 0.115}),
                                                 encoding="utf-8")
    assert main([str(log)]) == 0
    assert "at the current threshold 0.115:" in capsys.readouterr().out
    for bad in ("nan", "inf", "-0.5"):                      # a traceback before
        assert main([str(log), "--threshold", bad]) == 2
        assert "is not a number from 0 to 1" in capsys.readouterr().err
    (tmp_path / "crawl-summary.json").write_text(json.dumps({"relevance/threshold": "0.2x"}),
                                                 encoding="utf-8")
    assert main([str(log)]) == 2
    assert "error: could not convert string to float" in capsys.readouterr().err
