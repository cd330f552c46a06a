"""The automatic lowering of a default relevance threshold (crawler/relevance/threshold.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from crawler.relevance.threshold import (
    FLOOR,
    MIN_PAGES,
    AutoThreshold,
    valley_threshold,
)
from crawler.relevance.topic import Topic, load_topic
from crawler.state import CrawlState

TOPICS = Path(__file__).resolve().parent.parent / "settings" / "topics"


def mixture(n_off: int, off: float, n_on: int, on: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(np.concatenate([rng.normal(off, 0.025, n_off),
                                   rng.normal(on, 0.03, n_on)]), 0, 1)


def test_a_threshold_above_the_upper_mode_moves_to_the_valley():
    est = valley_threshold(mixture(600, 0.05, 400, 0.16), 0.2)
    assert est.peaks is not None and est.peaks[1] < 0.2
    assert 0.08 < est.value < 0.14, est
    assert est.value == est.valley


def test_an_off_topic_mode_at_exactly_zero_is_a_mode():
    """Pages with no topic concept score exactly 0: that mode is the density's first point,
    which only interior maxima counted, so the rule said "one mode" (a review)."""
    rng = np.random.default_rng(1)
    scores = np.concatenate([np.zeros(500), np.clip(rng.normal(0.14, 0.03, 500), 0, 1)])
    est = valley_threshold(scores, 0.2)
    assert est.peaks is not None and est.peaks[0] == 0.0 and est.value < 0.2, est


def test_a_threshold_below_the_upper_mode_stays():
    est = valley_threshold(mixture(600, 0.05, 400, 0.30), 0.2)
    assert est.value == 0.2 and est.valley is not None and "upper mode" in est.reason


def test_a_tail_is_not_a_second_mode():
    scores = mixture(950, 0.04, 50, 0.16)
    est = valley_threshold(scores, 0.2)
    assert est.value == 0.2, est


def test_too_few_pages_keep_the_default():
    assert valley_threshold(mixture(150, 0.05, 100, 0.16), 0.2).value == 0.2
    assert valley_threshold([], 0.2).value == 0.2
    assert valley_threshold([0.1] * 500, 0.2).value == 0.2      # one value, one mode
    for end in (0.0, 1.0):          # one mode at an end of the grid
        assert valley_threshold([end] * 500, 0.2).value == 0.2


def test_never_below_the_floor():
    est = valley_threshold(mixture(600, 0.02, 400, 0.11), 0.2)
    assert est.value == pytest.approx(FLOOR * 0.2)


def test_auto_threshold_checks_every_hundred_pages_and_round_trips():
    auto = AutoThreshold(0.2)
    changes = [(i, c) for i, s in enumerate(mixture(600, 0.05, 400, 0.16))
               if (c := auto.observe(s)) is not None]
    assert changes and changes[0][0] + 1 >= MIN_PAGES
    assert all((i + 1 - MIN_PAGES) % 100 == 0 for i, _ in changes)
    assert auto.value < 0.2
    again = AutoThreshold(0.2)
    again.load(json.loads(json.dumps(auto.to_dict())))
    assert again.value == auto.value and again.scores == auto.scores
    other = AutoThreshold(0.3)          # another default: scores kept, threshold re-estimated
    other.load(auto.to_dict())
    assert other.value == 0.3 and len(other.scores) == len(auto.scores)
    for bad in ({}, {"version": 2}, {"version": 1, "scores": "x", "base": 0.2},
                {"version": 1, "scores": [], "base": None, "value": 0.1}):
        with pytest.raises(ValueError):
            AutoThreshold(0.2).load(bad)


def test_state_enables_it_only_for_a_default_threshold(tmp_path):
    topic = load_topic(TOPICS / "people.toml")
    assert CrawlState.open(tmp_path / "a", topic, auto_threshold=True).auto_threshold
    assert CrawlState.open(tmp_path / "b", topic, auto_threshold=False).auto_threshold is None
    assert CrawlState.open(tmp_path / "c", topic, threshold=0.2,
                           auto_threshold=True).auto_threshold is None
    explicit = Topic(**{**topic.__dict__, "threshold": 0.2})
    assert CrawlState.open(tmp_path / "d", explicit, auto_threshold=True).auto_threshold is None


def test_state_resumes_its_threshold(tmp_path):
    topic = load_topic(TOPICS / "people.toml")
    state = CrawlState.open(tmp_path, topic, auto_threshold=True)
    for s in mixture(600, 0.05, 400, 0.16):
        state.auto_threshold.observe(s)
    state.set_threshold(state.auto_threshold.value)
    state.save()
    again = CrawlState.open(tmp_path, topic, auto_threshold=True)
    assert again.relevance.threshold == state.relevance.threshold < 0.2
    assert again.scorer.threshold == state.relevance.threshold
    (tmp_path / "threshold.json").write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="threshold.json"):
        CrawlState.open(tmp_path, topic, auto_threshold=True)


# ---------------------------------------------------------------- real pages of the test web
def judge(web, host: str, topic: str, label: str, tmp_path: Path, pages: int = 500):
    """Judge the first ``pages`` articles of ``host`` with the automatic threshold on; returns
    the state and (score, is target) per page."""
    from extraction import extract_document, parse

    state = CrawlState.open(tmp_path, load_topic(TOPICS / f"{topic}.toml"), auto_threshold=True)
    seen = []
    for url, rec in web.records.items():
        if len(seen) == pages:
            break
        if f"//{host}/wp/" not in url or rec.status != 200:
            continue
        doc = parse(rec.body, url)
        relevance, _ = state.judge_relevance(doc, extract_document(doc).text, url)
        targets = web.labels.get(url, [])
        seen.append((relevance.score, any(s.startswith(label) for s in targets)))
    return state, seen


def f1(seen, threshold: float) -> float:
    tp = sum(1 for s, y in seen if s >= threshold and y)
    fp = sum(1 for s, y in seen if s >= threshold and not y)
    fn = sum(1 for s, y in seen if s < threshold and y)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


@pytest.mark.shared
def test_people_pages_lower_the_threshold_and_gain_f1(wikischools, tmp_path):
    # the People file's words are common ones: its biographies score 0.1-0.25
    state, seen = judge(wikischools, "hum.wikischools.test", "people", "subject.People", tmp_path)
    new = state.relevance.threshold
    assert new < 0.2 and state.scorer.threshold == new
    assert f1(seen, new) > f1(seen, 0.2) + 0.1, (new, f1(seen, new), f1(seen, 0.2))


@pytest.mark.shared
def test_it_pages_keep_the_default(wikischools, tmp_path):
    # few IT pages among the science site's articles: no second mode below 0.2
    state, _ = judge(wikischools, "sci.wikischools.test", "information-technology", "subject.IT",
                     tmp_path)
    assert state.relevance.threshold == 0.2
    assert state.auto_threshold.last is not None


def test_binned_density_of_a_long_crawl_matches_the_exact_one(monkeypatch):
    from crawler.relevance import threshold

    scores = mixture(3000, 0.05, 2000, 0.16, seed=3)
    binned = valley_threshold(scores, 0.2)
    monkeypatch.setattr(threshold, "BIN_ABOVE", 10**9)
    exact = valley_threshold(scores, 0.2)
    assert binned.value == exact.value and binned.peaks == exact.peaks
    assert binned.ratio == pytest.approx(exact.ratio, abs=0.01)


def test_a_long_crawl_keeps_counts_not_scores_and_round_trips(tmp_path):
    from crawler.relevance.threshold import BIN_ABOVE

    scores = mixture(3000, 0.05, 2000, 0.16, seed=5)
    auto, kept = AutoThreshold(0.2), AutoThreshold(0.2)
    for s in scores:
        auto.observe(s)
    assert auto.judged == len(scores) and auto.scores == [] and auto.counts.sum() == len(scores)
    # the same decision as the rule on every score at once
    assert auto.value == valley_threshold(scores, 0.2).value < 0.2
    data = json.loads(json.dumps(auto.to_dict()))
    assert "scores" not in data and len(data["bins"]["counts"]) <= 1000
    kept.load(data)
    assert kept.judged == auto.judged and kept.value == auto.value
    assert (kept.counts == auto.counts).all() and kept.estimate() == auto.estimate()
    # a version-1 file (every score) of a long crawl is read into counts
    old = AutoThreshold(0.2)
    old.load({"version": 1, "base": 0.2, "value": auto.value, "scores": scores.tolist()})
    assert old.judged == len(scores) > BIN_ABOVE and old.estimate().value == auto.value
    for bad in ({**data, "bins": {"width": 0.01, "counts": {}}},
                {**data, "bins": {"width": 0.001, "counts": {"1000": 3}}}):
        with pytest.raises(ValueError):
            AutoThreshold(0.2).load(bad)


@pytest.mark.parametrize("weighted", [False, True])
def test_kernel_density_is_scipys_gaussian_kde(weighted):
    """The numpy density equals scipy.stats.gaussian_kde at bw_method = bandwidth / spread
    (what the rule used before; scipy is no longer imported by the crawler)."""
    from scipy.stats import gaussian_kde

    from crawler.relevance.threshold import BANDWIDTH, GRID, kernel_density

    rng = np.random.default_rng(7)
    points = np.concatenate([rng.normal(0.05, 0.03, 400), rng.normal(0.3, 0.05, 150)])
    weights = rng.integers(1, 40, len(points)).astype(float) if weighted else None
    w = np.ones(len(points)) if weights is None else weights
    mean = np.average(points, weights=w)
    spread = np.sqrt(np.average((points - mean) ** 2, weights=w))
    expected = gaussian_kde(points, bw_method=BANDWIDTH / spread, weights=weights)(GRID)
    assert np.allclose(kernel_density(points, weights), expected, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="two points"):
        kernel_density(points[:1])
