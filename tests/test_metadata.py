"""Page metadata (extraction/metadata.py): meta tags and Open Graph first, JSON-LD for the rest."""
import json

import pytest

from extraction import extract

ARTICLE = "<p>" + "A sentence of the article, with some words. " * 20 + "</p>"


def _page(head: str) -> str:
    return f"<html><head>{head}</head><body>{ARTICLE}</body></html>"


def _ld(data) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_json_ld_article_fields_in_a_graph():
    data = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "The site, not the article"},
        {"@type": ["NewsArticle"], "headline": "Council approves budget",
         "datePublished": "2026-03-01T10:00:00Z", "dateModified": "2026-03-02",
         "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo"}],
         "publisher": {"@type": "Organization", "name": "Daily News"},
         "keywords": ["budget", "council"], "inLanguage": "en-GB"}]}
    result = extract(_page(_ld(data)))
    meta = result.metadata
    assert meta["date"] == "2026-03-01T10:00:00Z" and meta["date_modified"] == "2026-03-02"
    assert meta["author"] == "Ann Lee, Bo" and meta["site_name"] == "Daily News"
    assert meta["keywords"] == "budget, council" and meta["declared_language"] == "en-GB"
    assert result.title == "Council approves budget"


def test_meta_tags_win_over_json_ld_which_fills_what_they_lack():
    data = {"@type": "BlogPosting", "datePublished": "2020-01-01", "author": "Ld Author",
            "description": "From JSON-LD"}
    head = '<meta name="author" content="Meta Author">' + _ld(data)
    meta = extract(_page(head)).metadata
    assert meta["author"] == "Meta Author" and meta["date"] == "2020-01-01"
    assert meta["description"] == "From JSON-LD"


def test_an_author_that_is_a_profile_url_is_not_an_author_name():
    head = ('<meta property="article:author" content="https://www.facebook.com/somepaper">'
            + _ld({"@type": "Article", "author": {"@type": "Person", "name": "Ann Lee"}}))
    assert extract(_page(head)).metadata["author"] == "Ann Lee"
    only_url = '<meta property="article:author" content="https://www.facebook.com/somepaper">'
    assert "author" not in extract(_page(only_url)).metadata


def test_broken_or_foreign_json_ld_is_ignored():
    head = ('<script type="application/ld+json">{"@type": "Article", broken</script>'
            + _ld({"@type": "Organization", "name": "Not a page", "description": "org"})
            + _ld([1, "x", None]))
    meta = extract(_page(head)).metadata
    assert "description" not in meta and "date" not in meta
    assert "A sentence of the article" in extract(_page(head)).text   # scripts stay out of text


def test_a_wrong_lang_attribute_does_not_make_english_text_german():
    english = "<p>" + "The council said that it was on the way to approve the plan. " * 10
    german = "<p>" + "Der Stadtrat hat gestern den Haushalt nach langer Debatte beschlossen. " * 10
    assert extract(f'<html lang="de"><body>{english}</body></html>').language == "en"
    assert extract(f'<html lang="de"><body>{german}</body></html>').language == "de"
    assert extract(f'<html lang="en"><body>{german}</body></html>').language == "en"   # declared


@pytest.mark.parametrize("declared, expected", [
    ("ger", "de"), ("deu", "de"), ("de-AT", "de"), ("DE_at", "de"), ("iw", "he"),
    ("ast", "ast"), ("tl", "tl"), ("und", None), ("mul", None), ("d3", None), ("", None)])
def test_a_declared_language_is_given_as_its_iso_639_1_code_where_it_has_one(declared,
                                                                               expected):
    """Found in the notes: ``lang="ger"`` gave ``ger`` where a two-letter page gives ``de``,
    so a downstream filter on ``language == "de"`` lost it; ``und`` was taken for a language."""
    german = "<p>" + "Der Stadtrat hat gestern den Haushalt nach langer Debatte beschlossen. " * 10
    assert extract(f'<html lang="{declared}"><body>{german}</body></html>').language == expected
    chinese = "<p>" + "中国足球队昨天在北京进行了训练。" * 10
    assert extract(f'<html lang="chi"><body>{chinese}</body></html>').language == "zh"


def test_json_ld_nested_too_deeply_is_skipped_and_the_text_kept():
    from extraction import extract

    text = "The committee agreed to publish a summary of the meeting for readers. " * 10
    html = (f'<html><head><script type="application/ld+json">{"[" * 3000}{"]" * 3000}'
            f"</script></head><body><article><p>{text}</p></article></body></html>")
    result = extract(html)
    assert "committee agreed" in result.text and result.reason is None
