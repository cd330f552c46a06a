"""The compiled node walk (extraction/_nodewalk.pyx) gives the reference walk's table exactly."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extraction import document
from extraction.chars import RUN_COUNTS, run_counts
from extraction.datasets import available
from extraction.document import BLOCK_LEVEL, CELL_LEVEL, ParseError, parse, tag_code

# A failed build is silent at install time (the extension is optional): fail here instead, so
# CI never measures or ships the slow path by accident.
from extraction import _nodewalk  # noqa: E402


def both_walks(doc: document.Document):
    args = (document._TAG_CODES, tag_code, BLOCK_LEVEL, CELL_LEVEL, document.CHAR_CLASSES)
    return document._walk_python(doc.root, *args), _nodewalk.walk(doc.root, *args)


def assert_same_table(doc: document.Document) -> None:
    (rows_py, els_py, texts_py, names_py, hints_py, none), \
        (rows_c, els_c, texts_c, names_c, hints_c, counts) = both_walks(doc)
    assert none is None
    assert hints_py == hints_c
    reference = run_counts([t for t in texts_py if t])
    per_run = np.frombuffer(counts, dtype=np.int64).reshape(-1, len(RUN_COUNTS))
    for k, name in enumerate(RUN_COUNTS):
        assert per_run[:, k].tolist() == reference[name].tolist(), name
    assert bytes(rows_py) == rows_c
    assert texts_py == texts_c
    assert names_py == names_c
    assert len(els_py) == len(els_c)
    assert all(a is b for a, b in zip(els_py, els_c))  # the same lxml proxies


def test_the_document_uses_the_compiled_walk():
    assert document._walk is _nodewalk.walk


EDGE_CASES = [
    "<p>one<a href=x>two <b>three</b></a> four<br>five</p><table><tr><td>a</td><td>b</td></tr>",
    "<div>\u3000</div><div>\xa0</div><p>\x0b</p><p> \t\r\n </p><span>中文,。</span>",
    "<html><body><svg:rect>x</svg:rect><o:p>office</o:p><p>&amp; &nbsp; &#11; &unknown;</p>",
    "<p>a<![CDATA[b]]>c</p><!-- c --><p>after</p><?pi x?>tail",
    "<ul>" + "<li><a href=#>item</a> tail " * 50 + "</ul>",
    "<div>" * 3000 + "deep" + "</div>" * 3000 + "<p>after the nesting</p>",
    "text only, no tags at all",
    "<a><a><a>nested links</a></a></a> out",
    '<div class="a b" id=""><p id="x" class=""><span class=c id=d CLASS=e>v</span></p></div>',
    '<div class="x &amp; y" xml:id="n" data-id="q" id="é">v</div><p class=k class=l>w</p>',
]


@pytest.mark.parametrize("html", EDGE_CASES)
def test_edge_cases(html):
    assert_same_table(parse(html))


def test_text_run_properties():
    doc = parse("<p>x</p>")
    rows, _, texts, names, _, counts = _nodewalk.walk(doc.root, document._TAG_CODES, tag_code,
                                                      BLOCK_LEVEL, CELL_LEVEL,
                                                      document.CHAR_CLASSES)
    assert "x" in texts and names[texts.index("x")] == "#text"
    assert len(rows) == 4 * 8 * len(texts)
    assert len(counts) == 8 * len(RUN_COUNTS) * sum(1 for t in texts if t)


HTML_PIECES = st.one_of(
    st.sampled_from(["<div>", "</div>", "<p>", "</p>", "<a href=u>", "</a>", "<br>", "<td>",
                     "<tr>", "<table>", "</table>", "<b>", "</b>", "<script>x</script>",
                     "<!-- c -->", "&amp;", "&nbsp;", "<li>", "<h1>", "</h1>"]),
    st.text(alphabet="ab 中\u3000\xa0\t\n,.。<>&;", max_size=12),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(HTML_PIECES, max_size=60))
def test_random_markup(pieces):
    try:
        doc = parse("".join(pieces) or "x")
    except ParseError:
        return
    assert_same_table(doc)


@pytest.mark.shared
def test_every_page_of_the_shared_sets(extraction_data):
    checked = 0
    for name in available():
        for path in sorted((extraction_data / name).glob("*.html"))[:60]:
            try:
                doc = parse(path.read_bytes())
            except ParseError:
                continue
            assert_same_table(doc)
            checked += 1
    assert checked > 200


# --------------------------------------------------------------- hidden elements, text length

HIDDEN_CASES = [
    "<div hidden>a</div><p style='DISPLAY: None'>b</p><span style='color:red'>c</span>",
    "<div style='visibility:HIDDEN'><p style='display:none'>x</p><p>y</p></div>tail",
    "<p style=''>e</p><p hidden=''>f</p><p style='display:&#110;one'>g</p><i style=nonE>h</i>",
    "<html style='display:none'><body><p>x</p></body></html>",
    "中文<div style='display:none'>隐藏 \u00e9\U0001F600</div>文字<!-- hidden comment -->",
    "<svg:g style='display:none'>n</svg:g><p>&amp; &nbsp;</p><![CDATA[c]]>",
    "<p>" * 2000 + "<b hidden>deep</b>" + "</p>" * 2000,
    "<tr style='visibility:COLLAPSE'><td>row</td></tr><p style='display:/**/none'>c</p>",
    "<dialog>a</dialog><dialog open>b</dialog><DIALOG Open=''>c</DIALOG>"
    "<div hidden><dialog style='color:red'>d<dialog>e</dialog></dialog></div>",
]


def assert_same_hidden(root) -> None:
    py = document._hidden_candidates_python(root)
    compiled = _nodewalk.hidden_candidates(root)
    assert len(py) == len(compiled) and all(a is b for a, b in zip(py, compiled))
    for el in [root, *py]:
        assert _nodewalk.text_length(el) == len("".join(el.itertext()))
        assert document._text_length_python(el) == _nodewalk.text_length(el)


def test_the_document_uses_the_compiled_hidden_element_scan():
    assert document._hidden_candidates is _nodewalk.hidden_candidates
    assert document._text_length is _nodewalk.text_length


@pytest.mark.parametrize("html", HIDDEN_CASES)
def test_hidden_candidates_edge_cases(html):
    root = document._parse_tree(html)
    assert_same_hidden(root)
    if any(word in html.lower() for word in ("hidden", "none", "collapse", "<dialog>")):
        assert _nodewalk.hidden_candidates(root)


@pytest.mark.shared
def test_hidden_candidates_on_the_shared_pages(extraction_data):
    from extraction.encoding import decode_html

    with_hidden = 0
    for name in available():
        for path in sorted((extraction_data / name).glob("*.html"))[:60]:
            root = document._parse_tree(decode_html(path.read_bytes()).text)
            if root is None:
                continue
            assert_same_hidden(root)
            with_hidden += bool(_nodewalk.hidden_candidates(root))
    assert with_hidden > 50
