"""extract() never raises: bad input gives an empty text with a reason (every method)."""
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import extract, parse
from extraction.methods import METHOD_NAMES

ARTICLE = "<p>" + "A sentence of the article, with some words. " * 20 + "</p>"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=3000))
def test_arbitrary_bytes(data):
    result = extract(data)
    assert isinstance(result.text, str)
    assert result.text or result.reason


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=2000))
def test_arbitrary_text(text):
    result = extract(text, method="e1")
    assert result.text or result.reason


TAGS = st.sampled_from(["div", "p", "span", "a", "b", "table", "tr", "td", "ul", "li", "h1",
                        "script", "style", "form", "iframe", "br", "img", "section"])


@st.composite
def html_soup(draw):
    parts = draw(st.lists(st.one_of(
        TAGS.map(lambda t: f"<{t}>"), TAGS.map(lambda t: f"</{t}>"),
        st.text(alphabet="abc 中文,.。&;<>!\n", max_size=30)), max_size=60))
    return "".join(parts)


@settings(max_examples=40, deadline=None)
@given(html_soup(), st.sampled_from(METHOD_NAMES))
def test_malformed_html_every_method(html, method):
    result = extract(html, method=method, siblings=[html])
    assert result.text or result.reason


@pytest.mark.parametrize("method", METHOD_NAMES)
@pytest.mark.parametrize("html, reason", [
    (b"", "empty"), (b"   \n\t ", "empty"), (None, "no input"),
    (b"\x00\x01\x02\x03\xff\xfe\x00\x00binary" * 100, "binary"),
])
def test_empty_and_binary_inputs(method, html, reason):
    result = extract(html, method=method)
    assert result.text == "" and reason in result.reason


@pytest.mark.parametrize("method", METHOD_NAMES)
def test_frames_and_script_only_pages(method):
    frames = '<html><frameset><frame src="a.html"><frame src="b.html"></frameset></html>'
    scripts = "<html><head><script>var x = 'text';</script></head><body><script>go()</script>" \
              "<style>p {}</style></body></html>"
    for html in (frames, scripts):
        result = extract(html, method=method)
        assert result.text == "" and result.reason


@pytest.mark.parametrize("method", ["e1", "e2", "auto"])
def test_truncated_html(method):
    html = f"<html><body><div><h1>Title</h1>{ARTICLE}{ARTICLE}"[:-200]
    assert "A sentence of the article" in extract(html, method=method).text


@pytest.mark.parametrize("method", METHOD_NAMES)
def test_hundred_thousand_deep_nesting(method):
    html = "<html><body>" + "<div>" * 100_000 + ARTICLE + "</div>" * 100_000 + "</body></html>"
    result = extract(html, method=method)
    assert result.text or result.reason


def test_entity_bomb_is_not_expanded():
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
            '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
            f'<html><body><p>&lol3;</p>{ARTICLE}</body></html>')
    result = extract(bomb.encode(), method="e1")
    assert "lollollol" not in result.text


def test_large_page_is_processed():
    html = ("<html><body><div id=nav>" + "<a href=/x>link</a>" * 2000 + "</div><div>"
            + ARTICLE * 6000 + "</div></body></html>")
    assert len(html) > 5_000_000
    result = extract(html.encode(), method="auto")
    assert "A sentence of the article" in result.text and "link link" not in result.text


@pytest.mark.parametrize("data, kind", [
    (b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nstream\n" + bytes(range(256)) * 8, "PDF"),
    (b"PK\x03\x04" + b"<html>" * 50, "ZIP"), (b"\x1f\x8b\x08\x00" + b"\x00" * 200, "gzip"),
    (b"GIF89a" + b"<p>text</p>" * 20, "GIF"),
    (b"RIFF\x00\x00\x00\x00WEBPVP8 " + bytes(200), "RIFF WEBP")])
def test_binary_formats_are_refused_by_their_signature(data, kind):
    result = extract(data)
    assert result.text == "" and result.reason == f"binary data ({kind}), not HTML"


@pytest.mark.parametrize("method", ["auto", "e1", "e3"])
def test_hidden_copies_of_the_article_are_not_main_text(method):
    article = "".join(f"<p>Paragraph {i}: the council approved the new budget after a long "
                      "debate, said the mayor.</p>" for i in range(6))
    html = (f"<html><body><div>{article}</div><div style='DISPLAY : none'>{article}</div>"
            f"<div hidden>{article}</div><section style='visibility:hidden'>{article}</section>"
            "</body></html>")
    assert extract(html, method=method).text.count("Paragraph 0:") == 1


@pytest.mark.parametrize("method", ["auto", "e1", "e3"])
@pytest.mark.parametrize("unrendered", [
    "<video src='a.mp4'>UNSEEN: your browser does not support the video tag.</video>",
    "<audio><source src='a.ogg'>UNSEEN: <a href='a.ogg'>download</a> the audio.</audio>",
    "<canvas width=300>UNSEEN: canvas fallback</canvas>",
    "<video><canvas>i</canvas></video><canvas>UNSEEN after a holder in a holder</canvas>",
    "<input list=colours><datalist id=colours><option value='UNSEEN red'></datalist>",
    "<dialog><p>UNSEEN: subscribe to our newsletter, it is free and weekly.</p></dialog>",
    "<p style='visibility: Collapse'>UNSEEN collapsed</p>",
    "<p style='display:/* legacy */none'>UNSEEN behind a CSS comment</p>"])
def test_fallback_and_unrendered_content_is_not_main_text(method, unrendered):
    html = (f"<html><body><article><h1>Heading</h1>{ARTICLE}{unrendered}<p>Next words.</p>"
            f"{ARTICLE}</article></body></html>")
    text = extract(html, method=method).text
    assert "UNSEEN" not in text and "Next words." in text


@pytest.mark.timeout(30)
@pytest.mark.parametrize("style, hidden", [
    ("display:" + "/**/" * 40 + "x;color:none", False),    # exponential with a comment regex
    ("display:/*" * 10_000, False),                          # quadratic with one
    ("display:/* never closed none", False),
    ("display/**/:/* a */none", True),
    ("/* display:none */ color: red", False),
    ("--display:none; --visibility: hidden", False),       # custom properties hide nothing
    ("color:red;display :NONE", True)])
def test_css_comments_in_a_style_cost_linear_time(style, hidden):
    html = f'<html><body>{ARTICLE}<div style="{style}">STYLED text</div></body></html>'
    assert ("STYLED" not in page_text(html)) == hidden


def test_an_open_dialog_and_a_display_not_none_style_are_text():
    html = (f"<html><body><article>{ARTICLE}<dialog open><p>SEEN in the dialog</p></dialog>"
            "<p style='display:none-ish; visibility:visible'>SEEN styled</p></article>"
            "</body></html>")
    text = page_text(html)
    assert "SEEN in the dialog" in text and "SEEN styled" in text


@pytest.mark.parametrize("method", ["auto", "e1"])
def test_an_article_body_shown_by_a_script_is_kept_and_a_hidden_menu_is_not(method):
    """WeChat articles ship their body as ``<div id="js_content" style="visibility:
    hidden;">``, revealed by a script; with a long comment section it held less than half
    of the page's text and every method returned the comments only (F1 0.12 for auto on
    the unseen set's WeChat page).  A drop-down menu hidden the same way is mostly links."""
    body = "".join(f"<p>Paragraph {i}: keep the air conditioner near 26 degrees and open the "
                   "window for ten minutes every two or three hours, doctors advise.</p>"
                   for i in range(5))
    comments = "".join(f"<li><p>Reader {i}: thanks, my office keeps it at sixteen degrees all "
                       "day and we all have headaches by the afternoon, I will show them "
                       "this.</p></li>" for i in range(9))
    menu = "".join(f"<a href='/c/{i}'>Channel {i} news</a> " for i in range(30))
    html = (f"<html><body><div style='visibility:hidden'><b>MENU</b> {menu}</div>"
            f"<div id='js_content' style='visibility: hidden;'>{body}</div>"
            f"<div class='comments'><h3>Comments</h3><ul>{comments}</ul></div></body></html>")
    text = extract(html, method=method).text
    assert "Paragraph 0:" in text and "Paragraph 4:" in text and "MENU" not in text


def test_a_body_hidden_until_a_script_runs_is_kept():
    """Anti-flicker snippets hide the whole body until a script shows it: an element holding
    most of the page's text is not dropped."""
    html = f"<html><body style='display:none'><div>{ARTICLE}</div></body></html>"
    assert "A sentence of the article" in extract(html).text


def test_a_hidden_element_keeps_the_text_after_it():
    html = f"<html><body>{ARTICLE}<p>Before <b hidden>secret</b>after it.</p></body></html>"
    text = extract(html).text
    assert "secret" not in text and "Before after it." in text


def test_an_unclosed_title_does_not_swallow_a_page_without_body_tag():
    result = extract("<html><head><title>My page" + ARTICLE * 3)
    assert result.title == "My page" and "A sentence of the article" in result.text


def test_an_svg_title_is_not_the_page_title():
    html = f"<html><body><svg><title>Icon of a cat</title></svg><h1>Big News</h1>{ARTICLE}"
    assert extract(html).title == "Big News"


def test_one_sibling_page_instead_of_a_list_is_a_clear_error():
    with pytest.raises(TypeError, match="siblings must be a list of pages"):
        extract(ARTICLE, method="e5", siblings=ARTICLE)


@pytest.mark.parametrize("method", [None, 1])
def test_a_method_that_is_not_a_name_is_a_clear_error(method):
    with pytest.raises(ValueError, match="the extraction method must be a name"):
        extract(ARTICLE, method=method)


def test_invisible_format_characters_are_not_in_the_text():
    html = ("<p>" + "extra\u00adordinary zero\u200bwidth joined\u2060word \ufeffbom \ufffe"
            "noncharacter \u200cZWNJ stays. " * 20 + "</p>")
    text = extract(html).text
    assert "extraordinary zerowidth joinedword bom noncharacter \u200cZWNJ stays." in text
    assert not any(c in text for c in "\u00ad\u200b\u2060\ufeff\ufffe")


# ---------------------------------------------- found by a review of the extraction library
def page_text(html: str | bytes) -> str:
    """All the text of the parsed page."""
    doc = parse(html)
    return doc.text_of(nodes=[0])


def test_a_reference_to_a_control_character_is_a_space_hidden_neighbours_included():
    for ref in ("&#1;", "&#x1B;", "&#11;", "&#127;"):
        html = f'<p>Some text {ref} here <span style="display:none">x</span> and more</p>'
        # lxml refused the joined tail of the hidden span
        assert page_text(html.encode()) == "Some text here and more", ref
        assert extract(html + ARTICLE).reason is None
    assert page_text(b"<p>it&#8217;s &#128;</p>") == "it\u2019s \u20ac"


@pytest.mark.parametrize("method", ["e3", "e5", "e6"])
@pytest.mark.parametrize("span", ["\u00b2", "\u0663", "9" * 5000, "1e400"])
def test_a_colspan_or_width_that_is_no_number_counts_as_none(method, span):
    html = (f'<table width="{span}"><tr><td colspan="{span}">cell</td></tr></table>'
            f'<div style="width:{span}px">{ARTICLE}</div>')
    result = extract(html, method=method, siblings=[html.replace("cell", "other cell")])
    assert "internal error" not in (result.reason or "") and "layout failed" not in (
        result.reason or "")


@pytest.mark.parametrize("tag", ["section", "article", "blockquote", "em", "x-card"])
def test_a_balanced_tower_deeper_than_the_parser_goes_keeps_the_text_after_it(tag):
    html = ("<p>before text</p>" + f"<{tag}>" * 3000 + "deep text" + f"</{tag}>" * 3000
            + ARTICLE + "<p>after text, the rest of the article</p>")
    assert page_text(html).endswith("after text, the rest of the article")


@pytest.mark.parametrize("tag", ["wbr", "embed", "source", "track"])
def test_thousands_of_void_tags_libxml2_nests_keep_the_text_after_them(tag):
    # libxml2 2.14 nests these void elements: 3,000 in one paragraph cut the page there
    html = (ARTICLE + "<p>See " + "".join(f"part{i}<{tag}>" for i in range(3000))
            + " for details.</p>" + "<p>after text, the rest of the article</p>")
    text = page_text(html)
    assert text.endswith("after text, the rest of the article")
    assert ("part0part1part2" if tag == "wbr" else "part0 part1 part2") in text


@pytest.mark.timeout(60)
def test_many_unclosed_tag_fragments_under_deep_nesting_cost_linear_time():
    # each "<i" without ">" was scanned to the page's end: 300 KB took 39 s
    html = b"<b>" * 3000 + b"<i" * 150_000 + ARTICLE.encode()
    assert extract(html, method="e1").reason is None


def test_an_unclosed_upper_case_title_is_closed_like_a_lower_case_one():
    for opener in ("<title>", "<TITLE>", "<Title lang=en>"):
        html = f"<html><head>{opener}My page\n{ARTICLE}</html>"
        result = extract(html)
        assert result.title == "My page" and "A sentence of the article" in result.text


def test_noframes_and_noembed_markup_is_not_text():
    html = (f"<html><body>{ARTICLE}<noembed><p>Plugin <b>missing</b></p></noembed>"
            "<noframes><p>Your browser does not support frames</p></noframes></body></html>")
    for method in METHOD_NAMES:
        result = extract(html, method=method, siblings=[html])
        assert "<p>" not in result.text and "browser does not" not in result.text, method


@pytest.mark.timeout(60)
def test_the_visibility_rule_does_not_depend_on_order_markup_or_nesting():
    """Found by the review of the change: a display:none copy after the revealed article
    dropped it (before it, not); an article written one character per <span> was dropped
    (its longest text run, one character, "repeated"); 250 nested visibility:hidden levels
    around a 7 MB article took 31.8 s."""
    article = "".join(f"<p>Paragraph {i}: keep the air conditioner near 26 degrees and open "
                      "the window for ten minutes every two hours.</p>" for i in range(5))
    comments = "".join(f"<p>Reader {i}: my office keeps it at sixteen degrees all day and we "
                       "all have headaches by the afternoon.</p>" for i in range(9))
    hidden, revealed = "<div style='display:none'>", "<div style='visibility:hidden'>"
    for first, second in ((revealed, hidden), (hidden, revealed)):
        html = f"<body>{first}{article}</div>{second}{article}</div>{comments}</body>"
        assert page_text(html).count("Paragraph 0:") == 1
    # what display:none hides inside the revealed body stays hidden (found reading the change)
    html = (f"<body>{revealed}{article}<div style='display:none'>UNSEEN prompt</div></div>"
            f"{comments}</body>")
    assert "Paragraph 0:" in page_text(html) and "UNSEEN" not in page_text(html)
    spans = "".join(f"<span>{c}</span>" for c in "天气一热空调就成了续命神器可不少人发现" * 12)
    assert "天气一热" in page_text(f"<body>{revealed}{spans}</div>{comments}</body>")
    big = ARTICLE * 8000                # (the hidden copy of the shown text goes, once)
    deep = f"<body>{revealed * 250}{big}{'</div>' * 250}<div>{big}x</div></body>"
    started = time.perf_counter()
    assert page_text(deep).count("A sentence of the article") == 8000 * 20
    assert time.perf_counter() - started < 20
