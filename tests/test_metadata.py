"""Page metadata (extraction/metadata.py): meta tags and Open Graph first, JSON-LD for the rest."""
import json

import pytest

from extraction import extract, extract_document, parse
from extraction.datasets import load
from extraction.metadata import choose_title, html_title, template_free

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
    assert meta["date"] == "2026-03-01T10:00:00+00:00" and meta["date_modified"] == "2026-03-02"
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


def test_academic_and_dublin_core_tags_give_title_authors_and_date():
    """Found by a genre review: an arXiv abstract page came out titled "Title:Sparse ..." (its
    <h1> carries a "Title:" label) with no author or date, though its Highwire Press tags,
    which Google Scholar reads, name all three."""
    head = ('<title>[2405.01234] Sparse Mixture-of-Adapters for Speech</title>'
            '<meta name="citation_title" content="Sparse Mixture-of-Adapters for Speech">'
            '<meta name="citation_author" content="Okafor, Adaeze">'
            '<meta name="citation_author" content="Lindqvist, Erik">'
            '<meta name="citation_author" content="Okafor, Adaeze">'
            '<meta name="citation_date" content="2024/05/02">')
    body = ('<h1 class="title"><span class="descriptor">Title:</span>Sparse Mixture-of-Adapters '
            'for Speech</h1><blockquote>' + "We propose a sparse mixture of adapters. " * 8 +
            '</blockquote>')
    result = extract(f"<html><head>{head}</head><body>{body}</body></html>",
                     url="https://arxiv.org/abs/2405.01234")
    assert result.title == "Sparse Mixture-of-Adapters for Speech"
    assert result.metadata["author"] == "Okafor, Adaeze; Lindqvist, Erik"
    assert result.metadata["date"] == "2024-05-02"
    dublin = ('<meta name="DCTERMS.created" content="2013-02-17T22:15:42+00:00">'
              '<meta name="DC.creator" content="A. Author"><meta name="DC.creator" content="B. Author">')
    meta = extract(_page(dublin)).metadata
    assert meta["date"] == "2013-02-17T22:15:42+00:00" and meta["author"] == "A. Author; B. Author"


def test_the_credit_of_the_software_that_made_the_page_is_no_author():
    """Every Discuz! forum page says <meta name="author" content="Discuz! Team and Comsenz UI
    Team"> (a genre review); a generator that the author does not name changes nothing."""
    credit = ('<meta name="generator" content="Discuz! X3.4">'
              '<meta name="author" content="Discuz! Team and Comsenz UI Team">')
    assert "author" not in extract(_page(credit)).metadata
    blog = '<meta name="generator" content="WordPress 6.4"><meta name="author" content="Ann Lee">'
    assert extract(_page(blog)).metadata["author"] == "Ann Lee"
    # a person whose name holds the product's (the review of the rule)
    for generator, author in (("Hugo 0.121.1", "Hugo Ferreira"), ("Hugo 0.121.1", "Victor Hugo"),
                              ("Zola", "Émile Zola"), ("Nikola (getnikola.com)", "Nikola Petrović")):
        head = f'<meta name="generator" content="{generator}"><meta name="author" content="{author}">'
        assert extract(_page(head)).metadata["author"] == author
    same = '<meta name="generator" content="PMJS - TI"><meta name="author" content="PMJS - TI">'
    assert "author" not in extract(_page(same)).metadata


@pytest.mark.parametrize("script", [
    '<script type="application/LD+JSON">{"@type": "NewsArticle", "datePublished": "2020-01-02",'
    ' "author": {"name": "Ann Lee"}}</script>',
    '<script type="application/Ld+Json">{"@type": "NewsArticle", "datePublished": "2020-01-02",'
    ' "author": {"name": "Ann Lee"}}</script>',
    '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2020-01-02",'
    ' "author": {"name": "Ann Lee"}, "description": "Two\nlines"}</script>',
    '<script type="application/ld+json">{"@type": "http://schema.org/NewsArticle",'
    ' "datePublished": "2020-01-02", "author": {"name": "Ann Lee"}}</script>',
    '<script type="application/ld+json">{"@type": ["schema:BlogPosting"],'
    ' "datePublished": "2020-01-02", "author": "Ann Lee"}</script>'])
def test_json_ld_in_any_case_with_raw_line_breaks_or_full_type_names_is_read(script):
    """Found by a review: an upper-case script type, a raw line break inside a string (not
    strict JSON, common on real pages) and a type named by its full IRI lost date and author."""
    meta = extract(_page(script)).metadata
    assert meta["date"] == "2020-01-02" and meta["author"] == "Ann Lee"


@pytest.mark.parametrize("declared", ["en-", "en_US.UTF-8", "en--us"])
def test_a_malformed_lang_tag_is_read_as_its_language(declared):
    """Found by a review: "en" over Russian text gave "ru", but "en-" or "en_US.UTF-8" gave
    "en" (the malformed tag skipped the script check)."""
    russian = "<p>" + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 8 + "</p>"
    page = f'<html lang="{declared}"><body>{russian}</body></html>'
    assert extract(page).language == "ru"


@pytest.mark.parametrize("declared", ["xx", "zz-ZZ", "qaa"])
def test_a_lang_code_of_no_language_is_no_declaration(declared):
    german = ("<p>" + "Der schnelle braune Fuchs springt über den faulen Hund im Garten neben "
              "dem Haus. " * 8 + "</p>")
    assert extract(f'<html lang="{declared}"><body>{german}</body></html>').language == "de"


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
    # a declared English over plainly other text (a template's default) is checked
    assert extract(f'<html lang="en"><body>{german}</body></html>').language == "de"


@pytest.mark.parametrize("declared, expected", [
    ("ger", "de"), ("deu", "de"), ("de-AT", "de"), ("DE_at", "de"), ("iw", "he"),
    ("ast", "ast"), ("tl", "tl"), ("und", None), ("mul", None), ("d3", None), ("", None)])
def test_a_declared_language_is_given_as_its_iso_639_1_code_where_it_has_one(declared,
                                                                               expected):
    """Found in the notes: ``lang="ger"`` gave ``ger`` where a two-letter page gives ``de``,
    so a downstream filter on ``language == "de"`` lost it; ``und`` was taken for a language."""
    from extraction.metadata import declared_code

    assert declared_code(declared) == expected
    dutch = "<p>" + "De gemeenteraad heeft gisteren na een lang debat de begroting goedgekeurd. " * 5
    # the declaration wins for text in its script; one that names no language, or a language
    # of another script (Hebrew), leaves it to the text
    page_language = extract(f'<html lang="{declared}"><body>{dutch}</body></html>').language
    assert page_language == (expected if expected not in (None, "he") else "nl")
    chinese = "<p>" + "中国足球队昨天在北京进行了训练。" * 10
    assert extract(f'<html lang="chi"><body>{chinese}</body></html>').language == "zh"


SENTENCES = {
    "de": "Der Stadtrat hat gestern den Haushalt nach langer Debatte beschlossen. Die Opposition "
          "kritisierte die hohen Ausgaben.",
    "pl": "Rada miasta zatwierdziła wczoraj budżet po długiej debacie. Opozycja skrytykowała "
          "wysokie wydatki.",
    "tr": "Belediye meclisi dün uzun bir tartışmanın ardından bütçeyi onayladı. Muhalefet yüksek "
          "harcamaları eleştirdi.",
    "ru": "Городской совет вчера утвердил бюджет после долгих дебатов. Оппозиция раскритиковала "
          "высокие расходы.",
    "uk": "Міська рада вчора затвердила бюджет після довгої дискусії. Опозиція розкритикувала "
          "високі витрати.",
    "el": "Η δημοτική επιτροπή ενέκρινε χθες τον προϋπολογισμό μετά από μακρά συζήτηση.",
    "he": "מועצת העיר אישרה אתמול את התקציב לאחר דיון ארוך. האופוזיציה מתחה ביקורת על ההוצאות.",
    "ar": "وافق مجلس المدينة أمس على الميزانية بعد نقاش طويل. وانتقدت المعارضة النفقات المرتفعة.",
    "th": "สภาเมืองอนุมัติงบประมาณเมื่อวานนี้หลังจากการอภิปรายอันยาวนาน ฝ่ายค้านวิจารณ์ค่าใช้จ่ายที่สูง",
    "hi": "नगर परिषद ने कल लंबी बहस के बाद बजट को मंजूरी दी। विपक्ष ने उच्च खर्च की आलोचना की।",
}


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_the_language_of_an_undeclared_or_misdeclared_page_is_identified(language):
    """Found by a review: a page neither CJK nor English without a ``lang`` attribute had no
    language (12 of 12 such pages), and a template's ``lang="en"`` over Russian text said
    English."""
    body = f"<body><article><p>{(SENTENCES[language] + ' ') * 5}</p></article></body>"
    assert extract(f"<html>{body}</html>").language == language
    assert extract(f'<html lang="en">{body}</html>').language == language
    english = "The city council approved the budget yesterday after a long debate. " * 5
    assert extract(f'<html lang="{language}"><body><p>{english}</p></body></html>'
                   ).language == "en"
    assert extract("<html><body><p>Tschüss und danke.</p></body></html>").language is None


def test_json_ld_nested_too_deeply_is_skipped_and_the_text_kept():
    from extraction import extract

    text = "The committee agreed to publish a summary of the meeting for readers. " * 10
    html = (f'<html><head><script type="application/ld+json">{"[" * 3000}{"]" * 3000}'
            f"</script></head><body><article><p>{text}</p></article></body></html>")
    result = extract(html)
    assert "committee agreed" in result.text and result.reason is None


@pytest.mark.parametrize("head, body, expected", [
    # the site's name is taken off the <title>
    ("<title>Storm hits the coast | Daily Courier</title>", "", "Storm hits the coast"),
    ('<title>Daily Courier - Storm hits the coast today</title><meta property="og:site_name" '
     'content="Daily Courier">', "", "Storm hits the coast today"),
    # without a name, the last segment is the site's (the common order); a breadcrumb's
    # longest segment is the headline; a score is no separator
    ("<title>Commuters stranded | The Sydney Morning Herald</title>", "", "Commuters stranded"),
    ("<title>Home | News | World | Storm hits the coast of France | Daily Courier</title>", "",
     "Storm hits the coast of France"),
    ("<title>Arsenal 2 - 1 Chelsea | Sport</title>", "", "Arsenal 2 - 1 Chelsea"),
    ("<title>Storm hits the coast |</title>", "", "Storm hits the coast"),
    # a logo <h1> alone, a section <h1>, a one-word <h1>, C#'s "#"
    ("<title>Storm hits the coast - Daily Courier</title>", "<h1>Daily Courier</h1>",
     "Storm hits the coast"),
    ("<title>Storm batters coast | World News | Courier</title>", "<h1>World News</h1>",
     "Storm batters coast | World News"),
    ("<title>Home improvement: ten tips | DIY Site</title>", "<h1>Home</h1>",
     "Home improvement: ten tips"),
    ("<title>Learn C# | Docs</title>", "<h1>Learn C#</h1>", "Learn C#"),
    ('<meta property="og:title" content="Arsenal 2 - 1 Chelsea">'
     '<meta property="og:site_name" content="BBC Sport">', "", "Arsenal 2 - 1 Chelsea"),
    ("<title>鎌倉日帰り旅行｜ゆるり日記</title>", "", "鎌倉日帰り旅行"),
    # Chinese CMSes: "标题_频道_网站", "标题--网站"; their English editions; snake_case stays
    ("<title>拿出10万元投资房产 小两口尝试以钱生钱(图)_新浪房产_新浪网</title>", "",
     "拿出10万元投资房产 小两口尝试以钱生钱(图)"),
    ("<title>日本无性婚姻问题严重(图)--雅虎新闻</title>", "", "日本无性婚姻问题严重(图)"),
    ("<title>Starbucks founder back at helm_English_Xinhua</title>", "",
     "Starbucks founder back at helm"),
    ("<title>Using snake_case names</title>", "", "Using snake_case names"),
    ("<title>令和5年度_事業報告書</title>", "", "令和5年度_事業報告書"),
    ("<title>test_GetUser_ReturnsNull</title>", "", "test_GetUser_ReturnsNull"),
    ("<title>Hello_World program in Java</title>", "", "Hello_World program in Java"),
    # a shared "the" makes no <h1> the headline
    ("<title>The Beginning of the End | Books</title>", "<h1>The Daily Planet</h1>",
     "The Beginning of the End"),
    # a logo <h1> before the headline's
    ("<title>Story title | Site</title>", "<h1 class=logo>Site</h1><h1>Story title</h1>",
     "Story title"),
    # Sphinx's permalink mark
    ("<title>Configuration — myapp 3.2 documentation</title>",
     '<h1>Configuration<a class="headerlink" href="#c">¶</a></h1>', "Configuration"),
    # the visible headline, worded differently from the <title>
    ("<title>Repotting houseplants: a step-by-step guide | Leaf &amp; Root</title>",
     "<h1>How to repot a houseplant without killing it</h1>",
     "How to repot a houseplant without killing it"),
    # a section label is no headline
    ("<title>How to bake rye bread at home | My Kitchen</title>", "<h1>Recipes</h1>",
     "How to bake rye bread at home"),
    ('<meta property="og:title" content="Story title | Site News">'
     '<meta property="og:site_name" content="Site News">', "", "Story title"),
    # a JSON-LD @graph listing the WebPage before the article
    ('<script type="application/ld+json">{"@graph": [{"@type": "WebPage", "name": "Site - Home '
     'of news", "datePublished": "2020-01-01"}, {"@type": "NewsArticle", "headline": "Story '
     'title", "datePublished": "2024-03-01"}]}</script>', "", "Story title"),
])
def test_the_title_is_the_headline(head, body, expected):
    """Found by a review: the whole <title> (site name included) came back whenever the <h1>
    was not inside it, a logo <h1> was taken for the title, and a JSON-LD WebPage listed
    before the article gave the site's title and date."""
    result = extract(f"<html><head>{head}</head><body>{body}{ARTICLE}</body></html>")
    assert result.title == expected
    if "NewsArticle" in head:
        assert result.metadata["date"] == "2024-03-01"


@pytest.mark.parametrize("title, url, expected", [
    ("Python - Wikipedia", None, "Python"),
    ("Contact - Acme Corporation", None, "Contact"),
    ("BBC News - Storm hits the coast", "https://www.bbc.co.uk/news/1", "Storm hits the coast"),
    ("How do I sort a list? - Stack Overflow", "https://stackoverflow.com/q/1",
     "How do I sort a list?"),
    ("No separator at all", None, "No separator at all"),
    # both ends name the site: the common order decides, unless the last is twice the first
    ("Welcome to Flaskish — Flaskish Documentation (3.2.x)",
     "https://flaskish.readthedocs.io/en/3.2.x/", "Welcome to Flaskish"),
    ("Microsoft News | Microsoft announces new Surface lineup and Windows 12 features",
     "https://news.microsoft.com/a",
     "Microsoft announces new Surface lineup and Windows 12 features"),
])
def test_the_sites_part_of_a_title_is_told_by_its_name_or_place(title, url, expected):
    result = extract(f"<html><head><title>{title}</title></head><body>{ARTICLE}</body></html>",
                     url)
    assert result.title == expected


@pytest.mark.parametrize("markup, date, author", [
    ('<p class=byline>By <span itemprop="author" itemscope><span itemprop="name">Jane Roe'
     '</span></span>, <time itemprop="datePublished" datetime="2024-03-01">1 March</time></p>',
     "2024-03-01", "Jane Roe"),
    ('<p>Posted <time datetime="2024-02-02T10:00">Feb 2</time> by <a rel="author" href="/u/j">'
     'Jane Roe</a></p><footer><time datetime="2025-01-01">updated</time></footer>',
     "2024-02-02T10:00:00", "Jane Roe"),
    ('<p><time datetime="2020-01-01">site launch</time> <time pubdate datetime="2024-05-05">'
     'May 5</time></p>', "2024-05-05", None),
    ('<meta itemprop="datePublished" content="2024-06-06"><p>no visible date</p>',
     "2024-06-06", None),
    # a header showing today's date, the article its own
    ('<header><time datetime="2026-11-28">Today</time></header><article><p>Posted <time '
     'datetime="2024-07-07">July 7</time></p></article>', "2024-07-07", None),
])
def test_date_and_author_from_microdata_time_and_rel_author(markup, date, author):
    """Found by a review: with no meta tag or JSON-LD, ``<time datetime>``, schema.org
    microdata and ``rel="author"`` were not read (date and author None)."""
    meta = extract(f"<html><body>{markup}{ARTICLE}</body></html>").metadata
    assert meta.get("date") == date and meta.get("author") == author
    # a meta tag still wins
    head = '<meta name="author" content="Meta Author"><meta name="date" content="1999-09-09">'
    meta = extract(f"<html><head>{head}</head><body>{markup}{ARTICLE}</body></html>").metadata
    assert meta["date"] == "1999-09-09" and meta["author"] == "Meta Author"


def test_review_of_the_stops_diff_metadata_cases():
    """Found by the review of this stop's diff: Indonesian, Croatian came out ms, sr (the
    macrolanguage folding); a commenter's microdata gave the page's author and date; a
    listing's JSON-LD gave its first post's headline; a malformed URL raised."""
    from extraction.metadata import identified_language

    indonesian = ("Pemerintah kota menyetujui anggaran baru kemarin setelah perdebatan panjang "
                  "di balai kota. Para pendukung mengatakan proyek itu akan membantu warga. ")
    croatian = ("Gradsko vijeće jučer je nakon duge rasprave usvojilo novi proračun. Oporba je "
                "kritizirala visoke troškove i upozorila na rast duga grada. ")
    assert identified_language(indonesian * 4) == "id"
    assert identified_language(croatian * 4) in ("hr", "bs")
    comment = ('<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
               '<span itemprop="author">angry_reader_42</span><time itemprop="dateCreated" '
               'datetime="2031-05-05">later</time></div>')
    meta = extract(f"<html><body>{ARTICLE}{comment}</body></html>").metadata
    assert "author" not in meta and "date" not in meta
    listing = ('<script type="application/ld+json">{"@graph": [{"@type": "WebPage", "name": '
               '"Home - Blog", "datePublished": "2010-01-01"}, {"@type": "BlogPosting", '
               '"headline": "Post one", "datePublished": "2024-01-01"}, {"@type": "BlogPosting",'
               ' "headline": "Post two"}]}</script>')
    result = extract(f"<html><head>{listing}</head><body>{ARTICLE}</body></html>")
    assert result.metadata["date"] == "2010-01-01"
    assert extract(f"<html><head><title>A | B</title></head><body>{ARTICLE}</body></html>",
                   "http://[::1/").title == "A"


@pytest.mark.parametrize("title, others, url, rest, templated", [
    ("TheStar.com | Sports | John McHale dies", ["TheStar.com | News | Law professors sign"],
     None, "John McHale dies", True),
    ("Site | Chapter 1 - The Beginning", ["Site | Another page"], None,
     "Chapter 1 - The Beginning", True),
    ("Storm hits coast | World | Reuters", ["Markets fall | Business | Reuters"], None,
     "Storm hits coast | World", True),
    ("The Associated Press: Rice lauds effort", ["The Associated Press: Djokovic jokes"],
     "https://ap.associatedpress.com/1", "Rice lauds effort", True),
    ("Star-Telegram.com: | 01/02/2008 | Moya wins the quarter-final",
     ["Star-Telegram.com: | 01/08/2008 | Martz"], None, "Moya wins the quarter-final", True),
    ("SuperSoccer", ["SuperSoccer"], None, "", True),
    # a shared first word is no template; nor a kicker ("Ukraine war: "), nor a shared
    # beginning longer than what it would leave, nor a shared end swallowing the headline
    ("Bush predicts peace", ["Bush trip irks Iran"], None, "Bush predicts peace", False),
    ("Ukraine war: Russia attacks Kyiv", ["Ukraine war: Biden visits"],
     "https://www.bbc.co.uk/news/1", "Ukraine war: Russia attacks Kyiv", False),
    ("Mission: Impossible – Fallout - Wikipedia", ["Mission: Impossible – Ghost Protocol - "
     "Wikipedia"], None, "Mission: Impossible – Fallout", True),
    ("python - How to sort a list? - Stack Overflow", ["java - How to sort a list? - Stack "
     "Overflow"], None, "python - How to sort a list?", True),
    ("Arsenal 2 - 1 Chelsea | Premier League", ["Arsenal 2 - 0 Spurs | Premier League"], None,
     "Arsenal 2 - 1 Chelsea", True),
    ("Brexit: what you need to know | Site", ["Tax: what you need to know | Site"], None,
     "Brexit: what you need to know", True),
    # an end found whole on two other pages is template, however long
    ("The Python Tutorial — Python 3.12.2 documentation", ["Built-in Functions — Python 3.12.2 "
     "documentation", "os — Python 3.12.2 documentation"], None, "The Python Tutorial", True),
    # "_" is a separator in context; a long end joined by "_" is no template on its own
    ("宏观经济_华夏财经网", ["央行宣布降准_宏观经济_华夏财经网", "股市收盘_证券_华夏财经网"], None,
     "宏观经济_华夏财经网", False),
    ("央行宣布下调存款准备金率0.5个百分点_宏观经济_华夏财经网", ["股市收盘_证券_华夏财经网"], None,
     "央行宣布下调存款准备金率0.5个百分点", True),
    ("令和5年度_事業報告書", ["令和4年度_事業報告書", "令和3年度_事業報告書"], None,
     "令和5年度_事業報告書", False),
    # a story's chapters share more than one segment: only the site's part goes
    ("Chapter 2 - The Long Night - Potter fanfiction", ["Chapter 1 - The Boy - Potter "
     "fanfiction", "Chapter 3 - The End - Potter fanfiction"], None,
     "Chapter 2 - The Long Night", True),
    # French " : " inside a headline
    ("Guerre en Ukraine : Zelensky appelle à l'aide - Le Figaro", ["Guerre en Ukraine : Kyiv "
     "bombardée - Le Figaro"], "https://www.lefigaro.fr/a",
     "Guerre en Ukraine : Zelensky appelle à l'aide", True),
    # the same title with separators: the same page under another URL, no evidence
    ("Story X | Daily Planet", ["Story X | Daily Planet"], None, "Story X | Daily Planet", False),
    ("Storm hits coast", [], None, "Storm hits coast", False),
    ("Storm hits coast", ["", None], None, "Storm hits coast", False),
])
def test_a_titles_template_is_what_it_shares_with_other_pages_of_the_site(title, others, url,
                                                                           rest, templated):
    assert template_free(title, others, url=url) == (rest, templated)


@pytest.mark.parametrize("title, sibling, body, expected", [
    ("TheStar.com | Sports | John McHale, 86: Expos' first president",
     "TheStar.com | News | Law professors sign brief", "",
     "John McHale, 86: Expos' first president"),
    ("SignOnSanDiego.com > Sports -- Henin beats Ivanovic",
     "SignOnSanDiego.com > News > World -- Judges meet", "", "Henin beats Ivanovic"),
    # a site that titles every page with its name: the <h1> is the headline
    ("The Modesto Bee", "The Modesto Bee", "<h1>Reports: EMI to cut up to 2,000 jobs</h1>",
     "Reports: EMI to cut up to 2,000 jobs"),
    ("The Modesto Bee", "The Modesto Bee", "", "The Modesto Bee"),
    # a logo <h1> never replaces a title seen twice (the same page under two URLs)
    ("Story X | Daily Planet", "Story X | Daily Planet", "<h1>The Daily Planet</h1>",
     "Story X"),
    # a page number is no part of the headline, and the pages of a thread share it
    ("Best tent for two? - Page 3 - Trail Talk", "Best tent for two? - Trail Talk", "",
     "Best tent for two?"),
    # what the pages share is this page's <h1>: a product's name, not the site's template
    ("Phone X Ultra - User opinions and reviews - page 2", "Phone X Ultra - Full specifications",
     "<h1>Phone X Ultra</h1>", "Phone X Ultra"),
    # another page of the same thread is no evidence of a site that titles pages by its name
    ("How to fix my bike - Page 2", "How to fix my bike - Page 3",
     "<h1 class=logo>BikeForums</h1><h1>How to fix my bike</h1>", "How to fix my bike"),
    # a section <h1> is no product's name
    ("TheStar.com | Sports | Lakers beat Celtics in overtime",
     "TheStar.com | Sports | Mayor resigns amid scandal", "<h1>Sports</h1>",
     "Lakers beat Celtics in overtime"),
])
def test_the_titles_of_a_sites_other_pages_show_its_template(title, sibling, body, expected):
    page = f"<html><head><title>{title}</title></head><body>{body}{ARTICLE}</body></html>"
    other = f"<html><head><title>{sibling}</title></head><body>{ARTICLE}</body></html>"
    assert extract(page, siblings=[other]).title == expected
    assert extract_document(parse(page), sibling_titles=[sibling]).title == expected


@pytest.mark.shared
def test_sibling_titles_make_more_titles_right_on_the_news_pages(extraction_data):
    """L3S-GN1 pages with a sibling page and a gold title: exact titles (case and spacing
    aside) without, then with, the sibling's <title>."""
    norm = lambda text: " ".join((text or "").lower().split())   # noqa: E731
    right = [0, 0]
    pages = [p for p in load("l3s-gn1").pages if p.title and p.siblings]
    for page in pages:
        doc = parse(page.html(), url=page.url)
        titles = [html_title(parse(s.read_bytes())) for s in page.siblings]
        right[0] += norm(extract_document(doc).title) == norm(page.title)
        right[1] += norm(extract_document(doc, sibling_titles=titles).title) == norm(page.title)
    assert len(pages) > 80
    assert right[1] >= right[0] + 5, right


@pytest.mark.timeout(30)
@pytest.mark.parametrize("title", ["a" + "_" * 20_000 + "b", "-" * 30_000, "中" + "_" * 20_000,
                                   "_" * 20_000 + "中", "a" + " - " * 20_000 + "b"])
def test_runs_of_separators_in_a_title_cost_linear_time(title):
    # from the day's review: a run of "_" or "-" was rescanned from every position (7.7 s)
    extract(f"<html><head><title>{title}</title></head><body>{ARTICLE}</body></html>")


@pytest.mark.timeout(30)
def test_a_title_with_runs_of_spaces_given_directly_costs_linear_time():
    # titles passed to choose_title by a caller need not be collapsed: 20,000 spaces took 20 s
    title = "Headline" + " " * 20_000 + "- Page 2 | Site"
    assert choose_title({"html_title": title}, None, ["Other" + " " * 20_000 + "| Site"]) \
        == "Headline"


@pytest.mark.timeout(30)
def test_many_site_colons_in_a_title_with_siblings_cost_linear_time():
    # each "x: " beginning was keyed again for the site's name: 30,000 characters took 9 s
    title = "a: " * 10_000 + "end"
    page = f"<html><head><title>{title}</title></head><body>{ARTICLE}</body></html>"
    extract_document(parse(page, url="https://zebra.example.com/a"),
                     sibling_titles=[title[:-3] + "xyz"])


@pytest.mark.parametrize("title, h1, expected", [
    ("Free Range Librarian › The Reluctant Cataloger", "Free Range Librarian",
     "The Reluctant Cataloger"),
    ("Quotation of the Day « Healthcare Economist", None, "Quotation of the Day")])
def test_guillemet_and_single_angle_quote_separate_a_site_name(title, h1, expected):
    """Found by a review: WordPress themes' "›" and "«" were not separators, so a site-logo
    <h1> or the whole "Post « Blog" title came out (6 shared pages: dnR280, dnR288, ...)."""
    from extraction import extract

    heading = f"<h1>{h1}</h1>" if h1 else ""
    html = (f"<html><head><title>{title}</title></head><body>{heading}<p>"
            + "Words of the post, written for the blog. " * 20 + "</p></body></html>")
    # (the site's host names it: "freerangelibrarian.com", "healthcare-economist.com")
    url = f"https://{'freerangelibrarian' if h1 else 'healthcare-economist'}.com/2009/03/post/"
    assert extract(html, url).title == expected


def _meta(head: str, body: str = ARTICLE, url: str | None = "https://news.test/a/story.html"):
    return extract(f"<html><head>{head}</head><body>{body}</body></html>", url).metadata


def test_the_pages_image_from_open_graph_twitter_json_ld_or_image_src():
    assert _meta('<meta property="og:image" content="/img/lead.jpg">')["image"] == \
        "https://news.test/img/lead.jpg"
    assert _meta('<meta property="og:image" content="data:image/png;base64,AAAA">'
                 '<link rel="image_src" href="//cdn.test/b.png">')["image"] == \
        "https://cdn.test/b.png"
    assert _meta('<meta name="twitter:image" content="https://cdn.test/t.jpg">')["image"] == \
        "https://cdn.test/t.jpg"
    assert _meta(_ld({"@type": "NewsArticle", "headline": "H", "image": [
        {"@type": "ImageObject", "url": "https://cdn.test/ld.jpg"}, "https://cdn.test/2.jpg"]})
    )["image"] == "https://cdn.test/ld.jpg"
    # the meta tag before JSON-LD; no address that is not http(s), none relative without a URL
    assert _meta('<meta property="og:image" content="https://cdn.test/og.jpg">'
                 + _ld({"@type": "Article", "image": "https://cdn.test/ld.jpg"}))["image"] \
        == "https://cdn.test/og.jpg"
    assert "image" not in _meta('<meta property="og:image" content="javascript:alert(1)">')
    assert "image" not in _meta('<meta property="og:image" content="lead.jpg">', url=None)
    assert "image" not in _meta("")


def test_categories_and_tags_from_open_graph_json_ld_and_rel_links():
    meta = _meta('<meta property="article:section" content="Science">'
                 '<meta property="article:tag" content="volcanoes">'
                 '<meta property="article:tag" content=" Iceland ">'
                 '<meta property="article:tag" content="Volcanoes">')
    assert meta["categories"] == ["Science"] and meta["tags"] == ["volcanoes", "Iceland"]
    meta = _meta(_ld({"@type": "BlogPosting", "headline": "H",
                      "articleSection": ["Travel", "Food", 3]}))
    assert meta["categories"] == ["Travel", "Food"] and "tags" not in meta
    # a blog's post links (WordPress: rel="category tag" and rel="tag"), not its navigation,
    # sidebar or comments
    body = (ARTICLE + '<p>Posted in <a rel="category tag" href="/c/hiking">Hiking</a>. '
            'Tagged <a rel="tag" href="/t/alps">Alps</a>, <a rel="tag" href="/t/snow">snow</a>'
            '</p><nav><a rel="tag" href="/t/x">Menu tag</a></nav>'
            '<aside><a rel="tag" href="/t/y">Sidebar tag</a></aside>'
            '<div class="comments"><div class="comment"><a rel="tag" href="/t/z">spam</a>'
            '</div></div>')
    meta = _meta("", ARTICLE * 4 + body)
    assert meta["categories"] == ["Hiking"] and meta["tags"] == ["Alps", "snow"]
    # the meta tags win over the links
    assert _meta('<meta property="article:tag" content="meta">', body)["tags"] == ["meta"]
    # a tag cloud of more than MAX_TERMS links is no post's tags
    cloud = "".join(f'<a rel="tag" href="/t/{i}">tag {i}</a> ' for i in range(40))
    assert "tags" not in _meta("", ARTICLE + f"<div>{cloud}</div>")


def test_the_pages_license_from_its_link_a_creative_commons_badge_or_json_ld():
    badge = ('<p><a rel="license" href="http://creativecommons.org/licenses/by-sa/4.0/">'
             '<img alt="Creative Commons License" src="/cc.png"></a></p>')
    assert _meta("", ARTICLE + badge)["license"] == \
        "http://creativecommons.org/licenses/by-sa/4.0/"
    assert _meta('<link rel="license" href="/license">', ARTICLE + badge)["license"] == \
        "https://news.test/license"
    assert _meta(_ld({"@type": "Article", "license": "https://creativecommons.org/licenses/"
                      "by/4.0/"}))["license"] == "https://creativecommons.org/licenses/by/4.0/"
    # a commenter's badge is not the page's
    comment = f'<div class="comment">{badge}</div>'
    assert "license" not in _meta("", ARTICLE * 5 + f'<div class="comments">{comment}</div>')
    # a <link rel="license"> to the site's root names none: the badge's does
    assert _meta('<link rel="license" href="https://news.test/">', ARTICLE + badge)[
        "license"] == "http://creativecommons.org/licenses/by-sa/4.0/"
    # nor a photo's credit
    credit = f"<figure><img src='/p.jpg'><figcaption>Photo: A. B., {badge}</figcaption></figure>"
    assert "license" not in _meta("", ARTICLE * 5 + credit)
    # the first badge that names a license
    empty = '<a rel="license" href="javascript:void(0)">license</a>'
    assert _meta("", ARTICLE + empty + badge)["license"] == \
        "http://creativecommons.org/licenses/by-sa/4.0/"


@pytest.mark.shared
def test_image_tags_categories_and_license_of_real_pages(extraction_data):
    pages = {p.id: p for name in ("dragnet-dev", "cleanportaleval") for p in load(name).pages}
    meta = {key: extract(pages[key].html(), pages[key].url).metadata
            for key in ("dnR432", "dnR322", "dnR534", "cpe-blogs-wsj-com_brussels_03")}
    assert meta["dnR432"]["tags"] == ["data", "DIY", "drones", "games", "hardware",
                                      "Internet of Things", "privacy", "security",
                                      "visualization"]
    assert meta["dnR322"]["image"] == "http://www.wired.com/images_blogs/dangerroom/2012/11/" \
        "Anatoliy_Serdyukov1-300x246.jpg"
    assert meta["dnR322"]["tags"] == ["Anatoly Serdyukov", "Politricks", "Sergei Shoigu",
                                      "Vladimir Putin"]
    assert meta["dnR534"]["license"] == "http://creativecommons.org/licenses/by-nc-sa/2.5/"
    assert meta["cpe-blogs-wsj-com_brussels_03"]["tags"] == ["Barroso", "CDS", "euro",
                                                             "European monetary fund"]


def test_a_license_link_that_names_no_license_is_none_and_a_bad_one_costs_nothing():
    for href in ("#license-6ed19dc0", "/", "http://[::1", "javascript:void(0)"):
        meta = _meta("", ARTICLE + f'<p><a rel="license" href="{href}">License</a></p>')
        assert "license" not in meta, href
    result = extract('<html><head><meta property="og:image" content="http://[bad">'
                     '<link rel="license" href="https://[x"></head><body>' + ARTICLE
                     + '<a rel="tag" href="http://[y">t</a></body></html>', "https://a.test/")
    assert result.text and "image" not in result.metadata and "license" not in result.metadata
    # a site's license badge in its sidebar is the page's license too
    side = '<aside><a rel="license" href="https://creativecommons.org/licenses/by/4.0/">cc</a>'
    assert _meta("", ARTICLE + side + "</aside>")["license"] == \
        "https://creativecommons.org/licenses/by/4.0/"


def test_tags_skip_a_sites_widgets_and_clouds_and_read_as_shown():
    cloud = "".join(f'<a rel="tag" href="/t/{i}">topic{i}</a> ' for i in range(10))
    body = (ARTICLE * 20 + '<p>Tagged <a rel="tag" href="/t/py">Python</a>, '
            '<a rel="tag" href="/t/js">Java<b>Script</b></a>; filed under '
            '<a rel="category" href="/?cat=3">Code</a></p>'
            f'<div id="sidebar"><div class="widget widget_tag_cloud">{cloud}</div></div>')
    meta = _meta("", body)
    assert meta["tags"] == ["Python", "JavaScript"] and meta["categories"] == ["Code"]
    # a meta tag's or JSON-LD's value with commas holds several
    meta = _meta('<meta property="article:tag" content="sally ride, obituary">'
                 + _ld({"@type": "NewsArticle", "articleSection": "News, Politics"}))
    assert meta["tags"] == ["sally ride", "obituary"] and meta["categories"] == ["News",
                                                                                "Politics"]
    # more than MAX_TERMS in JSON-LD too: none
    many = _ld({"@type": "NewsArticle", "articleSection": [f"s{i}" for i in range(40)]})
    assert "categories" not in _meta(many)


def test_text_that_is_no_address_is_no_image_or_license():
    for head in ('<meta property="og:image" content="undefined">',
                 '<meta property="og:image" content="null">',
                 _ld({"@type": "Article", "license": "CC BY 4.0"}),
                 _ld({"@type": "Article", "license": "All rights reserved"}),
                 _ld({"@type": "Article", "image": {"@id": "#primaryimage"}})):
        meta = _meta(head)
        assert "image" not in meta and "license" not in meta, head
    # Yoast: the article's image is an @id of an ImageObject elsewhere in the graph
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "Article", "headline": "H",
         "image": {"@id": "https://news.test/a/story.html#primaryimage"}},
        {"@type": "ImageObject", "@id": "https://news.test/a/story.html#primaryimage",
         "url": "https://news.test/img/main.jpg"}]}
    assert _meta(_ld(graph))["image"] == "https://news.test/img/main.jpg"
    # an inline placeholder is skipped for the next meta, not for <link rel="image_src">
    assert _meta('<meta property="og:image" content="data:image/gif;base64,R0lGOD">'
                 '<meta name="twitter:image" content="/t.jpg">')["image"] == \
        "https://news.test/t.jpg"


def test_rel_links_in_deeply_nested_markup_are_judged_once_per_container(monkeypatch):
    """2,000 nested elements around 500 tag links: each container's class words are read
    once (a walk up from every link split 500 x 2,000 class names: 12 s for this page)."""
    import extraction.metadata as metadata

    split = []
    original = metadata.word_parts
    monkeypatch.setattr(metadata, "word_parts", lambda name: split.append(name) or
                        original(name))
    links = "".join(f'<a rel="tag license" href="/lic/x{i}">t{i}</a>' for i in range(500))
    page = ("<html><body>" + ARTICLE + '<div class="' + "wrapper " * 25 + '">' * 2000
            + links + "</div>" * 2000 + "</body></html>")
    meta = metadata.read_metadata(parse(page, "https://news.test/"))
    assert "tags" not in meta            # 500 tags: more than MAX_TERMS
    assert meta["license"] == "https://news.test/lic/x0"
    assert len(split) <= 2 * 2100, len(split)
