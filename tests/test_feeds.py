"""Feed discovery and reading (crawler/feeds.py)."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html

from crawler.feeds import MAX_FEEDS_PER_PAGE, FeedEntry, announced_feeds, read_feed


def test_announced_feeds_are_alternate_links_of_a_feed_type():
    root = html.fromstring(
        '<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml">'
        '<link rel="Alternate" type="application/atom+xml; charset=utf-8" href="atom/">'
        '<link rel="alternate" type="text/html" href="/en/">'
        '<link rel="stylesheet" type="application/rss+xml" href="/not-a-feed">'
        '<link rel="alternate" type="application/rss+xml" href="/feed.xml">'
        '<link rel="alternate" type="application/rss+xml"></head><body></body></html>')
    assert announced_feeds(root) == ["/feed.xml", "atom/"]
    many = "".join(f'<link rel="alternate" type="application/rss+xml" href="/f{i}">'
                   for i in range(10))
    assert len(announced_feeds(html.fromstring(f"<html><head>{many}</head></html>"))) == \
        MAX_FEEDS_PER_PAGE


def test_comment_feeds_are_not_announced_feeds():
    root = html.fromstring(
        '<html><head>'
        '<link rel="alternate" type="application/rss+xml" title="Site &raquo; Feed" '
        'href="https://a.test/feed/">'
        '<link rel="alternate" type="application/rss+xml" title="Site &raquo; Comments Feed" '
        'href="https://a.test/comments/feed/">'
        '<link rel="alternate" type="application/rss+xml" '
        'title="Site &raquo; Wind turbines Comments Feed" href="https://a.test/wind/feed/">'
        '<link rel="alternate" type="application/atom+xml" '
        'href="https://a.blogspot.test/feeds/42/comments/default">'
        '<link rel="alternate" type="application/rss+xml" title="Commentary" '
        'href="https://a.test/commentary/feed/"></head></html>')
    assert announced_feeds(root) == ["https://a.test/feed/", "https://a.test/commentary/feed/"]


def test_rss_entries_give_link_title_and_plain_summary():
    rss = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>'
           b'<item><title>Wind &amp; sun</title><link> http://a.test/p1.html </link>'
           b'<description>&lt;p&gt;A &lt;b&gt;turbine&lt;/b&gt; &amp;amp; more&lt;/p&gt;'
           b'</description></item><item><title>No link</title></item>'
           b'<item><link>/relative.html</link></item></channel></rss>')
    assert read_feed(rss).entries == [
        FeedEntry("http://a.test/p1.html", "Wind & sun", "A turbine & more"),
        FeedEntry("/relative.html")]


def test_atom_entries():
    atom = ('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            '<title>t</title><entry><title>太阳能屋顶</title><link href="http://a.test/a1"/>'
            '<summary>屋顶上的光伏板</summary></entry></feed>').encode("utf-8")
    assert read_feed(atom).entries == [FeedEntry("http://a.test/a1", "太阳能屋顶", "屋顶上的光伏板")]


def test_json_feed_entries_and_only_its_own_type_is_announced():
    body = json.dumps({
        "version": "https://jsonfeed.org/version/1.1", "title": "Weekend",
        "items": [{"id": "1", "url": "http://a.test/j1", "title": "Wind <b>power</b>",
                   "content_html": "<p>A 250 kW turbine</p>"},
                  {"id": "2", "external_url": "http://b.test/j2", "summary": "Solar",
                   "content_text": "longer"},
                  {"id": "3", "title": "no url"}, "not an item", {"url": 7}]},
        ensure_ascii=False).encode("utf-8")
    assert read_feed(b"\xef\xbb\xbf \n" + body).entries == [
        FeedEntry("http://a.test/j1", "Wind power", "A 250 kW turbine"),
        FeedEntry("http://b.test/j2", "", "Solar")]
    root = html.fromstring(
        '<html><head><link rel="alternate" type="application/feed+json" href="/feed.json">'
        '<link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/12">'
        '</head></html>')
    assert announced_feeds(root) == ["/feed.json"]     # not a WordPress REST endpoint


def test_what_is_not_a_feed_gives_a_reason():
    for body in (b"", b"\x00\xff binary", b"<html><body><p>a page</p></body></html>",
                 b'{"version": "1.0", "items": [{"url": "http://a.test/"}]}',
                 b'{"a":' * 100000,
                 b'["https://jsonfeed.org/version/1"]'):
        feed = read_feed(body)
        assert feed.entries == [] and feed.reason.startswith("not a feed")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_without_raising(body):
    feed = read_feed(body)
    assert feed.entries == [] or not feed.reason
