"""The relevance filter on the project's pages in fifteen other languages
(``bench/relevance_languages.py``; topic files written before the pages)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "relevance_languages.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("relevance_languages", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_every_language_keeps_its_on_topic_pages():
    bench = load_bench()
    langs = bench.languages()
    assert {"de", "fr", "es", "pl", "ru", "ja", "ko", "th", "km", "my", "tr"} <= set(langs)
    results = bench.run(langs)
    assert len(results) == 3 * len(langs)
    for lang in langs:
        pages = bench.read_pages(lang)
        assert len(pages) == 11 and {p.label for p in pages} == {"it", "music", "science",
                                                                 "other"}
        precision, recall, f1 = bench.f1([r for r in results if r.lang == lang])
        # before stemming, stop words and Japanese segmentation: Japanese and Polish 0.800,
        # Russian and Swedish 0.875; Thai 0.364 before its segmenter, Khmer 0.750 and
        # Burmese 0.800 before their syllables
        assert f1 >= 0.9, (lang, precision, recall)
    assert bench.f1(results)[2] >= 0.97


def test_the_hard_set_keeps_its_measured_level():
    """The harder set (hard negatives, on-topic pages in unlisted vocabulary): F1 0.644 before
    the per-language rules, 0.743 with them; Thai (added with its segmenter) 0.000 before it,
    0.750 with it (README)."""
    bench = load_bench()
    data = BENCH.parent / "languages_hard"
    results = bench.run(bench.languages(data), data=data)
    assert len(results) == 21
    precision, recall, f1 = bench.f1(results)
    assert recall >= 0.7 and f1 >= 0.72, (precision, recall)
