"""E4 (ALGORITHMS.md §4): the test hints of §4.8, the c-3 nesting rule, the model file."""
import json

import numpy as np
import pytest

from extraction import extract
from extraction.document import parse
from extraction.evaluation import prf, tokens
from extraction.methods.incremental_clustering import (
    ACCEPT, MODEL_PATH, E4Model, IncrementalKMeans, choose_k, cluster_stats, extract_e4,
    load_model, membership, node_features, paragraph_counts, preprocess, select_body)


def blob(rng, centre, n, scale=1.0):
    return rng.normal(size=(n, len(centre))) * scale + np.asarray(centre, dtype=float)


# Three well-separated centres (equilateral triangle, side 40) in the 5-D feature space.
A, B, C = (0, 0, 0, 0, 0), (40, 0, 0, 0, 0), (20, 34.64, 0, 0, 0)


# ------------------------------------------------------------------ §4.3 statistics and k
def test_cluster_statistics_reconstructions():
    X = np.array([[0.0, 0], [2, 0], [10, 0], [10, 4]])
    st = cluster_stats(X, np.array([0, 0, 1, 1]), 2)
    assert np.allclose(st.centres, [[1, 0], [10, 2]])
    assert np.allclose(st.dbar, [1.0, 2.0])                  # Definition 6
    assert st.Dbar == pytest.approx(np.hypot(9, 2))          # Definition 7
    assert np.allclose(st.density, [2.0, 1.0])               # Definition 8: n_i / d_i
    assert st.s == pytest.approx(np.hypot(9, 2) / 2) and st.f == pytest.approx(1.5)
    # a singleton cluster has d_i = 0: that clustering is rejected
    assert cluster_stats(X, np.array([0, 0, 0, 1]), 2) is None


@pytest.mark.parametrize("validity", ["product", "sum"])
def test_two_blobs_choose_k_2(validity):
    rng = np.random.default_rng(1)
    X = np.vstack([blob(rng, A, 60), blob(rng, B, 60)])
    st, values = choose_k(X, validity=validity)
    assert st.k == 2 and sorted(st.sizes.tolist()) == [60, 60]
    assert max(values, key=values.get) == 2 and len(values) > 3
    assert IncrementalKMeans(validity=validity).fit(X).k == 2


def test_three_blobs_choose_k_3():
    rng = np.random.default_rng(2)
    X = np.vstack([blob(rng, A, 50), blob(rng, B, 50), blob(rng, C, 50)])
    assert choose_k(X)[0].k == 3


# ------------------------------------------------------------------ §4.4 membership
@pytest.mark.parametrize("factor, accepted_a, accepted_b",
                         [(0.9, True, True), (1.5, False, True), (2.5, False, False)])
def test_membership_readings_at_multiples_of_dbar(factor, accepted_a, accepted_b):
    centres, dbar = np.array([[1.0, 2, 3, 4, 5], [100, 100, 100, 100, 100]]), np.array([2.0, 3])
    direction = np.array([3.0, 0, 4, 0, 0]) / 5
    point = centres[0] + factor * dbar[0] * direction
    ga = membership(point, centres, dbar, "A")[0]
    gb = membership(point, centres, dbar, "B")[0]
    assert ga[0] == pytest.approx(1 / (1 + factor)) and gb[0] == pytest.approx(1 / factor)
    assert (ga.max() >= ACCEPT) == accepted_a and (gb.max() >= ACCEPT) == accepted_b
    assert np.argmax(ga) == 0


def test_membership_at_centre_and_zero_dbar():
    g = membership([[0.0, 0], [5, 5]], [[0.0, 0], [5, 5]], [1.0, 0.0], "B")
    assert g[0, 0] == np.inf and g[1, 1] == 0.0            # d_i = 0: cluster ignored
    assert membership([[0.0, 0]], [[0.0, 0]], [1.0], "A")[0, 0] == 1.0


# ------------------------------------------------------------------ §4.5 incremental
def two_blob_model(rng, **kw):
    return IncrementalKMeans(**kw).fit(np.vstack([blob(rng, A, 50), blob(rng, B, 50)]))


def test_third_blob_triggers_exactly_one_reclustering_then_k_3():
    rng = np.random.default_rng(3)
    m = two_blob_model(rng)
    assert m.k == 2 and m.n_reclusters == 1
    status = m.add_many(blob(rng, C, m.buffer_limit + 1))
    assert status[:-1] == ["buffered"] * m.buffer_limit and status[-1] == "reclustered"
    assert m.n_reclusters == 2 and m.k == 3 and m.buffer == []
    assert sorted(m.sizes.tolist()) == [50, 50, 51] and len(m.samples) == 151


@pytest.mark.parametrize("recluster_k", ["select", "increment"])
def test_fewer_than_limit_points_only_wait(recluster_k):
    rng = np.random.default_rng(4)
    m = two_blob_model(rng, recluster_k=recluster_k)
    assert set(m.add_many(blob(rng, C, m.buffer_limit))) == {"buffered"}
    assert m.k == 2 and m.n_reclusters == 1 and len(m.buffer) == m.buffer_limit
    assert m.add(blob(rng, C, 1)[0]) == "reclustered" and m.k == 3


def test_reclustering_needs_more_than_limit_unassignable_samples():
    rng = np.random.default_rng(9)
    m = two_blob_model(rng)
    m.add_many(blob(rng, C, m.buffer_limit - 1))
    assert m.add(blob(rng, A, 1, scale=0.3)[0]) == "buffered"   # limit samples: no check yet
    assert m.add(blob(rng, C, 1)[0]) == "checked"              # A joins, limit C points wait
    assert len(m.buffer) == m.buffer_limit and m.n_reclusters == 1 and m.n_assigned == 1
    assert m.add(blob(rng, C, 1)[0]) == "reclustered" and m.k == 3


@pytest.mark.parametrize("dbar_update", ["frozen", "running"])
def test_members_join_without_moving_the_centre(dbar_update):
    rng = np.random.default_rng(5)
    m = two_blob_model(rng, dbar_update=dbar_update)
    centres, dbar = m.centres.copy(), m.dbar.copy()
    status = m.add_many(blob(rng, A, m.buffer_limit + 1, scale=0.3))
    assert status[-1] == "checked" and m.buffer == [] and m.n_reclusters == 1
    assert sorted(m.sizes.tolist()) == [50, 101] and np.array_equal(m.centres, centres)
    near = int(np.argmin(np.linalg.norm(centres - np.array(A), axis=1)))
    if dbar_update == "frozen":                              # E4-A3 default
        assert np.array_equal(m.dbar, dbar)
    else:                                                    # close points shrink d_i
        assert m.dbar[near] < dbar[near] and m.dbar[1 - near] == dbar[1 - near]


def test_trigger_readings_differ_on_a_batch_arrival():
    rng = np.random.default_rng(6)
    batch = np.vstack([blob(rng, C, 60), blob(rng, A, 10, scale=0.3)])
    remaining = two_blob_model(np.random.default_rng(7), trigger="remaining")
    none_assigned = two_blob_model(np.random.default_rng(7), trigger="none_assigned")
    assert remaining.add_many(batch, batch=True) == ["reclustered"] and remaining.k == 3
    assert none_assigned.add_many(batch, batch=True) == ["checked"]
    assert none_assigned.k == 2 and len(none_assigned.buffer) == 60


# ------------------------------------------------------------------ features, pre-filter
FEATURE_PAGE = ("<html><head><title>T</title></head><body><div id=main>"
                "<p>One two. Three.</p><p>三四。</p>tail text<br>after break "
                "<img src=a.png><a href='/x'>inline link</a></div>"
                "<ul id=nav><li><a href='/1'>Nav one</a></li><li><a href='/2'>Nav two</a></li></ul>"
                "</body></html>")


def test_five_features_of_a_node():
    doc = parse(FEATURE_PAGE)
    main = ids(doc, "main")[0]
    alive, cand = preprocess(doc, "delete")
    x = node_features(doc, alive)[main]
    # lengths are per text run, whitespace collapsed and stripped (§0.4)
    text = sum(map(len, ("One two. Three.", "三四。", "tail text", "after break", "inline link")))
    assert x[0] == text                                     # x1
    assert paragraph_counts(doc, alive)[main] == 4          # 2 <p> + 2 runs split by <br>
    assert x[1] == pytest.approx(text / 4)                  # x2
    assert x[2] == len("inline link")                       # x3: inline anchors stay
    assert x[3] == 1 and x[4] == 3                          # x4 images, x5 ". ." and "。"
    assert cand[main] and not alive[doc.find("title")]
    # a node whose first run continues a run begun before it still counts that run
    doc = parse("<div>before <span>inside one<br>inside two</span></div><p>after</p>")
    alive, _ = preprocess(doc)
    counts = paragraph_counts(doc, alive)
    assert counts[doc.find("span")] == 2 and counts[doc.find("div")] == 2
    assert counts[doc.find("body")] == 3


def test_prefilter_delete_and_mask():
    doc = parse(FEATURE_PAGE)
    body, nav = doc.find("body"), doc.find("ul")
    alive_d, cand_d = preprocess(doc, "delete")
    alive_m, cand_m = preprocess(doc, "mask")
    assert not cand_d[nav] and not cand_m[nav] and not cand_m[doc.find("li")]
    assert not alive_d[nav] and alive_m[nav]
    assert node_features(doc, alive_d)[body][2] == len("inline link")
    assert node_features(doc, alive_m)[body][2] == sum(map(len, ("inline link", "Nav one",
                                                                 "Nav two")))
    assert not cand_d[doc.find("img")]                      # no text: not a candidate


# ------------------------------------------------------------------ c-3 nesting rule
NEST_PAGE = ("<html><body><div id=a><div id=b><p id=c>First paragraph.</p><p id=d>Second.</p>"
             "</div></div><div id=e>Elsewhere.</div></body></html>")


def ids(doc, *names):
    found = {el.get("id"): i for i, el in enumerate(doc.elements) if el is not None}
    return [found[n] for n in names]


@pytest.mark.parametrize("gammas, parent, ancestor", [
    ((0.9, 0.8, 0.7, 0.6), "c", "c"),        # a > b > c nested as parents; e breaks the chain
    ((0.9, 0.4, 0.8, 0.6), "a", "c"),        # b below 0.5: c is not a child of a
    ((0.6, 0.8, 0.9, 0.7), "c", "c"),        # c first; a is not c's child: c stays
    ((0.7, 0.3, 0.2, 0.9), "e", "e"),        # e first, a not nested in e
])
def test_c3_follows_the_nesting_chain(gammas, parent, ancestor):
    doc = parse(NEST_PAGE)
    cand = np.array(ids(doc, "a", "b", "c", "e"))
    g = np.array(gammas)
    for relation, expected in (("parent", parent), ("ancestor", ancestor)):
        node, _ = select_body(doc, cand, g, relation)
        assert node == ids(doc, expected)[0], relation


def test_c3_ties_go_to_document_order_and_nothing_below_half():
    doc = parse(NEST_PAGE)
    cand = np.array(ids(doc, "e", "c"))
    assert select_body(doc, cand, np.array([0.7, 0.7]))[0] == ids(doc, "c")[0]
    assert select_body(doc, cand, np.array([0.49, 0.2])) is None


# ------------------------------------------------------------------ extraction, model file
ARTICLE = " ".join(f"Sentence number {i} of the article body goes here." for i in range(40))
PAGE = (f"<html><body><ul>{''.join(f'<li><a href=/{i}>Menu {i}</a></li>' for i in range(9))}"
        f"</ul><div id=side><p>Short aside text.</p></div><div id=art><p>{ARTICLE}</p>"
        f"<p>{ARTICLE}</p></div><div id=foot>Copyright notice.</div></body></html>")


def model_for(doc, node, dbar=0.5, **kw):
    """A one-cluster model centred on ``node``'s z-scored features."""
    alive, _ = preprocess(doc)
    f = node_features(doc, alive)[node]
    clusters = IncrementalKMeans(**kw)
    mean, std = np.zeros(5), np.maximum(f, 1.0)
    clusters.centres, clusters.dbar = ((f - mean) / std)[None, :], np.array([dbar])
    clusters.sizes = np.array([10])
    return E4Model(clusters, "zscore", mean, std, {"prefilter": "delete"})


def test_extract_selects_the_matching_node():
    doc = parse(PAGE)
    art = ids(doc, "art")[0]
    result = extract_e4(doc, model=model_for(doc, art))
    assert result.info["node"] == art and result.confidence == pytest.approx(1.0)
    assert result.text.count("Sentence number 39") == 2 and "Menu" not in result.text
    # the nearest node of a far-away cluster stays below 0.5: empty with the reason
    far = model_for(doc, art, dbar=0.01)
    far.clusters.centres = far.clusters.centres * 10
    miss = extract_e4(doc, model=far)
    assert miss.text == "" and "max membership" in miss.reason


def test_model_round_trip(tmp_path):
    rng = np.random.default_rng(8)
    m = E4Model(two_blob_model(rng, buffer_limit=5), "zscore", rng.normal(size=5),
                rng.random(5) + 0.5, {"prefilter": "delete"}, {"sets": ["x"]})
    m.clusters.add_many(blob(rng, A, 3))
    path = tmp_path / "e4.json"
    m.save(path)
    back = E4Model.load(path)
    c0, c1 = m.clusters, back.clusters
    assert c1.k == c0.k and np.allclose(c1.centres, c0.centres, rtol=1e-9)
    assert np.allclose(c1.dbar, c0.dbar) and c1.sizes.tolist() == c0.sizes.tolist()
    assert np.allclose(back.mean, m.mean) and np.allclose(back.std, m.std)
    assert len(c1.samples) == 100 and len(c1.buffer) == 3 and back.training == {"sets": ["x"]}
    X = blob(rng, B, 7)
    assert np.allclose(c1.memberships(X), c0.memberships(X))
    back.save(tmp_path / "again.json")                      # stable bytes
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()
    more = blob(rng, C, 3)                                  # the buffer state carries over
    assert c1.add_many(more) == c0.add_many(more) == ["buffered", "buffered", "checked"]
    assert len(c1.buffer) == len(c0.buffer) == 3 and c1.sizes.tolist() == c0.sizes.tolist()


def test_degenerate_pages_give_a_reason_not_an_exception():
    links = "".join(f"<a href=/{i}>l{i}</a>" for i in range(5))
    for html in ("<html><body></body></html>", "<html><body><img src=x></body></html>",
                 f"<html><body><div>{links}</div></body></html>"):
        result = extract_e4(parse(html))
        assert result.text == "" and result.reason.startswith("no candidate node")
    deep = parse("<div>" * 20000 + "Deep text. More text. " * 30 + "</div>" * 20000)
    result = extract_e4(deep)
    assert result.text.startswith("Deep text.") or "max membership" in result.reason
    assert not (extract("x", method="e4").reason or "").startswith("internal")


def test_shipped_model_is_complete():
    model = load_model()
    d = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert model.clusters.k >= 2 and len(d["centres"]) == d["k"] == len(d["dbar"])
    assert sum(d["sizes"]) + len(d["buffer"]) == d["training"]["samples"] > 100
    assert set(d["training"]["sets"]) >= {"cleaneval-train", "dragnet-train", "zh-wce-train"}
    assert d["scaling"] == "zscore" and all(s > 0 for s in d["std"]) and "seed" in d


# ------------------------------------------------------------------ real data
@pytest.mark.shared
def test_e4_on_real_chinese_page(extraction_data):
    page = extraction_data / "zh-wce-dev" / "zh0d931936d510.html"
    result = extract(page.read_bytes(), method="e4")
    assert "孙启勤" in result.text and result.confidence >= 0.5
    gold = next(json.loads(line) for line in
                (extraction_data / "zh-wce-dev" / "gold.jsonl").read_text("utf-8").splitlines()
                if '"zh0d931936d510"' in line)
    assert prf(tokens(result.text), tokens(gold["text"]))[2] > 0.8


@pytest.mark.shared
def test_training_is_reproducible(extraction_data, tmp_path):
    from extraction.training import e4 as trainer

    args = ["--sets", "zh-wce-dev", "--buffer-limit", "3", "--seed", "5"]
    assert trainer.main(args + ["--out", str(tmp_path / "a.json")]) == 0
    assert trainer.main(args + ["--out", str(tmp_path / "b.json")]) == 0
    a = (tmp_path / "a.json").read_bytes()
    assert a == (tmp_path / "b.json").read_bytes()
    d = json.loads(a)
    assert d["training"]["counts"]["zh-wce-dev"]["samples"] >= 15 and d["seed"] == 5
    assert d["k"] >= 1 and d["assigned"] + d["reclusterings"] > 1
