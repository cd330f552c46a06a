"""E5 (ALGORITHMS.md §5): the test hints of §5.13, the vectorised DP against a reference DP,
the options, and a real page with its sibling."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extraction import extract
from extraction.document import parse
from extraction.evaluation import prf, tokens
from extraction.geometry import layout
from extraction.methods.feature_tree_lcs import (
    LEFT, UNITS, UP, UP_LEFT, aggregate, backtrack, candidates, compare_two_cnodes,
    drop_descendants, extract_e5, feature_tree, get_direction, lcs_table, score_clusters,
    similarity_matrix,
)

NAV = "<ul id=nav>" + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(6)) \
    + "</ul>"
AD = "<div class=ad><a href='/buy'><img src=ad.png></a>Buy cheap watches now</div>"


def template(title, paras, ad=False):
    body = (f"<div id=header><h1>My Site</h1>{NAV}</div>"
            f"<div id=content class=main><h2>{title}</h2>"
            + "".join(f"<p>{p}</p>" for p in paras) + "</div>")
    if ad:
        body += AD
    body += "<div id=footer><p>Copyright 2011 My Site. All rights reserved.</p></div>"
    return f"<html><body>{body}</body></html>"


TARGET = template("Cats and dogs", [
    "The first paragraph of the article tells about cats and dogs living together in peace.",
    "The second paragraph goes on with more details about the household and its rules.",
    "A third paragraph, longer than the others, closes the story with a moral. " * 4])
TARGET_AD = template("Cats and dogs", [
    "The first paragraph of the article tells about cats and dogs living together in peace.",
    "The second paragraph goes on with more details about the household and its rules.",
    "A third paragraph, longer than the others, closes the story with a moral. " * 4], ad=True)
SIMILAR = template("Weather report", [
    "Completely different text about the weather of the week, with rain and wind.",
    "More weather talk: the weekend will be sunny and warm in the south."])


def trees(html1, html2, url1=None, url2=None):
    d1, d2 = parse(html1, url1), parse(html2, url2)
    codes = {}
    t1 = feature_tree(d1, layout(d1), codes, url1)
    t2 = feature_tree(d2, layout(d2), codes, url2)
    return t1, t2


def level_index(tree, tag, nth=0):
    """Level index of the ``nth`` CNode (in document order) with this tag."""
    doc = tree.doc
    hits = sorted(int(n) for n in tree.nodes if doc.tag_names[n] == tag)
    return int(np.flatnonzero(tree.nodes == hits[nth])[0])


# ------------------------------------------------------------------ §5.13 hint 1: template pages
def test_template_paragraphs_and_ad_are_candidates_navigation_is_matched():
    t1, t2 = trees(TARGET_AD, SIMILAR)
    cands, _ = candidates(t1, t2, 0.5, True, 0.0)
    doc = t1.doc
    names = {doc.tag_names[n] for n in cands}
    assert "li" not in names and "ul" not in names and "h1" not in names   # template: matched
    p_nodes = [n for n in cands if doc.tag_names[n] == "p"]
    assert len(p_nodes) == 3                                               # the article
    ad = next(i for i in range(doc.size) if doc.elements[i] is not None
              and doc.elements[i].get("class") == "ad")
    assert ad in set(cands.tolist())                                       # the extra ad
    footer_p = [n for n in range(doc.size) if doc.tag_names[n] == "p"][-1]
    assert footer_p not in set(cands.tolist())                             # same footer


def test_template_aggregation_puts_paragraphs_in_one_cluster_that_outscores_the_ad():
    t1, t2 = trees(TARGET_AD, SIMILAR)
    cands, _ = candidates(t1, t2, 0.5, True, 0.0)
    doc = t1.doc
    clusters = aggregate(doc, cands)
    article = [c for c in clusters if any(doc.tag_names[n] == "p" for n in c)]
    ad = [c for c in clusters if any(doc.elements[n].get("class") == "ad" for n in c)]
    assert len(article) == 1 and len(ad) == 1 and article[0] is not ad[0]
    assert sum(doc.tag_names[n] == "p" for n in article[0]) == 3
    result = extract_e5(doc, [t2.doc])
    assert "cats and dogs living together" in result.text
    assert "closes the story" in result.text
    assert "Buy cheap" not in result.text and "Section 3" not in result.text
    assert "Copyright" not in result.text
    assert result.info["geometry"] == "approximated"
    assert result.info["chosen"] == 1 and result.info["clusters"] == 2
    assert result.info["candidates"] >= 5


def test_identical_pages_have_no_candidates():
    doc = parse(TARGET)
    result = extract_e5(doc, [parse(TARGET)])
    assert result.text == "" and "matches the similar page" in result.reason
    assert result.info["candidates"] == 0


def test_without_sibling_returns_empty_with_reason():
    result = extract_e5(parse(TARGET))
    assert result.text == ""
    assert result.reason == "E5 needs a similar page of the same site (siblings)"
    via_api = extract(TARGET, method="e5")
    assert via_api.text == "" and "siblings" in via_api.reason


def test_api_accepts_sibling_bytes():
    result = extract(TARGET_AD.encode(), "http://example.com/a/1.html", method="lcs",
                     siblings=[SIMILAR.encode()])
    assert "living together" in result.text and result.info["geometry"] == "approximated"


# ------------------------------------------------------------------ §5.13 hint 2: CompareTwoCNode
PAGE_P = "<html><body><div id=a class=x><p>Same <b>text</b> here</p></div></body></html>"


def test_equal_paragraphs_under_similar_parents_are_identical():
    t1, t2 = trees(PAGE_P, PAGE_P.replace("Same <b>text</b>  here", "x"))
    assert compare_two_cnodes(t1, level_index(t1, "p"), t2, level_index(t2, "p")) == 1.0
    # whitespace is collapsed in innerHTML (§5.8 norm)
    t1, t2 = trees(PAGE_P, PAGE_P.replace("Same <b>text</b> here", "Same   <b>text</b>\n here"))
    assert compare_two_cnodes(t1, level_index(t1, "p"), t2, level_index(t2, "p")) == 1.0


def test_equal_paragraphs_under_dissimilar_parents_are_different():
    other = PAGE_P.replace("<div id=a class=x>", "<section id=a class=x>") \
        .replace("</div>", "</section>")
    t1, t2 = trees(PAGE_P, other)                      # parents: tag differs (rule 1) -> 0
    assert compare_two_cnodes(t1, level_index(t1, "p"), t2, level_index(t2, "p")) == 0.0
    t1, t2 = trees(PAGE_P, PAGE_P.replace("id=a", "id=b"))
    pa, pb = level_index(t1, "div"), level_index(t2, "div")
    assert compare_two_cnodes(t1, pa, t2, pb) == pytest.approx(6 / 7)   # rule 7: id differs
    p1, p2 = level_index(t1, "p"), level_index(t2, "p")
    assert compare_two_cnodes(t1, p1, t2, p2, Ts=0.5) == 1.0
    assert compare_two_cnodes(t1, p1, t2, p2, Ts=0.9) == 0.0           # parents <= Ts: rule 4


def test_content_node_against_structure_node_is_zero():
    content = "<html><body><div>Mostly own text of this div <i>x</i></div></body></html>"
    struct = "<html><body><div><i>Mostly text of a child element</i></div></body></html>"
    t1, t2 = trees(content, struct)
    a, b = level_index(t1, "div"), level_index(t2, "div")
    assert t1.content[a] and not t2.content[b]          # Definition 4: text rate > 75 %
    assert compare_two_cnodes(t1, a, t2, b) == 0.0


def test_body_rules_and_missing_attributes_option():
    html = "<html><body><div><div>one</div><span>two</span></div></body></html>"
    t1, t2 = trees(html, html)
    assert compare_two_cnodes(t1, 0, t2, 0) == 1.0                     # rule 2
    assert compare_two_cnodes(t1, 0, t2, 1) == 0.0                     # rule 1 / 3
    a = level_index(t1, "div")
    assert compare_two_cnodes(t1, a, t2, a) == 1.0                     # all 7 features equal
    assert compare_two_cnodes(t1, a, t2, a, missing_attrs_equal=False) == pytest.approx(5 / 7)


def test_relative_and_absolute_links_compare_equal_after_rewriting():
    rel = "<html><body><p>see <a href='/doc/x.html'>this</a></p></body></html>"
    absolute = "<html><body><p>see <a href='http://site.com/doc/x.html'>this</a></p></body></html>"
    other = "<html><body><p>see <a href='x.html'>this</a></p></body></html>"
    url = "http://site.com/news/1.html"
    t1, t2 = trees(rel, absolute, url, url)
    assert compare_two_cnodes(t1, 1, t2, 1) == 1.0
    t1, t2 = trees(rel, other, url, url)                # resolves to /news/x.html
    assert compare_two_cnodes(t1, 1, t2, 1) == 0.0


def test_similarity_matrix_equals_scalar_compare_two_cnode():
    for h1, h2, kw in ((TARGET_AD, SIMILAR, {}), (SIMILAR, TARGET, {"Ts": 0.9}),
                       (TARGET_AD, TARGET, {"missing_attrs_equal": False, "tolerance": 30.0})):
        t1, t2 = trees(h1, h2)
        sim = similarity_matrix(t1, t2, **kw)
        memo = {}
        ref = np.array([[round(compare_two_cnodes(t1, a, t2, b, memo=memo, **kw) * UNITS)
                         for a in range(len(t1))] for b in range(len(t2))])
        assert np.array_equal(sim, ref)
        assert sim.max() == UNITS and (sim > 0).sum() > 10


# ------------------------------------------------------------------ §5.13 hint 3 and the DP
def test_get_direction_tie_order():
    assert get_direction(1, 1, 1) == UP_LEFT
    assert get_direction(1, 1, 0) == UP_LEFT
    assert get_direction(1, 0, 1) == UP_LEFT
    assert get_direction(0, 1, 1) == UP
    assert get_direction(0, 0, 1) == LEFT
    assert get_direction(0, 1, 0) == UP
    ptr, total, _ = lcs_table(np.zeros((3, 4), dtype=np.uint8))
    assert total == 0 and (ptr[1:, 1:] == UP_LEFT).all()                # all equal: up-left
    assert (ptr[0, 1:] == LEFT).all() and (ptr[1:, 0] == UP).all()


def reference_dp(sim):
    n2, n1 = sim.shape
    score = np.zeros((n2 + 1, n1 + 1), dtype=np.int64)
    ptr = np.zeros((n2 + 1, n1 + 1), dtype=np.uint8)
    ptr[0, 1:] = LEFT
    ptr[1:, 0] = UP
    for r in range(1, n2 + 1):
        for c in range(1, n1 + 1):
            diag = score[r - 1, c - 1] + int(sim[r - 1, c - 1])
            up, left = score[r - 1, c], score[r, c - 1]
            score[r, c] = max(diag, up, left)
            ptr[r, c] = get_direction(diag, up, left)
    return ptr, score


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.data())
def test_vectorised_dp_equals_reference_dp(n2, n1, data):
    values = data.draw(st.lists(st.integers(0, UNITS), min_size=n1 * n2, max_size=n1 * n2))
    sim = np.array(values, dtype=np.uint8).reshape(n2, n1)
    blank = data.draw(st.lists(st.booleans(), min_size=n2, max_size=n2))
    sim[np.array(blank, dtype=bool)] = 0                  # all-zero rows take a shortcut
    ptr, total, scores = lcs_table(sim, keep_scores=True)
    ref_ptr, ref_score = reference_dp(sim)
    assert np.array_equal(ptr, ref_ptr)
    assert np.array_equal(scores, ref_score) and total == ref_score[-1, -1]


def test_backtracking_left_up_and_substitution():
    # S1 (columns) = A X B, S2 (rows) = A B Y: X is a deletion (left), Y an insertion (up).
    sim = np.array([[7, 0, 0],      # A'
                    [0, 0, 7],      # B'
                    [0, 0, 0]],     # Y'
                   dtype=np.uint8)
    ptr, total, _ = lcs_table(sim)
    assert total == 14
    assert backtrack(ptr, sim, 0.5) == [1]
    # a weak diagonal match (3/7 <= Ts) is a substitution: the S1 node becomes a candidate
    sim = np.array([[7, 0], [0, 3]], dtype=np.uint8)
    ptr, _, _ = lcs_table(sim)
    assert ptr[2, 2] == UP_LEFT and backtrack(ptr, sim, 0.5) == [1]
    assert backtrack(ptr, sim, 0.4) == []


# ------------------------------------------------------------------ aggregation and scoring
AGG = ("<html><body><div id=A><div id=B><p>v one</p></div></div><p id=u>u text</p>"
       "<p id=w>w text</p></body></html>")


def test_aggregation_literal_is_order_dependent_transitive_is_not():
    doc = parse(AGG)
    v = next(i for i in range(doc.size) if doc.tag_names[i] == "p")
    b = doc.parent[v]                                    # div#B, child of div#A
    u = next(i for i in range(doc.size) if doc.elements[i] is not None
             and doc.elements[i].get("id") == "u")
    w = u + 2                                            # p#w (after u's text node)
    assert doc.elements[w].get("id") == "w"
    a = doc.parent[b]
    # B's grandparent (body) is u's parent, but B comes first in document order: literal
    # gathers B only with its own relatives; u and w (same parent) form a second cluster.
    lit = aggregate(doc, [b, u, w])
    assert [c.tolist() for c in lit] == [[b], [u, w]]
    trans = aggregate(doc, [b, u, w], mode="transitive")
    assert [c.tolist() for c in trans] == [[b, u, w]]
    # with u first in document order the literal relation does gather B
    doc2 = parse("<html><body><p id=u>u text</p><div id=A><div id=B><p>v</p></div></div>"
                 "</body></html>")
    u2 = next(i for i in range(doc2.size) if doc2.tag_names[i] == "p")
    b2 = next(i for i in range(doc2.size) if doc2.elements[i] is not None
              and doc2.elements[i].get("id") == "B")
    assert [c.tolist() for c in aggregate(doc2, [u2, b2])] == [[u2, b2]]
    # descendants of candidates are removed
    assert drop_descendants(doc, [a, b, v, u]).tolist() == [a, u]


def test_score_points_and_tie_order():
    values = np.array([[10, 1, 1, 1, 0.5, 0.2],
                       [30, 2, 2, 2, 0.0, 0.3],
                       [20, 3, 3, 3, 0.9, 0.1],
                       [20, 0, 0, 0, 0.0, 0.0]])
    # text: 1:5, 2:3 (tie with 3, earlier first), 3:1, 0:none; area/eff/tags: 2:5 1:3 0:1;
    # link rate: 2:-5 0:-3 1:-1; ttc: 1:5 0:3 2:1
    assert score_clusters(values).tolist() == [0 + 3 * 1 - 3 + 3, 5 + 3 * 3 - 1 + 5,
                                               3 + 3 * 5 - 5 + 1, 1]
    assert score_clusters(values[:1]).tolist() == [5 * 5 - 5]            # fewer than three


def test_selection_options():
    doc = parse(TARGET_AD)
    sib = parse(SIMILAR)
    close = extract_e5(doc, [sib], margin=100)
    top = extract_e5(doc, [sib], margin=100, selection="top")
    assert close.info["chosen"] == 2 and top.info["chosen"] == 1
    assert "Buy cheap" in close.text and "Buy cheap" not in top.text


# ------------------------------------------------------------------ options and guards
def test_combine_intersection_uses_every_sibling():
    doc = parse(TARGET_AD)
    sib_with_ad = parse(template("Other", ["Another text entirely, nothing in common."], ad=True))
    first = extract_e5(doc, [parse(SIMILAR), sib_with_ad])
    both = extract_e5(doc, [parse(SIMILAR), sib_with_ad], combine="intersection")
    assert first.info["siblings_used"] == 1 and both.info["siblings_used"] == 2
    assert both.info["candidates"] < first.info["candidates"]       # the ad is matched in one
    assert both.info["clusters"] == 1 and "living together" in both.text


def test_max_cells_drops_text_less_nodes_then_gives_up():
    doc, sib = parse(TARGET_AD.replace("<h1>", "<div><br></div><h1>")), parse(SIMILAR)
    full = extract_e5(doc, [sib])
    n = full.info["cells"]
    reduced = extract_e5(doc, [sib], max_cells=n - 1)
    assert reduced.info["text_less_dropped"] and reduced.info["cells"] < n
    assert "living together" in reduced.text
    assert extract_e5(doc, [sib], max_cells=10).text == ""
    assert "max_cells" in extract_e5(doc, [sib], max_cells=10).reason


@pytest.mark.parametrize("html,sib", [
    ("<html><body></body></html>", SIMILAR),
    (TARGET, "<html><body></body></html>"),
    ("<html><frameset><frame src=a.html></frameset></html>", SIMILAR),
    ("<p>just a fragment</p>", "<div>other fragment</div>"),
    ("<html><body>" + "<div>" * 3000 + "deep text" + "</div>" * 3000 + "</body></html>",
     "<html><body>" + "<div>" * 2900 + "other" + "</div>" * 2900 + "</body></html>"),
])
def test_never_raises(html, sib):
    result = extract_e5(parse(html), [parse(sib)])
    assert result.text or result.reason


def test_unknown_option_values_are_rejected():
    with pytest.raises(ValueError):
        extract_e5(parse(TARGET), [parse(SIMILAR)], aggregation="random")


# ------------------------------------------------------------------ real pages
@pytest.mark.shared
def test_real_pages_with_siblings(extraction_data):
    folder = extraction_data / "cleanportaleval"
    rows = [json.loads(line) for line in (folder / "siblings.jsonl").read_text().splitlines()]
    gold = {json.loads(line)["id"]: json.loads(line) for line in
            (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
    scores = []
    for row in rows[::5]:                          # 13 pages of the four portals
        g = gold[row["id"]]
        html = (folder / f"{row['id']}.html").read_bytes()
        sib = (folder / "siblings" / row["siblings"][0]).read_bytes()
        result = extract(html, g.get("url"), method="e5", siblings=[sib])
        assert result.info.get("geometry") == "approximated"
        assert result.info["candidates"] > result.info["clusters"] >= result.info["chosen"] >= 1
        scores.append(prf(tokens(result.text), tokens(g["text"]))[2])
    assert extract(html, g.get("url"), method="e5").text == ""       # no sibling: empty
    assert len(scores) == 13
    assert np.mean(scores) > 0.8                   # measured 0.89 (approximated geometry)
    assert sum(s > 0.8 for s in scores) >= 10
