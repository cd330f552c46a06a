import re

import numpy as np
import pytest

from extraction import extract
from extraction.document import TEXT, ParseError, parse


def test_node_table_preorder_with_text_nodes():
    doc = parse("<html><body><div>a<p>b <b>bold</b>, x.</p>c<br>d<a href=x>link</a></div>"
                "</body></html>")
    assert doc.tag_names == ["html", "body", "div", "#text", "p", "#text", "b", "#text",
                             "#text", "#text", "br", "#text", "a", "#text"]
    div = doc.find("div")
    # subtree interval covers everything under the div
    assert doc.end[div] == doc.size
    assert list(doc.children(div)) == [3, 4, 9, 10, 11, 12]
    assert doc.in_link[doc.size - 1] and not doc.in_link[3]


def test_subtree_statistics():
    doc = parse("<body><div>a<p>b <b>bold</b>, x.</p>c<br>d<a href=x>link</a></div></body>")
    s = doc.stats
    div, p = doc.find("div"), doc.find("p")
    # a node's length is the sum over its text runs, each collapsed and stripped (§0.4)
    assert s.text[p] == len("b") + len("bold") + len(", x.")
    assert s.link_text[div] == 4
    assert s.punct[p] == 2 and s.stops[p] == 1
    assert s.bold[div] == 1 and s.breaks[div] == 1 and s.anchors[div] == 1
    assert s.own_text[div] == len("a") + len("c") + len("d")


def test_text_output_breaks_lines_at_blocks_and_br():
    doc = parse("<body><p>one <i>two</i></p><p>three<br>four</p><table><tr><td>x</td>"
                "<td>y</td></tr></table></body>")
    assert doc.text_of(doc.kind == TEXT) == "one two\nthree\nfour\nx y"


@pytest.mark.parametrize("walk", ["compiled", "python"])
def test_a_lists_options_are_separate_words(walk, monkeypatch):
    """``<option>`` texts glued ("JanuaryFebruary") in every method's text and in the
    tag-block model of relevance: nothing separates them on the page but the element."""
    from extraction import document

    if walk == "python":
        monkeypatch.setattr(document, "_walk", document._walk_python)
    doc = document.parse("<body><p>Month: <select><option>January</option><option>February"
                         "</option><optgroup label=x><option>March</select> ok</p></body>")
    assert doc.text_of(doc.kind == TEXT) == "Month: January February March ok"


def test_cjk_text_is_not_split_by_inline_tags():
    doc = parse("<body><p>中文<b>网页</b>正文。</p></body>")
    assert doc.text_of(doc.kind == TEXT) == "中文网页正文。"
    assert doc.stats.stops[doc.find("p")] == 1


@pytest.mark.parametrize("walk", ["compiled", "python"])
def test_a_space_only_between_two_inline_elements_still_separates_their_words(walk,
                                                                              monkeypatch):
    """Found by a review: a run of only whitespace made no text row, so ``<b>quick</b>
    <i>brown</i>`` read "quickbrown" in every method, and bylines ("Ирина Смирнова17 апреля")
    and titles with it."""
    from extraction import document, extract

    if walk == "python":
        monkeypatch.setattr(document, "_walk", document._walk_python)
    html = ("<body><h1><span>Breaking:</span> <span>Storm</span></h1><p>The <b>quick</b> "
            "<i>brown</i> fox and the <a href=a>lazy</a>&nbsp;<a href=b>dog</a>, "
            "<span>Ирина</span>\n<span>Смирнова</span><time>17</time><b>中文</b></p></body>")
    doc = parse(html)
    assert doc.text_of(doc.kind == TEXT) == ("Breaking: Storm\nThe quick brown fox and the lazy "
                                             "dog, Ирина Смирнова17中文")
    # the space taken into a run changes none of its counts (length: its collapsed text's)
    ids = np.flatnonzero(doc.kind == TEXT).tolist()
    assert [int(doc.tlen[i]) for i in ids] == [len(" ".join(doc.texts[i].split())) for i in ids]
    assert [doc.texts[i] for i in ids][:3] == ["Breaking:", " Storm", "The "]
    article = "<p>" + "A sentence of the article, with some words. " * 20 + "</p>"
    result = extract(f"<html><body><article>{html[6:-7]}{article}</article></body></html>")
    assert "quick brown fox" in result.text and "lazy dog" in result.text


def test_whitespace_collapse_counts_characters_not_bytes():
    doc = parse("<body><p>  a \n\t b\u00a0 c  </p></body>")
    t = int(np.flatnonzero(doc.kind == TEXT)[0])
    assert doc.tlen[t] == len("a b c")
    assert doc.stats.nbsp[doc.find("p")] == 1


@pytest.mark.parametrize("bad", [b"", b"   \n", "", None])
def test_empty_input_is_a_parse_error(bad):
    with pytest.raises(ParseError):
        parse(bad)


def test_binary_garbage_is_rejected_with_a_reason():
    with pytest.raises(ParseError, match="binary"):
        parse(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" * 50)


def test_runaway_nesting_keeps_the_text_after_it():
    html = "<html><body>" + "<font>" * 5000 + "deep" + "<p>after the nesting</p></body></html>"
    doc = parse(html)
    assert "after the nesting" in doc.text_of(doc.kind == TEXT)


def test_xml_declaration_in_str_input():
    doc = parse('<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>')
    assert doc.text_of(doc.kind == TEXT) == "x"


def test_unclosed_title_does_not_swallow_the_page():
    filler = "x" * 1200
    html = (f"<html><head><title>Site name<script>{filler}</script></head>"
            "<body><p>The article body is here.</p></body></html>")
    doc = parse(html)
    assert doc.find("body") >= 0
    assert "The article body is here." in doc.text_of(nodes=[doc.find("body")])


@pytest.mark.parametrize("page, expected", [
    ('<html><head><meta charset="utf-8"><title>Café</title></head><body><p>naïve 中文 ok</p>'
     '<p>ctrl\x07char</p></body></html>', "ctrl char"),
    ('<?xml version="1.0" encoding="utf-8"?>\n<html><body><p>après la déclaration</p></body>'
     '</html>', "après la déclaration"),
    ('<html><body><p>plain ascii only</p></body></html>', "plain ascii only"),
])
def test_utf8_bytes_and_str_give_the_same_table(page, expected):
    # valid UTF-8 bytes go to libxml2 as they are; a str is encoded first: same document
    from_bytes, from_str = parse(page.encode("utf-8")), parse(page)
    assert from_bytes.texts == from_str.texts
    assert (from_bytes.tag == from_str.tag).all() and (from_bytes.end == from_str.end).all()
    assert expected in from_bytes.text_of(from_bytes.kind == TEXT)


def test_invalid_utf8_bytes_are_replaced_not_passed_through():
    body = "<p>Le café était fermé, à côté de l'église.</p>" * 40
    page = ('<html><head><meta charset="utf-8"></head><body>' + body).encode("utf-8") \
        + b"<p>bad \xff byte and good \xc3\xa9</p></body></html>"
    doc = parse(page)
    assert doc.encoding == "utf-8"
    text = doc.text_of(doc.kind == TEXT)
    assert text.endswith("bad \ufffd byte and good \u00e9") and "café était" in text


def test_preformatted_text_keeps_its_line_breaks_and_indentation():
    doc = parse("<body><p>Before.</p><pre><span>def</span> <span>f</span>():\n"
                "    <span>return</span> 1  \n<!-- note -->\n\n    x&nbsp;=&nbsp;2\n</pre>"
                "<p>After.</p></body>")
    assert doc.text_of(doc.kind == TEXT) == "Before.\ndef f():\n    return 1\n    x = 2\nAfter."
    # a <pre> kept only in part reads as any other text: no line of it comes from dropped runs
    keep = doc.kind == TEXT
    keep[[i for i in np.flatnonzero(keep) if doc.texts[i].strip() == "return"]] = False
    text = doc.text_of(keep)
    assert "return" not in text and text.startswith("Before.\ndef f") and "\n" not in text[8:-7]


def test_code_listing_of_a_real_page_keeps_its_layout(extraction_data):
    from extraction import extract

    page = (extraction_data / "cleaneval-train" / "cefin88.html").read_bytes()
    text = extract(page, method="auto").text
    assert "public class SimpleApp {\n  public SimpleApp() {\n    Frame3D frame3d" in text


def test_a_pre_with_line_break_tags_keeps_them_as_line_breaks():
    doc = parse("<body><pre>first line<br>second line<br/>third</pre></body>")
    assert doc.text_of(doc.kind == TEXT) == "first line\nsecond line\nthird"


def test_declarative_shadow_dom_is_text_and_other_templates_are_not():
    """Found by a review: a <template shadowrootmode="open"> (which browsers render in place)
    gave "no text in the page"; an ordinary <template> stays inert."""
    shadow = "Visible shadow root text shown by every current browser. " * 5
    inert = "Inert template text that no browser shows. " * 5
    page = (f'<html><body><my-card><template shadowrootmode="open"><p>{shadow}</p></template>'
            f'</my-card><template><p>{inert}</p></template></body></html>')
    for data in (page, page.encode("utf-8")):
        text = extract(data).text
        assert "Visible shadow root text" in text and "Inert template" not in text
    legacy = page.replace("shadowrootmode", "shadowroot")
    assert "Visible shadow root text" in extract(legacy).text


def test_a_lone_surrogate_in_a_str_is_the_replacement_character():
    text = extract("<p>" + "Before \ud800 after, a sentence of the page. " * 10 + "</p>").text
    assert "Before \ufffd after" in text and "?" not in text


# the markup of the highlighters that number a listing's lines (Pygments table and inline,
# Rouge, Hugo's Chroma table and inline); the numbers are no text of the page
_LISTINGS = {
    "pygments-table": (
        '<div class="highlight-python"><table class="highlighttable"><tr><td class="linenos">'
        '<div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2'
        '</span></pre></div></td><td class="code"><div class="highlight"><pre><span class="kn">'
        'import</span> json\n<span class="nb">print</span>(json)\n</pre></div></td></tr>'
        '</table></div>'),
    "pygments-inline": (
        '<div class="highlight"><pre><span class="linenos">1</span>import json\n'
        '<span class="linenos">2</span>print(json)\n</pre></div>'),
    "rouge": (
        '<figure class="highlight"><pre><code class="language-python"><table class="rouge-table">'
        '<tbody><tr><td class="gutter gl"><pre class="lineno">1\n2\n</pre></td>'
        '<td class="code"><pre>import json\nprint(json)\n</pre></td></tr></tbody></table>'
        '</code></pre></figure>'),
    "chroma-table": (
        '<div class="highlight"><table class="lntable"><tr><td class="lntd"><pre><code>'
        '<span class="lnt">1\n</span><span class="lnt">2\n</span></code></pre></td>'
        '<td class="lntd"><pre><code class="language-python"><span class="line">import json\n'
        '</span><span class="line">print(json)\n</span></code></pre></td></tr></table></div>'),
    "chroma-inline": (
        '<div class="highlight"><pre><code><span class="line"><span class="ln">1</span>import '
        'json\n</span><span class="line"><span class="ln">2</span>print(json)\n</span></code>'
        '</pre></div>'),
}
_PROSE = "<p>" + "The parser reads the configuration file and reports each error. " * 4 + "</p>"


@pytest.mark.parametrize("name", sorted(_LISTINGS))
def test_line_numbers_of_a_code_listing_are_no_text(name):
    page = f"<html><body><article><h1>Config</h1>{_PROSE}{_LISTINGS[name]}{_PROSE}</article>"
    doc = parse(page)
    text = doc.text_of(doc.kind == TEXT)
    assert "import json\nprint(json)" in text
    assert not re.search(r"(?m)^\s*[12]\s*$", text), text
    result = extract(page, markdown=True)
    assert "```" in result.markdown and "\n1\n" not in result.markdown
    assert "import json" in result.text and not re.search(r"(?m)^[12]\s*$", result.text)


@pytest.mark.parametrize("html", [
    # a layout "gutter" with numbers and no code near it; a listing's numbered lines in an
    # <ol class="linenums"> (Prettify: the numbers are the list's); a table of figures
    '<div class="gutter">2024</div><p>Text</p>',
    '<pre class="prettyprint linenums"><ol class="linenums"><li>42</li></ol></pre>',
    '<table><tr><td class="line-number">7</td><td>seven</td></tr></table>',
    '<pre>10\n20\n30</pre>',
])
def test_numbers_that_are_no_line_numbers_stay(html):
    digits = re.findall(r">(\d[\d\n]*)<", html)
    doc = parse(f"<html><body>{html}</body></html>")
    text = doc.text_of(doc.kind == TEXT)
    assert all(d.strip() in text for d in digits), text
