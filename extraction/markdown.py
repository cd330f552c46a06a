"""The main text as Markdown (CommonMark with GitHub's tables): the runs a method kept, the
words of :meth:`Document.text_of` in its order, with the page's structure around them.

- ``<h1>``-``<h6>``: ``#`` headings (the heading's lines joined into one);
- ``<ul>``/``<ol>`` items: ``-`` and numbered items (an ``<ol>``'s ``start``, ``reversed``
  and an item's ``value`` followed), nested 4 spaces a level; an item's later lines indented
  under it;
- ``<blockquote>``: ``>`` at each level;
- a ``<pre>`` kept whole: a fenced code block (a fence longer than any run of backticks in
  it); ``<code>``, ``<kbd>``, ``<samp>``, ``<tt>`` elsewhere: a code span;
- ``<strong>``/``<b>`` and ``<em>``/``<i>``: ``**`` and ``*`` around their text on one line
  (not inside headings and code);
- a data table (:func:`grid_tables`): a pipe table, its first kept row the header,
  ``colspan``/``rowspan`` held by empty cells; a layout table, its lines as paragraphs;
- any other line: a paragraph of its own;
- with ``links``: the runs of an ``<a href>`` as ``[text](url)`` (:func:`_link_urls`);
- with ``images``: the images of the main text as ``![alt](url)`` paragraphs where they stand
  (:func:`kept_images`).

Characters that would start markup are escaped with a backslash (a line starting "1. " or
"# ", ``*``, a backtick, ``<`` before a letter, ``|`` in a cell). [ours: the format and its
rules; no source paper]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit

import numpy as np

from .chars import INVISIBLE, word_parts
from .document import TEXT, Document
from .metadata import page_base, resolved

_HEADINGS = {f"h{k}": k for k in range(1, 7)}
_LISTS = frozenset(("ul", "ol", "menu", "dir"))
_CODE = frozenset(("code", "kbd", "samp", "tt"))
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*"}
_CELLS = frozenset(("td", "th"))
# what a data table holds none of: a table holding these lays out a page
_NOT_IN_GRID = frozenset(("table", "ul", "ol", "pre", "blockquote", "form", "h1", "h2", "h3",
                          "h4", "h5", "h6"))
GRID_MAX_CELL_CHARS = 300   # [ours] a longer cell is a layout table's column

# at the start of a line: a heading, quote, list item, fence, thematic break or table row
_LINE_START = re.compile(r"#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|(?:[-*_][ \t]*){3,}$|[-=]+[ \t]*$|```"
                         r"|~~~")
_ORDERED_START = re.compile(r"(\d{1,9})([.)])(?=\s|$)")
# inline: a backslash, backtick or star, an underscore not inside a word, "<" before what
# could be a tag, "&" of what could be an entity (and :func:`_escape_brackets`)
_INLINE = re.compile(r"([\\`*]|_(?![^\W_])|(?<![^\W_])_|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;))")
_INLINE_CHARS = re.compile(r"[\\`*_<&]")     # (a search for them first: most lines have none)


def _escape_inline(text: str) -> str:
    if _INLINE_CHARS.search(text):
        text = _INLINE.sub(r"\\\1", text)
    return _escape_brackets(text)


def _escape_brackets(text: str) -> str:
    """Every "[" before the last "](", "][" or "]:" of ``text`` escaped: it could open a link,
    a reference or its definition (one pass: a lookahead from each "[" was quadratic on a line
    of thousands of "[n]")."""
    last = max(text.rfind("]("), text.rfind("]["), text.rfind("]:"))
    if last <= 0 or "[" not in text[:last]:
        return text
    return text[:last].replace("[", "\\[") + text[last:]


@dataclass(frozen=True)
class _Block:
    """Where an element sits: the block structure around its text."""

    heading: int = -1         # nearest <h1>-<h6> (node id)
    level: int = 0            # its level
    path: tuple = ()          # enclosing <li> (node id) and <blockquote> (-2 - node id)
    pre: int = -1             # outermost <pre>
    cell: int = -1            # nearest <td>/<th>
    row: int = -1             # nearest <tr>
    table: int = -1           # nearest <table>
    inline: int = -1          # outermost <strong>/<b>/<em>/<i>/<code>... below the block
    link: int = -1            # nearest <a href> below the block

    @property
    def items(self) -> tuple:
        return _items(self.path)


def _items(path: tuple) -> tuple:
    """The list items of a container path (quotes are negative)."""
    return tuple(c for c in path if c >= 0)


def escape(text: str, *, line_start: bool = True) -> str:
    """``text`` with the characters that would be read as Markdown escaped (``line_start``:
    also what would start a block at the start of a line)."""
    text = _escape_inline(text)
    return escape_line_start(text) if line_start else text


def escape_line_start(text: str) -> str:
    """``text`` (escaped inline) with what would start a block at a line's start escaped:
    "1. " as "1\\. ", "# " as "\\# "."""
    ordered = _ORDERED_START.match(text)
    if ordered:
        return f"{ordered.group(1)}\\{text[ordered.end(1):]}"
    if _LINE_START.match(text):
        return "\\" + text
    return text


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in re.findall("`+", text)), default=0)


def code_span(text: str) -> str:
    """``text`` as an inline code span: delimited by one backtick more than its longest run."""
    fence = "`" * (_longest_backticks(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code_block(text: str, language: str = "") -> str:
    """A fenced code block, its fence longer than any run of backticks in ``text``."""
    fence = "`" * max(3, _longest_backticks(text) + 1)
    return f"{fence}{language}\n{text}\n{fence}"


# a class naming a code listing's language: "language-python" (Prism, highlight.js, GitHub),
# "lang-js", Sphinx's "highlight-python" on the <pre>'s parent, GitHub's
# "highlight-source-python"
_CODE_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight|sourceCode)-(?:source-)?"
                            r"([\w+#.-]+)")


def code_language(doc: Document, pre: int) -> str:
    """The language a ``<pre>``'s class names, or its ``<code>``'s, its parent's or
    grandparent's (Sphinx), or ""."""
    el = doc.elements[pre]
    parent = el.getparent()
    for holder in (el, *el[:1], parent, parent.getparent() if parent is not None else None):
        if holder is None:
            continue
        found = _CODE_LANGUAGE.search(holder.get("class") or "")
        language = found.group(1) if found else (holder.get("data-lang") or "").strip()
        if language and language.lower() not in ("none", "text", "default", "plaintext"):
            return language if re.fullmatch(r"[\w+#.-]{1,30}", language) else ""
    return ""


# a permalink mark a heading ends with (Sphinx's ¶, MkDocs' ¶ or §, an "#" anchor)
_PERMALINK = re.compile(r"\s*(?:[¶§🔗]|(?<=\s)#)$")


class _Blocks:
    """:class:`_Block` of every element, computed once per element from its parent's."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.names = doc.tag_names
        self.known: dict[int, _Block] = {-1: _Block()}

    def of(self, node: int) -> _Block:
        known, parent = self.known, self.doc.parent
        chain = []
        while node not in known:
            chain.append(node)
            node = int(parent[node])
        block = known[node]
        for node in reversed(chain):
            block = known[node] = self._child(block, node)
        return block

    def _item_before_list(self, item: int) -> tuple:
        """``(li,)``: the item just before the list of ``item`` when that list is a child of
        another list (``<ul><li>a</li><ul><li>b</li></ul></ul>``), else ``()``."""
        doc = self.doc
        holder = int(doc.parent[item])
        outer = int(doc.parent[holder]) if holder >= 0 else -1
        if outer < 0 or self.names[holder] not in _LISTS or self.names[outer] not in _LISTS:
            return ()
        before = [int(c) for c in doc.element_children(outer)
                  if c < holder and self.names[int(c)] == "li"]
        return (before[-1],) if before else ()

    def _child(self, block: _Block, node: int) -> _Block:
        name = self.names[node]
        # (a link around a block, a card's <a><h2>...</h2></a>, stays its text's link)
        if name in _HEADINGS:
            return _Block(node, _HEADINGS[name], block.path, block.pre, block.cell, block.row,
                          block.table, link=block.link)
        if name == "li":        # (an item of a list put straight into a list: nested in the
            # item before that list, as a browser shows it)
            return _Block(path=block.path + self._item_before_list(node) + (node,),
                          pre=block.pre, link=block.link)
        if name == "blockquote":
            return _Block(path=block.path + (-2 - node,), pre=block.pre, link=block.link)
        if name == "pre":
            return _Block(block.heading, block.level, block.path,
                          node if block.pre < 0 else block.pre, block.cell, block.row,
                          block.table)
        if name == "table":
            return _Block(path=block.path, pre=block.pre, table=node)
        if name == "tr":
            return _Block(path=block.path, pre=block.pre, table=block.table, row=node)
        if name in _CELLS:
            return _Block(path=block.path, pre=block.pre, cell=node, row=block.row,
                          table=block.table, link=block.link)
        if block.inline < 0 and (name in _EMPHASIS or name in _CODE):
            return _Block(block.heading, block.level, block.path, block.pre, block.cell,
                          block.row, block.table, node, block.link)
        if name == "a" and block.link < 0:
            return _Block(block.heading, block.level, block.path, block.pre, block.cell,
                          block.row, block.table, block.inline, node)
        return block


def grid_tables(doc: Document, rows: dict[int, set[int]], longest: dict[int, int]) -> set[int]:
    """The tables that hold data, not a layout, among those whose kept text is in ``rows``
    (table -> its rows with kept text): two rows or more, one of two cells or more, no
    table, list, heading, code, quote or form inside, no cell of more than
    :data:`GRID_MAX_CELL_CHARS` kept characters (``longest``: table -> its longest cell's)."""
    layout = doc.is_tag(_NOT_IN_GRID)
    is_cell = doc.is_tag(_CELLS)
    out = set()
    for t, kept_rows in rows.items():
        if len(kept_rows) < 2 or longest.get(t, 0) > GRID_MAX_CELL_CHARS \
                or layout[t + 1:doc.end[t]].any():
            continue
        if any(is_cell[doc.element_children(r)].sum() >= 2 for r in kept_rows):
            out.add(t)
    return out


def list_markers(doc: Document, holder: int) -> dict[int, str]:
    """The marker of every ``<li>`` child of list ``holder``: ``-``, or for an ``<ol>`` its
    number (``start``, ``reversed``, an item's ``value``), as a browser numbers it; numbers
    CommonMark cannot write (below 0, over 9 digits) number the list from 1."""
    items = [int(c) for c in doc.element_children(holder) if doc.tag_names[int(c)] == "li"]
    el = doc.elements[holder]
    if el.tag != "ol":
        return dict.fromkeys(items, "-")
    step = -1 if el.get("reversed") is not None else 1
    start = _number(el.get("start"))
    number = (start if start is not None else len(items) if step < 0 else 1) - step
    numbers = []
    for item in items:
        value = _number(doc.elements[item].get("value"))
        number = value if value is not None else number + step
        numbers.append(number)
    if any(not 0 <= n <= 999_999_999 for n in numbers):
        numbers = list(range(1, len(items) + 1))
    return {item: f"{n}." for item, n in zip(items, numbers)}


def _number(value: str | None) -> int | None:
    try:
        return int(value.strip()) if value is not None else None
    except ValueError:
        return None


def to_markdown(doc: Document, keep: np.ndarray, links: bool = False,
                images: bool = False, lead_image: str | None = None) -> str:
    """The Markdown of the kept text runs of ``doc`` (a mask over its nodes); ``links``:
    the text of a link as ``[text](url)``, its URL read against the page's; ``images``: the
    images among the kept text (:func:`kept_images`) as ``![alt](url)`` paragraphs, and the
    page's own image (``lead_image``, its Open Graph image) when it is shown just above the
    text (:func:`lead_node`)."""
    ids, pieces, seps, preformatted = doc.pieces(keep)
    if not ids:
        return ""
    pictures = kept_images(doc, keep, ids[0], ids[-1], lead_image) if images else []
    lead = pictures[0][1] if pictures and pictures[0][0] < ids[0] else None
    invisible = any(INVISIBLE.search(p) for p in pieces)
    if invisible:           # (as the text loses them; a line of nothing else goes)
        pieces = [INVISIBLE.sub("", p) for p in pieces]
    blocks = _Blocks(doc)
    parent = doc.parent
    where = [blocks.of(int(parent[i])) for i in ids]
    lines: list[list[int]] = []               # piece indexes of each line
    for k, sep in enumerate(seps):
        if k == 0 or sep == "\n":
            lines.append([k])
        else:
            lines[-1].append(k)
    if invisible:
        lines = [line for line in lines if any(pieces[k].strip() for k in line)]
    cell_chars: dict[int, int] = {}
    rows: dict[int, set[int]] = {}
    longest: dict[int, int] = {}
    for k, b in enumerate(where):
        if b.cell >= 0:
            chars = cell_chars[b.cell] = cell_chars.get(b.cell, 0) + len(pieces[k])
            longest[b.table] = max(longest.get(b.table, 0), chars)
        if b.table >= 0 and b.row >= 0:
            rows.setdefault(b.table, set()).add(b.row)
    grids = grid_tables(doc, rows, longest)
    url_of = _link_urls(doc) if links else None
    out: list[_Out] = []
    prefixes = _Prefixes(doc)
    k_line = 0
    k_picture = 0
    if lead is not None:    # (a paragraph of its own: not in the list or quote it stands in)
        out.append(prefixes.block("p", lead, ()))
        k_picture = 1
    while k_line < len(lines):
        line = lines[k_line]
        k_picture = _add_pictures(out, pictures, k_picture, ids[line[0]], blocks, prefixes)
        first = where[line[0]]
        if first.table in grids and first.row >= 0:
            table_lines = []
            while k_line < len(lines) and where[lines[k_line][0]].table == first.table:
                table_lines.append(lines[k_line])
                k_line += 1
            caption, table = _table(doc, table_lines, pieces, seps, where, url_of)
            if caption:
                out.append(prefixes.block("p", escape(caption), first.path))
            if table:
                out.append(prefixes.block("table", table, first.path))
            continue
        k_line += 1
        if ids[line[0]] in preformatted:
            out.append(prefixes.block("code", code_block(_code(doc, first.pre, invisible),
                                                         code_language(doc, first.pre)),
                                      first.path))
            continue
        if first.heading >= 0:                  # a heading's lines are one heading
            while k_line < len(lines) and where[lines[k_line][0]].heading == first.heading \
                    and ids[lines[k_line][0]] not in preformatted:
                line = line + lines[k_line]
                k_line += 1
        # (after a heading's "#", a "1. " starts no list: no escape at its start)
        text = _inline(line, pieces, seps, where, doc.tag_names, in_heading=first.heading >= 0,
                       line_start=first.heading < 0, url_of=url_of)
        if first.heading >= 0:
            out.append(prefixes.block(f"h{first.heading}", "#" * first.level + " "
                                      + _PERMALINK.sub("", text), first.path))
        else:
            out.append(prefixes.block("item" if first.items else "p", text, first.path))
    _add_pictures(out, pictures, k_picture, doc.size, blocks, prefixes)
    parts = [out[0].text]
    for before, block in zip(out, out[1:]):
        if block.kind == before.kind == "item" and _same_list_block(doc, before, block):
            parts.append("\n")
        else:       # a blank line, inside the quotes around both blocks
            common = _common(before.path, block.path)
            parts.append("\n" + prefixes.blank(common) + "\n")
        parts.append(block.text)
    return "".join(parts)


# [ours] an image declared narrower or lower than this many pixels (attribute, inline style
# or a width in its URL's query) is an icon or a tracker
MIN_IMAGE_SIDE = 50
MAX_CAPTION_CHARS = 200     # [ours] see kept_images
# ... and so is one whose file name is a page's furniture: one or two words, one of them
# these ("icon_rss.gif", "arrow.jpg", "spacer.gif", "logo_site.gif", "btn-share.png", not
# "share-price-chart.png" nor "home-depot-store-customer-loading-truck.jpg")
_FURNITURE_WORDS = frozenset((
    "icon", "icons", "arrow", "arrows", "spacer", "pixel", "blank", "rss", "feed", "logo",
    "button", "buttons", "btn", "sprite", "sprites", "spinner", "loading", "loader", "ajax",
    "share", "print", "email", "font", "bullet", "transparent", "clear", "dot", "placeholder",
    "lazy", "lazyload", "quote", "bg", "beacon", "tracking", "tracker", "counter", "masthead",
    "mark", "facebook", "twitter", "linkedin", "pinterest", "whatsapp", "digg", "delicious",
    "reddit", "grey", "gray", "none", "smiley"))
# ... or any number of words, one of them these ("mail-icon-small.svg", "iconReportTypo.gif")
_FURNITURE_ALWAYS = frozenset(("icon", "icons", "spacer", "sprite", "sprites", "placeholder",
                               "lazyload", "beacon", "tracker", "transparent"))
# ... and one in a folder of ads, authors' pictures or smileys, or of an ad's size
_FURNITURE_FOLDERS = frozenset(("ads", "ad", "advertisers", "adverts", "banners", "authors",
                                "authorpics", "avatar", "avatars", "smilies", "smileys", "emoji",
                                "clipart"))
_AD_SIZE = re.compile(r"(?<!\d)(?:300x250|728x90|160x600|300x600|320x50|468x60|120x600"
                      r"|970x250|336x280|234x60|125x125)(?!\d)")
_FURNITURE_CLASSES = frozenset(("emoji", "wp-smiley", "smiley", "avatar", "gravatar"))
_QUERY_WIDTH = re.compile(r"[?&](?:w|width|h|height)=(\d+)(?:&|$)")
_STYLE_SIDE = re.compile(r"(?:^|;)\s*(?:width|height)\s*:\s*(\d+(?:\.\d+)?)px", re.I)
_LAZY_SOURCES = ("data-src", "data-lazy-src", "data-original", "data-original-src",
                 "data-actualsrc", "data-normal", "data-lazy", "data-url", "zoomfile", "file")
_LAZY_SOURCE_SETS = ("data-srcset", "data-lazy-srcset", "srcset")


def kept_images(doc: Document, keep: np.ndarray, first: int, last: int,
                lead_image: str | None = None) -> list[tuple[int, str]]:
    """``(node, "![alt](url)")`` for every ``<img>`` of the main text, in document order: an
    image between the first and last kept text runs (``first``, ``last``) whose nearest
    ancestor holding text has at least half of its text kept (a figure with its caption, a
    paragraph, the article around an image of its own) or, when that text is short (a
    caption, :data:`MAX_CAPTION_CHARS`), the next ancestor holding more; with a URL
    (:func:`_image_url`), not an icon, an ad, an author's picture, a smiley or a tracker
    (:func:`_furniture`, :func:`_furniture_url`), each URL once; first, the page's own image
    shown just above the text (:func:`lead_node`).  (Images in headings, code and table
    cells are left out by :func:`to_markdown`.)"""
    all_images = np.flatnonzero(doc.is_tag("img"))
    images = all_images[(all_images > first) & (all_images < last)]
    base = page_base(doc)
    lead = lead_node(doc, all_images[all_images < first], first, lead_image, base) \
        if lead_image else None
    if not len(images) and lead is None:
        return []
    is_text = doc.kind == TEXT
    own = doc.tlen * is_text
    total = doc.subtree_sum(own)
    kept = doc.subtree_sum(own * keep)
    parent = doc.parent
    holders: dict[int, int] = {}        # node -> its nearest ancestor holding text

    def holder_of(node: int) -> int:
        chain = []
        up = int(parent[node])
        while up >= 0 and total[up] == 0 and up not in holders:
            chain.append(up)
            up = int(parent[up])
        found = holders.get(up, up) if up >= 0 and total[up] == 0 else up
        for n in chain:
            holders[n] = found
        return found

    out, seen = [], set()
    for node in images.tolist():
        el = doc.elements[node]
        holder = holder_of(node)
        if holder < 0 or _furniture(el):
            continue
        if 2 * kept[holder] < total[holder]:
            # (a caption or an image's details left out: the text around them decides)
            around = int(parent[holder]) if total[holder] <= MAX_CAPTION_CHARS else -1
            while around >= 0 and total[around] == total[holder]:
                around = int(parent[around])
            if around < 0 or 2 * kept[around] < total[around]:
                continue
        url = _image_url(el, base)
        if url is None or url in seen or _furniture_url(url):
            continue
        seen.add(url)
        out.append((node, f"![{_alt_text(el.get('alt'))}]({url})"))
    if lead is not None and _image_key(lead[1]) not in {_image_key(u) for u in seen}:
        # (the same picture in the text, in another size: written there only)
        node = lead[0]
        out.insert(0, (node, f"![{_alt_text(doc.elements[node].get('alt'))}]({lead[1]})"))
    return out


# [ours] the page's own image is its lead image when at most this much text stands between it
# and the main text (a headline, a byline, a caption), outside the site's header, navigation,
# sidebars and footer
MAX_LEAD_GAP_CHARS = 300
MAX_LEAD_CANDIDATES = 20
# ... nor in the site's parts: these tags (a <header> outside the article), a class or id
# word of these, an ARIA role of these; nor in a heading, a cell or code
_LEAD_NEVER = frozenset(("nav", "aside", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "td",
                         "th", "pre", "code"))
_LEAD_NEVER_WORDS = frozenset(("masthead", "branding", "banner", "logo", "navbar", "nav",
                               "navigation", "menu", "sidebar", "footer", "sitebar", "topbar"))
_LEAD_NEVER_ROLES = frozenset(("banner", "navigation", "complementary", "contentinfo"))
_SIZE_SUFFIX = re.compile(r"(?:[-_]\d{2,4}x\d{2,4}|[-_]scaled)(?=\.\w+(?:\.webp)?$)")
# file names that say nothing of the picture: the whole address is compared
_GENERIC_NAMES = frozenset(("image", "img", "photo", "picture", "pic", "default", "thumb",
                            "thumbnail", "main", "hero", "index", "large", "medium", "small",
                            "original", "full", "preview", "file", "download", "resource"))


def _image_key(url: str) -> str:
    """An image's file name without a size suffix ("photo-300x246.jpg" is "photo.jpg"),
    lower-cased: the same picture in another size has the same key; a file name that says
    nothing of the picture ("image", Next.js's "/_next/image?url=...") keeps its whole path
    and query."""
    parts = urlsplit(url)
    name = _SIZE_SUFFIX.sub("", parts.path.rsplit("/", 1)[-1]).lower()
    if name.split(".", 1)[0] in _GENERIC_NAMES or not name:
        return f"{parts.path}?{parts.query}".lower()
    return name


def lead_node(doc: Document, before: np.ndarray, first: int, lead_image: str,
              base: str | None) -> tuple[int, str] | None:
    """``(node, url)`` of the ``<img>`` that shows the page's own image (``lead_image``: its
    Open Graph, Twitter or JSON-LD image or ``<link rel="image_src">``; the same file in any
    size, :func:`_image_key`) among the :data:`MAX_LEAD_CANDIDATES` nearest images
    ``before`` the first main-text node ``first``, with at most :data:`MAX_LEAD_GAP_CHARS`
    characters of text between them, not in the site's header, navigation, sidebars or
    footer (:data:`_LEAD_NEVER`...), a heading, a cell or code, nor furniture; None when
    there is none (news pages show their photo under a headline the text leaves out)."""
    try:
        key = _image_key(lead_image)
    except ValueError:
        return None
    if not key:
        return None
    text = np.concatenate(([0], np.cumsum(doc.tlen * (doc.kind == TEXT))))
    for node in before[::-1][:MAX_LEAD_CANDIDATES].tolist():
        if text[first] - text[node] > MAX_LEAD_GAP_CHARS:
            break
        el = doc.elements[node]
        url = _image_url(el, base)
        try:
            same = url is not None and _image_key(url) == key
        except ValueError:
            same = False
        if not same or _furniture(el) or _furniture_url(url):
            continue
        if not _site_part(doc, node, text):
            return node, url
    return None


def _site_part(doc: Document, node: int, text: np.ndarray) -> bool:
    """Whether ``node`` lies in a part of the site rather than of the page, or where an
    image is no paragraph (:data:`_LEAD_NEVER`, :data:`_LEAD_NEVER_ROLES`, a ``<header>``
    outside an ``<article>`` or ``<main>``, a class or id word of :data:`_LEAD_NEVER_WORDS`
    on an element holding less than half of the page's text: "content-sidebar-wrap" holds
    the article too).  ``text``: the cumulative text length by node."""
    half = (text[-1] - text[0]) / 2
    up = int(doc.parent[node])
    headers = 0
    while up >= 0:
        name = doc.tag_names[up]
        if name in ("article", "main"):
            headers = 0
        elif name == "header":
            headers += 1
        el = doc.elements[up]
        if name in _LEAD_NEVER or (el.get("role") or "").lower() in _LEAD_NEVER_ROLES:
            return True
        cls, ident = doc.hints.get(up, (None, None))
        wrapper = text[int(doc.end[up])] - text[up] >= half
        words = set(word_parts(f"{cls or ''} {ident or ''}")) if (cls or ident) \
            and not wrapper else ()
        if words and (not _LEAD_NEVER_WORDS.isdisjoint(words)
                      or "site" in words and "header" in words):
            return True
        up = int(doc.parent[up])
    return headers > 0


def _alt_text(alt: str | None) -> str:
    """An image's ``alt`` for ``![alt](...)``: white space collapsed, markup characters and
    every bracket escaped."""
    text = " ".join((alt or "").split())
    if _INLINE_CHARS.search(text):
        text = _INLINE.sub(r"\\\1", text)
    return re.sub(r"[\[\]]", r"\\\g<0>", text)


def _furniture(el) -> bool:
    """An ``<img>`` declared small (:data:`MIN_IMAGE_SIDE`, by attribute or inline style) or
    of a smiley's, an emoji's or an avatar's class."""
    sides = [el.get("width"), el.get("height")]
    sides += _STYLE_SIDE.findall(el.get("style") or "")
    for side in sides:
        try:
            if side is not None and float(side.strip().removesuffix("px")) < MIN_IMAGE_SIDE:
                return True
        except ValueError:
            continue
    return not _FURNITURE_CLASSES.isdisjoint((el.get("class") or "").lower().split())


def _furniture_url(url: str) -> bool:
    """A URL of an icon, an ad, an author's picture, a smiley or a tracker: by its file name
    (:data:`_FURNITURE_WORDS`), its folders, an ad's size, a ``stats.`` host or a width under
    :data:`MIN_IMAGE_SIDE` in its query."""
    parts = urlsplit(url)
    folders = parts.path.split("/")
    name = folders[-1].rsplit(".", 1)[0]
    folders = [f.lower() for f in folders]
    words = word_parts(name)
    if not _FURNITURE_ALWAYS.isdisjoint(words) or words and len(words) <= 2 \
            and not _FURNITURE_WORDS.isdisjoint(words):
        return True
    if not _FURNITURE_FOLDERS.isdisjoint(folders[:-1]) or _AD_SIZE.search(name) \
            or (parts.hostname or "").startswith("stats."):
        return True
    return any(int(w) < MIN_IMAGE_SIDE for w in _QUERY_WIDTH.findall("?" + parts.query))


def _first_of_srcset(srcset: str) -> str:
    """The URL of a ``srcset``'s first candidate: up to white space (a comma inside a URL,
    Cloudinary's "c_fill,w_300", stays), trailing commas dropped."""
    m = re.match(r"[\s,]*(\S+)", srcset)
    return m.group(1).rstrip(",") if m else ""


def _image_url(el, base: str | None) -> str | None:
    """An ``<img>``'s URL for Markdown (:func:`_markdown_url`): a lazy loader's
    (``data-src``, ``data-lazy-src``, ``data-original``...: its ``src`` is a placeholder
    until a script runs), else ``src``, else the first of a ``srcset`` (its own, a lazy
    loader's, a ``<picture>``'s ``<source>``); None for none or a ``data:`` URL."""
    candidates = [el.get(k) for k in _LAZY_SOURCES] + [el.get("src")]
    candidates += [_first_of_srcset(el.get(k) or "") for k in _LAZY_SOURCE_SETS]
    # (the parser puts an <img> after a <source> inside it: <picture><source><img>)
    sources, up = [], el.getparent()
    while up is not None and up.tag in ("source", "picture") and len(sources) < 4:
        sources.append(up)
        up = up.getparent()
    for holder in sources:
        for source in (holder,) if holder.tag == "source" else holder.iter("source"):
            candidates.append(_first_of_srcset(source.get("srcset")
                                               or source.get("data-srcset") or ""))
    for src in candidates:
        url = _markdown_url(base, src or "")
        if url:
            return url
    return None


def _add_pictures(out: list, pictures: list[tuple[int, str]], k: int, before: int,
                  blocks: _Blocks, prefixes: _Prefixes) -> int:
    """Add the images from ``pictures[k]`` on that stand before node ``before`` to ``out``
    as paragraphs (not one in a heading, code or a table cell); the index of the next."""
    while k < len(pictures) and pictures[k][0] < before:
        node, picture = pictures[k]
        k += 1
        where = blocks.of(int(blocks.doc.parent[node]))
        if where.heading < 0 and where.pre < 0 and where.cell < 0:
            out.append(prefixes.block("p", picture, where.path))
    return k


def _code(doc: Document, pre: int, invisible: bool) -> str:
    """A ``<pre>``'s lines for a code block: blank lines inside it kept (the text drops
    them), none at its ends."""
    lines = doc.pre_lines(pre)
    if invisible:
        lines = [INVISIBLE.sub("", line) for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    first = next((k for k, line in enumerate(lines) if line), len(lines))
    return "\n".join(lines[first:])


_NO_TARGET = frozenset(("javascript", "data", "vbscript", "file", "about", "blob"))
_ENTITY_AMP = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_URL_ENCODED = str.maketrans({" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E"})


def _link_urls(doc: Document) -> Callable[[int], str | None]:
    """An ``<a>``'s node -> its URL for a Markdown link: its ``href`` read against the page's
    base (``<base href>``, else the page's URL), tabs and line breaks taken out as browsers
    do, spaces, parentheses and angle brackets percent-encoded; None for no ``href``, a
    fragment of the same page (``#top``) or a script (``javascript:``, ``data:``)."""
    base = page_base(doc)
    known: dict[int, str | None] = {}

    def url_of(node: int) -> str | None:
        if node not in known:
            known[node] = _markdown_url(base, doc.elements[node].get("href") or "")
        return known[node]
    return url_of


def _markdown_url(base: str | None, href: str) -> str | None:
    """``href`` for a Markdown destination: tabs and line breaks taken out and a web URL's
    backslashes read as slashes (as browsers do), read against ``base``, spaces, parentheses
    and angle brackets percent-encoded, an entity kept escaped; None for nothing, a fragment
    of the same page (``#top``) or a scheme that is no page (``javascript:``, ``data:``,
    ``file:``, also after reading it against a ``file:`` base)."""
    href = re.sub(r"[\t\n\r]", "", href.strip())
    if not href or href.startswith("#") or _scheme(href) in _NO_TARGET:
        return None
    if _scheme(href) in ("", "http", "https", "ftp"):
        href = href.replace("\\", "/")
    url = resolved(base, href) if base else href
    if not url or _scheme(url) in _NO_TARGET:
        return None
    # (an entity in a destination is read: "&amp;" stays itself escaped)
    return _ENTITY_AMP.sub(r"\\&", url.translate(_URL_ENCODED))


def _scheme(url: str) -> str:
    return url.partition(":")[0].lower() if ":" in url.split("/", 1)[0] else ""


def _common(a: tuple, b: tuple) -> tuple:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


class _Prefixes:
    """What starts each line of a block inside list items and quotes: ``> `` for a quote, for
    an item its marker on its first line, else as many spaces as the item's content is
    indented (nested lists: at least 4 spaces a level)."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.started: set[int] = set()
        self.markers: dict[int, str] = {}
        self.other_style: dict[int, bool] = {}    # list -> "*" and ")" instead of "-", "."
        self.numbered: dict[int, dict[int, str]] = {}   # list -> its items' markers
        self.last_items: tuple = ()               # the items the last block was shown in

    def marker(self, item: int, depth: int = 0) -> str:
        """The item's marker.  A list right after another list of its kind at its depth
        takes the other marker style ("-"/"*", "."/")"): with the same one, a reader joins
        the two lists into one."""
        if item not in self.markers:
            parent = self.doc.parent
            holder = int(parent[item])
            if holder not in self.other_style:
                before = self.last_items[depth] if len(self.last_items) > depth else -1
                previous = int(parent[before]) if before >= 0 else -1
                self.other_style[holder] = previous >= 0 and previous != holder and \
                    self.doc.tag[previous] == self.doc.tag[holder] and \
                    not self.other_style.get(previous, False)
            if holder not in self.numbered:
                self.numbered[holder] = list_markers(self.doc, holder)
            marker = self.numbered[holder].get(item, "-")
            if self.other_style[holder]:
                marker = "*" if marker == "-" else marker[:-1] + ")"
            self.markers[item] = marker
        return self.markers[item]

    def block(self, kind: str, text: str, path: tuple) -> "_Out":
        """The block's lines, each with its prefix.  An item none of whose lines was written
        (only a list nested in it kept), or one a block shown outside it has closed, is no
        container: its nested items are not indented for it (4 spaces at the start of the
        text would make a code block)."""
        first = rest = ""
        new_item = ""
        shown = []
        for k, c in enumerate(path):
            if c < 0:
                first += "> "
                rest += "> "
                shown.append(c)
                continue
            innermost = k == len(path) - 1
            if not innermost and (c not in self.started and path[k + 1] >= 0 or
                                  c in self.started and c not in self.last_items):
                continue    # (an item closed by a block shown outside it holds nothing more)
            marker = self.marker(c, sum(1 for x in shown if x >= 0))
            width = len(marker) + 1 if innermost else max(4, len(marker) + 1)
            if c not in self.started:       # (an item holding only a quote: "- > text")
                self.started.add(c)
                first += marker + " "
                new_item = "bullet" if marker in ("-", "*", "1.", "1)") else "numbered"
            else:
                first += " " * width
            rest += " " * width
            shown.append(c)
        lines = text.split("\n")
        lines = [first + lines[0], *(rest + line if line else rest.rstrip() for line in
                                     lines[1:])]
        self.last_items = tuple(c for c in shown if c >= 0)
        return _Out(kind, "\n".join(lines), tuple(shown), new_item)

    def blank(self, path: tuple) -> str:
        """A blank line inside the containers of ``path`` (as :meth:`block` wrote them)."""
        return "".join("> " if c < 0 else " " * max(4, len(self.marker(c)) + 1)
                       for c in path).rstrip()


@dataclass(frozen=True)
class _Out:
    """One block of the output (a heading, paragraph, list line, code block or table)."""

    kind: str
    text: str
    path: tuple = ()            # the list items and quotes it is shown in (see _Prefixes)
    new_item: str = ""          # its item's first line: "bullet" ("-", "1.") or "numbered"

    @property
    def items(self) -> tuple:
        return _items(self.path)


def _same_list_block(doc: Document, a: _Out, b: _Out) -> bool:
    """Whether list line ``b`` follows line ``a`` without a blank line in one tight list: the
    next item of ``a``'s list or of a list around it, or an item of a list nested in ``a``'s
    item that may interrupt its paragraph ("-", "1.")."""
    # (an item's next line is a paragraph of its own: joined to the line before, a "[" on
    # one and a "](" on the other would make a link the escaping of each line cannot see)
    if not b.new_item or [c for c in a.path if c < 0] != [c for c in b.path if c < 0]:
        return False                        # (or not inside the same quotes)
    a_items, b_items = a.items, b.items
    if not a_items or not b_items or doc.parent[a_items[0]] != doc.parent[b_items[0]]:
        return False
    depth = len(b_items)
    if depth <= len(a_items) and b_items[:-1] == a_items[:depth - 1]:
        return doc.parent[b_items[-1]] == doc.parent[a_items[depth - 1]]
    return b.new_item == "bullet" and b_items[:-1] == a_items


# stand-ins while a line is escaped whole: the opening and closing markers of an element's
# run and a code span's place (never in a text run: the parser makes control characters
# spaces)
_STRONG, _EM, _CODE_AT = "\x01", "\x02", "\x03"


def _inline(line: list[int], pieces: list[str], seps: list[str], where: list[_Block],
            names: list[str], in_heading: bool = False, line_start: bool = True,
            url_of: "Callable[[int], str | None] | None" = None) -> str:
    """One line's text, escaped as a whole (a "[", "&" or "<" of one run and what follows
    it in the next are read together), the runs of one emphasis or code element wrapped in
    its markers (not in a heading, nor inside a word: "<b>I</b>nternet", a drop cap, stays
    "Internet"), and with ``url_of`` (an ``<a>``'s node -> its URL or None) the runs of one
    link as ``[text](url)``."""
    out: list[str] = []
    spans: list[str] = []
    urls: list[str] = []

    def target(j: int) -> int:
        """The piece's link; -1 when none, going nowhere, or inside a code element (a
        signature's linked type: the code stays one span)."""
        link = where[j].link if url_of is not None else -1
        inline = where[j].inline
        if link < 0 or inline >= 0 and names[inline] in _CODE and link > inline:
            return -1
        return link if url_of(link) else -1

    k = 0
    while k < len(line):
        link = target(line[k])
        end = k + 1
        while end < len(line) and target(line[end]) == link:
            end += 1
        url = url_of(link) if link >= 0 else None
        if k:
            out.append(seps[line[k]].replace("\n", " "))
        inner: list[str] = []
        known = len(spans)
        _runs(line, k, end, pieces, seps, where, names, in_heading, inner, spans)
        # (a "]:" in a code span of a link's text, "[`]:x`](u)", reads as a link
        # definition; a permalink mark alone, "¶", is no text to link)
        if url and any(pieces[j].strip() for j in line[k:end]) and \
                not any("]:" in span for span in spans[known:]) and \
                "".join(pieces[j] for j in line[k:end]).strip() not in _MARKS:
            # (a bracket inside a link's text would end it: escaped below)
            out.append(_LINK_OPEN + "".join(inner).replace("[", _OPEN_BRACKET)
                       .replace("]", _CLOSE_BRACKET) + _LINK_CLOSE)
            urls.append(url)
        else:
            out.extend(inner)
        k = end
    text = _escape_inline("".join(out))
    if line_start and not text.startswith((_CODE_AT, _LINK_OPEN)):    # (a code span holds
        text = escape_line_start(text)                  # its closer: no fence)
        if text.startswith("[") and any("]:" in span for span in spans):
            text = "\\" + text        # ("[11:`]:`" reads as a link definition: the line gone)
    if spans:
        codes = iter(spans)
        text = re.sub(_CODE_AT, lambda _: next(codes), text)
    if urls:
        text = text.replace("!" + _LINK_OPEN, "\\!" + _LINK_OPEN)      # (not an image)
        targets = iter(urls)
        text = re.sub(_LINK_CLOSE, lambda _: f"]({next(targets)})", text)
        text = text.replace(_LINK_OPEN, "[").replace(_OPEN_BRACKET, "\\[") \
            .replace(_CLOSE_BRACKET, "\\]")
    return text.replace(_STRONG, "**").replace(_EM, "*")


_LINK_OPEN, _LINK_CLOSE, _OPEN_BRACKET, _CLOSE_BRACKET = "\x04", "\x05", "\x06", "\x07"
_MARKS = frozenset(("¶", "§", "#", "🔗"))


def _runs(line: list[int], lo: int, hi: int, pieces: list[str], seps: list[str],
          where: list[_Block], names: list[str], in_heading: bool, out: list[str],
          spans: list[str]) -> None:
    """The pieces ``line[lo:hi]`` onto ``out``, the runs of one emphasis or code element in
    stand-ins for their markers (``spans`` gets the code spans)."""
    k = lo
    while k < hi:
        start = line[k]
        element = where[start].inline
        end = k + 1
        # (two code elements with nothing between are one span: "`a``b`" would not read;
        # so are two of one emphasis: "**a:****:b**")
        while element >= 0 and end < hi and (where[line[end]].inline == element or (
                not seps[line[end]] and where[line[end]].inline >= 0 and _same_kind(
                    names[element], names[where[line[end]].inline]))):
            end += 1
        # (a line break inside the line: the lines of a heading)
        raw = "".join((seps[j].replace("\n", " ") if j != start else "") + pieces[j]
                      for j in line[k:end])
        if k > lo:
            out.append(seps[start].replace("\n", " "))
        joined = (k and not seps[start] and _wordy(pieces[line[k - 1]][-1:])) or (
            end < len(line) and not seps[line[end]] and _wordy(pieces[line[end]][:1]))
        name = names[element] if element >= 0 else ""
        if name in _CODE and not joined and raw.strip():
            spans.append(code_span(raw))
            out.append(_CODE_AT)
        elif name in _EMPHASIS and not joined and not in_heading and \
                any(c.isalnum() for c in raw):
            mark = _STRONG if _EMPHASIS[name] == "**" else _EM
            out.append(f"{mark}{raw}{mark}")
        else:
            out.append(raw)
        k = end


def _same_kind(a: str, b: str) -> bool:
    """Two inline elements written with the same markers (code, ``**`` or ``*``)."""
    return (a in _CODE and b in _CODE) or (a in _EMPHASIS and _EMPHASIS[a] == _EMPHASIS.get(b))


def _wordy(char: str) -> bool:
    return char.isalnum() or char == "_"


def _table(doc: Document, rows: list[list[int]], pieces: list[str], seps: list[str],
           where: list[_Block], url_of: "Callable[[int], str | None] | None" = None
           ) -> tuple[str, str]:
    """The text in a grid table but in no cell (a caption), and a pipe table of its cells'
    kept text (code and emphasis marked as elsewhere): one row per ``<tr>``, a cell's
    ``colspan`` and ``rowspan`` held by empty cells so that columns stay aligned, one column
    per cell of the widest row (shorter rows padded), the first row the header."""
    cells_of: dict[int, dict[int, list[int]]] = {}     # row -> cell -> its piece indexes
    order: list[int] = []
    loose: list[str] = []
    for line in rows:
        for k in line:
            b = where[k]
            # (a cell outside any <tr>: its parent is its row)
            row = b.row if b.row >= 0 else int(doc.parent[b.cell]) if b.cell >= 0 else -1
            if row < 0:
                if loose:
                    loose.append(seps[k].replace("\n", " "))
                loose.append(pieces[k])
                continue
            if row not in cells_of:
                cells_of[row] = {}
                order.append(row)
            cells_of[row].setdefault(b.cell, []).append(k)
    names = doc.tag_names
    table_rows = []
    covered: dict[int, int] = {}            # column -> rows a rowspan still covers
    for row in order:
        kept = cells_of[row]
        cells = [int(c) for c in doc.element_children(row) if names[int(c)] in _CELLS]
        # text directly in the <tr> first, cells not children of it (a <form> between) last
        cells = [-1] * (-1 in kept) + cells + [c for c in kept if c >= 0 and c not in cells]
        out: list[str] = []

        def skip_covered() -> None:
            while covered.get(len(out), 0) > 0:
                covered[len(out)] -= 1
                out.append("")
        for cell in cells:
            skip_covered()
            text = _inline(kept[cell], pieces, seps, where, names, line_start=False,
                           url_of=url_of) \
                if cell in kept else ""
            el = doc.elements[cell] if cell >= 0 else None
            across = _span(el.get("colspan")) if el is not None else 1
            down = _span(el.get("rowspan")) if el is not None else 1
            for j in range(across):
                if down > 1:
                    covered[len(out)] = down - 1
                out.append(text.replace("|", "\\|") if j == 0 else "")
        while any(n > 0 for col, n in covered.items() if col >= len(out)):
            if covered.get(len(out), 0) > 0:
                skip_covered()
            else:
                out.append("")
        table_rows.append(out)
    if not table_rows:
        return "".join(loose), ""
    width = max(len(r) for r in table_rows)
    lines = []
    for n, cells in enumerate(table_rows):
        cells = cells + [""] * (width - len(cells))
        lines.append("| " + " | ".join(cells) + " |")
        if n == 0:
            lines.append("|" + " --- |" * width)
    return "".join(loose), "\n".join(lines)


def _span(value: str | None) -> int:
    """A ``colspan`` / ``rowspan`` as a count of cells (1 to 100; 1 when unreadable)."""
    number = _number(value)
    return min(max(number, 1), 100) if number is not None else 1
