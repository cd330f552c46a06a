"""E2 (ALGORITHMS.md §2): worked scores, block assignment, PSO and the trained parameters."""
import numpy as np
import pytest

from extraction import extract
from extraction.document import parse
from extraction.methods.pso_blocks import PAPER_PARAMS, combo_scores, extract_e2, pre_block
from extraction.training.e2 import combo_probability_matrix, fitness, pso


def _score(length=0, punct=0, nbsp=0, bold=0, br=0):
    iv = (0 if length <= 10 else 1 if length < 14 else 2, int(punct >= 1), int(nbsp >= 1),
          int(bold >= 1), int(br >= 1))
    combo = (((iv[0] * 2 + iv[1]) * 2 + iv[2]) * 2 + iv[3]) * 2 + iv[4]
    return combo_scores(PAPER_PARAMS)[combo]


def test_worked_scores_of_the_paper_values():
    assert _score() == pytest.approx(0.2818, abs=1e-4)
    assert _score(br=1) == pytest.approx(0.3194, abs=1e-4)
    assert _score(length=12) == pytest.approx(0.3553, abs=1e-4)
    assert _score(length=20) == pytest.approx(0.3930, abs=1e-4)
    assert _score(length=20, punct=1, nbsp=1, bold=1, br=1) == pytest.approx(0.8927, abs=1e-4)
    # exactly one of the 48 combinations is noise, the all-lowest one
    assert (combo_scores(PAPER_PARAMS) <= PAPER_PARAMS["epsilon"]).sum() == 1


def test_interval_boundary_ten_is_in_the_first_interval():
    assert _score(length=10) == _score(length=0)
    assert _score(length=11) == _score(length=13) != _score(length=14)


def test_block_assignment_nearest_block_tag():
    doc = parse("<body><div>a<p>b</p>c</div></body>")
    blocks = pre_block(doc)
    div, p = doc.find("div"), doc.find("p")
    assert sorted(blocks.ids.tolist()) == [div, p]
    feats = dict(zip(blocks.ids.tolist(), blocks.features[:, 0].tolist()))
    assert feats[div] == 2 and feats[p] == 1   # "a" + "c" in the div, "b" in the p


def test_counts_of_nbsp_bold_and_br_belong_to_the_nearest_block():
    doc = parse("<body><div><p>x&nbsp;y <b>bold</b><br>z, w.</p><b>out</b></div></body>")
    blocks = pre_block(doc)
    feats = dict(zip(blocks.ids.tolist(), blocks.features.tolist()))
    p, div = doc.find("p"), doc.find("div")
    assert feats[p][1:] == [2, 1, 1, 1]    # punctuation , and . ; one nbsp; one <b>; one <br>
    assert feats[div][3] == 1


def test_form_is_removed_literally_and_unwrapped_by_option():
    text = "Article text with punctuation, full stops. " * 5
    html = f"<body><form><div><p>{text}</p></div></form></body>"
    assert extract(html, method="e2").text == ""
    assert "Article text" in extract(html, method="e2", unwrap_form=True).text


def test_pso_reaches_f1_on_a_set_separable_by_punctuation_only():
    # content and noise blocks differ only in t2 (punctuation): the best F-score is 1.0
    probs = [[0.5, 0.5, 0.5], [0.1, 0.9], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]
    pmat = combo_probability_matrix(probs)
    pos, neg = np.zeros(48), np.zeros(48)
    with_punct = (((2 * 2 + 1) * 2) * 2) * 2      # length >= 14, punctuation, nothing else
    without = (((2 * 2 + 0) * 2) * 2) * 2
    pos[with_punct], neg[without] = 1000.0, 800.0
    weights, eps, best = pso(pmat, pos, neg, m=30, e=60, seed=1)
    assert best == pytest.approx(1.0)
    assert fitness(np.array([list(weights) + [eps]]), pmat, pos, neg)[0] == pytest.approx(1.0)


def test_trained_parameters_are_shipped_and_used():
    doc = parse("<body><div><p>Some text of an article, with punctuation.</p></div></body>")
    paper = extract_e2(doc)
    trained = extract_e2(doc, params="trained")
    assert paper.info["params"].startswith("paper")
    assert trained.info["params"].startswith("trained by PSO")


@pytest.mark.shared
def test_e2_on_a_real_chinese_page(extraction_data):
    page = extraction_data / "zh-wce-dev" / "zh0d931936d510.html"
    result = extract(page.read_bytes(), method="e2")
    assert "孙启勤" in result.text
