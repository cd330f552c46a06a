"""Stop words, stemming and segmentation of languages other than English and Chinese
(:class:`crawler.relevance.tokenize.Lexicon`), on pages written for these tests."""
from __future__ import annotations

import pytest

from crawler.relevance import DocumentFrequencies, RelevanceModel
from crawler.relevance.tokenize import ENGLISH, lexicon, term_tokens, tokenize
from crawler.relevance.topic import topic_from_dict


def html(lang: str, title: str, paragraphs: list[str]) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f'<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1>{body}</body></html>")


def test_inflected_forms_meet_their_dictionary_form():
    cases = {
        "de": ("Programmiersprache", "Die Programmiersprachen der Betriebssysteme"),
        "fr": ("ordinateur", "Les ordinateurs portables"),
        "es": ("computadora", "las computadoras personales"),
        "pl": ("komputer", "Historia komputerów osobistych"),
        "ru": ("компьютер", "история персональных компьютеров"),
        "sv": ("programmeringsspråk", "de vanligaste programmeringsspråken"),
    }
    for lang, (term, text) in cases.items():
        key = term_tokens(term, lang)
        assert len(key) == 1 and key[0] in tokenize(text, language=lang), lang
        if lang in ("de", "pl", "ru", "sv"):
            # (the English fold, which reads a final -s, does not reach these endings)
            assert term_tokens(term)[0] not in tokenize(text), lang


def test_stop_words_of_the_language_are_dropped():
    assert tokenize("der die das und oder Rechner", language="de") == tokenize(
        "Rechner", language="de")
    assert tokenize("le la les et ordinateur", language="fr") == tokenize(
        "ordinateur", language="fr")
    # English pages keep their light rules: no Snowball, the small English list
    assert lexicon("en") is lexicon(None) is lexicon("zh") is ENGLISH
    assert tokenize("the computers") == ["computer"]
    assert lexicon("de-AT") is lexicon("de") and lexicon("de").code == "de"
    assert lexicon("xx") is ENGLISH          # no stemmer, no stop list: the English rules


def test_a_term_of_stop_words_only_takes_them_off_the_list():
    """stopwordsiso lists hold content words ("force" in French, "låt" in Swedish): a topic
    term made of them must still match its words on pages; the function words inside a longer
    term stay stop words on both sides."""
    key = term_tokens("force", "fr")
    assert key and key[0] in tokenize("la force du vent", language="fr")
    assert term_tokens("låt", "sv")[0] in tokenize("en låt av Abba", language="sv")
    # a function word inside a longer term is left out on both sides
    term = term_tokens("Bundesamt für Sicherheit in der Informationstechnik", "de")
    assert len(term) == 3
    assert " ".join(term) == " ".join(tokenize(
        "das Bundesamt für Sicherheit in der Informationstechnik", language="de"))
    topic = topic_from_dict({"name": "informática", "languages": ["es"],
                             "features": {"terms": ["SO", "ordenador"]}})   # SO: "so" in English
    assert topic.terms == ("SO", "ordenador")


def test_japanese_is_segmented_into_dictionary_forms():
    keys = tokenize("研究者たちは新しいプログラミング言語とコンピュータの性能を比較しました。",
                    language="ja")
    assert {"プログラミング", "言語", "コンピューター", "性能", "比較"} <= set(keys)
    assert not {"は", "と", "の", "を", "まし", "た"} & set(keys)      # particles, auxiliaries
    assert tokenize("走った", language="ja") == tokenize("走らない", language="ja")
    # a term of several words is a phrase of the page's words; its kanji are not simplified
    assert term_tokens("図書館", "ja") == tuple(tokenize("図書館", language="ja"))
    assert "館" in term_tokens("図書館", "ja")


LANGUAGE_PAGES = {
    # lang: (topic terms, on-topic page, off-topic page)
    "de": (["Computer", "Programmiersprache", "Betriebssystem", "Software", "Netzwerk"],
           ["Moderne Betriebssysteme verwalten die Programme, die auf einem Computer laufen.",
            "Viele Programmiersprachen wurden für bestimmte Betriebssysteme entwickelt; die "
            "Computer in den Netzwerken der Hochschulen liefen mit freier Software.",
            "Die Entwickler schrieben ihre Programme in mehreren Programmiersprachen."],
           ["Die Mannschaft gewann das Spiel im Stadion vor vierzigtausend Zuschauern.",
            "Nach der Pause erzielte der Stürmer zwei Tore, und die Fans feierten den Sieg "
            "bis spät in die Nacht in den Straßen der Stadt."]),
    "pl": (["komputer", "oprogramowanie", "język programowania", "sieć", "system operacyjny"],
           ["Pierwsze komputery osobiste trafiły do polskich domów w latach osiemdziesiątych.",
            "Programiści pisali oprogramowania w różnych językach programowania, a systemy "
            "operacyjne tych komputerów były bardzo proste.",
            "Dziś sieci komputerowe łączą miliony komputerów na całym świecie."],
           ["Drużyna wygrała mecz na stadionie przy pełnych trybunach.",
            "Po przerwie napastnik strzelił dwa gole, a kibice świętowali zwycięstwo na "
            "ulicach miasta do późnej nocy."]),
    "ja": (["コンピューター", "プログラミング言語", "ソフトウェア", "オペレーティングシステム",
            "ネットワーク"],
           ["初期のコンピュータは大学や研究所で使われていました。",
            "技術者たちはさまざまなプログラミング言語でソフトウェアを開発し、"
            "オペレーティングシステムの改良を続けました。",
            "現在ではネットワークを通じて世界中のコンピュータがつながっています。"],
           ["チームは満員のスタジアムで試合に勝ちました。",
            "後半にフォワードが二点を決め、サポーターたちは夜遅くまで街で勝利を祝いました。"]),
}


@pytest.mark.parametrize("lang", sorted(LANGUAGE_PAGES))
def test_a_topic_in_its_language_accepts_its_pages(lang):
    terms, on_topic, off_topic = LANGUAGE_PAGES[lang]
    topic = topic_from_dict({"name": f"it-{lang}", "languages": [lang],
                             "features": {"terms": terms}})
    model = RelevanceModel(topic, DocumentFrequencies())
    on = model.score_html(html(lang, on_topic[0][:30], on_topic), method="e1")
    off = model.score_html(html(lang, off_topic[0][:30], off_topic), method="e1")
    assert on.language == lang and off.language == lang
    assert on.relevant and len(on.matched) >= 3, (on.score, on.matched)
    assert not off.relevant and off.score < on.score / 3
