"""The pages written for the project (bench/extraction_unseen, bench/extraction_heldout,
bench/extraction_heldout2):
well-formed, and every gold token is text the page shows, so that a tool's score there
measures the tool, not the data."""
from collections import Counter
from pathlib import Path

import pytest

from extraction.datasets import load
from extraction.document import TEXT, parse
from extraction.evaluation import tokens

BENCH = Path(__file__).resolve().parent.parent / "bench"
UNSEEN, HELDOUT = BENCH / "extraction_unseen", BENCH / "extraction_heldout"
HELDOUT2 = BENCH / "extraction_heldout2"
FOLDERS = sorted(d for top in (UNSEEN, HELDOUT, HELDOUT2) for d in top.iterdir()
                 if (d / "gold.jsonl").is_file())


def test_the_folders_hold_72_24_and_24_pages():
    unseen = [d for d in FOLDERS if d.parent == UNSEEN]
    heldout = [d for d in FOLDERS if d.parent == HELDOUT]
    heldout2 = [d for d in FOLDERS if d.parent == HELDOUT2]
    assert [d.name for d in unseen] == ["asia-rtl", "blog-docs-en", "europe", "forum-misc-en",
                                        "news-en", "reference", "threads", "types", "zh"]
    assert [d.name for d in heldout] == ["cjk", "mixed-en", "world"]
    assert [d.name for d in heldout2] == ["en-web", "threads", "world2"]
    assert sum(len(load(str(d)).pages) for d in unseen) == 72
    assert sum(len(load(str(d)).pages) for d in heldout) == 24
    assert sum(len(load(str(d)).pages) for d in heldout2) == 24


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda d: d.name)
def test_every_gold_token_is_shown_by_its_page(folder):
    for page in load(str(folder)).pages:
        assert page.gold and page.title and page.lang and page.url, page.id
        doc = parse(page.html(), page.url)
        shown = Counter(tokens(doc.text_of(doc.kind == TEXT)))
        missing = Counter(tokens(page.gold)) - shown
        assert not missing, (page.id, dict(list(missing.items())[:5]))
