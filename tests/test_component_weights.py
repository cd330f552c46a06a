"""The link score's self-tuning component weights (crawler.component_weights)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from crawler.component_weights import ComponentWeights
from crawler.link_scoring import WEIGHTS, LinkScorer
from crawler.links import Link

DEFAULTS = {"site": 0.25, "anchor": 0.25, "parent": 0.5}


def feed(tuning: ComponentWeights, n: int, seed: int = 1) -> None:
    """n judged fetches: the site predicts the verdict, the anchor is noise, the parent
    points the wrong way."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        worth = bool(rng.integers(2))
        tuning.observe({"site": 0.8 if worth else 0.2, "anchor": float(rng.random()),
                        "parent": 0.3 if worth else 0.7}, worth)


def test_weights_stay_at_the_defaults_until_enough_fetches_are_judged():
    tuning = ComponentWeights(DEFAULTS, min_judged=50)
    feed(tuning, 49)
    assert tuning.current == pytest.approx(DEFAULTS)


def test_weights_move_towards_the_components_that_predict_the_verdict():
    tuning = ComponentWeights(DEFAULTS, min_judged=50, prior=100)
    feed(tuning, 400)
    w = tuning.current
    assert sum(w.values()) == pytest.approx(1.0)
    r = tuning.correlations()
    assert r[0] == pytest.approx(1.0) and r[2] == pytest.approx(-1.0) and abs(r[1]) < 0.2
    a = 400 / 500
    # the parent (negative correlation) keeps only its default's share
    assert w["parent"] == pytest.approx((1 - a) * 0.5)
    assert w["site"] > 0.25 + 0.5 * a and w["site"] > w["anchor"]


def test_constant_verdicts_keep_the_defaults():
    tuning = ComponentWeights(DEFAULTS, min_judged=5)
    for _ in range(20):
        tuning.observe({"site": 0.9, "anchor": 0.1, "parent": 0.5}, True)
    assert tuning.current == pytest.approx(DEFAULTS)


def test_round_trip_and_bad_state_files():
    tuning = ComponentWeights(DEFAULTS)
    feed(tuning, 120)
    again = ComponentWeights(DEFAULTS)
    again.load(json.loads(json.dumps(tuning.to_dict())))
    assert again.current == pytest.approx(tuning.current) and again.n == 120
    other = ComponentWeights({"site": 1.0, "url": 1.0})
    with pytest.raises(ValueError, match="components"):
        other.load(tuning.to_dict())
    for bad in ({"version": 2}, {"version": 1, "keys": ["site", "anchor", "parent"]},
                {**tuning.to_dict(), "sum_x": [1.0]}):
        with pytest.raises(ValueError):
            ComponentWeights(DEFAULTS).load(bad)


def test_link_scorer_feedback_tunes_the_prior_and_a_restart_keeps_it(tmp_path):
    from crawler.relevance.topic import load_topic
    from crawler.state import CrawlState

    topic = load_topic(Path(__file__).parent.parent / "settings" / "topics" / "music.toml")
    state = CrawlState.open(tmp_path, topic)
    scorer: LinkScorer = state.scorer
    assert scorer.weights == pytest.approx({k: v / sum(WEIGHTS.values())
                                            for k, v in WEIGHTS.items()})
    for k in range(200):            # links of the productive host lead to accepted pages
        good = k % 2 == 0
        host = "good" if good else "dull"
        link = Link(f"http://{host}.test/p{k}.htm")
        scored = scorer.score([link], parent_relevance=0.2, depth=1)[0]
        scorer.feedback(link.url, scored.features, scored.components, good)
    tuned = scorer.weights
    assert tuned["site"] > WEIGHTS["site"] / sum(WEIGHTS.values())
    state.save()
    again = CrawlState.open(tmp_path, topic)
    assert again.scorer.weights == pytest.approx(tuned)
    (tmp_path / "component_weights.json").write_text('{"version": 1, "keys": []}')
    with pytest.raises(ValueError, match="component_weights.json"):
        CrawlState.open(tmp_path, topic)


def test_learned_share_follows_the_better_predictor():
    from crawler.component_weights import LearnedShare

    rng = np.random.default_rng(7)
    towards_learned, towards_prior = LearnedShare(0.5, cap=0.9), LearnedShare(0.5, cap=0.9)
    for _ in range(3000):
        worth = bool(rng.integers(2))
        sharp, blunt = (0.9 if worth else 0.1), float(rng.uniform(0.3, 0.7))
        towards_learned.observe(prior=blunt, learned=sharp, worth=worth)
        towards_prior.observe(prior=sharp, learned=blunt, worth=worth)
    assert towards_learned.value == pytest.approx(0.9)          # the cap: the prior keeps 0.1
    assert towards_prior.value < 0.1
    again = LearnedShare(0.5, cap=0.9)
    again.load(json.loads(json.dumps(towards_prior.to_dict())))
    assert again.value == towards_prior.value and again.n == 3000
    for bad in ({"version": 1}, {"version": 1, "value": 3.0, "n": 1}, {"version": 9}):
        with pytest.raises(ValueError):
            LearnedShare(0.5).load(bad)
