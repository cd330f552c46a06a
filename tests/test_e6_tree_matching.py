"""E6 (ALGORITHMS.md §6): simple trees, modified STM, clustering, pre-pruning, extraction path;
test hints of §6.5."""
import json
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extraction import extract
from extraction.document import parse
from extraction.methods.tree_matching import (Step, apply_path, cluster, extract_e6, lcs_length,
                                              extraction_path, importance, norm_variance,
                                              normalised_entropy, prune, similarity,
                                              simple_tree, stm, variance)

PARA = "A paragraph of the article with enough words to be a real paragraph of news. "


def _page(main_attrs="class=main", extra=""):
    return (f"<html><body><div id=top>Site title</div><div id=nav>Menu text</div>"
            f"<div {main_attrs}><p>{PARA}</p></div><div id=foot>Footer text</div>{extra}"
            f"</body></html>")


def _node(doc, **attrs):
    for i, el in enumerate(doc.elements):
        if el is not None and all(el.get(k) == v for k, v in attrs.items()):
            return i
    raise AssertionError(attrs)


def test_hint_similarity_identical_and_one_changed_child():
    a, b = simple_tree(parse(_page())), simple_tree(parse(_page()))
    assert a.root == "body" and len(a) == 4
    assert similarity(a, b) == 1.0
    c = simple_tree(parse(_page("class=main-v2")))               # one child's attributes differ
    assert stm(a, c) == 3
    assert similarity(a, c) == 0.75                              # E6-A2 default: below 0.8
    assert similarity(a, c, count_root=True) == 0.8              # root counted: (3+1)/5
    assert len(cluster([a, c])) == 2 and len(cluster([a, c], count_root=True)) == 1


def test_stm_readings_s_and_l_differ_on_order():
    x = parse("<html><body><div id=a>1</div><div id=b>2</div><div id=c>3</div></body></html>")
    y = parse("<html><body><div id=c>3</div><div id=a>1</div><div id=b>2</div></body></html>")
    tx, ty = simple_tree(x), simple_tree(y)
    assert stm(tx, ty, "S") == 2                                 # order-preserving
    assert stm(tx, ty, "L") == 3                                 # literal double loop
    assert stm(tx, simple_tree(parse("<html><body><div id=a>1</div></body></html>")), "L") == 1


def test_stm_different_roots_and_empty_trees():
    t = simple_tree(parse(_page()))
    other = simple_tree(parse("<html><frameset><frame src=a></frameset></html>"))
    assert stm(t, other) == 0
    empty_tree = simple_tree(parse("<html><body>only text</body></html>"))
    assert similarity(empty_tree, empty_tree) == 0.0             # §10.4 guard


def _lcs_table(a, b) -> int:
    """The textbook LCS table, the reference for the bit-parallel ``lcs_length``."""
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b):
            diagonal, row[j + 1] = row[j + 1], (diagonal + 1 if x == y
                                                else max(row[j + 1], row[j]))
    return row[-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=40), st.lists(st.integers(0, 5), max_size=40))
def test_the_bit_parallel_lcs_is_the_lcs(a, b):
    assert lcs_length(a, b) == _lcs_table(a, b) == lcs_length(b, a)


def test_stm_long_flat_bodies_is_fast_and_exact():
    a = parse("<html><body>" + "".join(f"<p class=c{i % 7}>x</p>" for i in range(1500))
              + "</body></html>")
    b = parse("<html><body>" + "".join(f"<p class=c{i % 5}>x</p>" for i in range(1400))
              + "</body></html>")
    ta, tb = simple_tree(a), simple_tree(b)
    assert stm(ta, tb) == _lcs_table(ta.children, tb.children) > 700
    # 40,000 paragraphs a side took 14 s row by row
    big = simple_tree(parse("<html><body>" + "<p>x</p>" * 40_000 + "</body></html>"))
    assert stm(big, big) == 40_000


def test_the_lcs_of_many_distinct_items_takes_linear_memory():
    # a bit mask per distinct item took 150 MB for 40,000 children with unique ids
    items = [("div", f"post-{i}") for i in range(40_000)]
    tracemalloc.start()
    try:
        assert lcs_length(items, items[::2]) == 20_000
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 30_000_000


def test_leader_clustering_and_single_link():
    t1, t2 = simple_tree(parse(_page())), simple_tree(parse(_page()))
    t3 = simple_tree(parse("<html><body><table><tr><td>x</td></tr></table></body></html>"))
    assert cluster([t1, t3, t2]) == [[0, 2], [1]]
    assert cluster([t1, t3, t2], method="single") == [[0, 2], [1]]


def test_hint_prepruning_removes_noise_zero_size_and_textless_nodes():
    html = ("<html><body><div id=keep><p>Body text that stays.</p>"
            "<ul><li>list text</li></ul><a href=/x>link text</a><h2>Heading two</h2>"
            "<script>var x = 1;</script><img src=i.png>"
            "<div id=zero style='height:0px'>zero height text</div>"
            "<div id=hidden style='display:none'>hidden text</div>"
            "<div id=links><a href=/1>only</a> <a href=/2>links</a></div>"
            "<div id=empty></div></div></body></html>")
    doc = parse(html)
    alive, nonlink = prune(doc)
    kept = {doc.tag_names[i] for i in np.flatnonzero(alive) if doc.kind[i] == 0}
    assert {"ul", "li", "a", "h2", "script", "img"}.isdisjoint(kept)
    for name in ("zero", "links", "empty"):
        assert not alive[_node(doc, id=name)]
    # display: none is dropped by the parse already (extraction/document.py, _drop_hidden)
    assert all(el is None or el.get("id") != "hidden" for el in doc.elements)
    assert alive[_node(doc, id="keep")] and "p" in kept
    assert nonlink[_node(doc, id="keep")] == len("Body text that stays.")


def test_hint_path_descends_from_body_and_stops_at_article():
    paras = "".join(f"<p>{PARA} Number {i}.</p>" for i in range(12))
    html = (f"<html><body><div id=header>Small header</div><div id=article>{paras}</div>"
            f"<div id=footer>Small footer</div></body></html>")
    doc = parse(html)
    alive, nonlink = prune(doc)
    from extraction.geometry import layout
    lay = layout(doc)
    kids = doc.element_children(doc.body)
    ipt = importance(lay.height[kids], lay.width[kids], nonlink[kids])
    assert norm_variance(ipt) > 0.3                              # well above 0.1: descend
    path, node = extraction_path(doc)
    assert path == [Step("div", "article", None, 1)]
    assert node == _node(doc, id="article")
    result = extract_e6(doc)
    assert result.info["geometry"] == "approximated"
    assert result.text.count("Number") == 12 and "Small header" not in result.text


def test_stop_modes():
    v = np.array([0.25, 0.25, 0.25, 0.25])
    assert variance(v) == 0 and norm_variance(v) == 0 and normalised_entropy(v) == pytest.approx(1)
    w = np.array([1.0, 0.0, 0.0])
    assert norm_variance(w) == pytest.approx(1.0) and normalised_entropy(w) == 0
    # raw variance of 9+ shares is always < 0.1: raw_variance stops where variance descends
    paras = "".join(f"<div class=b{i}>{'short ' if i else PARA * 20}</div>" for i in range(10))
    doc = parse(f"<html><body>{paras}</body></html>")
    assert extraction_path(doc, mode="raw_variance")[0] == []
    assert extraction_path(doc, mode="variance")[0][0].cls == "b0"
    assert extraction_path(doc, mode="entropy")[0][0].cls == "b0"


def test_apply_path_matches_id_then_class_then_index():
    doc = parse("<html><body><div class=x>a</div><div id=main class=y>b</div>"
                "<div class=y>c</div></body></html>")
    node, n = apply_path(doc, [Step("div", "main", "zzz", 0)])
    assert n == 1 and doc.elements[node].get("id") == "main"    # by id
    node, _ = apply_path(doc, [Step("div", "gone", "x", 2)])
    assert doc.elements[node].get("class") == "x"                # id missing -> class
    node, _ = apply_path(doc, [Step("div", None, "y", 2)])
    assert doc.text_of(nodes=[node]) == "c"                      # several classes -> index
    node, _ = apply_path(doc, [Step("div", None, None, 0)])
    assert doc.text_of(nodes=[node]) == "a"                      # index
    node, n = apply_path(doc, [Step("section", None, None, 0)])
    assert n == 0 and node == doc.body                           # nothing matches


def test_extract_with_sibling_uses_sibling_path_on_page():
    page = parse(_page(extra=f"<div class=side>{'Sidebar words. ' * 2}</div>"))
    sib_html = _page(extra=f"<div class=side>{'Sidebar words. ' * 2}</div>").replace(
        PARA, PARA * 30)
    sib = parse(sib_html)
    res = extract_e6(page, [sib], sample="sibling")
    assert res.info["cluster_size"] == 2 and res.info["sample"] == "sibling 1"
    assert res.info["path_matched"] == len(res.info["path"]) >= 1
    assert res.text == PARA.strip()
    alone = extract_e6(page)
    assert alone.info["cluster"].startswith("no siblings")
    other = parse("<html><body><table><tr><td>x</td></tr></table></body></html>")
    res = extract_e6(page, [other])
    assert res.info["cluster"].startswith("no sibling clusters")


def test_never_raises_on_empty_pages():
    assert extract_e6(parse("<html><body>text only</body></html>")).reason == \
        "no <body> children"
    for html in ("<html><body><div></div></body></html>", "<p>x</p>", "<html></html>"):
        result = extract(html, method="e6", siblings=[html])
        assert isinstance(result.text, str)


def test_unwrap_option_skips_single_child_wrappers():
    a = parse("<html><body><text id='http://a/1'>" + _page()[12:-14] + "</text></body></html>")
    b = parse("<html><body><text id='http://a/2'>" + _page()[12:-14] + "</text></body></html>")
    assert len(simple_tree(a)) == 1 and similarity(simple_tree(a), simple_tree(b)) == 0.0
    ua, ub = simple_tree(a, unwrap=True), simple_tree(b, unwrap=True)
    assert len(ua) == 4 and similarity(ua, ub) == 1.0
    assert extract_e6(a, [b], unwrap=True).info["cluster_size"] == 2


@pytest.mark.shared
def test_e6_on_real_page_with_its_sibling(extraction_data):
    folder = extraction_data / "dragnet-dev"
    page = "dn145"
    row = next(json.loads(line) for line in
               (folder / "siblings.jsonl").read_text(encoding="utf-8").splitlines()
               if json.loads(line)["id"] == page)
    gold = next(json.loads(line)["text"] for line in
                (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines()
                if json.loads(line)["id"] == page)
    doc = parse((folder / f"{page}.html").read_bytes())
    sib = parse((folder / "siblings" / row["siblings"][0]).read_bytes())
    result = extract_e6(doc, [sib], sample="sibling")   # the sibling's path, applied to doc
    assert result.info["geometry"] == "approximated"
    assert result.info["cluster_size"] == 2
    assert result.info["path_matched"] == len(result.info["path"]) > 3
    assert "path_fallback" not in result.info
    gold_words, got = set(gold.split()), set(result.text.split())
    assert len(gold_words & got) / len(gold_words) > 0.9
    assert len(gold_words & got) / len(got) > 0.8
    # the page's own path (default sample) reaches the same kind of node
    own = extract_e6(doc, [sib])
    assert own.info["sample"] == "page" and own.info["cluster_size"] == 2
