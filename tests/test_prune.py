"""Pruning (extraction.prune, crawler.prune_rules): the elements a caller names by CSS
selector or XPath are gone before the page is read; a bad selector is the caller's error,
raised at once, whatever the page."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import PruneError, extract, extract_document, parse
from extraction.prune import check_prune

ROOT = Path(__file__).resolve().parent.parent
BODY = ("Tidal turbines sit on the sea floor and turn with the current, which flows twice "
        "a day in each direction and can be predicted years ahead. ")
PAGE = f"""<html><head><title>Tidal power</title></head><body>
<nav><a href="/">Home</a> <a href="/tides/">Tides</a></nav>
<article><h1>Tidal power</h1>
<p>{BODY * 3}</p>
<div class="related">Related stories: <a href="/x">Solar roofs</a> and
<a href="/y">Heat pumps</a></div>after the box, this sentence stays in the article.
<p>{BODY * 2}</p>
<aside id="newsletter"><p>Sign up for our weekly newsletter about every kind of
energy and get a free mug.</p></aside>
<p class="note">A closing note on the turbines of the Pentland Firth and their output.</p>
</article></body></html>"""


def test_css_selectors_remove_their_elements_and_keep_the_text_after_them():
    """(E2 here: it keeps this short page whole, boxes included; auto already leaves them.)"""
    plain = extract(PAGE, "https://tides.test/a", method="e2")
    assert "Related stories" in plain.text and "weekly newsletter" in plain.text
    assert "pruned" not in plain.info
    pruned = extract(PAGE, "https://tides.test/a", method="e2",
                     prune=["div.related", "#newsletter"])
    assert "Related stories" not in pruned.text and "Solar roofs" not in pruned.text
    assert "weekly newsletter" not in pruned.text
    assert "after the box, this sentence stays in the article." in pruned.text
    assert pruned.text.count("Tidal turbines sit") == 5
    assert pruned.info["pruned"] == 2
    # one CSS group is the same as its selectors given one by one
    assert extract(PAGE, method="e2", prune="div.related, #newsletter").text == pruned.text


class _ReadOnce:
    """Selectors that can be iterated once, as a generator's."""

    def __init__(self, items):
        self.items, self.read = items, False

    def __iter__(self):
        assert not self.read, "selectors read twice"
        self.read = True
        return iter(self.items)


def test_selectors_given_as_an_iterator_are_read_once_for_the_page_and_its_siblings():
    siblings = [PAGE.replace("Tidal power", "Wave power")]
    once = extract(PAGE, method="e6", siblings=siblings,
                   prune=_ReadOnce(["div.related", "#newsletter"]))
    assert "Related stories" not in once.text and once.info["pruned"] == 2


def test_xpath_selectors_and_nested_matches_count_once():
    assert "Pentland Firth" in extract(PAGE, method="e2").text
    result = extract(PAGE, method="e2", prune=["//aside", "//aside/p", "(//p)[last()]"])
    assert "weekly newsletter" not in result.text and "Pentland Firth" not in result.text
    assert result.info["pruned"] == 2       # (the aside's own p went with it)


def test_a_selector_matching_nothing_changes_nothing():
    for method in ("auto", "e1", "e2"):
        plain = extract(PAGE, method=method)
        same = extract(PAGE, method=method, prune=["div.no-such-box", "//blink"])
        assert (same.text, same.title, same.metadata) == (plain.text, plain.title,
                                                         plain.metadata)
        assert "pruned" not in (same.info or {})


def test_the_root_cannot_be_pruned_but_the_body_can():
    assert extract(PAGE, prune="html").text == extract(PAGE).text
    assert extract(PAGE, prune="html").info.get("pruned") is None
    result = extract(PAGE, prune="body")
    assert result.text == "" and result.reason
    assert result.title == "Tidal power"        # (the head stays)


@pytest.mark.parametrize("selector, message", [
    ("div[", "invalid CSS selector 'div['"),
    ("//div[", "invalid XPath '//div['"),
    ("count(//p)", "invalid CSS selector"),
    ("(count(//p))", "must select elements, not a float"),
    ("//p[no-such-function()]", "cannot evaluate"),
    (5, "not int"),
    (b"div", "not bytes"),
    ([None], "selector None is not a string"),
    ({"example.org": "p"}, "not a mapping"),
])
def test_a_bad_selector_raises_whatever_the_page(selector, message):
    for page in (PAGE, None, b"\x89PNG\r\n\x1a\n" + bytes(100), ""):
        with pytest.raises(PruneError, match=re.escape(message)):
            extract(page, prune=selector)
    with pytest.raises(ValueError):         # (a PruneError is a ValueError)
        parse(PAGE, prune=selector)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="divpa.#[]=:()*>+~ ,'\"/@-_1|", max_size=14), max_size=3))
def test_any_selector_is_either_refused_or_applied(selectors):
    """A selector is refused with PruneError or applied; the text then never holds words the
    page without the pruned elements lacks, and never raises anything else."""
    try:
        check_prune(selectors)
    except PruneError:
        with pytest.raises(PruneError):
            extract(PAGE, prune=selectors)
        return
    result = extract(PAGE, method="e1", prune=selectors)
    root = parse(PAGE, prune=selectors).root
    page_words = set(re.findall(r"\w+", " ".join(root.itertext())))
    assert set(re.findall(r"\w+", result.text)) <= page_words


def test_a_target_is_read_alone_with_the_head():
    result = extract(PAGE, "https://tides.test/a", target="article p")
    assert result.text.count("Tidal turbines sit") == 5 and "Pentland Firth" in result.text
    for outside in ("Home", "Related stories", "after the box", "Tidal power\n"):
        assert outside not in result.text
    assert result.title == "Tidal power" and result.info["targeted"] == 4
    page = ("<html><head><title>T</title></head><body>before<div id=a>inside <b>bold</b>"
            "</div>between<p>para one</p>after<div id=c><p id=b>nested</p></div></body></html>")
    result = extract(page, method="e1", target=["#a", "#b", "#c"])
    assert result.text.split() == ["inside", "bold", "nested"]
    assert result.info["targeted"] == 2     # (#b inside #c counts once)


def test_a_target_matching_nothing_in_the_body_reads_the_page_whole():
    plain = extract(PAGE)
    for target in ("section.no-such-body", "title", "head", "body", "html"):
        same = extract(PAGE, target=target)
        assert (same.text, same.title) == (plain.text, plain.title), target
        assert "targeted" not in same.info


def test_prune_and_target_together_and_bad_targets():
    result = extract(PAGE, method="e2", target="article", prune=["#newsletter", "h1"])
    assert "weekly newsletter" not in result.text and "Home" not in result.text
    assert "Related stories" in result.text and result.info == {**result.info, "pruned": 2,
                                                                  "targeted": 1}
    for bad, message in (("div[", "target: invalid CSS selector 'div['"),
                         ("(count(//p))", "target: an XPath selector must select elements")):
        with pytest.raises(PruneError, match=re.escape(message)):
            extract(None, target=bad)


def _unique_snippet(doc, text: str) -> str | None:
    """40 characters of one element's own text in ``text`` (the main text), found once in the
    page, free of quotes and white-space runs, for an XPath that names its element."""
    page_text = " ".join(doc.root.xpath("string()").split())
    for el in doc.root.iter():
        own = el.text if isinstance(el.tag, str) else None
        if not own or len(own) < 80:
            continue
        for start in range(0, len(own) - 40, 20):
            snippet = own[start:start + 40]
            if '"' in snippet or " ".join(snippet.split()) != snippet:
                continue
            if page_text.count(snippet) == 1 and text.count(snippet) == 1:
                return snippet
    return None


def test_on_real_pages_a_pruned_element_of_the_main_text_is_gone(extraction_data):
    """On shared pages: an element of auto's main text, named by XPath, is pruned: its text
    leaves the result and only it is counted; as the target, its words are all the body
    keeps."""
    paths = sorted(extraction_data.glob("*/*.html"))[::7][:60]
    checked = 0
    for path in paths:
        data = path.read_bytes()
        plain = extract_document(parse(data))
        snippet = _unique_snippet(parse(data), plain.text)
        if snippet is None:
            continue
        pruned = extract(data, prune=f'//*[text()[contains(., "{snippet}")]]')
        assert snippet not in pruned.text, path
        assert pruned.info["pruned"] == 1, path
        # the element alone as the target: the body holds its words and nothing else, and
        # auto's text is drawn from them
        xpath = f'//*[text()[contains(., "{snippet}")]]'
        element = parse(data).root.xpath(xpath)[0]
        element.tail = None
        inside = re.findall(r"\w+", " ".join(element.itertext()))
        body = parse(data, target=xpath).root.find("body")
        assert re.findall(r"\w+", " ".join(body.itertext())) == inside, path
        alone = extract(data, target=xpath)
        assert alone.info["targeted"] == 1, path
        assert set(re.findall(r"\w+", alone.text)) <= set(inside), path
        checked += 1
    assert checked >= 30


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "extraction", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_cli_prune(tmp_path):
    page = tmp_path / "tides.html"
    page.write_text(PAGE, encoding="utf-8")
    out = _cli("extract", str(page), "--prune", "div.related", "--prune", "//aside")
    assert out.returncode == 0, out.stderr
    assert "Tidal turbines" in out.stdout and "Related stories" not in out.stdout
    assert "weekly newsletter" not in out.stdout
    batch = tmp_path / "out.jsonl"
    out = _cli("batch", "--input", str(tmp_path), "--output", str(batch), "--quiet",
               "--prune", "#newsletter")
    assert out.returncode == 0, out.stderr
    row = json.loads(batch.read_text(encoding="utf-8"))
    # (auto leaves the related-stories box out by itself: a call to read another story)
    assert "weekly newsletter" not in row["text"] and "closing note" in row["text"]
    assert "after the box, this sentence stays in the article." in row["text"]
    bad = _cli("extract", str(page), "--prune", "div[")
    assert bad.returncode == 2 and "invalid CSS selector 'div['" in bad.stderr
    assert not bad.stdout
    out = _cli("extract", str(page), "--target", "p.note", "--json")
    row = json.loads(out.stdout)
    assert row["text"] == "A closing note on the turbines of the Pentland Firth and their output."
    assert row["title"] == "Tidal power" and row["info"]["targeted"] == 1
    bad = _cli("batch", "--input", str(tmp_path), "--output", str(batch), "--target", "//p[")
    assert bad.returncode == 2 and "target: invalid XPath '//p['" in bad.stderr


# ---------------------------------------------------------------- crawler: EXTRACTION_PRUNE
class _Settings(dict):
    def get(self, name, default=None):
        return super().get(name, default)


def _rules(value, what="prune"):
    from crawler.prune_rules import SETTINGS, PruneRules

    return PruneRules.from_settings(_Settings({SETTINGS[what]: value}), what)


def test_extraction_prune_setting_forms():
    assert not _rules(None).active and not _rules("").active and not _rules("[]").active
    assert _rules("div.related, #comments").for_url("http://a.test/") == \
        ("div.related, #comments",)
    assert _rules(["nav", "//aside"]).for_url("http://a.test/") == ("nav", "//aside")
    rules = _rules('{"example.org": ["div.related"], "*": "footer", '
                   '"news.example.org": "#comments"}')
    assert rules.for_url("http://www.example.org/a") == ("footer", "div.related")
    assert rules.for_url("https://news.example.org/b") == ("footer", "#comments",
                                                          "div.related")
    assert rules.for_url("http://example.org.evil.test/") == ("footer",)
    assert rules.for_url("http://other.test/") == ("footer",)
    assert _rules({"Example.ORG.": "p"}).for_url("http://example.org/") == ("p",)


@pytest.mark.parametrize("value, message", [
    ("div[", "EXTRACTION_PRUNE: prune: invalid CSS selector 'div['"),
    ('{"a.test": ["//p["]}', "EXTRACTION_PRUNE['a.test']: prune: invalid XPath"),
    ('{"http://a.test/": "p"}', "is not a host name"),
    ('["p", ', "EXTRACTION_PRUNE: not valid JSON"),
    ({"*": 3}, "EXTRACTION_PRUNE['*']: prune: a selector or a list of selectors, not int"),
])
def test_a_bad_extraction_prune_setting_names_itself(value, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _rules(value)


def test_a_bad_extraction_target_setting_names_itself():
    assert _rules({"a.test": "article"}, "target").for_url("http://www.a.test/") == ("article",)
    with pytest.raises(ValueError, match=re.escape("EXTRACTION_TARGET['a.test']: target: "
                                                   "invalid CSS selector")):
        _rules({"a.test": "article["}, "target")
