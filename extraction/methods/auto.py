"""``auto``: the product extractor, a learned block classifier over all the evidence.

Blocks and features come from :mod:`extraction.features` (text statistics, markup context,
class/id hints, neighbours, and the votes of E1 and E2); a gradient-boosted tree ensemble
trained by ``python -m extraction train auto`` on the training splits gives each block a
probability of being main content.  Text of the document's ``head`` (the ``<title>``) is never
main text: it is the result's title.  Language-independent: lengths are in characters and the
punctuation sets include CJK marks.
"""
from __future__ import annotations

import json
import numbers
import re
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from ..document import TEXT, Document
from ..containers import best_box, container_scores
from ..features import (FEATURE_NAMES, STAGE2_NAMES, BlockTable, block_table, hint_masks,
                        stage2_features)
from ..forest import TreeEnsemble
from ..metadata import json_ld_article_body
from ..result import OptionError, Selection, empty
from ..listicles import list_items
from ..threads import is_thread, thread_posts

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
# [ours] when no block reaches the cut, the blocks reaching this share of it are kept (a page
# handed to an extractor nearly always has a main text; readability retries likewise)
RELAXED_SHARE = 0.5
# [ours] a selection more than this share of whose text lies in comment-hinted elements,
# spread over at least COMMENT_ITEMS of them (a thread of comments, not one container whose
# class happens to match, e.g. "responsive"), is replaced by the container-vote box when the
# box is not comment-hinted (the page's comments, not its text)
COMMENT_SHARE = 0.5
COMMENT_ITEMS = 3
# [ours] a cookie-consent notice or a newsletter box, by a class or id of its own, is never
# main text (the training pages, 2007-2012, hardly have them, so the model did not learn their
# hints): "cookie-banner", "cookie-consent", "gdpr", "newsletter-signup", "m-privacy-consent";
# a whole token, so that a page's feature flags ("mm-use-consent-management-enabled") on its
# body never match (nor WordPress's tag-/cat- classes of a post), and only an element holding
# little text (CONSENT_MAX_CHARS), no h1/h2 and not one of CONSENT_NEVER; at most two
# segments after the word ("b-newsletter-signup-inline")
CONSENT_HINT = re.compile(
    r"^(?:(?!tag-|cat-)[a-z]{1,3}-)?(?:privacy-)?(?:cookies?[-_]?(?:banner|notice|bar|consent|popup|modal|wall"
    r"|message|dialog|box|law|policy|overlay|container|info|alert|warning|disclaimer"
    r"|settings|accept)|consent|gdpr|newsletter)(?:[-_][a-z]+){0,2}$", re.I)
# the consent dialogs of consent-management platforms by their class or id (OneTrust,
# Usercentrics, Didomi, Cookiebot, Quantcast, TrustArc, Sourcepoint, consentmanager): never a
# page's text, so their heading ("Your privacy") does not save them as it saves a policy's
# section
CONSENT_VENDOR = re.compile(
    r"^(?:onetrust|ot-sdk|usercentrics|didomi|cybotcookiebot|qc-cmp2?|truste-consent"
    r"|sp_message|cmpbox|cmpwrapper)(?:[-_][a-z0-9]+)*$|^cybotcookiebot", re.I)
CONSENT_MAX_CHARS = 600
# [ours] the label of an advertisement slot inside an article ("Advertisement", "Continue
# reading below", "Anzeige", "Publicité", "广告"): a block that is nothing but such a label is
# never main text.  The training pages hardly have them; the model keeps them beside the text
# they interrupt.  A whole block only ("advertising" inside a sentence is text), never a
# heading or a table cell (a policy's section "Sponsored content", an emperor's "14 AD"), and
# not the bare "Advertising" (a section's name as often as a label).
AD_LABEL = re.compile(
    r"[\W_]*(?:(?:skip\s+|end\s+of\s+)?(?:advertisements?|adverts?|ads?)"
    r"(?:\s*[-:–—·|]?\s*(?:(?:scroll|continue)\s+(?:down\s+)?to\s+continue"
    r"(?:\s+(?:reading|with\s+content))?|continue\s+reading(?:\s+below)?))?"
    r"|sponsored(?:\s+(?:content|links?|ads?))?|promoted|ad\s*choices|ad\s+feedback"
    r"|report\s+this\s+ad|(?:the\s+)?(?:article|story|text|content)\s+continues\s+(?:below|after)"
    r"(?:\s+(?:this|the)?\s*(?:advertisement|advert|ad))?"
    r"|continue\s+reading\s+(?:the\s+main\s+story|below|after\s+(?:the\s+)?(?:advertisement|ad))"
    r"|anzeige|werbung|weiter(?:lesen)?\s+nach\s+der\s+anzeige|publicit[ée]s?"
    r"|la\s+suite\s+apr[eè]s\s+(?:cette\s+|la\s+)?publicit[ée]|publicidad|publicidade"
    r"|anuncio|an[uú]ncio|pubblicit[àa]|advertenties?|annons(?:er)?|annonse|mainos|reklam[ae]"
    r"|реклама|广告|廣告|広告|スポンサーリンク|광고|reklam|iklan|quảng\s+cáo|διαφήμιση|विज्ञापन"
    r"|إعلان|اعلان|פרסומת|โฆษณา)[\W_]*",
    re.I)
AD_LABEL_MAX_CHARS = 80
# [ours] what a page prints around its text: a call to share it ("Share this article", "Tweet",
# "Print this article Email this article", "分享到："), "Skip to main content", and after the
# text the comment section's heading or call ("Comments", "Leave a reply", "12 Responses to
# ...", "Comments are closed", "blog comments powered by Disqus"), related links ("Related
# posts", "You may also like..."), "Follow us", "Back to top", in several languages.  Left out
# only at an end of the chosen text (the blocks chosen before the first other block, matching
# EDGE_LABEL, or after the last, matching TAIL_LABEL; the page's own list of links after such
# a heading is seldom chosen), a whole block of at most EDGE_LABEL_MAX_CHARS characters, one
# label or several, and never the selection's only text.
_SHARING = (
    r"share(?:\s+(?:this|the)(?:\s+(?:article|story|post|page|entry))?)?(?:\s+(?:on|via|with)"
    r"(?:\s+(?:facebook|twitter|x|linkedin|whatsapp|reddit|email|e-mail))?)?"
    r"|sharing\s+is\s+caring|tweet|pin\s+it|bookmark(?:\s+(?:this|to))?"
    r"|e-?mail(?:\s+this)?(?:\s+(?:article|story|page))?|print(?:\s+this)?(?:\s+(?:article|story|page))?"
    r"|printer[-\s]friendly(?:\s+(?:page|version))?|submit|facebook|twitter|linkedin|whatsapp"
    r"|teilen|partager|compartir|compartilhar|condividi|分享(?:到|让更多人看到)?|シェア|공유하기")
# calls to read another story, at the end of the text or inside it ("Read more: <headline>")
_READ_ALSO = (
    r"related(?:\s+(?:articles?|posts?|stories|links|videos|content|news|topics|reading))?"
    r"|you\s+(?:may|might)\s+also\s+(?:like|enjoy|be\s+interested\s+in)"
    r"|read\s+(?:more|also|next)|more\s+on\s+this\s+(?:story|topic)|leia\s+(?:também|mais)|veja\s+também"
    r"|lesen\s+sie\s+(?:auch|mehr)|mehr\s+zum\s+thema|(?:à\s+)?lire\s+aussi|leggi\s+anche|lee\s+también"
    r"|читайте\s+(?:также|також)|czytaj\s+(?:także|też|więcej)|zobacz\s+(?:też|także)"
    r"|lees\s+ook|läs\s+också|les\s+også|čtěte\s+také|přečtěte\s+si\s+také"
    r"|baca\s+juga|artikel\s+terkait|xem\s+thêm|tin\s+liên\s+quan|đọc\s+thêm"
    r"|ayrıca\s+okuyun|ilgili\s+haberler|διαβάστε\s+(?:επίσης|ακόμη)|यह\s+भी\s+पढ़ें|ये\s+भी\s+पढ़ें"
    r"|اقرأ\s+(?:أيضا|أيضاً|ايضا)|עוד\s+בנושא|קראו\s+(?:עוד|גם)"
    r"|延伸阅读|推荐阅读|延伸閱讀|あわせて読みたい")
_SKIP = r"skip\s+to\s+(?:the\s+)?(?:main\s+)?(?:content|article|text)"
_AFTER_TEXT = (
    r"(?:\d+\s+|no\s+|show\s+|view\s+|read\s+|reader\s+|user\s+)?comments?(?:\s*\(\d+\))?"
    r"|(?:post|add|leave|write|submit|make)\s+(?:a|your|new)\s+(?:comment|reply|response)"
    r"|(?:leave\s+a\s+)?reply|(?:\d+\s+)?(?:responses?|repl(?:y|ies)|comments?|thoughts)\s+(?:to|on)\s+.{1,70}"
    r"|(?:the\s+)?comments?\s+(?:to\s+this\s+(?:entry|post|article)\s+)?(?:are|is)\s+(?:now\s+)?closed"
    r"|no\s+(?:comments|responses|replies)(?:\s+yet)?|be\s+the\s+first\s+to\s+comment"
    r"|(?:blog\s+)?comments\s+powered\s+by\s+disqus|join\s+the\s+(?:discussion|conversation)"
    r"|have\s+your\s+say(?:\s+on\s+this\s+(?:story|article))?|discussion|trackbacks?|no\s+trackbacks"
    r"|\d+\s+likes?"
    f"|{_READ_ALSO}|see\\s+also|more\\s+like\\s+this"
    r"|follow\s+us(?:\s+on\s+\w+)?|(?:back|go|return)\s+to\s+(?:the\s+)?top(?:\s+of\s+(?:the\s+)?page)?|top\s+of\s+page"
    r"|kommentare?|(?:\d+\s+)?commentaires?|comentarios?|coment[aá]rios?|commenti|reacties|komentarze"
    r"|комментари[ийя]|отзывы|ähnliche\s+artikel|verwandte\s+artikel|articles?\s+similaires"
    r"|artículos\s+relacionados|artigos\s+relacionados|você\s+pode\s+gostar|articoli\s+correlati"
    r"|(?:发表|网友|最新|相关)?评论|相关(?:文章|报道|新闻|阅读|链接)|相關(?:文章|報導|新聞|閱讀)|評論"
    r"|関連記事|コメント|댓글|관련\s*기사")


def _labels(alternatives: str) -> re.Pattern:
    """One or more of ``alternatives``, whole, between and around non-word characters."""
    return re.compile(rf"[\W_]*(?:{alternatives})(?:[\W_]+(?:{alternatives}))*[\W_]*", re.I)


EDGE_LABEL = _labels(f"{_SHARING}|{_SKIP}")
TAIL_LABEL = _labels(f"{_SHARING}|{_AFTER_TEXT}")
EDGE_LABEL_MAX_CHARS = 80
# [ours] a call to read another story inside the text: a block of at most
# INLINE_REF_MAX_CHARS characters, the label (_READ_ALSO) then a separator or four words or
# more ("Read more: <headline>", "Lire aussi | ...", "[Related: ...]"), at least
# INLINE_REF_MIN_LINKS of it in links, with chosen text before and after it
INLINE_REFS = True
INLINE_REF = re.compile(rf"[\W_]*(?:{_READ_ALSO})(?:\s*[:|»>–—-]+\s*|\s+(?=(?:\w+\W+){{3}}\w))\w.*",
                        re.I | re.S)
INLINE_REF_MIN_LINKS = 0.5
INLINE_REF_MAX_CHARS = 200
# [ours] a page's schema.org microdata may mark its article's text (itemprop="articleBody", as
# news and blog templates do for search engines).  When at least this share of the chosen
# text lies inside the marked elements (the markup and the model agree), the chosen blocks
# after the last of them (related stories, author boxes, comments) are left out and every
# block inside them that stage 1 finds content-like is kept (stage 2 judges a block against
# the rest of the page and can drop paragraphs far down a long article).  What comes before
# them (headline, standfirst, byline) stays as the model chose it.
ARTICLE_BODY_SHARE = 0.5
# [ours] a page rendered by its scripts (React, Next.js, Vue) can hold no article text in its
# HTML, only a shell of menus; its JSON-LD may still carry the text as ``articleBody``.  When
# the blocks give fewer than JSON_LD_BODY_MAX_CHARS characters and the articleBody is at
# least JSON_LD_BODY_MIN_CHARS long and JSON_LD_BODY_RATIO times the blocks' text, the
# articleBody is the main text (info["source"]; no Markdown structure, no links; confidence
# JSON_LD_CONFIDENCE, as no block was judged).  Where the HTML holds the article, its text
# is as long as the articleBody or longer, and the blocks stay.
JSON_LD_BODY_MAX_CHARS = 1000
JSON_LD_BODY_MIN_CHARS = 400
JSON_LD_BODY_RATIO = 3
JSON_LD_CONFIDENCE = 0.5
# [ours] the chosen text an answer of a Q&A page must hold before every answer is taken
ANSWER_MIN_CHARS = 200
# [ours] a data table (no table inside, at least this many rows of two cells or more, blocks
# of at most TABLE_MAX_CELL_CHARS characters on average) is kept or left whole, see
# _whole_tables
TABLE_MIN_ROWS = 3
TABLE_MAX_CELL_CHARS = 60
TABLE_MAX_LINK_SHARE = 0.6      # ... and at most this share of its text in links
TABLE_MIN_SHARE = 0.2           # ... and at least this share of its text chosen
_LINK_DENSITY = FEATURE_NAMES.index("link_density")
# [ours] a list inside the chosen text is kept whole, see _whole_lists
WHOLE_LISTS = True
THREADS = True                   # a discussion thread's posts (extraction.threads)
THREAD_CHROME = True             # ... without the posts' short blocks outside their bodies
LIST_ITEMS = True                # a numbered list article's items (extraction.listicles)
THREAD_CHROME_CHARS = 80         # ("Quote", "Post by X » date", "2 Likes")
LIST_MAX_LINK_SHARE = 0.3        # ... at most this share of its text in links
LIST_MIN_ITEM_CHARS = 20         # ... and at least this many characters a block on average
# a cell of a number, an amount, a date or a score ("48", "3.5%", "$1,200", "2-1", "14:30")
_NUMBER = re.compile(r"[-+−–]?[$€£¥]?\s*\d[\d\s.,:/%+−–-]*[a-zA-Z%]{0,3}")

# [ours] the cut on the content probability for ``favor``: "precision" keeps only the blocks
# the model is surer of (fewer boilerplate words in a corpus, some text lost), "recall" keeps
# more (less text lost, more boilerplate); "balanced" is the model's own cut (0.5, best mean
# F1).  Token P / R on the six dev sets, 2026-12-02: 0.962 / 0.935, 0.948 / 0.963, 0.923 /
# 0.974 (README, "Precision or recall")
FAVOR_CUTS = {"precision": 0.7, "balanced": None, "recall": 0.3}

# elements that hold a page's text, whatever their classes say (WordPress gives a post
# tagged "newsletter" the class tag-newsletter on its <article>); a <section> holding a form
# or an input is a signup box all the same
CONSENT_NEVER = ("html", "body", "main", "article", "section")


@lru_cache(maxsize=2)
def load_model(model_dir: str = str(MODEL_DIR)) -> tuple[TreeEnsemble, TreeEnsemble, dict]:
    directory = Path(model_dir)
    meta = json.loads((directory / "auto.json").read_text(encoding="utf-8"))
    if meta["features"] != list(FEATURE_NAMES) or meta["stage2_features"] != list(STAGE2_NAMES):
        raise RuntimeError("the auto model was trained on other features: "
                           "run `python -m extraction train auto`")
    return TreeEnsemble.load(directory / "auto.npz"), TreeEnsemble.load(directory / "auto2.npz"),\
        meta


def favor_cut(favor: str | None = None, threshold: float | None = None) -> float | None:
    """The cut ``extract_auto`` applies for ``favor`` ("precision", "balanced", "recall") or an
    explicit ``threshold`` (above 0); ``None``: the model's own.  Raises
    :class:`OptionError` on any other value or when both are given."""
    if favor is not None and (not isinstance(favor, str) or favor not in FAVOR_CUTS):
        raise OptionError(f"favor must be one of {', '.join(FAVOR_CUTS)}; got {favor!r}")
    if threshold is None:
        return FAVOR_CUTS[favor or "balanced"]
    if favor not in (None, "balanced"):
        raise OptionError("give favor or threshold, not both")
    try:
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) \
                or not float(threshold) > 0:
            raise ValueError
    except (ValueError, OverflowError):         # (10**400 is no float)
        raise OptionError(f"threshold must be a number above 0; got {threshold!r}") from None
    return float(threshold)


def extract_auto(doc: Document, siblings: Sequence[Document] = (), *,
                 favor: str | None = None, threshold: float | None = None,
                 model_dir: str | None = None) -> Selection:
    """Keep the blocks whose content probability reaches ``threshold`` (model default 0.5;
    ``favor="precision"`` 0.7, ``"recall"`` 0.3, see :data:`FAVOR_CUTS`).

    When no block of the body does, fall back (``info["relaxed"]``; ``info["cut"]`` is the
    cut that chose) to the model's own cut when ``threshold`` is above it ("model cut", so
    that a higher cut never keeps more than the model's), to the blocks reaching
    ``RELAXED_SHARE`` of the lower of the two ("half cut"), then to the blocks whose stage-1
    probability reaches that ("stage 1": the page-relative stage 2 can reject every block of
    a page unlike its training pages, e.g. one with a single paragraph), and last to the
    blocks inside the box of :mod:`extraction.containers` ("container votes").  A selection more than
    ``COMMENT_SHARE`` of whose text is in comment-hinted blocks, under at least
    ``COMMENT_ITEMS`` comment-hinted elements, gives way to that box when the box is not
    ("comments: container votes").  Where the page marks its article's text
    (``itemprop="articleBody"``) and the selection mostly lies in it, the selection ends with
    it and takes its content-like blocks (:data:`ARTICLE_BODY_SHARE`).  On a discussion
    thread (:mod:`extraction.threads`) the post bodies of every post are taken and the
    posts' short blocks outside them (:data:`THREAD_CHROME_CHARS`) left out.  The blocks of a
    cookie notice or a newsletter box (:data:`CONSENT_HINT`), an advertisement's label
    (:data:`AD_LABEL`) and the labels at the ends of the text (:data:`EDGE_LABEL`,
    :data:`TAIL_LABEL`: "Share this article", "Comments") are left out of any selection that
    has other blocks, and so are the calls to read another story inside the text
    (:data:`INLINE_REF`: "Read more: <headline>").  A page whose blocks give little text and
    whose JSON-LD holds a much longer ``articleBody`` (a page rendered by its scripts) gives
    that (``info["source"]``, :data:`JSON_LD_BODY_MAX_CHARS`)."""
    selection = _blocks_selection(doc, favor_cut(favor, threshold), model_dir)
    if doc.json_ld and len(selection.text) < JSON_LD_BODY_MAX_CHARS:
        return _json_ld_body(doc, selection) or selection
    return selection


def _blocks_selection(doc: Document, cut: float | None, model_dir: str | None) -> Selection:
    """:func:`extract_auto`'s selection of the page's blocks at ``cut``."""
    stage1, stage2, meta = load_model(model_dir or str(MODEL_DIR))
    own = meta["threshold"]
    if cut is None:
        cut = own
    table = block_table(doc)
    if not len(table.ids):
        return empty("no text in the page", cut=cut)
    p1 = stage1.probability(table.x)
    prob = stage2.probability(stage2_features(table, doc, p1))
    # the head's text (<title>) is metadata, returned as the title, never main text
    body_text = (doc.kind == TEXT) & ~doc.inside(("head",))
    low = min(cut, own)
    steps = [(False, prob, cut)] + ([("model cut", prob, own)] if cut > own else []) \
        + [("half cut", prob, low * RELAXED_SHARE), ("stage 1", p1, low)]
    for relaxed, p, used in steps:
        chosen = p >= used
        keep = _text_nodes(table, chosen, body_text)
        if keep.any():
            break
    else:
        relaxed, used = "container votes", None
        chosen, keep = _box_selection(doc, table, body_text)
        if not keep.any():
            return empty("no block of the body looks like main content",
                         best_probability=float(prob.max()), cut=cut)
    length = np.exp(table.x[:, FEATURE_NAMES.index("log_len")]) - 1
    grown = chosen
    if doc.answers and relaxed in (False, "model cut"):
        grown = grown | _all_answers(doc, table, grown, length)
    grown = grown | _whole_tables(doc, table, grown, length, body_text)
    if WHOLE_LISTS:
        grown = grown | _whole_lists(doc, table, grown, length, body_text)
    posts = False
    if THREADS and is_thread(doc):
        bodies, records = thread_posts(doc, table, grown, length)
        posts = bool(bodies.any())
        grown = grown | bodies
        if THREAD_CHROME:
            grown = grown & ~(records & ~bodies & (length <= THREAD_CHROME_CHARS))
    if LIST_ITEMS and not posts:
        grown = grown | list_items(doc, table, grown)
    if (grown != chosen).any():
        chosen = grown
        keep = _text_nodes(table, chosen, body_text)
    if doc.article_bodies and relaxed != "container votes":
        marked = _article_body(doc, table, chosen, length, p1 >= cut)
        if marked is not None and (marked != chosen).any():
            chosen = marked
            keep = _text_nodes(table, chosen, body_text)
    notice = _consent_blocks(doc, table.ids) | _ad_labels(doc, table, length)
    if (chosen & notice).any() and (chosen & ~notice).any():
        chosen = chosen & ~notice
        keep = _text_nodes(table, chosen, body_text)
    by_first, by_last = _text_order(table, keep)
    if INLINE_REFS:
        refs = _inline_refs(table, by_first, length)
        if refs.any():
            chosen = chosen & ~refs
            keep = _text_nodes(table, chosen, body_text)
            by_first = [k for k in by_first if not refs[k]]
            by_last = [k for k in by_last if not refs[k]]
    edges = _edge_labels(table, chosen, by_first, by_last, length)
    if edges.any():
        chosen = chosen & ~edges
        keep = _text_nodes(table, chosen, body_text)
    comments = length * table.x[:, FEATURE_NAMES.index("hint_comment")]
    if relaxed != "container votes" and not posts \
            and _share(length, comments, chosen) > COMMENT_SHARE \
            and _hinted_items(doc, table.ids[chosen]) >= COMMENT_ITEMS:
        box_chosen, box_keep = _box_selection(doc, table, body_text)
        if box_keep.any() and _share(length, comments, box_chosen) <= COMMENT_SHARE:
            chosen, keep = box_chosen, box_keep
            relaxed, used = "comments: container votes", None
    text = doc.text_of(keep)
    confidence = float((prob[chosen] * length[chosen]).sum() / max(length[chosen].sum(), 1))
    return Selection(text, confidence=confidence, nodes=np.flatnonzero(keep),
                     info={"blocks": int(len(prob)), "content_blocks": int(chosen.sum()),
                           "relaxed": relaxed, "cut": used})


def _box_selection(doc: Document, table: BlockTable, body_text: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``(chosen blocks, kept text nodes)`` of the container-vote box."""
    negative, positive, _ = hint_masks(doc)
    chosen = _blocks_under(doc, table, best_box(
        doc, container_scores(doc, table.ids, table.texts, negative, positive)))
    return chosen, _text_nodes(table, chosen, body_text)


def _text_nodes(table: BlockTable, chosen: np.ndarray, body_text: np.ndarray) -> np.ndarray:
    """The text nodes of the ``chosen`` blocks, of those in ``body_text``."""
    return np.isin(table.owner, table.ids[chosen]) & body_text


def _blocks_under(doc: Document, table: BlockTable, roots) -> np.ndarray:
    """Which blocks lie in the subtrees of the nodes ``roots`` (an id or ids)."""
    mask = np.zeros(doc.size, dtype=bool)
    mask[roots] = True
    ids = table.ids
    return (ids < doc.size) & doc.covered(mask)[np.minimum(ids, doc.size - 1)]


def _consent_blocks(doc: Document, ids: np.ndarray) -> np.ndarray:
    """Which blocks (owned by ``ids``) lie in an element holding under
    :data:`CONSENT_MAX_CHARS` characters one of whose classes or ids names a cookie notice
    or a newsletter box (:data:`CONSENT_HINT`; not one holding a page or section heading), or
    a consent platform's dialog (:data:`CONSENT_VENDOR`, heading or not)."""
    hinted, vendor = [], []
    for i, (cls, ident) in doc.hints.items():
        tokens = f"{cls or ''} {ident or ''}".split()
        if any(map(CONSENT_VENDOR.match, tokens)):
            vendor.append(i)
        elif any(map(CONSENT_HINT.match, tokens)):
            hinted.append(i)
    if not hinted and not vendor:
        return np.zeros(len(ids), dtype=bool)
    chars = np.concatenate(([0], np.cumsum(doc.tlen)))
    hinted = np.array(hinted, dtype=np.int64)
    # a notice has no page or section heading (a privacy policy's "gdpr" section has)
    headings = np.flatnonzero(doc.is_tag(("h1", "h2")))
    if len(headings) and len(hinted):
        first = np.searchsorted(headings, hinted, "right")
        past = np.searchsorted(headings, doc.end[hinted], "left")
        hinted = hinted[past <= first]
    hinted = np.concatenate((hinted, np.array(vendor, dtype=np.int64)))
    # a <section> (not a page's article or body) that holds a form is a signup box
    never = doc.is_tag(CONSENT_NEVER)[hinted] & ~(
        doc.is_tag(("section",))[hinted]
        & (doc.subtree_sum(doc.is_tag(("form", "input")), hinted) > 0))
    hinted = hinted[(chars[doc.end[hinted]] - chars[hinted] < CONSENT_MAX_CHARS) & ~never]
    mask = np.zeros(doc.size, dtype=bool)
    mask[hinted] = True
    inside = doc.covered(mask)
    return (ids < doc.size) & inside[np.minimum(ids, doc.size - 1)]


def _whole_tables(doc: Document, table: BlockTable, chosen: np.ndarray, length: np.ndarray,
                  body_text: np.ndarray) -> np.ndarray:
    """The blocks of the data tables that lie inside the chosen text: blocks are judged one by
    one, and a table's cells (numbers, linked names) come out row by row ragged ("15 3 48 49").
    A data table has no table inside, at least :data:`TABLE_MIN_ROWS` rows and two cells a
    row, short cells (:data:`TABLE_MAX_CELL_CHARS` on average per block), at most
    :data:`TABLE_MAX_LINK_SHARE` of its text in links, and a header cell (``<th>``) or a
    quarter of its blocks numbers; it is taken whole when at least half
    its text is chosen, or :data:`TABLE_MIN_SHARE` of it is and the text just before it and
    just after it is (a table in the middle of the article)."""
    ids = table.ids
    whole = np.zeros(len(ids), dtype=bool)
    tables = np.flatnonzero(doc.is_tag(("table",)))
    if not len(tables) or not chosen.any():
        return whole
    rows, cells, inner, heads = (np.concatenate(([0], np.cumsum(doc.is_tag(tags))))
                                 for tags in (("tr",), ("td", "th"), ("table",), ("th",)))
    text_nodes = np.flatnonzero(table.text_mask & body_text & (doc.tlen > 0))
    for t in tables.tolist():
        end = int(doc.end[t])
        n_rows = rows[end] - rows[t]
        if inner[end] - inner[t] > 1 or n_rows < TABLE_MIN_ROWS \
                or cells[end] - cells[t] < 2 * n_rows:
            continue
        lo, hi = np.searchsorted(ids, t, "left"), np.searchsorted(ids, end, "left")
        if hi <= lo or not chosen[lo:hi].any() or chosen[lo:hi].all() \
                or length[lo:hi].mean() > TABLE_MAX_CELL_CHARS:
            continue
        inside = length[lo:hi]
        if inside.sum() <= 0:
            continue
        links = (inside * table.x[lo:hi, _LINK_DENSITY]).sum()
        share = inside[chosen[lo:hi]].sum() / inside.sum()
        if links > TABLE_MAX_LINK_SHARE * inside.sum() or share < TABLE_MIN_SHARE:
            continue            # a table of links (contents, related stories); a rejected one
        if heads[end] == heads[t] and 4 * sum(
                _NUMBER.fullmatch(text) is not None for text in table.texts[lo:hi]) < hi - lo:
            continue            # data: a header cell or numbers (not a row of share buttons)
        if share < 0.5 and not _chosen_around(table, chosen, text_nodes, t, end):
            continue
        whole[lo:hi] = True
    return whole


def _chosen_around(table: BlockTable, chosen: np.ndarray, text_nodes: np.ndarray, start: int,
                   end: int) -> bool:
    """The blocks of the nearest text nodes before ``start`` and from ``end`` on are chosen
    (the element ``start``-``end`` is in the middle of the chosen text)."""
    i = np.searchsorted(text_nodes, start, "left")
    j = np.searchsorted(text_nodes, end, "left")
    if i == 0 or j >= len(text_nodes):
        return False
    around = np.searchsorted(table.ids, table.owner[text_nodes[[i - 1, j]]])
    return bool(chosen[np.minimum(around, len(table.ids) - 1)].all())


def _whole_lists(doc: Document, table: BlockTable, chosen: np.ndarray, length: np.ndarray,
                 body_text: np.ndarray) -> np.ndarray:
    """The blocks of the lists (``ul``, ``ol``, outermost) that lie inside the chosen text:
    an article's list of steps, facts or events has short items unlike its paragraphs, and
    the model rejected some or all of them.  A list of two blocks or more, at least
    :data:`LIST_MIN_ITEM_CHARS` characters a block on average (not a row of names or of
    "Video Photo Gallery") and at most :data:`LIST_MAX_LINK_SHARE` of its text in links (not
    a list of related stories) is taken whole when the text just before it and just after it
    is chosen."""
    ids = table.ids
    whole = np.zeros(len(ids), dtype=bool)
    lists = np.flatnonzero(doc.is_tag(("ul", "ol")))
    if not len(lists) or not chosen.any():
        return whole
    text_nodes = np.flatnonzero(table.text_mask & body_text & (doc.tlen > 0))
    outer_end = -1
    for start in lists.tolist():
        if start < outer_end:
            continue                    # inside a list already judged
        end = outer_end = int(doc.end[start])
        lo, hi = np.searchsorted(ids, start, "left"), np.searchsorted(ids, end, "left")
        if hi - lo < 2 or chosen[lo:hi].all():
            continue
        inside = length[lo:hi]
        total = inside.sum()
        if total < LIST_MIN_ITEM_CHARS * (hi - lo) or \
                (inside * table.x[lo:hi, _LINK_DENSITY]).sum() > LIST_MAX_LINK_SHARE * total:
            continue
        if not _chosen_around(table, chosen, text_nodes, start, end):
            continue
        whole[lo:hi] = True
    return whole


def _all_answers(doc: Document, table: BlockTable, chosen: np.ndarray, length: np.ndarray
                 ) -> np.ndarray:
    """The blocks of the question and every answer of a Q&A page (``doc.answers``, from its
    schema.org microdata) once :data:`ANSWER_MIN_CHARS` of some post's text are chosen: the
    model judges blocks by their place in the page, and the answers after the first came out
    as comments far down (a StackExchange page lost its 2nd and 3rd answers, another its
    question's first paragraphs)."""
    in_answer = _blocks_under(doc, table, list(doc.answers))
    if length[in_answer & chosen].sum() < ANSWER_MIN_CHARS:
        return np.zeros(len(in_answer), dtype=bool)
    return in_answer


def _article_body(doc: Document, table: BlockTable, chosen: np.ndarray, length: np.ndarray,
                  content_like: np.ndarray) -> np.ndarray | None:
    """The selection where the page marks its article's text (``doc.article_bodies``,
    :data:`ARTICLE_BODY_SHARE`): the chosen blocks up to the end of the last marked element,
    and every block inside the marked elements that is ``content_like`` (stage 1 at the
    cut); ``None`` when the chosen text lies mostly elsewhere."""
    inside = _blocks_under(doc, table, list(doc.article_bodies))
    if not (chosen & inside).any() or _share(length, length * inside, chosen) < ARTICLE_BODY_SHARE:
        return None
    last = max(int(doc.end[n]) for n in doc.article_bodies)
    return (chosen & (inside | (table.ids < last))) | (inside & content_like)


def _json_ld_body(doc: Document, selection: Selection) -> Selection | None:
    """The page's JSON-LD ``articleBody`` in place of ``selection`` when it is at least
    :data:`JSON_LD_BODY_MIN_CHARS` long and :data:`JSON_LD_BODY_RATIO` times the selected
    text (``None`` otherwise)."""
    body = json_ld_article_body(doc)
    if len(body) < max(JSON_LD_BODY_MIN_CHARS, JSON_LD_BODY_RATIO * len(selection.text)):
        return None
    return Selection(body, confidence=JSON_LD_CONFIDENCE, nodes=None,
                     info={**selection.info, "source": "json-ld articleBody",
                           "selected_chars": len(selection.text)})


def _ad_labels(doc: Document, table: BlockTable, length: np.ndarray) -> np.ndarray:
    """Which blocks are an advertisement slot's label alone (:data:`AD_LABEL`), not a
    heading or a table cell (``length``: the blocks' lengths, the short ones read)."""
    owners = np.minimum(table.ids, doc.size - 1)
    labels = (length < AD_LABEL_MAX_CHARS + 1) & (table.ids < doc.size)
    labels[labels] &= ~doc.is_tag(_NOT_AD_LABELS)[owners[labels]]
    for k in np.flatnonzero(labels).tolist():
        text = table.texts[k]
        labels[k] = len(text) <= AD_LABEL_MAX_CHARS and AD_LABEL.fullmatch(text.strip()) is not None
    return labels


def _edge_labels(table: BlockTable, chosen: np.ndarray, by_first: list[int],
                 by_last: list[int], length: np.ndarray) -> np.ndarray:
    """The chosen blocks at the start of the selection matching :data:`EDGE_LABEL` and at
    its end matching :data:`TAIL_LABEL`, when some other block stays chosen.  ``by_first``,
    ``by_last``: the selection's blocks in :func:`_text_order` (a block's place is that of
    its first text node for the start and of its last for the end)."""
    found = np.zeros(len(chosen), dtype=bool)
    for order, pattern in ((by_first, EDGE_LABEL), (by_last, TAIL_LABEL)):
        for k in order:
            text = table.texts[k]
            if found[k] or length[k] > EDGE_LABEL_MAX_CHARS or len(text) > EDGE_LABEL_MAX_CHARS \
                    or pattern.fullmatch(text.strip()) is None:
                break
            found[k] = True
    if (chosen & ~found).any():
        return found
    return np.zeros(len(chosen), dtype=bool)


def _inline_refs(table: BlockTable, by_first: list[int], length: np.ndarray) -> np.ndarray:
    """The chosen blocks inside the text (not its first or last; ``by_first``: the
    selection's blocks in text order) that call to read another story (:data:`INLINE_REF`:
    the label, then mostly a link)."""
    found = np.zeros(len(table.ids), dtype=bool)
    for k in by_first[1:-1]:
        if length[k] <= INLINE_REF_MAX_CHARS and table.x[k, _LINK_DENSITY] >= INLINE_REF_MIN_LINKS \
                and INLINE_REF.fullmatch(table.texts[k].strip()) is not None:
            found[k] = True
    return found


def _text_order(table: BlockTable, keep: np.ndarray) -> tuple[list[int], list[int]]:
    """The blocks of the kept text nodes ``keep`` in the order of their first text node, and
    in reverse order of their last (a block's text can surround another's)."""
    blocks = np.searchsorted(table.ids, table.owner[np.flatnonzero(keep)])
    firsts = np.unique(blocks, return_index=True)
    lasts = np.unique(blocks[::-1], return_index=True)
    return (firsts[0][np.argsort(firsts[1])].tolist(),
            lasts[0][np.argsort(lasts[1])].tolist())


_NOT_AD_LABELS = ("h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "caption", "dt")


def _share(length: np.ndarray, part: np.ndarray, chosen: np.ndarray) -> float:
    """Share of the characters of the ``chosen`` blocks (``length``) that ``part`` holds."""
    total = length[chosen].sum()
    return float(part[chosen].sum() / total) if total else 0.0


def _hinted_items(doc: Document, owners: np.ndarray) -> int:
    """How many comment-hinted elements hold at least one of the blocks owned by ``owners``."""
    items = np.flatnonzero(hint_masks(doc)[2])
    owners = np.sort(owners[owners < doc.size])
    if not len(items) or not len(owners):
        return 0
    first = np.searchsorted(owners, items, "left")
    past = np.searchsorted(owners, doc.end[items], "left")
    return int((past > first).sum())
