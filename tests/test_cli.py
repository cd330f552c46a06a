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


def test_unknown_method_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        main(["extract", str(PAGES / "article-en.html"), "--method", "nope"])
    assert "unknown extraction method" in capsys.readouterr().err


def test_a_missing_sibling_file_is_a_message_not_a_traceback(tmp_path, capsys):
    missing = tmp_path / "missing.html"
    assert main(["extract", str(PAGES / "article-en.html"), "--siblings", str(missing)]) == 2
    assert capsys.readouterr().err == f"{missing}: cannot read sibling page: No such file or " \
        "directory\n"


def test_batch_never_aborts_on_a_bad_page(tmp_path):
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
