"""S2 relevance (ALGORITHMS.md §8): the §8.12 test hints, tokenisation, topic files, state."""
from __future__ import annotations

from pathlib import Path

import pytest

from crawler.relevance import (
    DocumentFrequencies,
    FeatureLibrary,
    RelevanceModel,
    Topic,
    TopicError,
    load_topic,
    tag_blocks,
)
from crawler.relevance.blocks import align_main_text
from crawler.relevance.tokenize import PhraseMatcher, fold, simplified, term_tokens, tokenize
from crawler.relevance.topic import topic_from_dict
from extraction import extract_document, parse

PAGES = Path(__file__).parent / "pages"
TOPICS = Path(__file__).resolve().parent.parent / "settings" / "topics"
FILLER = ("The committee met on Tuesday to discuss the schedule for the coming months and "
          "agreed to publish a short summary for readers. ")


def score(model: RelevanceModel, html: str | bytes):
    doc = parse(html)
    return model.score(doc, extract_document(doc, method="e1").text)


def page(title: str, body: str, nav: tuple[str, ...] = ("Home", "Contact", "Archive")) -> str:
    links = "".join(f"<li><a href='/{i}'>{t}</a></li>" for i, t in enumerate(nav))
    return (f"<html><head><title>{title}</title></head><body><ul class=nav>{links}</ul>"
            f"<div id=main><p>{body}</p><p>{FILLER * 3}</p></div></body></html>")


# ---------------------------------------------------------------- §8.12 test hints
TAX = Topic(name="tax", terms=("增值税", "印花税", "税率"), subjects=("国家税务总局",),
            synonyms={"增值税": ("VAT", "增值稅")})


def test_concept_substitution_vat_scores_like_the_concept():
    model = RelevanceModel(TAX, DocumentFrequencies())
    html = ("<html><head><title>税收新闻</title></head><body><div><p>本月起，{}的税率调整，"
            "企业需要按时申报。财政部门表示，这一政策将惠及中小企业。</p></div></body></html>")
    concept, variant, traditional, none = (
        score(model, html.format(w)) for w in ("增值税", "VAT", "增值稅", "个人所得"))
    assert concept.score > 0.2 and concept.relevant
    assert variant.score == pytest.approx(concept.score)
    assert traditional.score == pytest.approx(concept.score)
    assert "增值税" in variant.matched and "增值税" in concept.matched
    assert none.score < concept.score and "增值税" not in none.matched


def test_multi_word_variant_is_substituted():
    topic = Topic(name="it", terms=("computer memory", "software"),
                  synonyms={"computer memory": ("random access memory",)})
    model = RelevanceModel(topic, DocumentFrequencies())
    a = score(model, page("Notes", "The machine has more random access memory than before."))
    b = score(model, page("Notes", "The machine has more computer memory than before."))
    assert a.score == pytest.approx(b.score) and a.score > 0
    assert list(a.matched) == ["computer memory"]


@pytest.mark.parametrize("options", [{}, {"normalise": "page"}, {"reading": "R2"},
                                     {"similarity": "cosine"}, {"position_weights": "block"}])
def test_term_in_title_raises_sim_more_than_in_navigation(options):
    topic = Topic(name="volcanoes", terms=("volcano", "lava"))
    model = RelevanceModel(topic, DocumentFrequencies(), **options)
    in_title = score(model, page("Volcano facts", "Short notes for visitors of the island.",
                                 nav=("Home", "Contact", "Facts")))
    in_nav = score(model, page("Facts", "Short notes for visitors of the island.",
                               nav=("Home", "Contact", "Volcano")))
    assert in_title.score > in_nav.score > 0
    assert in_title.by_type.get("title", 0) > 0 and in_nav.by_type.get("navigation", 0) > 0


def test_block_weights_sum_to_one_and_types_are_assigned():
    html = (PAGES / "article-en.html").read_bytes()
    doc = parse(html)
    blocks = tag_blocks(doc, extract_document(doc, method="e1").text)
    assert sum(b.weight for b in blocks) == pytest.approx(1.0)
    types = {b.type for b in blocks}
    assert {"title", "content"} <= types
    title = next(b for b in blocks if b.type == "title")
    assert "Tide mills" in title.content
    synthetic = tag_blocks(parse(page("A <b>bold</b> title", "Body <strong>text</strong> here.")))
    assert sum(b.weight for b in synthetic) == pytest.approx(1.0)
    nav = [b for b in synthetic if b.type == "navigation"]
    assert nav and "Contact" in nav[0].content
    # the block with key tags has the larger impact (Definition 1)
    strong = next(b for b in synthetic if "strong" in b.key_tags)
    assert strong.impact0 == 1.0 and strong.impact > next(
        b for b in synthetic if b.type == "content" and not b.key_tags).impact


def test_by_type_contributions_sum_to_the_score():
    topic = load_topic(TOPICS / "information-technology.toml")
    model = RelevanceModel(topic, DocumentFrequencies())
    r = score(model, page("Operating system kernels",
                          "An operating system manages computer hardware and software. "
                          "Linux and Unix are examples.", nav=("Software", "Home")))
    assert r.relevant
    assert sum(r.by_type.values()) == pytest.approx(r.score)
    assert sum(r.matched.values()) == pytest.approx(r.score)
    assert "operating system" in r.matched


ONE_CONCEPT = page("Binary star",
                   "A binary star is a star system of two stars orbiting their common centre of "
                   "mass. Visual binary stars are resolved by a telescope; spectroscopic binary "
                   "stars are found from the Doppler shift of their light; eclipsing binary stars "
                   "dim when one star passes the other.")
MANY_CONCEPTS = page("Compiler",
                     "A compiler is a computer program that translates source code written in a "
                     "programming language into machine code. The operating system loads the "
                     "compiled software; the compiler checks the program's data structures and "
                     "its algorithm before the hardware runs it.")


def test_concept_cap_stops_one_ambiguous_concept_from_making_a_page_relevant():
    topic = load_topic(TOPICS / "information-technology.toml")
    plain = RelevanceModel(topic, DocumentFrequencies())
    capped = RelevanceModel(topic, DocumentFrequencies(), min_concepts=2)
    star_plain, star_capped = score(plain, ONE_CONCEPT), score(capped, ONE_CONCEPT)
    # uncapped, "binary" alone carries an astronomy page over the threshold
    assert list(star_plain.matched) == ["binary"] and star_plain.relevant
    # capped at threshold²/2, one concept reaches at most threshold/sqrt(2)
    assert star_capped.score == pytest.approx(plain.threshold / 2 ** 0.5)
    assert not star_capped.relevant
    assert sum(star_capped.by_type.values()) == pytest.approx(star_capped.score)
    # a page spread over the topic's vocabulary stays relevant under the cap
    compiler = score(capped, MANY_CONCEPTS)
    assert compiler.relevant and len(compiler.matched) >= 5
    assert sum(compiler.matched.values()) == pytest.approx(compiler.score)
    # more concepts required, lower ceiling for one concept
    three = RelevanceModel(topic, DocumentFrequencies(), min_concepts=3)
    assert score(three, ONE_CONCEPT).score == pytest.approx(plain.threshold / 3 ** 0.5)


def test_concept_cap_scales_with_the_threshold_and_spares_cosine():
    topic = load_topic(TOPICS / "information-technology.toml")
    strict = RelevanceModel(topic, DocumentFrequencies(), min_concepts=2, threshold=0.3)
    assert score(strict, ONE_CONCEPT).score == pytest.approx(0.3 / 2 ** 0.5)
    cos = [score(RelevanceModel(topic, DocumentFrequencies(), similarity="cosine", **kw),
                 ONE_CONCEPT).score for kw in ({}, {"min_concepts": 2})]
    assert cos[0] == cos[1] > 0
    for bad in (0, -1.0):
        with pytest.raises(ValueError, match="min_concepts"):
            RelevanceModel(topic, min_concepts=bad)


def test_relevance_settings_reach_the_model(tmp_path):
    from scrapy.settings import Settings

    from crawler.spiders.topic import relevance_options
    from crawler.state import CrawlState

    settings = Settings({"RELEVANCE_MIN_CONCEPTS": "2",
                         "RELEVANCE_CATEGORY_WEIGHTS": "subjects=0.5, judgments=0"})
    options = relevance_options(settings)
    assert options == {"min_concepts": 2.0,
                       "category_weights": {"subjects": 0.5, "judgments": 0.0}}
    topic = load_topic(TOPICS / "information-technology.toml")
    state = CrawlState.open(tmp_path, topic, relevance_options=options)
    assert not state.relevance.score_html(ONE_CONCEPT).relevant
    vector = state.relevance.vector
    by_category = {c: {vector.weights[k] for k, kc in vector.category.items() if kc == c}
                   for c in ("subjects", "terms", "judgments")}
    assert by_category == {"subjects": {0.5}, "terms": {1.0}, "judgments": {0.0}}
    assert relevance_options(Settings()) == {}
    for name, value in (("RELEVANCE_MIN_CONCEPTS", "none"), ("RELEVANCE_MIN_CONCEPTS", "0"),
                        ("RELEVANCE_CATEGORY_WEIGHTS", "topics=1"),
                        ("RELEVANCE_CATEGORY_WEIGHTS", "subjects=-1"),
                        ("RELEVANCE_MIN_CONCEPTS", "inf"),
                        ("RELEVANCE_CATEGORY_WEIGHTS", "terms=inf"),
                        ("RELEVANCE_CATEGORY_WEIGHTS", "subjects=0,terms=0,judgments=0")):
        with pytest.raises(ValueError, match=name):
            relevance_options(Settings({name: value}))


# ---------------------------------------------------------------- tokenisation
def test_english_folding_and_stop_words():
    assert tokenize("The computers were programmed") == ["computer", "program"]
    assert fold("processes") == fold("process") and fold("virus") == "virus"
    assert fold("libraries") == "library" and fold("released") == fold("releases")
    assert tokenize("C++ and C# in 1985, a x") == ["c++", "c#"]
    assert tokenize("e-mail") == ["e", "mail"] == list(term_tokens("E-mail"))


def test_text_is_read_normalised_and_words_keep_their_marks():
    """Found by a review: full-width letters, decomposed accents and invisible characters
    made other keys than the topic's; words were cut at every combining mark."""
    assert tokenize("Ｐｙｔｈｏｎ") == ["python"] == tokenize("Python")
    assert tokenize("cafe\u0301 nai\u0308ve") == tokenize("café naïve") == ["café", "naïv"]
    assert tokenize("vol\u00adcano vol\u200bcano vol\u2060cano") == ["volcano"] * 3
    assert tokenize("ﬁnance") == tokenize("finance")
    assert tokenize("हिन्दी भाषा समाचार") == ["हिन्दी", "भाषा", "समाचार"]
    assert tokenize("العَرَبِيَّة") == ["العَرَبِيَّة"] and tokenize("ภาษาที่สวยงาม") == ["ภาษาที่สวยงาม"]
    assert fold("movie") == fold("movies") == "movy" and fold("cookie") == fold("cookies")
    assert fold("ties") == fold("tie") == "tie"
    topic = Topic(name="film", terms=("movie", "Python"))
    model = RelevanceModel(topic, DocumentFrequencies())
    assert score(model, page("Notes", "New movies were shown.")).score > 0
    assert score(model, page("Notes", "Ｐｙｔｈｏｎ 入门")).score > 0


def test_a_chinese_topic_term_inside_a_dictionary_compound_counts():
    """jieba keeps 中国足球队, 足球场, 足球赛 whole even with 足球 in its dictionary: a football
    page scored 0 for the topic term 足球 (a review).  Other pieces are unchanged."""
    model = RelevanceModel(Topic(name="football", terms=("足球",), languages=("zh",)),
                           DocumentFrequencies())
    text = ("中国足球队昨晚在国家足球场进行了一场足球赛，数万名足球迷到场观看。"
            "主教练表示，足球队将继续加强训练，争取在下一场足球赛中取得好成绩。")
    html = (f"<html><head><title>中国足球队备战世界杯</title></head><body><div><p>{text}</p>"
            "</div></body></html>")
    assert score(model, html).score > 0.2
    tokens = tokenize("中国足球队在足球场")
    assert tokens == ["中国足球队", "足球", "足球场", "足球"]
    # a term's own key does not depend on the terms registered before it
    assert term_tokens("足球场") == ("足球场",) and term_tokens("中国足球队") == ("中国足球队",)


@pytest.mark.timeout(120)
def test_a_page_of_soft_hyphens_keeps_its_content_block_in_linear_time():
    """The extractors drop soft hyphens from the main text; the block model kept them in the
    page's, matched no main text (no content block), and its fallback search was quadratic:
    6 s on a 2 MB page (a review)."""
    text = "The vol\u00adcano erupted and lava flowed over the val\u00adley below the ridge. "
    plain = parse(page("Volcanoes", text.replace("\u00ad", "") * 8))
    shy = parse(page("Volcanoes", text * 8))
    for doc in (plain, shy):
        blocks = tag_blocks(doc, extract_document(doc).text)
        assert any(b.type == "content" for b in blocks)
    big = page("Volcanoes", "".join(f"<p>{k} {text}</p>" for k in range(20_000)))
    mask, share = align_main_text(parse(big), "an unrelated text " * 120_000)   # (budgeted)
    assert share == 0 and not mask.any()


def test_phrase_terms_match_only_as_phrases():
    m = PhraseMatcher([term_tokens("operating system"), term_tokens("programming language")])
    joined = m.join(tokenize("Unix is an operating system written in a programming language"))
    assert "operat system" in joined and "program languag" in joined
    assert "system" not in joined
    apart = m.join(tokenize("The system was operating well"))
    assert "operat system" not in apart
    topic = Topic(name="os", terms=("operating system",))
    model = RelevanceModel(topic, DocumentFrequencies())
    assert score(model, page("Notes", "Which operating system do you use?")).score > 0
    assert score(model, page("Notes", "The system kept operating all night.")).score == 0


def test_concept_hits_of_anchor_texts_weigh_phrases_and_variants():
    topic = topic_from_dict({"name": "os", "features": {"terms": ["operating system", "kernel"]},
                             "synonyms": {"kernel": ["kernels", "microkernel"]}})
    vec = RelevanceModel(topic, DocumentFrequencies()).vector
    assert vec.concept_hits("Kernel and microkernel of an operating system") == 3.0
    assert vec.concept_hits("the system kept operating") == 0.0
    assert vec.concept_hits("Kernel and microkernel of an operating system") == 3.0  # memo
    assert len(vec._hits) == 2


def test_chinese_page_segmented_with_jieba_and_scored():
    tokens = tokenize("三峡水利枢纽工程位于湖北省宜昌市境内的长江西陵峡段")
    assert "湖北省" in tokens and "长江" in tokens and "的" not in tokens
    assert len(tokens) >= 6 and "宜昌市" in tokens     # words, not the whole run
    html = (PAGES / "article-zh-gbk.html").read_bytes()
    hydro = topic_from_dict({"name": "水利", "languages": ["zh"],
                             "features": {"terms": ["水利工程", "大坝", "水电站", "防洪",
                                                    "发电", "水库", "船闸"]}})
    music = topic_from_dict({"name": "音乐", "features": {"terms": ["音乐", "歌曲", "乐队",
                                                                    "作曲家", "钢琴"]}})
    on = RelevanceModel(hydro, DocumentFrequencies()).score_html(html, method="e1")
    off = RelevanceModel(music, DocumentFrequencies()).score_html(html, method="e1")
    assert on.language == "zh" and on.relevant and off.score == 0 and not off.relevant
    assert {"水利工程", "大坝", "水电站"} <= set(on.matched)


def test_traditional_and_simplified_chinese_meet_on_the_same_keys():
    """A topic written in one script matches pages in the other (Hong Kong's 電腦軟件 and the
    mainland's 电脑软件): a mainland topic scored a Big5 page on the characters both scripts
    share only.  Simplified text is never rewritten (OpenCC's phrase tables turned 影片 into
    视频 and 尼日尔 into 尼日尔尔) and a term has the key of the same word on a page."""
    simplified_text = ("随着互联网的普及，电脑软件产业快速发展。许多公司开发操作系统和数据库软件，"
                       "信息技术人才的需求不断增加，编程成为热门专业。")
    traditional_text = ("隨著互聯網的普及，電腦軟件產業快速發展。許多公司開發操作系統和數據庫軟件，"
                        "信息技術人才的需求不斷增加，編程成為熱門專業。")

    def html(title: str, text: str, charset: str) -> bytes:
        return (f'<html><head><meta charset="{charset}"><title>{title}</title></head><body>'
                f'<div><p>{text}</p><p>{text}</p></div></body></html>').encode(charset)

    mainland = topic_from_dict({"name": "信息技术", "languages": ["zh"], "features": {
        "terms": ["软件", "互联网", "信息技术", "操作系统", "数据库", "编程"]}})
    hong_kong = topic_from_dict({"name": "資訊科技", "languages": ["zh"], "features": {
        "terms": ["軟件", "互聯網", "信息技術", "操作系統", "數據庫", "編程"]}})
    pages = (html("软件产业", simplified_text, "gb18030"),
             html("軟件產業", traditional_text, "big5hkscs"))
    for topic in (mainland, hong_kong):
        model = RelevanceModel(topic, DocumentFrequencies())
        mainland_page, hong_kong_page = (model.score_html(p, method="e1") for p in pages)
        assert mainland_page.relevant and hong_kong_page.relevant
        assert set(mainland_page.matched) == set(hong_kong_page.matched)
        assert len(hong_kong_page.matched) >= 5
        assert abs(mainland_page.score - hong_kong_page.score) < 0.05
    for word in ("厄瓜多尔", "尼日尔", "影片", "文件", "程式化", "电脑软件与互联网"):
        assert simplified(word) == word
    for term, page in (("檔案", "請下載這個檔案"), ("程式", "這個程式很好用")):
        assert set(term_tokens(term)) <= set(tokenize(page))


def test_french_elisions_turkish_i_and_any_language_code():
    """Found by a review of other languages: "l'ordinateur" was keyed "lordinateur" (the
    term "ordinateur" never matched it), all-caps Turkish "BİLGİSAYAR" and "YAZILIM" never
    met their lower-case forms, and a topic could not say `languages = ["de"]`."""
    assert tokenize("l'ordinateur d'énergie qu'il dell'energia") == \
        tokenize("ordinateur énergie il energia")
    assert tokenize("don't o'clock") == ["dont", "oclock"]       # English unchanged
    assert tokenize("BİLGİSAYAR YAZILIM") == tokenize("bilgisayar yazılım")
    topic = topic_from_dict({"name": "Energie", "languages": ["de", "ger", "DE-at"],
                             "features": {"terms": ["Windkraft"]}})
    assert topic.languages == ("de",)
    french = topic_from_dict({"name": "informatique", "languages": ["fr"],
                              "features": {"terms": ["ordinateur", "logiciel"]}})
    model = RelevanceModel(french, DocumentFrequencies())
    text = ("L'ordinateur de l'école exécute un logiciel libre. Chaque élève apprend à "
            "programmer l'ordinateur et à installer le logiciel de la classe. ") * 4
    page_fr = f'<html lang="fr"><head><title>École</title></head><body><p>{text}</p></body></html>'
    result = model.score_html(page_fr, method="e1")
    assert result.language == "fr" and result.relevant and "ordinateur" in result.matched
    english = f'<html lang="en"><body><p>{"The computer runs software. " * 20}</p></body></html>'
    assert "not in the topic" in (model.score_html(english, method="e1").reason or "")


def test_stray_han_on_an_english_page_is_kept_whole_without_loading_jieba():
    # a fresh interpreter: the segmenter is loaded once per process
    import subprocess
    import sys

    code = """
import sys
from crawler.relevance import RelevanceModel, DocumentFrequencies
from crawler.relevance.tokenize import tokenize, units
from crawler.relevance.topic import topic_from_dict
html = ('<html><head><title>Beijing opera</title></head><body><h1>Beijing opera</h1>'
        + '<p>Beijing opera (\u4eac\u5267) is a form of Chinese opera with music, '
        + 'vocal performance, mime and dance, in the capital \u5317\u4eac.</p>' * 12
        + '<p><a href="/x">Opera house \u5927\u5267\u9662</a></p></body></html>')
topic = topic_from_dict({"name": "opera", "features": {"terms": ["opera", "music"]}})
model = RelevanceModel(topic, DocumentFrequencies())
r = model.score_html(html, method="e1")
assert r.language == "en" and r.relevant, r
assert model.vector.concept_hits("Tickets for the opera house \u5927\u5267\u9662") > 0
assert units("in \u5317\u4eac now", segment_han=False) == ["in", "\u5317\u4eac", "now"]
assert tokenize("the new opera house of the city, \u5927\u5267\u9662", segment_han=None)[-1] == "\u5927\u5267\u9662"
assert "jieba" not in sys.modules, "jieba loaded"
print("ok")
"""
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_topic_languages_filter_pages():
    zh_only = Topic(name="zh", terms=("tide",), languages=("zh",))
    r = RelevanceModel(zh_only).score_html((PAGES / "article-en.html").read_bytes(),
                                           method="e1")
    assert r.score == 0 and "language" in r.reason


# ---------------------------------------------------------------- bad pages
@pytest.mark.parametrize("html", [None, b"", b"\x00\x01\x02\x03\x00\x00\x00\x00\x00" * 50,
                                  "<html><body></body></html>", "<html><body>the of and</body>"])
def test_bad_pages_score_zero_with_a_reason(html):
    model = RelevanceModel(Topic(name="t", terms=("volcano",)))
    r = model.score_html(html, method="e1")
    assert r.score == 0 and not r.relevant and r.reason


def test_page_without_title_still_scores():
    model = RelevanceModel(Topic(name="t", terms=("volcano",)))
    r = score(model, "<html><body><p>The volcano erupted twice last year.</p></body></html>")
    assert r.score > 0 and r.reason is None


# ---------------------------------------------------------------- topic files
def test_shipped_topic_files_load():
    for path in sorted(TOPICS.glob("*.toml")):
        t = load_topic(path)
        assert 30 <= len(t.terms) <= 80 and t.subjects and t.judgments and t.synonyms, path


GOOD = 'name = "t"\n[features]\nterms = ["volcano"]\n'


@pytest.mark.parametrize("text,key,problem", [
    ('name = "t"\n[features\nterms = ["a"]\n', None, "line 2"),
    ('[features]\nterms = ["volcano"]\n', "name", "missing"),
    ('name = "t"\n[features]\nterms = "volcano"\n', "features.terms", "array"),
    ('name = "t"\n[features]\nterms = ["volcano", 3]\n', "features.terms[1]", "string"),
    ('name = "t"\n[features]\nterms = []\n', "features", "empty"),
    ('name = "t"\n', "features", "missing"),
    ('name = "it\\nsoftware: forged"\n[features]\nterms = ["volcano"]\n', "name",
     "one line of printable text"),
    ('name = "t"\nthreshold = 1.5\n[features]\nterms = ["volcano"]\n', "threshold", "outside"),
    ('name = "t"\nthreshold = "high"\n[features]\nterms = ["volcano"]\n', "threshold", "number"),
    ('name = "t"\nkeywords = ["a"]\n[features]\nterms = ["volcano"]\n', "keywords", "unknown"),
    ('name = "t"\nlanguages = ["xx"]\n[features]\nterms = ["volcano"]\n', "languages[0]",
     "unknown language"),
    ('name = "t"\n[features]\nterms = ["volcano"]\ntopics = ["x"]\n', "features.topics",
     "unknown"),
    ('name = "t"\n[features]\nterms = ["the"]\n', "features.terms[0]", "no indexable"),
    ('name = "t"\nseeds = ["example.org"]\n' + '[features]\nterms = ["volcano"]\n', "seeds[0]",
     "URL"),
    (GOOD + '[synonyms]\nvolcano = "lava"\n', "synonyms.volcano", "array"),
    ('name = "t"\nseeds = ["http://[::1/"]\n[features]\nterms = ["volcano"]\n', "seeds[0]",
     "not a valid URL"),
    (GOOD + '[synonyms]\n"big data" = ["bd"]\n"big  data" = ["large data"]\n',
     "synonyms.big  data", "same concept"),
    ('name = "t"\nseeds = ["http://a.test:99999/"]\n[features]\nterms = ["volcano"]\n',
     "seeds[0]", "not a valid URL"),
    ('name = "t"\nseeds = ["http://:80/"]\n[features]\nterms = ["volcano"]\n', "seeds[0]",
     "absolute http(s) URL"),
    ('name = "t"\nseeds = ' + "[" * 2000 + "]" * 2000 + '\n[features]\nterms = ["a"]\n', None,
     "nested too deeply"),
])
def test_malformed_topic_files_name_file_key_and_problem(tmp_path, text, key, problem):
    path = tmp_path / "bad-topic.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TopicError) as err:
        load_topic(path)
    msg = str(err.value)
    assert str(path) in msg and problem in msg
    if key:
        assert f"'{key}'" in msg


def test_a_topic_file_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load_topic(path).terms == ("volcano",)


def test_a_file_too_large_for_a_topic_is_refused_before_it_is_read_whole(tmp_path, monkeypatch):
    import crawler.relevance.topic as topic_module
    monkeypatch.setattr(topic_module, "MAX_TOPIC_BYTES", len(GOOD) + 100)
    path = tmp_path / "ok.toml"
    path.write_text(GOOD + "# " + "x" * 90 + "\n", encoding="utf-8")
    assert load_topic(path).terms == ("volcano",)
    path.write_text(GOOD + "# " + "x" * 200 + "\n", encoding="utf-8")
    with pytest.raises(TopicError, match=f"{path}: larger than .* too large for a topic file"):
        load_topic(path)


def test_good_topic_file_round_trip(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text('name = "volcanoes"\nthreshold = 0.3\nlanguages = ["en"]\n'
                    'seeds = ["http://example.test/"]\n' + GOOD.split("\n", 1)[1]
                    + 'subjects = ["USGS"]\n[synonyms]\nvolcano = ["volcanoes", "stratovolcano"]\n',
                    encoding="utf-8")
    t = load_topic(path)
    assert (t.name, t.threshold, t.languages, t.subjects) == ("volcanoes", 0.3, ("en",),
                                                              ("USGS",))
    assert RelevanceModel(t).threshold == 0.3


# ---------------------------------------------------------------- state
def test_document_frequencies_round_trip(tmp_path):
    stats = DocumentFrequencies()
    stats.add(["volcano", "lava", "lava"])
    stats.add(["volcano", "增值税"])
    assert stats.n_docs == 2 and stats.df == {"volcano": 2, "lava": 1, "增值税": 1}
    assert stats.idf("lava") > stats.idf("volcano") == pytest.approx(1.0)
    path = stats.save(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [DocumentFrequencies.FILENAME]
    again = DocumentFrequencies.load(tmp_path)
    assert again.df == stats.df and again.n_docs == 2
    assert again.idf("unseen") == stats.idf("unseen")
    assert DocumentFrequencies.load(tmp_path / "nothing").n_docs == 0
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=DocumentFrequencies.FILENAME):
        DocumentFrequencies.load(tmp_path)


def test_feature_library_learns_writes_candidates_and_respects_review(tmp_path):
    topic = Topic(name="volcanoes", terms=("volcano", "lava"))
    stats = DocumentFrequencies()
    lib = FeatureLibrary(update_every=8, top_n=3, min_support=3, min_weight=0.01)
    model = RelevanceModel(topic, stats, library=lib, threshold=0.1)
    probe = page("Notes", "Magma chambers were mapped below the ridge.")
    assert score(model, probe).score == 0
    places = ["Etna", "Hekla", "Fuji", "Pico", "Teide", "Vesuvius", "Stromboli", "Krakatoa"]
    accepted = []
    for i, place in enumerate(places):   # magma on five pages, each place on one
        text = f"The volcano near {place} erupted and lava flowed" + (
            " over magma below." if i < 5 else ".")
        doc = parse(page(f"Report {i}", text))
        analysed = model.analyse(doc, extract_document(doc, method="e1").text)
        stats.add(analysed.terms)
        rel = model.score_page(analysed)
        assert rel.relevant
        accepted += model.learn(analysed, rel)
    assert [c.key for c in accepted] == ["magma"]
    assert score(model, probe).score > 0.1           # the learnt term extends the topic vector
    path = lib.save(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["term", "key", "weight", "support", "category", "status",
                                    "round", "language"]
    rows = {r.split("\t")[1]: r.split("\t") for r in lines[1:]}
    assert rows["magma"][5] == "accepted" and int(rows["magma"][3]) == 5
    assert rows["magma"][4] == "terms"
    assert all(r[5] == "pending" for k, r in rows.items() if k != "magma")
    # an operator rejects the term: after reloading it no longer counts
    path.write_text(path.read_text(encoding="utf-8").replace("\taccepted\t", "\trejected\t"),
                    encoding="utf-8")
    reviewed = FeatureLibrary.load(tmp_path)
    assert reviewed.candidates["magma"].status == "rejected" and not reviewed.accepted()
    assert score(RelevanceModel(topic, stats, library=reviewed, threshold=0.1),
                 probe).score == 0
    path.write_text(lines[0] + "\nmagma\tmagma\t0.5\t3\tterms\tmaybe\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        FeatureLibrary.load(tmp_path)
    # as a spreadsheet saves it: a byte-order mark; a quote left open names the file
    path.write_text("\ufeff" + lines[0] + "\nMagma\tmagma\t0.5\t3\tterms\taccepted\t1\t\n",
                    encoding="utf-8")
    assert list(FeatureLibrary.load(tmp_path).accepted()) == ["magma"]
    # a file written before the language column: every term English
    old_header = "\t".join(lines[0].split("\t")[:-1])
    path.write_text(old_header + "\nMagma\tmagma\t0.5\t3\tterms\taccepted\t1\n",
                    encoding="utf-8")
    assert list(FeatureLibrary.load(tmp_path).accepted()) == ["magma"]
    assert not FeatureLibrary.load(tmp_path).accepted("de")
    path.write_text(lines[0] + '\n"Magma\tmagma\t0.5\t3\tterms\taccepted\t1\n'
                    + "x\tx\t0.1\t1\tterms\tpending\t1\n" * 20000, encoding="utf-8")
    with pytest.raises(ValueError, match=f"{path}: line .* quote left open"):
        FeatureLibrary.load(tmp_path)
    path.write_bytes(lines[0].encode() + b"\nMagma\tmagma\t0.5\t3\tterms\taccepted\t\xff\n")
    with pytest.raises(ValueError, match=f"{path}: not UTF-8"):
        FeatureLibrary.load(tmp_path)


def test_the_feature_librarys_term_statistics_stay_bounded():
    """Every σ term of every relevant page entered support, votes and surface for good: a long
    crawl grew them (and library_state.json) by about 2.4 KB a page (a review)."""
    topic = Topic(name="volcanoes", terms=("volcano", "lava"))
    stats = DocumentFrequencies()
    lib = FeatureLibrary(update_every=10, top_n=3, min_support=3, max_terms=40)
    model = RelevanceModel(topic, stats, library=lib, threshold=0.01)
    sizes: list[tuple[int, int, int]] = []
    for i in range(60):
        words = " ".join(f"w{i}x{k}" for k in range(12))        # twelve new terms a page
        doc = parse(page(f"Report {i}", f"The volcano erupted and lava flowed. {words} magma."))
        analysed = model.analyse(doc, extract_document(doc, method="e1").text)
        stats.add(analysed.terms)
        model.learn(analysed, model.score_page(analysed))
        if not lib._pending:                                    # an update round just ran
            sizes.append((len(lib._surface), len(lib._support), len(lib._votes)))
    lib.update(model.vector)
    sizes.append((len(lib._surface), len(lib._support), len(lib._votes)))
    assert len(sizes) >= 5 and max(max(s) for s in sizes) <= 40, sizes
    assert "magma" in lib._surface and set(lib.candidates) <= set(lib._surface)


# ---------------------------------------------------------------- a real test-web page
WIKI = {"it": "http://sci.wikischools.test/wp/c/C%2B%2B.htm",
        "music": "http://hum.wikischools.test/wp/l/Ludwig_van_Beethoven.htm"}


@pytest.fixture(scope="module")
def wiki_pages(shared):
    warc = shared / "testweb" / "wikischools" / "web.warc.gz"
    if not warc.exists():
        pytest.skip(f"{warc} not found")
    from warcio.archiveiterator import ArchiveIterator

    wanted, found = set(WIKI.values()), {}
    with open(warc, "rb") as fh:
        for rec in ArchiveIterator(fh):
            uri = rec.rec_headers.get_header("WARC-Target-URI")
            if rec.rec_type == "response" and uri in wanted:
                found[uri] = rec.content_stream().read()
                if len(found) == len(wanted):
                    break
    return found


@pytest.mark.shared
def test_wikischools_pages_on_and_off_topic(wiki_pages):
    docs = {k: parse(wiki_pages[u], u) for k, u in WIKI.items()}
    texts = {k: extract_document(d, method="e1").text for k, d in docs.items()}
    for name, own in (("information-technology", "it"), ("music", "music")):
        stats = DocumentFrequencies()
        model = RelevanceModel(load_topic(TOPICS / f"{name}.toml"), stats)
        pages = {k: model.analyse(docs[k], texts[k]) for k in docs}
        for p in pages.values():
            stats.add(p.terms)
        results = {k: model.score_page(p) for k, p in pages.items()}
        other = "music" if own == "it" else "it"
        assert results[own].relevant, (name, results[own])
        assert not results[other].relevant, (name, results[other])
        assert results[own].score > 2 * results[other].score


def test_the_extraction_language_given_to_analyse_is_the_one_it_would_detect(monkeypatch):
    """The pipeline hands the extraction's language to the relevance model instead of having
    it detected twice: on real pages the two agree; a given language is used as it is."""
    import crawler.relevance.model as M

    model = RelevanceModel(Topic(name="t", terms=("computer",), languages=("en",)),
                           DocumentFrequencies())
    for path in sorted(PAGES.glob("*.html")):
        doc = parse(path.read_bytes())
        extraction = extract_document(doc)
        assert extraction.text
        assert model.analyse(doc, extraction.text).language == extraction.language
    doc = parse(page("Computers", "A computer is a machine. " * 20))
    monkeypatch.setattr(M, "detect_language", lambda *a: pytest.fail("detected again"))
    analysed = model.analyse(doc, "A computer is a machine.", language="de")
    assert analysed.language == "de"
    assert "not in the topic" in model.score_page(analysed).reason
