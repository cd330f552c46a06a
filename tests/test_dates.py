"""Publication dates: written forms to ISO 8601, dates in URLs and in a page's dated elements."""
from __future__ import annotations

import re
from datetime import date, datetime

import pytest
from hypothesis import given, settings, strategies as st

from extraction import extract, parse
from extraction.datasets import AUTO_TRAIN_SETS, EVAL_SETS, load
from extraction.dates import iso_date, text_date, url_date
from extraction.metadata import read_metadata, text_date_of

ARTICLE = "<p>" + "The council met on a rainy evening and talked about the budget. " * 6 + "</p>"


# forms met on the shared pages' meta tags, JSON-LD and markup
@pytest.mark.parametrize("value, expected", [
    ("2012-07-20T08:28:56+00:00", "2012-07-20T08:28:56+00:00"),
    ("2019-11-08T15:30:00-05:00", "2019-11-08T15:30:00-05:00"),
    ("2005-01-19", "2005-01-19"),
    ("2011-06-17T11:26:10Z", "2011-06-17T11:26:10+00:00"),
    ("2019-11-19T11:51:32.556Z", "2019-11-19T11:51:32+00:00"),
    ("2019-11-19T13:16:49+0000", "2019-11-19T13:16:49+00:00"),
    ("2019-11-19 02:24:00", "2019-11-19T02:24:00"),
    ("2012-11-06T05:17-08:00", "2012-11-06T05:17:00-08:00"),
    ("2008-1-08 20:05", "2008-01-08T20:05:00"),
    ("19980210", "1998-02-10"),
    ("2024/05/02", "2024-05-02"),
    ("January 22, 2004 00:00:00 MST", "2004-01-22T00:00:00"),    # (a zone name: no offset)
    ("19 Nov 2019 07:09 GMT", "2019-11-19T07:09:00+00:00"),
    ("November 19, 2019", "2019-11-19"),
    ("Tue, 19 Nov 2019 06:13:48 -0600", "2019-11-19T06:13:48-06:00"),
    ("01:38:07 PM IST Nov 20, 2019", "2019-11-20T13:38:07"),
    ("Tue Nov 19 2019 03:15:39 GMT+0300", "2019-11-19T03:15:39+03:00"),  # (not POSIX's sign)
    ("21/05/2003", "2003-05-21"),
    ("November 19, 2019, 07:47 PM EST", "2019-11-19T19:47:00"),
    ("Fri 6:45 PM, Feb 16, 2018", "2018-02-16T18:45:00"),
    ("2019年11月20日 10:30", "2019-11-20T10:30:00"),
    ("2019年11月20日", "2019-11-20"),
    ("2019년 11월 20일", "2019-11-20"),
    ("Published: Nov 20, 2019", "2019-11-20"),
    ("20 novembre 2019", "2019-11-20"),
    ("19 de noviembre de 2019", "2019-11-19"),
    ("Dienstag, 19. November 2019", "2019-11-19"),
    ("19 ноября 2019 г.", "2019-11-19"),
    ("3 Kasım 2019", "2019-11-03"),
    ("19 Νοεμβρίου 2019", "2019-11-19"),
])
def test_written_dates_read_as_iso_8601(value, expected):
    assert iso_date(value) == expected


@pytest.mark.parametrize("value", [
    "", "TBD", "4:04 PM", "on Tuesday July 24, @09:04AM", "0001-01-01", "November 2019",
    "2019", "2019-13-45", "2019-02-30", "12345678", "Nr 12 of 11/2019", "version 2.3 2019",
    "Posted by 5 users on 2019", "1850-01-01", "2150-06-01", "x" * 500])
def test_values_without_a_whole_plausible_date_give_none(value):
    assert iso_date(value) is None


def test_an_ambiguous_numeric_date_follows_the_day_first_reading():
    assert iso_date("05/04/2003") == "2003-05-04"
    assert iso_date("05/04/2003", day_first=True) == "2003-04-05"
    assert iso_date("21/05/2003", day_first=False) == "2003-05-21"   # (no 21st month)


def test_dates_inside_running_text():
    assert text_date("Posted on March 3rd, 2012 by admin") == "2012-03-03"
    assert text_date("By Eric Song, IGN Staff Updated: 18 Nov 2019 9:38 pm") \
        == "2019-11-18T21:38:00"
    assert text_date("Version 2.1 released, 300 downloads in 2019") is None


@pytest.mark.parametrize("url, expected", [
    ("http://techcrunch.com/2012/08/09/10-million-views/", "2012-08-09"),
    ("https://www.latimes.com/business/story/2019-11-19/gannett-merger", "2019-11-19"),
    ("http://www.tribuneindia.com/2002/20020103/haryana.htm", "2002-01-03"),
    ("http://x.example/2019/1/5/a", "2019-01-05"),
    ("http://x.example/2019/11/", None),               # a month is no day
    ("http://x.example/item/12320191120", None),       # digits of an id
    ("http://news.slashdot.org/story/12/07/24/0016240/x", None),   # two-digit year
    ("http://x.example/2019/13/40/a", None),
    ("http://[bad", None), (None, None),
])
def test_a_date_in_a_url_path(url, expected):
    assert url_date(url) == expected


def _meta(body: str, head: str = "", url: str | None = None) -> dict:
    return read_metadata(parse(f"<html><head>{head}</head><body>{body}</body></html>", url))


def test_the_page_date_comes_from_its_meta_then_its_url_then_its_text():
    dated = '<div class="entry-meta">Posted on March 3, 2012 by admin</div>' + ARTICLE
    head = '<meta property="article:published_time" content="2012-03-01">'
    url = "https://blog.example/2012/03/02/post/"
    assert _meta(dated, head, url)["date"] == "2012-03-01"
    assert _meta(dated, "", url)["date"] == "2012-03-02"
    canonical = '<link rel="canonical" href="/2012/03/04/post/">'
    assert _meta(dated, canonical, "https://blog.example/?p=12")["date"] == "2012-03-04"
    assert _meta(dated)["date"] == "2012-03-03"
    assert "date" not in _meta(ARTICLE)


def test_dates_of_comments_other_posts_and_forms_are_not_the_pages():
    body = ('<form><label class="date">From 01/02/2011</label></form>'
            '<div class="nav-previous"><span class="date">January 2, 2011</span></div>'
            + ARTICLE +
            '<ol class="commentlist"><li><span class="comment-date">May 5, 2012</span></li></ol>')
    assert text_date_of(parse(body)) is None
    body = body.replace("</form>", '</form><p class="byline">By Ann, 6 May 2012</p>')
    assert text_date_of(parse(body)) == "2012-05-06"
    # a <time> without datetime, its text read; a body's "comments-open" is no comment
    page = ('<html><body class="single comments-open"><time>July 4, 2010</time>'
            + ARTICLE + "</body></html>")
    assert text_date_of(parse(page)) == "2010-07-04"


def test_a_declared_language_decides_how_numeric_dates_read():
    body = '<span class="date">05/04/2003</span>' + ARTICLE
    assert extract(f"<html><body>{body}</body></html>").metadata["date"] == "2003-05-04"
    assert extract(f'<html lang="en-GB"><body>{body}</body></html>').metadata["date"] \
        == "2003-04-05"
    assert extract(f'<html lang="fr"><body>{body}</body></html>').metadata["date"] \
        == "2003-04-05"


def test_an_unreadable_meta_date_gives_way_to_the_pages_other_dates():
    head = '<meta name="date" content="sometime in spring">'
    assert "date" not in _meta(ARTICLE, head)
    assert _meta(ARTICLE, head, "https://n.example/2020/04/01/a")["date"] == "2020-04-01"


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?)?")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.from_regex(
    r"(\w{0,8} )?[0-9]{1,4}[ ./年-][0-9]{1,2}[ ./月-][0-9]{1,4}( [0-9]{1,2}:[0-9]{2})?\w{0,4}",
    fullmatch=True))
def test_any_text_gives_none_or_a_valid_iso_date(value):
    for found in (iso_date(value), text_date(value), iso_date(value, day_first=True)):
        if found is not None:
            assert _ISO.fullmatch(found), found
            assert 1900 <= datetime.fromisoformat(found).year <= 2099


@pytest.mark.shared
def test_pages_read_without_their_url_agree_with_the_date_in_it(extraction_data):
    """The shared pages whose URL holds a date (164, a proxy gold: news and blogs put the
    publication date there), read without that URL: 141 within a day of it when this was
    written (86%), 44 before (meta tags only, display forms unread), htmldate 155."""
    seen, near, dated = set(), 0, 0
    for name in (*EVAL_SETS, *AUTO_TRAIN_SETS):
        for page in load(name).pages:
            gold = url_date(page.url)
            if page.path in seen or not gold:
                continue
            seen.add(page.path)
            dated += 1
            found = read_metadata(parse(page.html(), None)).get("date")
            if found and abs((date.fromisoformat(found[:10]) - date.fromisoformat(gold)).days) <= 1:
                near += 1
    assert dated > 150
    assert near >= 0.8 * dated, (near, dated)
