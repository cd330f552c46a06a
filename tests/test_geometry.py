"""Approximated layout (ALGORITHMS.md §0.4 option ii, §10.1): extraction/geometry.py."""
import time

import numpy as np
import pytest

from extraction.document import parse
from extraction.geometry import (CHAR_WIDTH, CJK_CHAR_WIDTH, LINE_HEIGHT, REPLACED_SIZE, Layout,
                                 inherited, layout)


def _node(doc, tag, **attrs):
    """First element with this tag and these attribute values."""
    for i, el in enumerate(doc.elements):
        if el is not None and el.tag == tag and all(el.get(k) == v for k, v in attrs.items()):
            return i
    raise AssertionError(f"no <{tag} {attrs}>")


def test_public_api_shape():
    doc = parse("<html><body><p>hello</p></body></html>")
    lay = layout(doc)
    assert isinstance(lay, Layout) and lay.approximated is True
    for arr in (lay.width, lay.height, lay.left, lay.top):
        assert arr.dtype == np.float64 and arr.shape == (doc.size,)
    assert len(lay.background) == len(lay.color) == doc.size
    assert lay.page_width == 1000.0 and lay.page_height > 0
    assert layout(doc) is lay                       # cached per document and width
    assert layout(doc, 800).page_width == 800.0


def test_widths_from_attributes_css_and_parent():
    doc = parse("<html><body><div id=a style='width: 600px'><div id=b width=50%>x</div>"
                "<div id=c>y</div></div><div id=d>z</div></body></html>")
    lay = layout(doc)
    assert lay.width[_node(doc, "div", id="a")] == 600
    assert lay.width[_node(doc, "div", id="b")] == 300      # % of the containing block
    assert lay.width[_node(doc, "div", id="c")] == 600      # inherits the parent's width
    assert lay.width[_node(doc, "div", id="d")] == 1000     # page width


def test_table_cells_share_their_row_and_sit_side_by_side():
    doc = parse("<html><body><table width=900><tr><td width=300>a</td><td>b</td><td>c</td>"
                "</tr></table></body></html>")
    lay = layout(doc)
    a, b, c = (_node(doc, "td"), _node(doc, "td") + 2, _node(doc, "td") + 4)
    assert [doc.tag_names[i] for i in (a, b, c)] == ["td"] * 3
    assert list(lay.width[[a, b, c]]) == [300, 300, 300]
    assert list(lay.left[[a, b, c]]) == [0, 300, 600]
    assert lay.top[a] == lay.top[b] == lay.top[c]


def test_floats_get_left_offsets_and_wrap():
    boxes = "".join(f"<div class=f style='float:left; width:400px'>box {i}</div>" for i in range(3))
    doc = parse(f"<html><body><div id=wrap>{boxes}</div><p>after</p></body></html>")
    lay = layout(doc)
    fl = [i for i, el in enumerate(doc.elements) if el is not None and el.get("class") == "f"]
    assert list(lay.left[fl]) == [0, 400, 0]                 # the third wraps to a new row
    assert lay.top[fl[2]] > lay.top[fl[0]] == lay.top[fl[1]]
    assert lay.top[_node(doc, "p")] >= lay.top[fl[2]] + lay.height[fl[2]]


def test_heights_from_text_length_images_and_br():
    words = "word " * 250                         # 1249 characters -> 10 lines at 1000 px
    doc = parse(f"<html><body><p id=t>{words}</p><p id=b>a<br>b<br>c</p>"
                "<div id=i><img src=x width=200 height=150></div><div id=d><img src=y></div>"
                "</body></html>")
    lay = layout(doc)
    lines = np.ceil(len(words.strip()) * CHAR_WIDTH / 1000)
    assert lay.height[_node(doc, "p", id="t")] == lines * LINE_HEIGHT
    assert lay.height[_node(doc, "p", id="b")] == 3 * LINE_HEIGHT
    assert lay.height[_node(doc, "div", id="i")] == 150
    assert lay.width[_node(doc, "img", src="x")] == 200
    assert lay.height[_node(doc, "div", id="d")] == REPLACED_SIZE["img"][1]


def test_blocks_stack_in_flow_order():
    doc = parse("<html><body><div id=a>one</div><div id=b style='height:100px'>two</div>"
                "<div id=c>three</div></body></html>")
    lay = layout(doc)
    a, b, c = (_node(doc, "div", id=x) for x in "abc")
    assert lay.top[a] == 0 and lay.top[b] == LINE_HEIGHT and lay.top[c] == LINE_HEIGHT + 100
    body = _node(doc, "body")
    assert lay.height[body] == 2 * LINE_HEIGHT + 100 == lay.page_height


def test_hidden_elements_have_zero_size_and_take_no_space():
    # the parse drops hidden elements unless they hold most of the page's text (a body shown
    # by a script): a keeps most of the text and stays, b goes
    secret = "secret text " * 30
    doc = parse(f"<html><body><div id=a style='display: none'><p>{secret}</p></div>"
                "<div id=b hidden>also hidden</div><div id=c>shown</div></body></html>")
    assert all(el is None or el.get("id") != "b" for el in doc.elements)
    lay = layout(doc)
    i = _node(doc, "div", id="a")
    assert lay.width[i] == lay.height[i] == 0 and lay.hidden[i]
    assert lay.height[_node(doc, "p")] == 0
    assert lay.top[_node(doc, "div", id="c")] == 0 and not lay.hidden[_node(doc, "div", id="c")]


def test_colours_are_explicit_only_and_inherit_on_request():
    doc = parse("<html><body><div id=a style='background: #FFF url(x.png) no-repeat'>"
                "<p>x</p></div><table bgcolor=red><tr><td><font color='#123456'>f</font></td>"
                "</tr></table><div id=c style='color: rgb(1, 2, 3)'>c</div></body></html>")
    lay = layout(doc)
    a, p = _node(doc, "div", id="a"), _node(doc, "p")
    assert lay.background[a] == "#ffffff" and lay.background[p] is None
    assert lay.background[_node(doc, "table")] == "red"
    assert lay.color[_node(doc, "font")] == "#123456"
    assert lay.color[_node(doc, "div", id="c")] == "rgb(1,2,3)"
    assert all(c is None for c in lay.color[:_node(doc, "font")])
    eff = inherited(doc, lay.background)
    assert eff[p] == "#ffffff" and eff[_node(doc, "td")] == "red" and eff[0] is None


def test_cjk_pages_use_full_width_characters():
    doc = parse("<html><body><p>" + "中文正文内容" * 10 + "</p></body></html>")
    p = _node(doc, "p")
    lay = layout(doc)
    assert lay.width[p + 1] == 60 * CJK_CHAR_WIDTH           # the text's line box
    assert lay.height[p] == LINE_HEIGHT                       # 960 px fit on one line
    latin = parse("<html><body><p>" + "abcdef" * 10 + "</p></body></html>")
    assert layout(latin).width[_node(latin, "p") + 1] == 60 * CHAR_WIDTH


def test_large_deep_page_is_fast_and_finite():
    # ~100,000 nodes, nesting as deep as the parser allows: no recursion, vectorised passes
    deep = "<div>" * 200 + "deep text" + "</div>" * 200
    rows = "".join(f"<div class=r><span>item {i}</span> <a href=/{i}>link</a> tail</div>"
                   for i in range(16000))
    doc = parse(f"<html><body>{deep}{rows}</body></html>")
    assert doc.size > 90000
    t = time.perf_counter()
    lay = layout(doc)
    assert time.perf_counter() - t < 5.0
    for arr in (lay.width, lay.height, lay.top, lay.left):
        assert np.isfinite(arr).all() and (arr >= 0).all()
    assert lay.page_height >= 16000 * LINE_HEIGHT


@pytest.mark.shared
def test_real_page_layout_is_consistent(extraction_data):
    page = extraction_data / "dragnet-dev" / "dn119.html"
    doc = parse(page.read_bytes())
    lay = layout(doc)
    body = doc.body
    assert lay.page_height > 500
    kids = doc.element_children(body)
    shown = kids[~lay.hidden[kids]]
    # block children of <body> lie inside the body box
    assert (lay.top[shown] + lay.height[shown] <= lay.height[body] + 1e-6).all()
    assert (lay.width[shown] <= max(lay.page_width, lay.width.max())).all()
