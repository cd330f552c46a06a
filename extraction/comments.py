"""Reader comments: the text of a page's comment thread, kept apart from its main text.

``auto`` leaves a blog's or a news site's comments out of the main text (every training set
but CleanEval drops them).  Asked for (``extract(..., comments=True)``), they come as
``result.comments``: the text of the elements a page marks as one comment (a class, id or
``itemprop`` word such as ``comment``, ``comment-body``, ``commentaire``; schema.org
``Comment`` microdata; a "post" inside a thread), outside the main text, without the reply
form, the "Reply" / "Report" links, the count heading, calls and notices.  Not from the
paper set: our own rules, from samples of the shared pages (README, "Reader comments").
"""
from __future__ import annotations

import re

import numpy as np
from lxml import etree

from .chars import word_parts
from .document import TEXT, Document

# [ours] class / id / itemprop words that mark a comment or a thread of them (English, and
# the words of the common blog and forum platforms in other languages)
COMMENT_WORDS = frozenset((
    "comment", "comments", "commentlist", "commentslist", "commentbody", "commenttext",
    "comentario", "comentarios", "commentaire", "commentaires", "kommentar", "kommentare",
    "commento", "commenti", "reactie", "reacties", "komentarz", "komentarze", "disqus",
    "dsq"))
# ... of which these mark one comment (an item of the thread; plurals mark the thread)
ITEM_WORDS = frozenset((
    "comment", "commentbody", "commenttext", "comentario", "commentaire", "kommentar",
    "commento", "reactie", "komentarz"))
# ... and, inside a thread, these mark one comment too (Disqus's rendered "post" and
# "post-message")
THREAD_ITEM_WORDS = frozenset(("post", "message", "postmessage"))
# [ours] a comment holds this many letters outside links at least ("Loading..." or a bare
# date are no comment; "Like it, still nice." is one), and at least this share of its
# characters outside links (a list of links to opinion pieces marked "comment" is no thread)
MIN_ITEM_LETTERS = 12
MIN_ITEM_TEXT_SHARE = 0.5
# ... and the words of the parts of a thread that are no comment: its reply form, the
# buttons and links under each comment, its pager, a site's lists of other pages' comments
# (WordPress's "widget_recent_comments"), notices (TypePad's preview and error messages)
NOT_COMMENT_WORDS = frozenset((
    "respond", "form", "commentform", "pagination", "pager", "nav", "navigation", "login",
    "subscribe", "policy", "recent", "recentcomments", "preview", "verify", "error", "notice",
    "notices", "disclaimer", "rules", "guidelines", "terms", "legal", "captcha", "moderation",
    "badge", "badges", "badgetext"))
# ... and these only on an element that is no comment itself ("comment-top", "comment
# top-level", "comment reply", "comment-header" holding the comment are comments; the
# Washington Post's "echo-tip-text-container" is help; a "Reply" or "Share" link under a
# comment goes as a short link alone on its line)
NOT_COMMENT_WEAK_WORDS = frozenset((
    "top", "most", "latest", "popular", "header", "about", "help", "tip", "tips", "avatar",
    "like", "likes", "reply", "replylink", "edit", "share", "report", "flag", "vote",
    "votes", "actions", "toolbar"))
# a class or id naming the form that posts a comment ("postComment", "add-comment")
_FORM_MARK = re.compile(r"(?:post|add|leave|write|submit)[-_ ]?comment", re.I)
# (a <form> only with a field to write in: old Reddit shows each comment in a form)
NOT_COMMENT_TAGS = ("textarea", "button", "select", "input", "nav", "label")
# a block of link text alone this short is a link under a comment ("Reply", "Permalink")
MAX_LINK_ONLY_CHARS = 40
_MICRODATA = etree.XPath("//*[@itemprop or @itemtype]")
# a line that begins as a notice about commenting does ("Comments are moderated...", "Be the
# first to comment", "Login or register to post comments", "Your comment has been saved",
# "When submitting content, ...", "© 2012 ..."); a comment that mentions comments is kept
_NOTICE = re.compile(
    r"^\W*(?:comments?\s+(?:(?:are|is|will\s+be|must\s+be|may\s+be|have\s+been|has\s+been)"
    r"\s+(?:now\s+|all\s+)?(?:moderated|closed|disabled|reviewed|subject|held|limited|turned"
    r"|not\s+(?:allowed|permitted|enabled))|closed|disabled)\b"
    r"|comments?\s+(?:on|for|to)\b.{0,40}\b(?:are|is)\s+(?:now\s+)?(?:closed|disabled)\b"
    r"|(?:your|the|this)\s+comment\s+(?:has|was|will|is|could|must|may)\s+(?:been\s+|be\s+"
    r"|not\s+)?(?:posted|saved|submitted|received|held|awaiting|pending|moderated|approved"
    r"|visible)\b|be\s+the\s+first\s+to\s+(?:comment|post|reply|respond|review)\b"
    r"|(?:please\s+)?(?:log\s?in|sign\s?in|register)\b.{0,40}\b(?:comment|post|reply)"
    r"|you\s+must\s+(?:be\s+)?(?:logged|signed|log|sign)\b|click\b.{0,60}\bcomment"
    r"|when\s+submitting\b|by\s+(?:clicking|submitting|posting)\b|limit\s*:|©"
    r"|copyright\s+(?:©|\(c\)|\d{4})|\(c\)\s*\d{4})", re.I)
MAX_NOTICE_CHARS = 400
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# elements that are the page, never its comments (WordPress's <body class="comments-open">)
_PAGE_TAGS = frozenset(("html", "body", "main"))
_COUNT_HEADING = re.compile(r"^\W*\d*\s*(?:comments?|responses?|replies|reactions?)\b.{0,40}$",
                            re.I)
# a line that only asks for a comment, counts them or waits for them ("Post a comment",
# "Comments (3)", "Join the Conversation: Sign Up / Log In", "Loading comments...")
_CALL_LINE = re.compile(
    r"^\W*(?:(?:post|leave|add|write|submit|show|view|load(?:ing)?|hide|read|join|about|see"
    r"|start)\s+(?:a\s+|your\s+|all\s+|more\s+|the\s+|\d+\s+)?(?:new\s+)?"
    r"(?:comments?|repl(?:y|ies)|responses?|discussions?|conversation)\b.{0,40}"
    r"|(?:\d+\s+)?comments?(?:\s*\(\d+\))?|no comments(?: yet)?|loading)\W*$", re.I)


def _words(doc: Document, node: int) -> set[str]:
    """The words of an element's class, id and itemprop, and "comment" for a schema.org
    ``Comment`` or ``UserComments`` ``itemtype``."""
    cls, ident = doc.hints.get(node, (None, None))
    el = doc.elements[node]
    words = set(word_parts(" ".join(filter(None, (cls, ident, el.get("itemprop"))))))
    kind = el.get("itemtype")
    if kind and kind.rstrip("/").lower().endswith(("/comment", "/usercomments")):
        words.add("comment")
    return words


def comment_mask(doc: Document, main: np.ndarray | None) -> np.ndarray:
    """The text nodes of the page's reader comments: inside an element marked as a comment
    (:data:`ITEM_WORDS`, or :data:`THREAD_ITEM_WORDS` inside a thread marked by
    :data:`COMMENT_WORDS`; not the page's ``<html>``, ``<body>`` or ``<main>``, nor one
    holding a ``main`` text node), outside its reply form, buttons, action links and pager
    (:data:`NOT_COMMENT_WORDS`, :data:`NOT_COMMENT_TAGS`, a ``<form>`` with a field to write
    in)."""
    n = doc.size
    main_mask = np.zeros(n, dtype=bool)
    if main is not None and len(main):
        main_mask[np.asarray(main)] = True
    main_before = np.concatenate(([0], np.cumsum(main_mask)))
    threads = np.zeros(n, dtype=bool)
    items = np.zeros(n, dtype=bool)
    maybe_items = np.zeros(n, dtype=bool)
    excluded = np.zeros(n, dtype=bool)
    props = (doc.node_of(el) for el in _MICRODATA(doc.root))
    for node in sorted(set(doc.hints).union(i for i in props if i is not None)):
        words = _words(doc, node)
        if not words:
            continue
        end = int(doc.end[node])
        outside = main_before[end] == main_before[node] \
            and doc.tag_names[node] not in _PAGE_TAGS
        comment = not COMMENT_WORDS.isdisjoint(words)
        if comment and outside:
            threads[node] = True
            items[node] = not ITEM_WORDS.isdisjoint(words)
        elif outside and not THREAD_ITEM_WORDS.isdisjoint(words):
            maybe_items[node] = True
        cls, ident = doc.hints.get(node, (None, None))
        if not NOT_COMMENT_WORDS.isdisjoint(words) \
                or not comment and not NOT_COMMENT_WEAK_WORDS.isdisjoint(words) \
                or _FORM_MARK.search(f"{cls or ''} {ident or ''}"):
            excluded[node] = True
    items |= maybe_items & doc.covered(threads, include_self=False)
    if not items.any():
        return np.zeros(n, dtype=bool)
    keep = doc.covered(items) & ~doc.covered(excluded | doc.is_tag(NOT_COMMENT_TAGS)
                                             | _writing_forms(doc))
    keep &= (doc.kind == TEXT) & ~main_mask & ~doc.inside(("head",))
    keep &= ~_link_buttons(doc, keep)
    # the comments: the items holding MIN_ITEM_LETTERS letters outside links, at least
    # MIN_ITEM_TEXT_SHARE of their text (an item inside another one counts for itself: a reply)
    own = keep & ~doc.in_link
    letters = np.zeros(n, dtype=np.int64)
    for i in np.flatnonzero(own).tolist():
        letters[i] = sum(map(str.isalpha, doc.texts[i]))
    letters = np.concatenate(([0], np.cumsum(letters)))
    chars = np.concatenate(([0], np.cumsum(np.where(keep, doc.tlen, 0))))
    plain = np.concatenate(([0], np.cumsum(np.where(own, doc.tlen, 0))))
    real = np.zeros(n, dtype=bool)
    for node in np.flatnonzero(items).tolist():
        end = int(doc.end[node])
        if letters[end] - letters[node] >= MIN_ITEM_LETTERS \
                and plain[end] - plain[node] >= MIN_ITEM_TEXT_SHARE * (chars[end] - chars[node]):
            real[node] = True
    return keep & doc.covered(real)


def _writing_forms(doc: Document) -> np.ndarray:
    """The ``<form>`` elements that hold a ``<textarea>`` (a reply form)."""
    forms = np.flatnonzero(doc.is_tag("form"))
    out = np.zeros(doc.size, dtype=bool)
    if len(forms):
        areas = np.flatnonzero(doc.is_tag("textarea"))
        if len(areas):
            first = np.searchsorted(areas, forms, "left")
            past = np.searchsorted(areas, doc.end[forms], "left")
            out[forms[past > first]] = True
    return out


def _link_buttons(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Kept text nodes that are a short link's whole line ("Reply", "Permalink", "Log in to
    Reply"), a heading that counts the comments ("12 Comments", "One response to ..."), a
    line that asks for one ("Post a comment") or a notice about commenting ("Comments are
    moderated ...")."""
    out = np.zeros(doc.size, dtype=bool)
    ids = np.flatnonzero(keep)
    if not len(ids):
        return out
    # characters of each line of the kept text: a link alone on its line is a button
    lines, inverse = np.unique(doc.line[ids], return_inverse=True)
    per_line = np.bincount(inverse, weights=doc.tlen[ids], minlength=len(lines))
    alone = per_line[inverse] == doc.tlen[ids]
    for k, i in enumerate(ids.tolist()):
        parent = doc.tag_names[int(doc.parent[i])]
        if doc.in_link[i] and alone[k] and 0 < doc.tlen[i] <= MAX_LINK_ONLY_CHARS:
            out[i] = True
        elif parent in _HEADINGS and _COUNT_HEADING.match(doc.texts[i].strip()) \
                or alone[k] and _CALL_LINE.match(doc.texts[i].strip()) \
                or doc.tlen[i] <= MAX_NOTICE_CHARS and _NOTICE.match(doc.texts[i].strip()):
            out[i] = True
    return out


def comments_text(doc: Document, main: np.ndarray | None) -> str:
    """The comments' text, lines as in the main text (:meth:`Document.text_of`); "" when the
    page marks none."""
    keep = comment_mask(doc, main)
    return doc.text_of(keep) if keep.any() else ""
