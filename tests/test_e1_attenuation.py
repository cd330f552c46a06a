"""E1 (ALGORITHMS.md §1): the spec's test hints and the readings of §1.8."""
import pytest

from extraction import extract
from extraction.document import parse
from extraction.methods.attenuation import extract_e1, find_mt, tag_tree

PARA = "This paragraph of the article has plain text without links in it. " * 3
NAV = "".join(f"<a href='/s{i}'>Section {i}</a>" for i in range(10))
D1_PAGE = (f"<html><body><div id=nav>{NAV}</div><div id=main><p>A {PARA}</p><p>B {PARA}</p>"
           f"<p>C {PARA}</p></div></body></html>")


def _mt(html, **kw):
    doc = parse(html)
    alive = tag_tree(doc)
    lc = doc.subtree_sum(doc.tlen * alive * ~doc.in_link)
    node, _ = find_mt(doc, alive, lc, 0, **kw)
    return doc, node


def test_cleaning_rules_r1_r2_r3():
    doc = parse("<body><div><img src=x></div><select><option>opt text</option></select>"
                "<p>a &lt; b</p></body>")
    alive = tag_tree(doc)
    assert not alive[doc.find("div")]          # R1: no text below
    assert not alive[doc.find("select")]       # R2
    assert doc.text_of(alive) == "a < b"       # R3


def test_d1_reading_a_returns_the_parent_of_the_paragraphs():
    doc, node = _mt(D1_PAGE, return_parent=True)
    assert doc.tag_names[node] == "div" and doc.elements[node].get("id") == "main"


def test_d1_reading_b_returns_the_first_largest_paragraph():
    doc, node = _mt(D1_PAGE, return_parent=False)
    assert doc.tag_names[node] == "p"
    assert doc.text_of(nodes=[node]).startswith("A ")


def test_single_text_node_article_ends_on_the_text_node_or_its_element():
    html = f"<html><body><div>{NAV}</div><div><p>{PARA * 5}</p></div></body></html>"
    for reading in (True, False):
        doc, node = _mt(html, return_parent=reading)
        assert doc.tag_names[node] in ("p", "#text")
        assert PARA.strip() in doc.text_of(nodes=[node])


def test_documented_failure_mode_short_paragraphs_are_lost():
    long, short = "Long paragraph words here. " * 34, "Short one here. " * 3
    html = f"<html><body><div><p>{long}</p><p>{short}</p><p>{short}</p></div></body></html>"
    result = extract_e1(parse(html))
    assert "Long paragraph" in result.text and "Short one" not in result.text


def test_clean_tree_reading_a_removes_inline_anchor_and_reading_b_keeps_it():
    items = "".join(f"<li><a href='/{i}'>link item {i}</a></li>" for i in range(8))
    html = (f"<html><body><div><p>text before {PARA} <a href='/x'>inline anchor</a> text after"
            f" {PARA}</p><ul>{items}</ul></div></body></html>")
    a = extract_e1(parse(html), single_anchor_is_link=True).text
    b = extract_e1(parse(html), single_anchor_is_link=False).text
    for text in (a, b):
        assert "link item" not in text and "text after" in text
    assert "inline anchor" not in a and "inline anchor" in b


def test_c4_link_only_page_gives_empty_text_with_reason():
    result = extract(f"<html><body><div>{NAV}</div></body></html>", method="e1")
    assert result.text == "" and result.reason


def test_range_equal_to_threshold_descends():
    # two children with 66% / 34% of the text: Range = 0.34 is not > T, so the search descends
    big, small = "x" * 66, "y" * 34
    doc, node = _mt(f"<html><body><div><p>{big}</p><p>{small}</p></div></body></html>", T=0.34)
    assert doc.tag_names[node] in ("p", "#text") and "x" in doc.text_of(nodes=[node])


@pytest.mark.shared
def test_e1_on_real_chinese_page(extraction_data):
    page = extraction_data / "zh-wce-dev" / "zh0d931936d510.html"
    result = extract(page.read_bytes(), method="e1")
    assert "孙启勤" in result.text and result.confidence > 0.34
