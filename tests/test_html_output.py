"""The main text as HTML (extraction.html_output): the structure of the Markdown rendered,
the same words as the text, and nothing of the page's own markup."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import lxml.html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import extract, extract_document, html_of, html_page, parse
from extraction import html_output
from extraction.markdown import to_markdown

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).parent / "pages"
# what the renderer may write: a link's href, an image's src/alt, a list's start number and
# a code block's language class; nothing else of any element
ALLOWED_ATTRIBUTES = {("a", "href"), ("img", "src"), ("img", "alt"), ("ol", "start"),
                      ("code", "class")}


def fragment(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fragment_fromstring(html, create_parent="div")


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def foreign_markup(root: lxml.html.HtmlElement) -> list[str]:
    """What of ``root`` the renderer does not write: scripts, styles, forms, frames, any
    attribute outside :data:`ALLOWED_ATTRIBUTES` and a link or image of a script scheme."""
    found = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            found.append(repr(el))
            continue
        if el.tag in ("script", "style", "iframe", "form", "input", "object", "embed"):
            found.append(el.tag)
        for name, value in el.attrib.items():
            if el is root:
                continue
            if (el.tag, name) not in ALLOWED_ATTRIBUTES:
                found.append(f"{el.tag}@{name}")
            elif name in ("href", "src") and re.match(r"\s*(javascript|vbscript|file):", value,
                                                      re.I):
                found.append(f"{el.tag}@{name}={value}")
    return found


ARTICLE = """<html><head><title>Caching in practice</title></head><body>
<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<article>
<h1>Caching in practice</h1>
<p>A cache keeps <b>recent answers</b> close to the reader, so the second request for the
same page costs almost nothing. See <a href="/docs/cache">the cache guide</a> for the
settings that matter most in production systems.</p>
<h2>Three rules</h2>
<ol start="3"><li>Measure before you cache anything at all.</li>
<li>Give every entry an expiry time and stick to it.</li></ol>
<blockquote><p>There are only two hard things in computer science: cache invalidation
and naming things.</p></blockquote>
<pre class="language-python"><code class="language-python">cache = {}
def get(key):
    return cache.get(key)</code></pre>
<table><tr><th>Layer</th><th>Latency</th></tr><tr><td>memory</td><td>100 ns</td></tr>
<tr><td>disk</td><td>10 ms</td></tr></table>
<figure><img src="/img/cache-diagram.png" alt="Cache layers" width="600" height="400">
<figcaption>Where each layer of the cache sits between the reader and the origin.</figcaption>
</figure>
<p>Expiry times are the part most systems get wrong, so start with short ones and raise
them as you learn how often the data really changes.</p>
</article>
<footer>Copyright 2024 Example Inc. All rights reserved.</footer>
</body></html>"""


def test_the_html_holds_the_structure_of_the_text():
    result = extract(ARTICLE, "https://blog.example.test/post/", html_output=True)
    assert result.text and result.html
    root = fragment(result.html)
    assert [h.text_content() for h in root.iter("h1", "h2")] == ["Caching in practice",
                                                                 "Three rules"]
    assert root.find(".//ol").get("start") == "3" and len(root.findall(".//ol/li")) == 2
    assert "two hard things" in root.find(".//blockquote").text_content()
    code = root.find(".//pre/code")
    assert code.get("class") == "language-python" and "return cache.get(key)" in code.text
    assert [c.text_content() for c in root.findall(".//tr/td")] == ["memory", "100 ns",
                                                                     "disk", "10 ms"]
    assert root.find(".//strong").text == "recent answers"
    # links and images resolved against the page's URL
    assert root.find(".//a").get("href") == "https://blog.example.test/docs/cache"
    img = root.find(".//img")
    assert img.get("src") == "https://blog.example.test/img/cache-diagram.png"
    assert img.get("alt") == "Cache layers"
    assert words(root.text_content()) == words(result.text)
    assert "Copyright" not in result.html and "Home" not in result.html
    assert foreign_markup(root) == []


HOSTILE = """<html><body><article onclick="steal()" style="color:red">
<h2 class="title" id="t" onmouseover="x()">Headline of the hostile page</h2>
<script>document.cookie</script><style>p { display: block }</style>
<p style="font-size:40px" data-tracking="1">A long enough paragraph of article text that any
extractor keeps, with a <a href="javascript:alert(1)">script link in it</a>, a
<a href="data:text/html;base64,PHNjcmlwdD4=">data link</a> and a
<a href="vbscript:msgbox(1)">vbscript link</a> among the words.</p>
<p>Another paragraph says &lt;script&gt;alert(2)&lt;/script&gt; as text, which must stay
text, and <img src="javascript:alert(3)" alt="bad image" width="300" height="300"> here.</p>
<iframe src="https://ads.example.test/"></iframe>
<form action="/post"><input name="q"><textarea>reply</textarea></form>
<p>The last paragraph of the article closes the story with a few more ordinary words.</p>
</article></body></html>"""


def test_nothing_of_the_pages_markup_passes_through():
    result = extract(HOSTILE, "https://news.example.test/a", html_output=True)
    assert "hostile page" in result.html
    root = fragment(result.html)
    assert foreign_markup(root) == []
    assert "<script" not in result.html.lower() and "onclick" not in result.html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in result.html     # the text, escaped
    assert words(root.text_content()) == words(result.text)


_WORDS = st.text(alphabet="ab1 *_`#>-+=|[]()<&;:!.\\~\"'", min_size=1, max_size=12)


@st.composite
def _pages(draw, depth=0):
    tags = ["p", "b", "em", "code", "h2", "blockquote", "ul", "ol", "li", "pre", "table", "a",
            "img", "div"]
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 4 and draw(st.booleans()):
            tag = draw(st.sampled_from(tags))
            inner = draw(_pages(depth + 1))
            attrs = draw(st.sampled_from(['', ' onclick="x()"', ' style="color:red"',
                                          ' class="c" id="i"']))
            if tag == "a":
                href = draw(st.sampled_from(["/x y(1)", "#top", "javascript:go()", "b?c=[1]",
                                             "vbscript:x", "data:text/html,x", "\"><b>"]))
                parts.append(f'<a href="{href}"{attrs}>{inner}</a>')
            elif tag == "img":
                src = draw(st.sampled_from(["/p.jpg", "javascript:x()", "\" onerror=\"x()"]))
                parts.append(f'<img src="{src}" alt="{draw(_WORDS)}" width="400" '
                             f'height="300"{attrs}>')
            elif tag == "table":
                parts.append(f"<table><tr><td>{inner}</td><td>{draw(_WORDS)}</td></tr>"
                             f"<tr><td>{draw(_WORDS)}</td></tr></table>")
            else:
                parts.append(f"<{tag}{attrs}>{inner}</{tag}>")
        else:
            parts.append(draw(_WORDS).replace("&", "&amp;").replace("<", "&lt;"))
    return "".join(parts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pages())
def test_any_page_gives_its_words_and_no_foreign_markup(body):
    """Any method's text (E1 here: it keeps short pages whole) comes back as the words of the
    HTML, and no attribute, element or script URL of the page survives."""
    result = extract(f"<html><body>{body}</body></html>", "https://e.test/p/", method="e1",
                     html_output=True)
    if not result.text:
        assert result.html == ""
        return
    root = fragment(result.html)
    assert words(root.text_content()) == words(result.text), result.html
    assert foreign_markup(root) == [], result.html


def test_lists_and_quotes_nested_deeper_than_markdown_it_s_limit_lose_no_text():
    """markdown-it's CommonMark preset stops at 20 levels and drops the rest of the page."""
    depth = 45
    lists = "".join(f"<ul><li>level{k} item" for k in range(depth)) + "</li></ul>" * depth
    quotes = "<blockquote>" * depth + "the deepest quote" + "</blockquote>" * depth
    page = (f"<html><body><div>{lists}{quotes}<p>and the closing paragraph after "
            "them all</p></div></body></html>")
    doc = parse(page)
    keep = ~doc.inside(("head",))
    markdown, text = to_markdown(doc, keep), doc.text_of(keep)
    html = html_output.to_html(markdown, text)
    root = fragment(html)
    assert len(root.findall(".//ul")) == depth
    assert len(root.findall(".//blockquote")) == depth
    assert words(root.text_content()) == words(text)
    assert "closing paragraph" in html


def test_a_page_too_deep_to_render_falls_back_to_paragraphs(monkeypatch):
    class Deep:
        def render(self, markdown):
            raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(html_output, "_renderer", lambda: Deep())
    out = html_output.to_html("# Title\n\n- item <one>", "Title\nitem <one>")
    assert out == "<p>Title</p>\n<p>item &lt;one&gt;</p>\n"


def test_no_text_no_html():
    assert extract(b"\x00\xff\xfe" * 100, html_output=True).html == ""
    bare = extract("<html><body></body></html>", html_output=True)
    assert bare.html == "" and bare.reason
    assert extract(ARTICLE).html is None                    # only when asked for
    assert "html" not in extract(ARTICLE).to_dict()
    assert extract(ARTICLE, html_output=True).to_dict()["html"]


def test_html_of_a_parsed_page_is_the_same_with_or_without_the_markdown_asked():
    doc = parse(ARTICLE, "https://blog.example.test/post/")
    result = extract_document(doc, markdown=True, markdown_links=True, markdown_images=True,
                              html_output=True)
    assert result.html == html_of(doc, extract_document(doc))
    plain_markdown = extract_document(doc, markdown=True, html_output=True)
    assert "](" not in plain_markdown.markdown and plain_markdown.html == result.html


def test_the_test_pages_give_their_words_as_html():
    for path in sorted(PAGES.rglob("*.html")):
        result = extract(path.read_bytes(), html_output=True)
        if result.text:
            root = fragment(result.html)
            text = root.text_content().replace("¶", "")
            assert words(text) == words(result.text.replace("¶", "")), path.name
            assert foreign_markup(root) == [], path.name


def test_the_shared_pages_give_their_words_as_html(extraction_data):
    """On the shared pages (auto) the HTML shows the text's words, in order (a heading's
    permalink mark aside, which the Markdown leaves off), with no foreign markup."""
    failed = []
    for path in sorted(extraction_data.glob("*/*.html")):
        doc = parse(path.read_bytes())
        result = extract_document(doc, html_output=True)
        if not result.text:
            continue
        root = fragment(result.html)
        if words(root.text_content().replace("¶", "")) != words(result.text.replace("¶", "")) \
                or foreign_markup(root):
            failed.append(path.name)
    assert not failed


def test_a_whole_page_for_a_reader():
    result = extract(ARTICLE, "https://blog.example.test/post/?a=1&b=2", html_output=True,
                     comments=True)
    page = html_page(result.html, "A <title> & more", "en", {"author": ["Ann", "Bo \"B\""],
                                                          "date": "2024-05-01"},
                     result.url, comments="First comment\n\nSecond <b>comment</b>")
    root = lxml.html.document_fromstring(page)
    assert page.startswith("<!DOCTYPE html>") and root.get("lang") == "en"
    assert root.findtext(".//title") == "A <title> & more"
    assert root.find(".//link[@rel='canonical']").get("href") == \
        "https://blog.example.test/post/?a=1&b=2"
    assert root.find(".//meta[@name='author']").get("content") == 'Ann, Bo "B"'
    assert root.find(".//meta[@name='date']").get("content") == "2024-05-01"
    assert words(root.find(".//article").text_content()) == words(result.text)
    assert [p.text for p in root.findall(".//aside/p")] == ["First comment",
                                                           "Second <b>comment</b>"]


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "extraction", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=120)


def test_cli_html(tmp_path):
    page = tmp_path / "post.html"
    page.write_text(ARTICLE, encoding="utf-8")
    run = _cli("extract", "--html", "--url", "https://blog.example.test/post/", str(page))
    assert run.returncode == 0, run.stderr
    root = lxml.html.document_fromstring(run.stdout)
    assert root.findtext(".//title") == "Caching in practice"
    assert root.find(".//article//ol") is not None
    row = json.loads(_cli("extract", "--html", "--json", str(page)).stdout)
    assert row["html"].startswith("<h1>") and "<!DOCTYPE" not in row["html"]
    both = _cli("extract", "--html", "--markdown", str(page))
    assert both.returncode == 2 and b"--html" in both.stderr
    out = tmp_path / "rows.jsonl"
    run = _cli("batch", "--input", str(tmp_path), "--output", str(out), "--html", "--quiet")
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1 and "<ol start=\"3\">" in rows[0]["html"]
