"""Stop words, stemming and segmentation of languages other than English and Chinese
(:class:`crawler.relevance.tokenize.Lexicon`), on pages written for these tests."""
from __future__ import annotations

import unicodedata

import pytest

from crawler.relevance import DocumentFrequencies, RelevanceModel
from crawler.relevance.tokenize import (ENGLISH, is_stop_key, lexicon, term_tokens, tokenize,
                                        tokenize_surface)
from crawler.relevance.topic import topic_from_dict
from extraction import parse


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


def content(keys: list[str]) -> list[str]:
    return [k for k in keys if not is_stop_key(k)]


def test_stop_words_of_the_language_are_marked_and_dropped_from_pages():
    assert content(tokenize("der die das und oder Rechner", language="de")) == tokenize(
        "Rechner", language="de")
    assert content(tokenize("le la les et ordinateur", language="fr")) == tokenize(
        "ordinateur", language="fr")
    # English pages keep their light rules: no Snowball, the small English list, no marks
    assert lexicon("en") is lexicon(None) is lexicon("zh") is ENGLISH
    assert tokenize("the computers") == ["computer"]
    assert lexicon("de-AT") is lexicon("de") is lexicon("de_DE") and lexicon("de").code == "de"
    assert lexicon("nb") is lexicon("no")
    assert lexicon("xx") is ENGLISH          # no stemmer, no stop list: the English rules
    # Turkish entries are read as the words are (ı as i)
    assert content(tokenize("bazı altı hiçbir şey bilgisayar", language="tr")) == \
        tokenize("bilgisayar", language="tr")
    topic = topic_from_dict({"name": "Informatik", "languages": ["de"],
                             "features": {"terms": ["Rechner"]}})
    page = RelevanceModel(topic, DocumentFrequencies()).analyse(
        parse(html("de", "Rechner", ["Der Rechner und die Programme der Firma."] * 3)), None)
    assert page.terms and not any(is_stop_key(k) for k in page.terms)


def test_a_term_keeps_the_stop_listed_words_it_holds():
    """stopwordsiso lists hold content words ("force" in French, "sistema" in Portuguese,
    "låt" in Swedish) and function words that are acronyms in capitals (Portuguese "os",
    "OS"): a term keeps them, for its topic alone, and any order of terms gives the same
    keys."""
    assert term_tokens("force", "fr")[0] in tokenize("la force du vent", language="fr")
    assert term_tokens("låt", "sv")[0] in tokenize("en låt av Abba", language="sv")
    solar = term_tokens("Sistema Solar", "pt")
    assert len(solar) == 2 and term_tokens("sistema", "pt") == solar[:1]
    topic = topic_from_dict({"name": "astronomia", "languages": ["pt"],
                             "features": {"terms": ["Sistema Solar", "OS"]}})
    model = RelevanceModel(topic, DocumentFrequencies())

    def score(paragraphs):
        return model.score_html(html("pt", paragraphs[0][:20], paragraphs), method="e1")

    planets = score(["Os planetas do sistema solar giram em torno do Sol."] * 3)
    plural = score(["Os sistemas solares de outras estrelas têm planetas."] * 3)
    cooking = score(["Os ovos e os tomates vão para a panela com os temperos."] * 3)
    linux = score(["O Linux é um OS livre usado em servidores e computadores."] * 3)
    assert planets.relevant and "Sistema Solar" in planets.matched
    assert "Sistema Solar" in plural.matched
    assert cooking.score == 0.0                 # the article "os" is not the acronym "OS"
    assert "OS" in linux.matched
    # a function word inside a longer term is matched inside it only
    term = term_tokens("Bundesamt für Sicherheit in der Informationstechnik", "de")
    assert len(term) == 6 and len(content(list(term))) == 3
    assert " ".join(term) == " ".join(tokenize(
        "Bundesamt für Sicherheit in der Informationstechnik", language="de"))
    spanish = topic_from_dict({"name": "informática", "languages": ["es"],
                               "features": {"terms": ["SO", "ordenador"]}})   # "so": English
    assert spanish.terms == ("SO", "ordenador")


def test_korean_is_segmented_into_morphemes():
    keys = content(tokenize("개발자들은 프로그래밍 언어로 소프트웨어를 만들었습니다.",
                            language="ko"))
    assert {"개발자", "프로그래밍", "언어", "소프트웨어", "만들"} <= set(keys)
    assert not {"은", "로", "를", "었", "습니다"} & set(keys)       # particles, endings
    assert content(tokenize("책을 읽었다", language="ko")) == ["책", "읽"]    # one syllable
    assert term_tokens("운영체제", "ko") == tuple(tokenize("운영체제를", language="ko"))


def test_japanese_is_segmented_into_dictionary_forms():
    keys = tokenize("研究者たちは新しいプログラミング言語とコンピュータの性能を比較しました。",
                    language="ja")
    assert {"プログラミング", "言語", "コンピューター", "性能", "比較"} <= set(keys)
    assert not {"は", "と", "の", "を", "まし", "た"} & set(keys)      # particles, auxiliaries
    assert tokenize("走った", language="ja") == tokenize("走らない", language="ja")
    # a term of several words is a phrase of the page's words; its kanji are not simplified
    assert term_tokens("図書館", "ja") == tuple(tokenize("図書館", language="ja"))
    # a name as written, not its reading (伊藤 and 伊東 are both イトウ); no suffix, no number
    assert content(tokenize("伊藤さんは東京で第3章を書いた", language="ja")) == \
        ["伊藤", "東京", "章", "書く"]
    assert content(tokenize("The computers of Japan", language="ja")) == ["computer", "japan"]


def test_thai_and_lao_are_segmented_into_words():
    """Thai and Lao have no spaces between words: before their segmenters (PyThaiNLP,
    LaoNLP) a whole phrase was one key, so no topic term ever matched such a page."""
    keys = content(tokenize("ระบบปฏิบัติการเป็นซอฟต์แวร์ที่ควบคุมการทำงานของคอมพิวเตอร์",
                            language="th"))
    assert {"ระบบปฏิบัติการ", "ซอฟต์แวร์", "คอมพิวเตอร์"} <= set(keys)
    assert not {"เป็น", "ที่", "ของ"} & set(keys)               # stop words
    # SARA AM, which NFKC splits in two, is read whole by the dictionary: คำสั่ง is one word
    assert term_tokens("คำสั่ง", "th") == (unicodedata.normalize("NFKC", "คำสั่ง"),)
    # ... and shown as written (learnt terms, drafts), not in NFKC's two parts
    assert tokenize_surface("คำสั่งของโปรแกรม", "th")[0][1] == "คำสั่ง"
    # the keys of a page do not depend on the topic terms met before (a first version gave
    # one-word terms found inside longer words: one topic's terms changed another's scores)
    before = tokenize("ไมโครคอมพิวเตอร์ การเมือง ตามคำสั่ง", language="th")
    term_tokens("คอมพิวเตอร์", "th"), term_tokens("กา", "th"), term_tokens("สั่ง", "th")
    assert tokenize("ไมโครคอมพิวเตอร์ การเมือง ตามคำสั่ง", language="th") == before
    assert content(tokenize("Linux และ Windows", language="th")) == ["linux", "window"]
    # Lao, by its own dictionary and stop words
    lao = content(tokenize("ຄອມພິວເຕີເຮັດວຽກຕາມຄຳສັ່ງຂອງໂປຣແກຣມ", language="lo"))
    assert lao[:1] == ["ຄອມພິວເຕີ"] and "ຂອງ" not in lao
    assert term_tokens("ຄຳສັ່ງ", "lo") == (unicodedata.normalize("NFKC", "ຄຳສັ່ງ"),)


def test_khmer_and_burmese_are_cut_into_syllables():
    """No segmenter here knows Khmer or Burmese: their runs are cut into orthographic
    syllables, and a topic term is a phrase of them (before, a whole phrase between two
    spaces was one key, so no term ever matched)."""
    assert term_tokens("ကွန်ပျူတာ", "my") == ("ကွန်", "ပျူ", "တာ")     # asat closes
    assert tokenize("မန္တလေး", language="my") == ["မန္တ", "လေး"]          # a stacked final
    assert term_tokens("ខ្មែរ", "km") == ("ខ្មែ", "រ")                    # COENG stacks
    for lang, term, text in (
            ("km", "កុំព្យូទ័រ", "កុំព្យូទ័រគឺជាម៉ាស៊ីនអេឡិចត្រូនិច ដែលធ្វើការតាមកម្មវិធី។"),
            ("my", "ကွန်ပျူတာ", "ကွန်ပျူတာသည် ပရိုဂရမ်၏ ညွှန်ကြားချက်အတိုင်း အလုပ်လုပ်သည်။")):
        topic = topic_from_dict({"name": f"it-{lang}", "languages": [lang],
                                 "features": {"terms": [term]}})
        model = RelevanceModel(topic, DocumentFrequencies())
        page = model.score_html(html(lang, text[:20], [text] * 3), method="e1")
        assert page.language == lang and list(page.matched) == [term], (lang, page.matched)


LANGUAGE_PAGES = {
    "lo": (["ຄອມພິວເຕີ", "ຊອບແວ", "ລະບົບປະຕິບັດການ", "ພາສາໂປຣແກຣມ", "ເຄືອຂ່າຍ"],
           ["ຄອມພິວເຕີລຸ້ນທຳອິດຖືກນຳໃຊ້ໃນມະຫາວິທະຍາໄລ ແລະ ສະຖາບັນຄົ້ນຄວ້າ",
            "ນັກພັດທະນາຂຽນຊອບແວດ້ວຍພາສາໂປຣແກຣມຫຼາຍພາສາ ແລະ ປັບປຸງລະບົບປະຕິບັດການ"
            "ໃຫ້ເຮັດວຽກໄວຂຶ້ນ",
            "ປັດຈຸບັນຄອມພິວເຕີທົ່ວໂລກເຊື່ອມຕໍ່ກັນຜ່ານເຄືອຂ່າຍອິນເຕີເນັດ"],
           ["ທີມຂອງພວກເຮົາຊະນະການແຂ່ງຂັນບານເຕະຢູ່ສະໜາມກິລາທີ່ມີຜູ້ຊົມເຕັມ",
            "ໃນເຄິ່ງຫຼັງ ກອງໜ້າຍິງໄດ້ສອງປະຕູ ແລະ ແຟນບານສະເຫຼີມສະຫຼອງໄຊຊະນະຢູ່ຕາມຖະໜົນຈົນເດິກ"]),
    "th": (["คอมพิวเตอร์", "ซอฟต์แวร์", "ระบบปฏิบัติการ", "ภาษาโปรแกรม", "เครือข่าย"],
           ["คอมพิวเตอร์รุ่นแรกถูกใช้ในมหาวิทยาลัยและสถาบันวิจัย",
            "นักพัฒนาเขียนซอฟต์แวร์ด้วยภาษาโปรแกรมหลายภาษา และปรับปรุงระบบปฏิบัติการ"
            "ให้ทำงานได้เร็วขึ้น",
            "ปัจจุบันคอมพิวเตอร์ทั่วโลกเชื่อมต่อกันผ่านเครือข่ายอินเทอร์เน็ต"],
           ["ทีมของเราชนะการแข่งขันฟุตบอลในสนามที่มีผู้ชมเต็มอัฒจันทร์",
            "ในครึ่งหลังกองหน้ายิงได้สองประตู และแฟนบอลฉลองชัยชนะบนถนนจนดึก"]),
    "ko": (["컴퓨터", "프로그래밍 언어", "소프트웨어", "운영체제", "네트워크"],
           ["초기의 컴퓨터들은 대학과 연구소에서 사용되었습니다.",
            "개발자들은 여러 프로그래밍 언어로 소프트웨어를 만들었고 운영체제를 "
            "개선했습니다.",
            "오늘날에는 네트워크를 통해 전 세계의 컴퓨터들이 연결되어 있습니다."],
           ["우리 팀은 관중이 가득 찬 경기장에서 경기를 이겼습니다.",
            "후반전에 공격수가 두 골을 넣었고 팬들은 밤늦게까지 거리에서 승리를 "
            "축하했습니다."]),
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


def test_link_texts_are_read_in_their_page_language():
    """A link's anchor is scored with the topic vector of the page it is on: a German anchor
    on a German page meets the topic's German term in its inflected form."""
    from crawler.link_scoring import LinkScorer
    from crawler.links import Link

    topic = topic_from_dict({"name": "it", "features": {"terms": ["Programmiersprache"]}})
    model = RelevanceModel(topic, DocumentFrequencies())
    scorer = LinkScorer(lambda text: model.vector.concept_hits(text), 0.2,
                        hits_for=lambda language: model.vector_for(language).concept_hits)
    link = Link("http://de.test/liste", "Liste der Programmiersprachen")
    german = scorer.score([link], 0.5, 1, language="de")[0].components["anchor"]
    unknown = scorer.score([link], 0.5, 1)[0].components["anchor"]
    assert german > 0.5 and unknown == 0.0


def test_learnt_terms_join_their_own_language_only(tmp_path):
    """A term the feature library learns on German pages is a German key: it extends the
    German topic vector, not the English one (German "Gift" is poison), and keeps its
    language through the candidates file."""
    from crawler.relevance import FeatureLibrary

    topic = topic_from_dict({"name": "Chemie", "features": {"terms": ["Chemie", "Labor"]}})
    lib = FeatureLibrary(update_every=8, top_n=3, min_support=3, min_weight=0.01)
    stats = DocumentFrequencies()
    model = RelevanceModel(topic, stats, library=lib, threshold=0.1)
    accepted = []
    places = ["Bonn", "Köln", "Mainz", "Trier", "Essen", "Hagen", "Siegen", "Kassel"]
    for i, place in enumerate(places):          # Gift on five pages, each place on one
        text = (f"Im Labor in {place} untersuchte die Chemie die Pflanzen"
                + (" und fand ein Gift." if i < 5 else "."))
        doc = parse(html("de", f"Bericht {i}", [text] * 3))
        analysed = model.analyse(doc, None)
        stats.add(analysed.terms)
        accepted += model.learn(analysed, model.score_page(analysed))
    gift = [c for c in accepted if c.term.lower() == "gift"]
    assert gift and gift[0].language == "de"
    assert gift[0].key in model.vector_for("de").weights
    assert gift[0].key not in model.vector_for("en").weights
    english = model.score_html(html("en", "Gift ideas", ["A gift for a friend. " * 20]),
                               method="e1")
    assert english.score == 0.0
    lib.save(tmp_path)
    assert FeatureLibrary.load(tmp_path).candidates[gift[0].key].language == "de"


def test_text_in_capitals_and_pages_of_no_detected_language():
    """Found by a review: a heading in capitals made every stop word an acronym ("OS OVOS E OS
    TOMATES" matched the term OS) and lost stop-listed terms (RECHT UND GESETZ); a page whose
    language is not detected was read by English rules on a German topic; and a page outside
    the topic's languages counted in the IDF statistics (CrawlState.judge_relevance skips a
    page marked ``off_language``)."""
    assert content(tokenize("OS OVOS E OS TOMATES", language="pt")) == tokenize(
        "ovos tomates", language="pt")
    assert tokenize("OS", language="pt") == list(term_tokens("OS", "pt"))
    assert term_tokens("Recht", "de")[0] in tokenize("RECHT UND GESETZ", language="de")
    topic = topic_from_dict({"name": "it", "languages": ["de"],
                             "features": {"terms": ["Programmiersprache"]}})
    model = RelevanceModel(topic, DocumentFrequencies())
    bare = "<html><body><p>Programmiersprachen: Python, Rust, Go.</p></body></html>"
    assert model.score_html(bare, method="e1").relevant
    english = model.analyse(parse(html("en", "Languages", ["Programming languages "
                                                            "and their compilers. " * 10])),
                            None)
    assert english.info.get("off_language") and not english.blocks


def test_state_of_an_older_tokeniser_is_reported(tmp_path, caplog):
    """Statistics and candidates saved before the per-language keys are read, with a warning
    naming the file (the keys of pages in other languages than English differ)."""
    import json
    import logging

    from crawler.relevance import FeatureLibrary

    (tmp_path / "document_frequencies.json").write_text(
        json.dumps({"version": 1, "n_docs": 2, "df": {"comput": 2}}), encoding="utf-8")
    (tmp_path / "candidates.tsv").write_text(
        "term\tkey\tweight\tsupport\tcategory\tstatus\tround\n"
        "Gift\tgift\t0.5\t3\tterms\taccepted\t1\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        stats = DocumentFrequencies.load(tmp_path)
        library = FeatureLibrary.load(tmp_path)
    assert stats.n_docs == 2 and library.accepted() == {"gift": ("terms", "Gift")}
    assert "document_frequencies.json: gathered with token keys of version 1" in caplog.text
    assert "candidates.tsv: written before its language column" in caplog.text
    stats.save(tmp_path)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        DocumentFrequencies.load(tmp_path)
    assert "token keys" not in caplog.text


def test_a_page_of_one_endless_japanese_or_korean_run_is_read(tmp_path):
    """Found by a review: one unbroken run of 400,000+ Japanese characters crashed MeCab with
    a segmentation fault (the whole crawl with it), and a Korean run of 1,000,000 raised
    MeCabError after quadratic time; runs are cut for the segmenters.  In a child process, so
    that a crash fails this test instead of ending the suite."""
    import subprocess
    import sys

    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "bench" / "languages" / "src"
    code = (
        "import re, sys\n"
        "from crawler.relevance.tokenize import tokenize\n"
        "def run(lang, chars):\n"
        "    text = open(f'{sys.argv[1]}/{lang}.txt', encoding='utf-8').read()\n"
        "    one = ''.join(re.findall(f'[{chars}]+', text))\n"
        "    return (one * (1000000 // len(one) + 1))[:1000000]\n"
        "ja = run('ja', '\\u3040-\\u30ff\\u4e00-\\u9fff')\n"
        "ko = run('ko', '\\uac00-\\ud7a3')\n"
        "print(len(tokenize(ja, language='ja')) > 100000, "
        "len(tokenize(ko, language='ko')) > 100000)\n")
    done = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.split() == ["True", "True"], done.stderr[-500:]


@pytest.mark.parametrize("topic_code", ["no", "nb", "nn"])
@pytest.mark.parametrize("page_code", ["nb", "nb-NO", "no", None])
def test_norwegian_codes_are_one_language(topic_code, page_code):
    """Found by a review: with languages = ["no"] every page declared nb-NO (most Norwegian
    sites) scored 0, "page language 'nb' not in the topic's ['no']"; with ["nb"] every page
    detected as no did."""
    topic = topic_from_dict({"name": "it", "languages": [topic_code],
                             "features": {"terms": ["datamaskin", "programvare"]}})
    text = ["Datamaskinen kjører programvare som styrer maskinvaren.",
            "Programvaren på datamaskinen ble skrevet av norske utviklere i mange år.",
            "Hver datamaskin trenger programvare for å fungere godt."]
    page = html(page_code or "", text[0][:20], text)
    if page_code is None:
        page = page.replace(' lang=""', "")
    result = RelevanceModel(topic, DocumentFrequencies()).score_html(page, method="e1")
    assert result.relevant, (result.score, result.reason)


@pytest.mark.parametrize("markup", ["Programmiersprache", "Programmier<wbr>sprache",
                                    "<em>Programmier</em>sprache",
                                    "Programmier<span>sprache</span>"])
def test_markup_inside_a_word_does_not_split_it(markup):
    """Found by a review: the tag-block model joined a block's text nodes with spaces, so
    <wbr> or <em> inside a German compound (and a drop cap, <span>T</span>he) split the word
    and the page lost the term (0.417 plain, 0.000 with <wbr> in both terms)."""
    from crawler.relevance.blocks import tag_blocks

    text = (f"Jede {markup} hat eine Syntax. Die {markup} Python ist beliebt, und jede "
            f"{markup} braucht einen Compiler oder Interpreter.")
    doc = parse(html("de", "Sprachen", [text]))
    assert any("Die Programmiersprache Python" in b.content for b in tag_blocks(doc, None))
    topic = topic_from_dict({"name": "it", "languages": ["de"],
                             "features": {"terms": ["Programmiersprache", "Compiler"]}})
    result = RelevanceModel(topic, DocumentFrequencies()).score_html(
        html("de", "Sprachen", [text] * 3), method="e1")
    assert "Programmiersprache" in result.matched, result.matched


@pytest.mark.parametrize("lang, term, synonym, text", [
    ("pt", "sistema de arquivos", None, "Os sistemas de arquivos guardam os dados no disco."),
    ("fr", "force de gravité", None, "Les forces de gravité attirent les planètes."),
    ("pt", "astronomia", "sistema planetário", "Os sistemas planetários giram em órbitas."),
    ("fr", "physique", "force", "Les forces agissent sur les corps en mouvement."),
])
def test_stop_listed_words_of_phrases_and_variants_meet_inflected_pages(lang, term, synonym,
                                                                         text):
    """Found by a review: "Sistema Solar" met "sistemas solares", but a phrase holding a
    function word as well (sistema *de* arquivos) or a synonym's variant met only the
    uninflected form."""
    data = {"name": "t", "languages": [lang], "features": {"terms": [term]}}
    if synonym:
        data["synonyms"] = {term: [synonym]}
    model = RelevanceModel(topic_from_dict(data), DocumentFrequencies())
    result = model.score_html(html(lang, text[:20], [text] * 3), method="e1")
    assert result.relevant and term in result.matched, (result.score, result.matched)


def test_a_candidates_file_whose_empty_language_an_editor_trimmed_loads(tmp_path):
    """Found by a review: an editor that trims trailing whitespace takes the empty language
    field (English) of every row, and the file failed to load with "expected 8 columns"."""
    from crawler.relevance import FeatureLibrary

    (tmp_path / "candidates.tsv").write_text(
        "term\tkey\tweight\tsupport\tcategory\tstatus\tround\tlanguage\n"
        "Gift\tgift\t0.5\t3\tterms\taccepted\t1\n"
        "Gift\tgift\t0.5\t3\tterms\taccepted\t1\tde\n", encoding="utf-8")
    library = FeatureLibrary.load(tmp_path)
    assert library.candidates["gift"].language == "de"      # the later row wins, as before
    (tmp_path / "candidates.tsv").write_text(
        "term\tkey\tweight\tsupport\tcategory\tstatus\tround\tlanguage\n"
        "Gift\tgift\t0.5\t3\tterms\taccepted\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2: expected 8 columns .*got 6"):
        FeatureLibrary.load(tmp_path)
