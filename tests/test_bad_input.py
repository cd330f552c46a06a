"""extract() never raises: bad input gives an empty text with a reason (every method)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import extract
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
