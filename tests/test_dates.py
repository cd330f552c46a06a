"""Publication dates: written forms to ISO 8601, dates in URLs and in a page's dated elements."""
from __future__ import annotations

import re
import time
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


# found by a review of the feature (a helper, with random pages and written cases)

def test_an_impossible_offset_or_number_costs_the_date_not_the_page():
    for value in ("Nov 11 2019 10:00 +2500", "Nov 1 2019 10:" + "9" * 30):
        result = extract(f'<html><head><meta name="date" content="{value}"></head><body>'
                         f"{ARTICLE}</body></html>")
        assert result.text and result.reason is None
        assert result.metadata.get("date") in (None, "2019-11-11T10:00:00")


@pytest.mark.parametrize("value, expected", [
    ("2019-11-05 10:00 CET", "2019-11-05T10:00:00"), ("Tue, 2019-11-05", "2019-11-05"),
    ("on 2019-11-05.", "2019-11-05"), ("2019.11.05.", "2019-11-05"), ("2019 12 5", "2019-12-05"),
    ("2019. 11. 05. 10:00", "2019-11-05T10:00:00"), ("5.11.2019", "2019-11-05"),
    ("20191120T103000Z", "2019-11-20T10:30:00+00:00"), ("２０１９年１１月５日", "2019-11-05"),
    ("٢٠١٩-١١-٠٥", "2019-11-05")])
def test_year_first_and_dotted_dates_read_the_same_on_every_page(value, expected):
    assert iso_date(value, day_first=True) == iso_date(value, day_first=False) == expected


def test_the_first_date_candidate_that_reads_wins():
    head = ('<meta name="date" content="Nov 2019"><script type="application/ld+json">'
            '{"@type": "NewsArticle", "datePublished": "November 20, 2019 10:00 AM"}</script>')
    assert _meta(ARTICLE, head)["date"] == "2019-11-20T10:00:00"


@pytest.fixture
def machine_zone(monkeypatch):
    """Sets the machine's time zone (``TZ``) for the test, the original one back after."""
    def set_zone(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()
    yield set_zone
    monkeypatch.undo()
    time.tzset()


def test_a_zone_name_gives_no_offset_whatever_the_machines_zone(machine_zone):
    machine_zone("America/New_York")
    assert iso_date("Nov 20 2019 10:00 EST") == "2019-11-20T10:00:00"
    assert iso_date("Nov 20 2019 10:00 EDT") == "2019-11-20T10:00:00"


@pytest.mark.parametrize("text, expected", [
    ("Publié le 1er mars 2019, mis à jour le 3 mars 2019", "2019-03-01"),
    ("1º de mayo de 2019", "2019-05-01"), ("17. Okt. 2024", "2024-10-17"),
    ("12 abr 2025", "2025-04-12"), ("12 sty 2025, o 20:48", "2025-01-12"),
    ("5 ARALIK 2019", "2019-12-05"), ("2019-11-05T10:00:00Z", "2019-11-05T10:00:00+00:00"),
    ("２０１９年１１月５日", "2019-11-05"), ("Top 10 out 2019", None), ("The set 3 2019", None)])
def test_ordinals_abbreviations_and_words_that_are_no_months(text, expected):
    assert text_date(text) == expected


@pytest.mark.parametrize("url, expected", [
    ("http://x.example/2019/11/5", "2019-11-05"), ("http://x.example/x2019/11/20/", None),
    ("http://x.example/v2019-11-20", None), ("http://x.example/2019/11/20x/", None),
    ("http://x.example/item/sku-20191231-blue", None),
    ("http://x.example/news_2019_11_20.html", "2019-11-20"),
    # one-digit months and days between dashes, a date and a clock in fourteen digits
    ("http://x.example/p/2019-1-5-title", "2019-01-05"),
    ("http://x.example/p/2019_1_25_title", "2019-01-25"),
    ("http://www.foe.co.uk/pubsinfo/infoteam/pressrel/1997/19970403134300.html", "1997-04-03"),
    ("http://x.example/19970403134300123.html", None), ("http://x.example/2019-1-5.html", None),
    ("http://x.example/2019/11/5.html", None), ("http://x.example/2019-15-5-x", None),
    ("http://x.example/2019-1/5-x", None)])
def test_a_url_date_stands_between_separators(url, expected):
    assert url_date(url) == expected


@pytest.mark.parametrize("body, expected", [
    # a header's today's date, then the article's
    ('<header><div class="header-date">Wednesday, December 2, 2026</div></header><article>'
     '<div class="entry-meta">Posted on March 3, 2012</div>' + ARTICLE + "</article>",
     "2012-03-03"),
    # an update before the publication, inside one meta line
    ('<div class="entry-meta"><time class="updated">February 2, 2025</time> <time class='
     '"entry-date published">November 9, 2024</time></div>' + ARTICLE, "2024-11-09"),
    # not dated marks: a candidate, a German privacy notice
    ('<div class="candidate">Vote on 6 November 2012</div><div class="datenschutz-hinweis">'
     'Stand: 25.05.2018</div><span class="date">1 March 2020</span>' + ARTICLE, "2020-03-01"),
    # other posts' and comments' dates
    ('<div id="disqus_thread"><span class="date">5 January 2010</span></div>'
     '<div class="commentBody"><span class="date">6 January 2010</span></div>'
     '<ul class="related-posts"><li><span class="date">7 January 2010</span></li></ul>'
     '<span class="posted-on">3 March 2012</span>' + ARTICLE, "2012-03-03"),
    # icons spend no share of the dated elements read
    ('<nav>' + '<i class="icon-time"></i>' * 60 + '</nav><span class="posted-on">March 3, '
     '2012</span>' + ARTICLE, "2012-03-03"),
])
def test_which_dated_element_gives_the_pages_date(body, expected):
    assert text_date_of(parse(f"<html><body>{body}</body></html>")) == expected


@pytest.mark.timeout(30)
def test_big_dated_elements_are_not_read_whole():
    # 40 nested "meta" elements around 200,000 empty ones took 1.2 s to read
    page = '<div class="meta">' * 40 + "<i></i>" * 200_000 + "</div>" * 40 + ARTICLE
    doc = parse(f"<html><body>{page}</body></html>")
    for _ in range(40):     # (each read was 40 walks of the 200,000: 40 reads, 48 s)
        assert text_date_of(doc) is None


# found by a second review (a helper) of the fixes above

@pytest.mark.parametrize("zone", ["UTC", "Europe/London", "America/New_York"])
def test_utc_and_gmt_are_offset_zero_in_every_machine_zone(machine_zone, zone):
    machine_zone(zone)
    assert iso_date("Nov 20 2019 10:00 UTC") == "2019-11-20T10:00:00+00:00"
    assert iso_date("19 Nov 2019 07:09 GMT") == "2019-11-19T07:09:00+00:00"
    assert iso_date("Wed, 20 Nov 2019 10:00:00 +0000 (UTC)") == "2019-11-20T10:00:00+00:00"


@pytest.mark.parametrize("value, expected", [
    ("10:00 2019-11-05", "2019-11-05"), ("2019-11-05 10:00 GMT+3", "2019-11-05T10:00:00+03:00"),
    ("2019-11-05 10:00 UTC+5:30", "2019-11-05T10:00:00+05:30"),
    ("2019-11-05/2019-11-07", "2019-11-05"), ("Nov 5, 2019 2019-11-05", "2019-11-05")])
def test_a_date_after_a_clock_one_digit_offsets_and_two_dates(value, expected):
    assert iso_date(value, day_first=True) == expected


@pytest.mark.parametrize("body", [
    '<div class="entry-meta">Posted on March 3, 2012 by <span class="byline">Ann</span></div>',
    '<span class="date">March 3, 2012 <span class="time">10:45</span></span>',
    '<p class="timestamp">March 3, 2012 <time>10:45</time></p>',
    '<span class="date"><i class="glyphicon glyphicon-time"></i> March 3, 2012</span>',
    '<div class="meta"><span class="meta-author">Ann</span> March 3, 2012</div>',
    '<div class="main"><span class="posted-on">March 3, 2012</span></div><aside><article>'
    '<span class="date">April 5, 2013</span></article></aside>',
    '<div id="header"><span class="date">Tuesday, January 15, 2013</span></div>'
    '<div class="post"><span class="date">March 3, 2012</span></div>',
    '<div class="no-related"><span class="date">March 3, 2012</span></div>',
    '<div class="post category-reviews"><span class="date">March 3, 2012</span></div>',
    '<div class="Discussion"><span class="date">March 3, 2012</span></div>',
    '<p class="byline correspondent">By Ann, Foreign Correspondent, March 3, 2012</p>',
    '<span class="calendar-date">March 3, 2012</span>',
    '<form id="aspnetForm">' + "<div><p>Filler text of the page.</p></div>" * 120
    + '<span class="date">March 3, 2012</span></form>',
    '<span class="date">Updated: April 5, 2013</span><span class="date">Published: March 3, '
    "2012</span>",
    '<div class="submitted">Submitted by Ann on Sat, 03/03/2012 - 10:45</div>',
    '<div class="timezone">Today is January 1, 2026</div><span class="date">March 3, 2012'
    "</span>",
    '<span class="date">March 3<sup>rd</sup>, 2012</span>',
    '<span class="date">03-03-2012</span>',
])
def test_the_dated_element_of_common_layouts(body):
    page = f"<html><body>{body}{ARTICLE}</body></html>"
    assert (text_date_of(parse(page)) or "")[:10] == "2012-03-03"


def test_markup_times_in_comments_and_meta_order():
    page = ('<html><head></head><body><article><time datetime="2012-09-06">Sep 6</time>'
            + ARTICLE + '</article><ol class="commentlist"><li><time pubdate datetime='
            '"2012-09-10">Sep 10</time></li></ol></body></html>')
    assert read_metadata(parse(page))["date"] == "2012-09-06"
    head = ('<meta name="date" content="11/20/2019">'
            '<meta name="dcterms.created" content="2005-01-01">')
    assert _meta(ARTICLE, head)["date"] == "2019-11-20"
    assert _meta(ARTICLE, '<meta name="date" content="٢٠١٩-١١-٠٥">')["date"] == "2019-11-05"
    assert _meta('<span class="date">２０１９年１１月５日</span>' + ARTICLE)["date"] == "2019-11-05"


@pytest.mark.parametrize("declared, first", [
    ("English", False), ("und", False), ("x-default", False), (" ", False), ("en", False),
    ("en-US", False), ("en-GB", True), ("fr", True), ("de-AT", True)])
def test_which_declarations_read_numeric_dates_day_first(declared, first):
    body = '<span class="date">05/04/2003</span>' + ARTICLE
    expected = "2003-04-05" if first else "2003-05-04"
    assert extract(f'<html lang="{declared}"><body>{body}</body></html>').metadata["date"] \
        == expected


@pytest.mark.timeout(60)
def test_many_elements_holding_a_year_cost_linear_time():
    # 20,000 <time>2012</time> nested 2,000 deep took 20 s: each was read and its ancestors
    # walked
    page = "<div>" * 2000 + "<time>2012</time>" * 20_000 + "</div>" * 2000 + ARTICLE
    doc = parse(f"<html><body>{page}</body></html>")
    for _ in range(10):
        assert text_date_of(doc) is None


@pytest.mark.parametrize("markup", [
    '<span itemprop="datePublished">2012</span><time datetime="2012-03-03">x</time>',
    '<meta itemprop="datePublished" content="2012-03-33"><time datetime="2012-03-03">x</time>',
    '<time datetime="2012-13-45">a</time><time datetime="2012-03-03">b</time>',
    '<time pubdate datetime="2012">a</time><time datetime="2012-03-03">b</time>'])
def test_the_next_markup_date_is_tried_when_the_first_does_not_read(markup):
    # (found by the second review: the markup gave one candidate)
    assert _meta(markup + ARTICLE)["date"] == "2012-03-03"
