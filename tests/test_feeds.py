"""Feed discovery and reading (crawler/feeds.py)."""
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


def test_what_is_not_a_feed_gives_a_reason():
    for body in (b"", b"\x00\xff binary", b"<html><body><p>a page</p></body></html>"):
        feed = read_feed(body)
        assert feed.entries == [] and feed.reason.startswith("not a feed")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_without_raising(body):
    feed = read_feed(body)
    assert feed.entries == [] or not feed.reason
