"""Malformed and unusual links: one bad href costs only itself, session ids in any case, default
ports, compressed archives, feeds named ``.rss`` (found by a review of crawler/links.py)."""
from __future__ import annotations

from crawler.links import _rfc3986_join, canonical, crawlable, extract_links, join, resolve
from crawler.sitemaps import listed_urls, read_sitemap, sitemaps_in_robots
from extraction import parse


def links_of(html: str, url: str = "http://a.test/d/p") -> list[str]:
    return [link.url for link in extract_links(parse(html.encode(), url), url)]


def test_a_malformed_href_loses_only_itself():
    html = ('<p><a href="/a.html">a</a> <a href="http://[::1">bad</a> '
            '<a href="//exa&#xff0f;mple.com/">nfkc</a> <a href="/b.html">b</a></p>')
    assert links_of(html) == ["http://a.test/a.html", "http://a.test/b.html"]


def test_a_malformed_or_script_base_falls_back_to_the_page_url():
    for base in ("http://[::1", "javascript:void(0)", "data:text/html,x"):
        html = f'<head><base href="{base}"></head><p><a href="x.html">x</a></p>'
        assert links_of(html) == ["http://a.test/d/x.html"], base


def test_session_ids_are_dropped_in_any_case_and_decimal_ids_are_kept():
    assert canonical("http://a.test/p?PHPSESSID=abc&x=1") == "http://a.test/p?x=1"
    assert canonical("http://a.test/p?JSESSIONID=abc") == "http://a.test/p"
    assert canonical("http://a.test/p?sid=0123456789abcdef01") == "http://a.test/p"
    one, two = (canonical(f"http://a.test/p?id=123456789012345678{d}") for d in (8, 9))
    assert one != two and one.endswith("8")


def test_content_ids_that_look_like_session_ids_are_kept():
    sha = "0123456789abcdef0123456789abcdef01234567"         # a git commit (cgit ?id=<sha1>)
    assert canonical(f"http://a.test/commit/?id={sha}") == f"http://a.test/commit/?id={sha}"
    assert canonical(f"http://a.test/c?h={sha}") == f"http://a.test/c?h={sha}"
    # 32 hex under a short name: content (a UUID, an MD5 file id) but for the names forums
    # give a session hash (vBulletin's ?s=)
    assert canonical(f"http://a.test/c?h={sha[:32]}") == f"http://a.test/c?h={sha[:32]}"
    assert canonical(f"http://a.test/c?s={sha[:32]}") == "http://a.test/c"
    assert canonical(f"http://a.test/c?id={sha[:32]}") == f"http://a.test/c?id={sha[:32]}"
    assert canonical("http://a.test/bills?session=2023") == "http://a.test/bills?session=2023"
    assert canonical("http://a.test/f?sid=7&t=2") == "http://a.test/f?sid=7&t=2"
    assert canonical("http://a.test/f?session=9a8b7c6d5e4f3a2b") == "http://a.test/f"
    assert canonical("http://a.test/f?PHPSESSID=abc") == "http://a.test/f"   # unambiguous name


def test_the_default_port_goes_and_another_stays():
    assert canonical("http://a.test:80/x") == "http://a.test/x"
    assert canonical("https://a.test:443/x") == "https://a.test/x"
    assert canonical("http://a.test:8080/x") == "http://a.test:8080/x"
    assert canonical("https://a.test:80/x") == "https://a.test:80/x"


def test_archives_spaces_and_malformed_urls_are_refused_with_a_reason():
    for url in ("http://a.test/linux-6.1.tar.gz", "http://a.test/a.tgz", "http://a.test/b.gz"):
        assert crawlable(url).startswith("non-HTML file type"), url
    assert crawlable("http:// a.test/") == "malformed host"
    assert crawlable("http://[::1/").startswith("malformed URL")
    assert crawlable("http://a.test/page.html") is None


def test_a_feed_or_child_sitemap_may_have_any_file_type():
    assert resolve("http://a.test/", "/news.rss") is None            # a link: not a page
    assert resolve("http://a.test/", "/news.rss", any_type=True) == "http://a.test/news.rss"
    index = read_sitemap(b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                         b"<sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap></sitemapindex>")
    assert listed_urls(index, "http://a.test/sitemap.xml", "a.test") == ["http://a.test/s1.xml.gz"]
    pages = read_sitemap(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                         b"<url><loc>http://a.test/a.pdf</loc></url>"
                         b"<url><loc>http://a.test/a.html</loc></url></urlset>")
    assert listed_urls(pages, "http://a.test/sitemap.xml", "a.test") == ["http://a.test/a.html"]


def test_a_malformed_sitemap_location_loses_only_itself():
    found = read_sitemap(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                         b"<url><loc>http://[::1</loc></url>"
                         b"<url><loc>http://a.test/ok</loc></url></urlset>")
    assert found.locs == ["http://a.test/ok"]
    robots = b"Sitemap: http://[::1\nSitemap: http://a.test/s.xml\n"
    assert sitemaps_in_robots(robots, "http://a.test/robots.txt") == ["http://a.test/s.xml"]


def test_canonical_is_idempotent_on_escapes_dots_and_parameters():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    piece = st.sampled_from(["a", "B", "/", "%", "%2", "%41", "%2B", "%2f", "%7E", "%20", ".",
                             "..", "./", "../", ";", ";x", "~", "+", "é", "?q=1", "#f", "a%"])

    @settings(max_examples=500, deadline=None)
    @given(st.lists(piece, max_size=10).map("".join))
    def check(path):
        once = canonical("http://a.test/" + path)
        assert canonical(once) == once

    check()
    assert canonical("http://a.test/a%20b/../c") == "http://a.test/c"
    assert canonical("http://a.test/C%2B%2B") == "http://a.test/C%2B%2B"   # still not "C++"


# RFC 3986 §5.4: the normal and abnormal examples, base "http://a/b/c/d;p?q"
RFC_EXAMPLES = {
    "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
    "/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y", "#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s",
    ";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "": "http://a/b/c/d;p?q",
    ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/", "../g": "http://a/b/g",
    "../..": "http://a/", "../../g": "http://a/g", "../../../g": "http://a/g",
    "/./g": "http://a/g", "/../g": "http://a/g", "g.": "http://a/b/c/g.",
    ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..", "./../g": "http://a/b/g",
    "./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
    "g;x=1/./y": "http://a/b/c/g;x=1/y", "g?y/./x": "http://a/b/c/g?y/./x",
}


def test_references_resolve_as_rfc_3986_says_empty_path_segments_included():
    for href, expected in RFC_EXAMPLES.items():
        assert join("http://a/b/c/d;p?q", href) == expected, href
        assert _rfc3986_join("http://a/b/c/d;p?q", href) == expected, href   # the slow path
    # urllib's urljoin drops empty segments (CPython gh-84774); browsers and servers keep them
    assert join("http://a.test/b/c", "x//y") == "http://a.test/b/x//y"
    assert join("http://a.test/b//c/d", "../e") == "http://a.test/b//e"
    assert resolve("http://web.archive.test/web/2020/http://x.test/a/", "b.html") \
        == "http://web.archive.test/web/2020/http://x.test/a/b.html"
    assert links_of('<a href="x//y.html">x</a>', "http://a.test/d//p") \
        == ["http://a.test/d//x//y.html"]
    # escapes in the base stay escapes (yarl, tried first, decoded %3F and %23 of the base)
    wayback = "https://web.archive.test/web/2020/http://a.test/"
    assert resolve(wayback + "search%3Fq=x/page", "next") == wayback + "search%3Fq=x/next"
    assert resolve(wayback + "C%23/intro", "generics") == wayback + "C%23/generics"
    assert resolve("http://a.test/docs//a%2Fb/index.html", "n.html") \
        == "http://a.test/docs//a%2Fb/n.html"
    for href in ("http://[a]@", "http://[]@", "http://[[%2).ü'%zz];@"):   # one bad href
        assert resolve(wayback + "p", href) is None                       # costs only itself
    # the base's scheme without an authority is relative, as urljoin and browsers read it
    # (found by the diff review: "http:foo" on a base with "//" went to "http:///foo")
    assert join("http://a.test/a//b", "http:foo") == "http://a.test/a//foo"
    assert join("http://a.test/a/b", "http:foo") == "http://a.test/a/foo"


def test_frames_and_image_map_areas_are_links():
    # a frameset page has no text of its own: its content is in its frames
    frameset = ('<html><head><title>Old site</title></head><frameset cols="20%,80%">'
                '<frame src="menu.html" name="menu"><frame src="main.html"></frameset></html>')
    assert links_of(frameset) == ["http://a.test/d/menu.html", "http://a.test/d/main.html"]
    page = ('<p>See <map name="m"><area href="/north.html" alt="North"></map>'
            '<iframe src="/ad.html"></iframe><a href="/south.html">South</a></p>')
    links = extract_links(parse(page.encode(), "http://a.test/"), "http://a.test/")
    assert [(link.url, link.anchor) for link in links] == [
        ("http://a.test/north.html", "North"), ("http://a.test/south.html", "South")]


def test_international_hosts_are_encoded_as_browsers_do_idna_2008():
    # Python's IDNA 2003 codec (used by w3lib) maps ß to ss: strasse.de is another domain
    assert canonical("http://straße.de/ä") == "http://xn--strae-oqa.de/%C3%A4"
    assert canonical("http://u:p@Faß.de:8080/") == "http://u:p@xn--fa-hia.de:8080/"
    assert resolve("http://a.test/", "http://münchen.de/x") == "http://xn--mnchen-3ya.de/x"
    assert canonical("http://ＡＢＣ.com/") == "http://abc.com/"         # width-folded
    assert canonical("http://xn--strae-oqa.de/") == "http://xn--strae-oqa.de/"
    assert canonical("http://☃.net/") == "http://xn--n3h.net/"   # refused by IDNA 2008: w3lib's


def test_a_page_of_many_links_gives_the_first_ones_only():
    """Found by a review: a page of 50,000 links held the crawl about 20 s (all read, scored
    and scheduled in the reactor's thread); MAX_LINKS_PER_PAGE reads the first 5,000."""
    from crawler.links import MAX_LINKS_PER_PAGE, extract_links
    from extraction import parse

    html = "<html><body>" + "".join(f'<p><a href="/item/{i}">item {i}</a> and '
                                    f'<a href="/item/{i}">again</a></p>' for i in range(6000))
    doc = parse(html + "</body></html>", "http://a.test/")
    links = extract_links(doc, "http://a.test/")
    assert len(links) == MAX_LINKS_PER_PAGE == 5000
    assert links[-1].url == "http://a.test/item/4999" and links[-1].count == 2
    assert len(extract_links(doc, "http://a.test/", limit=None)) == 6000


def test_escaped_dot_segments_and_a_root_dot_host_are_one_url():
    """Found by a review: /x/%2e%2e/y kept its dot segment (w3lib resolves them before the
    escapes are decoded) and a.test. was another host than a.test (scope, page caps)."""
    for url in ("http://a.test/x/%2e%2e/y", "http://a.test/x/%2E%2E/y", "http://a.test/x/.%2e/y",
                "http://a.test./y", "http://A.TEST./x/../y"):
        assert canonical(url) == "http://a.test/y", url
    assert canonical("http://a.test.:8080/x") == "http://a.test:8080/x"
    assert canonical("http://a.test/a%2F..%2Fb") == "http://a.test/a%2F..%2Fb"  # no separator
    assert canonical("http://a.test/.well-known/x%20y") == "http://a.test/.well-known/x%20y"
