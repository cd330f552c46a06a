"""The pages written for the project (bench/extraction_unseen): well-formed, and every gold
token is text the page shows, so that a tool's score there measures the tool, not the data."""
from collections import Counter
from pathlib import Path

import pytest

from extraction.datasets import load
from extraction.document import TEXT, parse
from extraction.evaluation import tokens

UNSEEN = Path(__file__).resolve().parent.parent / "bench" / "extraction_unseen"
FOLDERS = sorted(d for d in UNSEEN.iterdir() if (d / "gold.jsonl").is_file())


def test_the_six_folders_hold_48_pages():
    assert [d.name for d in FOLDERS] == ["asia-rtl", "blog-docs-en", "europe", "forum-misc-en",
                                         "news-en", "zh"]
    assert sum(len(load(str(d)).pages) for d in FOLDERS) == 48


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda d: d.name)
def test_every_gold_token_is_shown_by_its_page(folder):
    for page in load(str(folder)).pages:
        assert page.gold and page.title and page.lang and page.url, page.id
        doc = parse(page.html(), page.url)
        shown = Counter(tokens(doc.text_of(doc.kind == TEXT)))
        missing = Counter(tokens(page.gold)) - shown
        assert not missing, (page.id, dict(list(missing.items())[:5]))
