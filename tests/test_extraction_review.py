"""Cases a review of the extraction library found (2026-12-02), each failing before its fix."""
import subprocess
import sys

import pytest

from extraction import extract, parse
from extraction.warc_input import _html_type

ARTICLE = "<p>" + "A sentence of the article, with some words. " * 20 + "</p>"


def test_until_found_sections_are_text():
    """``hidden="until-found"`` is text a reader finds and opens (MediaWiki's collapsed
    sections), not hidden text; plain ``hidden`` still is."""
    section = ('<h2>Section {0}</h2><section hidden="until-found"><p>'
               + "Body of section {0} with real article content. " * 6 + "</p></section>")
    html = ("<html><body><main><h1>Topic</h1><p>Lead paragraph.</p>"
            + "".join(section.format(i) for i in range(1, 5))
            + "<p hidden>A hidden note.</p></main></body></html>")
    for method in ("auto", "e1"):
        text = extract(html, method=method).text
        assert all(f"Body of section {i}" in text for i in range(1, 5)), method
        assert "hidden note" not in text


def test_a_closed_title_with_literal_tags_is_the_title():
    title = ("How to use the <div> and <span> tags in HTML5 documents: a complete guide for "
             "beginners and advanced web developers who want to write semantic markup that "
             "works in every browser and screen reader - WebDev Tutorials Site")
    html = f"<html><head><title>{title}</title></head><body>{ARTICLE}</body></html>"
    result = extract(html, method="e1")
    assert result.metadata["html_title"] == title
    assert "and tags in HTML5" not in result.text


def test_invisible_characters_leave_no_blank_lines_or_stray_spaces():
    result = extract("<html><body><p>\u200b</p><p>\ufeff</p></body></html>")
    assert result.text == "" and result.reason and not result
    html = ("<div><p>First paragraph of the article text.</p><p>\ufeff</p>"
            "<p>\u200b Second paragraph.</p></div>")
    for method in ("e1", "e3", "e6"):
        text = extract(html, method=method, siblings=[html]).text
        assert text == "First paragraph of the article text.\nSecond paragraph.", method


def test_ruby_readings_and_xmp_do_not_glue_words():
    doc = parse("<body><p>東京<rp>(</rp><rt>とうきょう</rt><rp>)</rp>と漢<rt>kan</rt>字</p>"
                "<xmp>raw code</xmp>after<listing>more code</listing></body>")
    assert doc.text_of(doc.kind == 1) == "東京と漢字\nraw code\nafter\nmore code"


def test_metadata_gaps():
    html = ('<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="de"><head>'
            '<link rel="canonical nofollow" href="/news/story-1">'
            '<script type="application/ld+json">//<![CDATA[\n{"@type": "NewsArticle", '
            '"datePublished": "2024-01-02", "author": {"@type": "Person", "name": "Max"}}'
            "\n//]]></script></head><body>" + ARTICLE + "</body></html>")
    meta = extract(html, url="https://a.test/x/y.html").metadata
    assert meta["canonical_url"] == "https://a.test/news/story-1"
    assert meta["declared_language"] == "de"
    assert meta["date"] == "2024-01-02" and meta["author"] == "Max"
    micro = ('<div itemscope itemtype="https://schema.org/Article"><span itemprop="author" '
             'itemscope itemtype="https://schema.org/Person"><meta itemprop="name" '
             'content="Jane Doe"></span>' + ARTICLE + "</div>")
    assert extract(micro).metadata.get("author") == "Jane Doe"


def test_a_declared_japanese_text_of_mostly_kanji_is_japanese():
    html = '<html lang="ja"><body><p>' + "東京都知事選挙結果速報、候補者得票数一覧と開票状況。" * 3 \
        + "</p></body></html>"
    assert extract(html).language == "ja"
    assert extract(html.replace(' lang="ja"', "")).language == "zh"     # (no kana majority)


@pytest.mark.parametrize("body", [b"\xef\xbb\xbf<html><body>x</body></html>",
                                  "<html><body>x</body></html>".encode("utf-16")])
def test_an_untyped_warc_body_with_a_byte_order_mark_is_html(body):
    assert _html_type(None, body[:64])
    assert not _html_type(None, b"\xef\xbb\xbf%PDF-1.4")


def test_the_command_line_escapes_what_the_console_cannot_show(tmp_path):
    page = tmp_path / "zh.html"
    page.write_text("<html><body><p>" + "中文网页的正文内容，测试编码检测是否正确。" * 3
                    + "</p></body></html>", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "extraction", "extract", str(page)],
                          capture_output=True, env={"PYTHONIOENCODING": "ascii",
                                                    "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert b"\\u4e2d\\u6587" in done.stdout



@pytest.mark.parametrize("method", ["auto", "e1", "e4"])
@pytest.mark.parametrize("href, url, expected", [
    ("//[object Object]", "https://ex.test/p", None),
    ("https://www.ex.test]/a", "https://ex.test/p", None),
    ("https://[{{ canonical }}]", None, None),
    ("/x", "http://[bad", None),
    ("story", "https://ex.test/a/b", "https://cdn.ex.test/dir/story")])
def test_a_bad_canonical_link_costs_the_field_not_the_page(method, href, url, expected):
    """Found by a review: urljoin's ValueError on a malformed canonical link (or page URL)
    made every method return no text ("internal error").  The last case reads the link
    against the page's <base>."""
    html = (f'<html><head><base href="https://cdn.ex.test/dir/"><link rel=canonical '
            f'href="{href}"></head><body>{ARTICLE}</body></html>')
    result = extract(html, url=url, method=method)
    assert "A sentence" in result.text and result.reason is None
    assert result.metadata.get("canonical_url") == expected


def test_dates_without_a_year_and_authors_that_are_link_labels_are_not_reported():
    """Found by a review of the API on the shared pages: Go's zero time, "TBD", Slashdot's
    datetime="on Tuesday July 24, @09:04AM" and a Blogger clock "4:04 PM" were dates; "View
    Profile", "About Me" and "Google +" (rel=author links) were authors."""
    def meta(head: str, body: str = "") -> dict:
        return extract(f"<html><head>{head}</head><body>{body}{ARTICLE}</body></html>").metadata

    assert "date" not in meta('<meta property="article:published_time" '
                              'content="0001-01-01T00:00:00Z">')
    assert "date" not in meta('<meta name="date" content="TBD">')
    assert "date" not in meta("", '<time datetime="on Tuesday July 24, @09:04AM">x</time>')
    # the abbr's title holds the date, its text the clock
    assert meta("", '<abbr itemprop="datePublished" title="2012-10-07T16:04:00-06:00">4:04 PM'
                "</abbr>")["date"] == "2012-10-07T16:04:00-06:00"
    assert meta('<meta name="date" content="19980210">')["date"] == "1998-02-10"
    assert "author" not in meta("", '<a rel="author" href="/p/1">View Profile</a>')
    assert "author" not in meta("", '<a rel="author" href="/about">About Me</a>')
    assert meta("", '<a rel="author" href="/p/2">By Jane Doe</a>')["author"] == "Jane Doe"
    assert meta("", '<a rel="author" href="/p/3">Byron Smith</a>')["author"] == "Byron Smith"


@pytest.mark.parametrize("address", ["https://example.com/article", "/tmp/page.html",
                                     "www.example.com/a", "C:\\pages\\a.html"])
def test_a_url_or_a_path_given_as_the_page_is_refused_with_a_reason(address):
    result = extract(address)
    assert result.text == "" and "a URL or file path, not HTML" in result.reason
    assert extract(address.encode()).reason == result.reason
    # a sentence that starts with a URL is text
    assert extract(address + " is where the story was first told").text


def test_no_siblings_given_as_none():
    assert "A sentence" in extract(f"<body>{ARTICLE}</body>", siblings=None).text


def test_an_iso_date_wins_over_a_display_form_of_it():
    """Found by a review: a meta "November 20, 2019 13:42" was reported although the page's
    JSON-LD said "2019-11-20 13:42:06+08:00" (2 shared pages)."""
    html = ('<html><head><meta name="date" content="November 20, 2019 13:42">'
            '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": '
            '"2019-11-20 13:42:06+08:00"}</script></head><body>' + ARTICLE + "</body></html>")
    assert extract(html).metadata["date"] == "2019-11-20T13:42:06+08:00"
    html = ('<html><head><meta name="date" content="Tue Nov 19 2019 03:05:46 GMT+0000"></head>'
            '<body><article><time datetime="2019-11-19">Nov 19</time>' + ARTICLE
            + "</article></body></html>")
    assert extract(html).metadata["date"] == "2019-11-19"
