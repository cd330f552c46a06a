"""One parse per page: the lxml tree plus a flat node table in document order.

The node table holds every element and every non-whitespace text run (as a pseudo-node, the
"text node" of the papers, see ALGORITHMS.md §0.4) in pre-order.  Node ``i``'s subtree is the
index interval ``[i, end[i])``, so any per-node quantity summed over subtrees is a difference of
prefix sums (:meth:`Document.subtree_sum`): algorithms never re-walk the tree for counts.

The model is the page as a browser with scripting renders it: ``script``, ``style``,
``template``, ``noscript``, comments and processing instructions carry no text.
"""
from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np
from lxml import etree

from .chars import CHAR_CLASSES, RUN_COUNTS, collapse, run_counts
from .encoding import decode_html, wide_encoding
from .prune import check_prune, keep_only, prune_tree, remove_keeping_tail

# Elements whose content is never rendered text.
DROPPED_TAGS = ("script", "style", "template", "noscript", "noframes", "noembed", "iframe",
                "datalist", "rt", "rp")     # (ruby readings: 漢<rt>kan</rt> is 漢, not 漢kan)
# Elements that start a new line of output text.
BLOCK_LEVEL = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html "
    "legend li main menu nav ol p pre section summary table tbody thead tfoot tr ul "
    "xmp listing".split()
)
CELL_LEVEL = frozenset(("td", "th"))
# Elements whose texts are separate items on one line: a space between them in the text
# (table cells; a list's options, "January February", not "JanuaryFebruary").
WORD_SEPARATED = CELL_LEVEL | frozenset(("option", "optgroup"))

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# the whole input is one URL or file path (extract("https://a.test/story") meant a fetch)
_ADDRESS = re.compile(r"(?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.|file:|~?/|\.{1,2}/|[A-Za-z]:\\)[^\s<>]*")
_XML_DECL = re.compile(r"<\?xml[^>]*\?>", re.I)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)")

ELEMENT, TEXT = 0, 1

# Tag interning: every tag name gets a small integer code, shared by all documents.
_TAG_CODES: dict[str, int] = {"#text": 0}


def tag_code(tag: str) -> int:
    code = _TAG_CODES.get(tag)
    if code is None:
        code = _TAG_CODES[tag] = len(_TAG_CODES)
    return code


_A = tag_code("a")


def tag_codes(tags: Iterable[str]) -> np.ndarray:
    return np.array([tag_code(t) for t in tags], dtype=np.int32)


class ParseError(ValueError):
    """Raised by :func:`parse` when the input holds no parseable HTML; carries the reason."""


@dataclass
class Document:
    """A parsed page.  Arrays are indexed by node id (pre-order position)."""

    root: etree._Element
    kind: np.ndarray          # ELEMENT or TEXT
    tag: np.ndarray           # tag code (0 for text)
    parent: np.ndarray        # parent node id, -1 for the root
    end: np.ndarray           # exclusive end of the subtree interval
    depth: np.ndarray
    line: np.ndarray          # output line counter at the node (block boundaries, <br>)
    cell: np.ndarray          # counter of WORD_SEPARATED elements (cells, options) at the node
    elements: list            # lxml element per node (None for text nodes)
    texts: list               # raw text per node ("" for elements)
    tlen: np.ndarray          # own text length after whitespace collapse (text nodes)
    in_link: np.ndarray       # node with an <a> ancestor
    runs: dict                # per-text-node counts of chars.run_counts, in node order
    hints: dict               # node id -> (class, id) of the elements with either attribute
    encoding: str | None = None
    url: str | None = None
    json_ld: tuple = ()       # the text of each <script type="application/ld+json">
    answers: tuple = ()       # node ids of the texts of schema.org Answers and Questions
    article_bodies: tuple = ()  # node ids of the elements marked itemprop="articleBody"
    discussion: bool = False  # the page's schema.org markup names a DiscussionForumPosting
    pruned: int = 0           # subtrees removed by the caller's prune selectors
    targeted: int = 0         # subtrees kept alone by the caller's target selectors
    _sums: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ structure
    @property
    def size(self) -> int:
        return len(self.kind)

    @cached_property
    def tag_names(self) -> list[str]:
        return [el.tag if el is not None else "#text" for el in self.elements]

    @cached_property
    def _child_index(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(self.parent, kind="stable")
        starts = np.searchsorted(self.parent[order], np.arange(-1, self.size + 1))
        return order, starts

    def children(self, i: int) -> np.ndarray:
        """Child node ids of ``i`` (elements and text runs) in document order."""
        order, starts = self._child_index
        return order[starts[i + 1]:starts[i + 2]]

    def element_children(self, i: int) -> np.ndarray:
        kids = self.children(i)
        return kids[self.kind[kids] == ELEMENT]

    @cached_property
    def _node_index(self) -> dict:
        return {el: i for i, el in enumerate(self.elements) if el is not None}

    def node_of(self, element: etree._Element) -> int | None:
        """The node id of an element of the tree (None for one the table does not hold)."""
        return self._node_index.get(element)

    def find(self, tag: str) -> int:
        """First node with this tag, or -1."""
        hits = np.flatnonzero(self.tag == _TAG_CODES.get(tag, -1))
        return int(hits[0]) if len(hits) else -1

    @cached_property
    def body(self) -> int:
        b = self.find("body")
        return b if b >= 0 else 0

    def is_ancestor(self, a: int, b: int) -> bool:
        """True when ``a`` is a proper ancestor of ``b``."""
        return a < b < self.end[a]

    # ------------------------------------------------------------------ statistics
    def subtree_sum(self, own: np.ndarray, nodes: np.ndarray | slice | None = None) -> np.ndarray:
        """Sum of ``own`` over the subtree of every node (or of ``nodes``); ``own`` may stack
        several per-node quantities as rows, summed one row at a time (all rows' prefix sums
        at once took about 1 GB on a page of 2.3 million nodes)."""
        own = np.asarray(own)
        if own.ndim > 1:
            rows = [self.subtree_sum(row, nodes) for row in own.reshape(-1, own.shape[-1])]
            return np.stack(rows).reshape(own.shape[:-1] + (-1,))
        cum = np.zeros(own.shape[-1] + 1)
        np.cumsum(own, dtype=np.float64, out=cum[1:])
        if nodes is None:
            out = cum[self.end]
            out -= cum[:-1]
            return out
        idx = np.asarray(nodes)
        return cum[self.end[idx]] - cum[idx]

    def inside(self, tags: Iterable[str], include_self: bool = True) -> np.ndarray:
        """Mask of nodes inside (or at) an element with one of ``tags``."""
        return self.covered(self.is_tag(tags), include_self)

    def covered(self, mask: np.ndarray, include_self: bool = True) -> np.ndarray:
        """Mask of nodes inside (or at) a node of ``mask``."""
        hits = np.flatnonzero(mask)
        diff = np.zeros(self.size + 1, dtype=np.int32)
        start = hits if include_self else hits + 1
        np.add.at(diff, start, 1)
        np.add.at(diff, self.end[hits], -1)
        return np.cumsum(diff[:-1]) > 0

    def is_tag(self, tags: Iterable[str] | str) -> np.ndarray:
        if isinstance(tags, str):
            return self.tag == _TAG_CODES.get(tags, -1)
        codes = tag_codes(tags)                 # interns them: every code < len(_TAG_CODES)
        lookup = np.zeros(len(_TAG_CODES), dtype=bool)
        lookup[codes] = True
        return lookup[self.tag]

    @cached_property
    def stats(self) -> "NodeStats":  # noqa: F821  (imported lazily: stats imports document)
        from .stats import NodeStats

        return NodeStats.of(self)

    # ------------------------------------------------------------------ text output
    def text_of(self, keep: np.ndarray | None = None, nodes: Sequence[int] | None = None) -> str:
        """Text of the kept text nodes (a mask) or of the subtrees of ``nodes``, in order.

        Lines break at block-level elements and ``<br>``; cells and options are separated by a
        space.
        """
        _, pieces, seps, _ = self.pieces(self.mask_of(nodes) if keep is None else keep)
        return "".join([s + p for s, p in zip(seps, pieces)]).strip()

    def mask_of(self, nodes: Sequence[int] | None) -> np.ndarray:
        """The mask of the nodes in the subtrees of ``nodes``."""
        keep = np.zeros(self.size, dtype=bool)
        for n in nodes or ():
            keep[n:self.end[n]] = True
        return keep

    def pieces(self, keep: np.ndarray) -> tuple[list[int], list[str], list[str], dict[int, str]]:
        """The kept text runs in document order, as :meth:`text_of` writes them: their node
        ids, their text (whitespace collapsed), the separator before each ("\\n" where a line
        breaks, " " or ""; "" before the first) and the ``{node: text}`` of the outermost
        ``<pre>`` kept whole, whose text (lines kept) stands for all of their runs."""
        ids = np.flatnonzero(keep & (self.kind == TEXT))
        if not len(ids):
            return [], [], [], {}
        preformatted, covered = self._preformatted(keep) if len(self._pre_nodes) else ({}, None)
        if preformatted:
            ids = ids[~covered[ids]]
        texts, order = self.texts, ids.tolist()
        raws = [texts[i] for i in order]
        # every run's whitespace collapsed, in one pass over all of them (runs hold no NUL)
        pieces = [p.strip(" ") for p in collapse("\x00".join(raws)).split("\x00")]
        if preformatted:
            for k, i in enumerate(order):
                if i in preformatted:
                    pieces[k] = preformatted[i]
        line, cell = self.line[ids], self.cell[ids]
        new_line = (line[1:] != line[:-1]).tolist()
        new_cell = (cell[1:] != cell[:-1]).tolist()
        seps = [""]
        for k in range(1, len(pieces)):
            if new_line[k - 1]:
                seps.append("\n")
            elif new_cell[k - 1] or raws[k - 1][-1:].isspace() or raws[k][:1].isspace():
                seps.append(" ")
            else:
                seps.append("")
        return order, pieces, seps, preformatted

    @cached_property
    def _pre_nodes(self) -> np.ndarray:
        """The outermost ``<pre>`` elements (not inside another one)."""
        mask = self.is_tag("pre")
        pres = np.flatnonzero(mask)
        return pres[~self.covered(mask, include_self=False)[pres]] if len(pres) else pres

    def pre_lines(self, pre: int) -> list[str]:
        """The lines of a ``<pre>`` as a browser shows them, trailing spaces dropped (blank
        ones kept: the text leaves them out, a Markdown code block keeps them)."""
        el = self.elements[pre]
        if el.find(".//br") is None:
            raw = etree.tostring(el, method="text", encoding=str, with_tail=False)
        else:   # (a <br> breaks a line there: old forums and blogs write listings so)
            raw = "".join(_pre_text_with_breaks(el))
        return [line.rstrip() for line in raw.replace("\r\n", "\n").replace("\r", "\n")
                .replace("\xa0", " ").split("\n")]

    def _preformatted(self, keep: np.ndarray) -> tuple[dict[int, str], np.ndarray]:
        """``{first text node: text}`` for each outermost ``<pre>`` whose text nodes are all
        kept: its text with line breaks and indentation as a browser shows them (trailing
        spaces and blank lines dropped), and the mask of its other text nodes, which the
        text replaces.  A ``<pre>`` kept in part is treated as any other text."""
        out: dict[int, str] = {}
        covered = np.zeros(self.size, dtype=bool)
        is_text = self.kind == TEXT
        for p in self._pre_nodes.tolist():
            inner = np.flatnonzero(is_text[p:self.end[p]]) + p
            if not len(inner) or not keep[inner].all():
                continue
            text = "\n".join(line for line in self.pre_lines(p) if line)
            if text:
                out[int(inner[0])] = text
                covered[inner[1:]] = True
        return out, covered


def _pre_text_with_breaks(pre: etree._Element):
    """The text runs of a ``<pre>`` in order, a ``<br>`` as a line break (comments and
    processing instructions are no text)."""
    for event, el in etree.iterwalk(pre, events=("start", "end")):
        if event == "start":
            if el.tag == "br":
                yield "\n"
            elif isinstance(el.tag, str) and el.text:
                yield el.text
        elif el is not pre and el.tail:
            yield el.tail


def _strip_deep_nesting(html: str) -> str:
    """Remove the tags nested more than 200 deep (runaway unclosed tags, or a balanced tower
    of them), the depth libxml2 cannot parse past.  Void elements never nest, except the ones
    libxml2 2.14 nests (``<wbr>``, ``<embed>``, ``<source>``, ``<track>``: a paragraph with
    hundreds of ``<wbr>`` is a tower); a ``<wbr>`` goes without a trace, the rest become a
    space."""
    depth: dict[str, int] = {}
    deepest: dict[str, int] = {}
    for slash, name in _TAG_RE.findall(html):
        name = name.lower()
        if name in _NEVER_NESTED:
            continue
        d = depth[name] = max(0, depth.get(name, 0) + (-1 if slash else 1))
        if d > deepest.get(name, 0):
            deepest[name] = d
    runaway = [t for t, d in deepest.items() if d > 200]
    if not runaway:
        runaway = ["div", "span", "font", "b", "i", "u", "center", "table", "tr", "td"]
    # [^<>]*: a "<i" never closed stops at the next "<" instead of scanning to the page's end
    pattern = re.compile(r"</?(?:%s)\b[^<>]*>" % "|".join(map(re.escape, runaway)), re.I)
    return pattern.sub(lambda tag: "" if tag[0][1:4].lower() == "wbr" else " ", html)


# the void elements libxml2 (2.14) leaves empty; it nests the others (wbr, embed, source, track)
_NEVER_NESTED = frozenset("area base br col hr img input link meta param".split())


# _CONTROL's characters become spaces in the UTF-8 bytes: there those bytes only ever encode
# themselves
_CONTROL_BYTES = bytes(32 if _CONTROL.match(chr(b)) else b for b in range(256))


# a character reference to one of _CONTROL's characters (&#1;, &#x1B): a space, like the byte
_CONTROL_REFERENCE = re.compile(
    rb"&#(?:0*(?:[1-8]|1[124-9]|2[0-9]|3[01]|127)(?![0-9])|[xX]0*(?:[1-8bcefBCEF]|1[0-9a-fA-F]"
    rb"|7[fF])(?![0-9a-fA-F]));?")


# a tag or comment inside a <title>'s text: the title was left unclosed
_TITLE_OPEN = re.compile(r"<title\b", re.I)
_MARKUP_IN_TITLE = re.compile(r"<(?:/?[A-Za-z][A-Za-z0-9]*[\s/>]|!--)")
# a title that ran past the head: markup only a head or a body holds
_PAGE_MARKUP_IN_TITLE = re.compile(r"</head\b|<body\b|<(?:meta|link|script|style)\b", re.I)
_TITLE_CLOSE = re.compile(r"</title\s*>", re.I)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _utf8(text: str) -> bytes:
    """``text`` in UTF-8, a lone surrogate (a str cut inside a UTF-16 pair) as U+FFFD, the
    replacement character, where the codec's "replace" writes "?"."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def _fromstring(html: str, raw: bytes | None = None
                ) -> tuple[etree._Element | None, etree._ListErrorLog]:
    """The tree and the parser's error log.  The text goes to libxml2 as UTF-8 bytes, which
    it parses faster than a Python str (``raw``: the page's own bytes when they are exactly
    ``html`` in UTF-8); the declared encoding overrides any in the page."""
    parser = etree.HTMLParser(recover=True, no_network=True, huge_tree=True,
                              remove_comments=True, remove_pis=True, encoding="utf-8")
    data = (raw if raw is not None else _utf8(html)).translate(_CONTROL_BYTES)
    if b"&#" in data:
        data = _CONTROL_REFERENCE.sub(b" ", data)
    root = etree.fromstring(data, parser)
    return root, parser.error_log


def _parse_tree(html: str, raw: bytes | None = None) -> etree._Element | None:
    root, errors = _fromstring(html, raw)
    title = root.find("head/title") if root is not None else None
    if title is not None and title.text and len(title.text) > 200 \
            and _MARKUP_IN_TITLE.search(title.text):
        # an unclosed <title> swallowed the page (RCDATA runs to the end): close it at the
        # first markup inside it and parse again
        opener = _TITLE_OPEN.search(html)
        # (a closed title may hold literal tags: "How to use the <div> and <span> tags")
        if opener is not None and (_TITLE_CLOSE.search(html, opener.end()) is None
                                   or _PAGE_MARKUP_IN_TITLE.search(title.text)):
            head, sep, rest = html[:opener.start()], opener.group(), html[opener.end():]
            close = rest.find("<", rest.find(">") + 1)
            if close > 0:
                root, errors = _fromstring(head + sep + rest[:close] + "</title>" + rest[close:])
    if any("depth" in str(e.message).lower() for e in errors):
        # libxml2 stops the document at its depth limit: text after the runaway nesting would
        # be lost.  Parse once more without the runaway tags.
        again, _ = _fromstring(_strip_deep_nesting(html))
        root = again if again is not None else root
    return root


# file signatures of formats that are sometimes served as text/html or without a type
_SIGNATURES = ((b"%PDF-", "PDF"), (b"\x89PNG\r\n\x1a\n", "PNG"), (b"GIF87a", "GIF"),
               (b"GIF89a", "GIF"), (b"\xff\xd8\xff", "JPEG"), (b"PK\x03\x04", "ZIP"),
               (b"\x1f\x8b\x08", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"),
               (b"(\xb5/\xfd", "zstd"), (b"7z\xbc\xaf\x27\x1c", "7z"), (b"Rar!\x1a\x07", "RAR"),
               (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE document"), (b"%!PS", "PostScript"),
               (b"\x7fELF", "ELF"), (b"\x00asm", "WebAssembly"), (b"wOFF", "WOFF"),
               (b"wOF2", "WOFF2"), (b"OggS", "Ogg"), (b"fLaC", "FLAC"), (b"ID3", "MP3"),
               (b"\x1aE\xdf\xa3", "Matroska/WebM"), (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"))


def binary_kind(data: bytes) -> str | None:
    """The format of ``data`` when it starts with a known binary file signature (PDF, images,
    archives, compressed streams, media): None for anything else.  RIFF containers (WAV,
    AVI, WebP) and ISO media (MP4) are recognised by their second field."""
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    if data.startswith(b"RIFF") and data[8:12] in (b"WAVE", b"AVI ", b"WEBP"):
        return "RIFF " + data[8:12].decode("ascii").strip()
    if data[4:8] == b"ftyp":
        return "ISO media"
    return None


def _may_hold_json_ld(page: str | bytes) -> bool:
    """Whether the page may have a JSON-LD script ("application/ld+json" in any case): a
    search for "+json" in any case, its "+" found first (a case-blind regex took five times as
    long); the scripts' types are then read in any case."""
    return (_JSON_BYTES.search(page) if isinstance(page, bytes) else _JSON.search(page)) \
        is not None


def _holds(page: str | bytes, marker: str) -> bool:
    """Whether the page, bytes or str, holds the ASCII ``marker``."""
    return (marker.encode("ascii") if isinstance(page, bytes) else marker) in page


_JSON = re.compile(r"\+[jJ][sS][oO][nN]")
_JSON_BYTES = re.compile(rb"\+[jJ][sS][oO][nN]")


def parse(html: str | bytes, url: str | None = None, content_type: str | None = None,
          prune: str | Iterable[str] | None = None,
          target: str | Iterable[str] | None = None) -> Document:
    """Decode, repair and parse a page into a :class:`Document`.  ``prune``: CSS selectors
    (or XPath, starting with ``/``) of elements removed before anything reads the tree;
    ``target``: selectors of the elements kept alone (with the head) when any matches in the
    body, after the pruning (:mod:`extraction.prune`).

    Raises :class:`ParseError` (with the reason) when there is nothing to parse, and
    :class:`~extraction.prune.PruneError` for an invalid selector, whatever the page.
    """
    matcher = check_prune(prune)
    target_matcher = check_prune(target, "target")
    if html is None:
        raise ParseError("no input")
    encoding = None
    raw = None      # the input bytes, when they are exactly the decoded text in UTF-8
    if isinstance(html, (bytes, bytearray, memoryview)):
        data = bytes(html)
        if not data or data.isspace():     # (not data.strip(): that copies the page)
            raise ParseError("empty input")
        kind = binary_kind(data)
        if kind:
            raise ParseError(f"binary data ({kind}), not HTML")
        if data[:64].count(b"\x00") > 4 and not data.startswith((b"\xff\xfe", b"\xfe\xff")) \
                and wide_encoding(data) is None:
            raise ParseError("binary data, not HTML")
        decoded = decode_html(data, content_type)
        html, encoding = decoded.text, decoded.encoding
        if encoding == "utf-8" and decoded.source != "bom" and "\ufffd" not in html:
            raw = data      # valid UTF-8 (nothing replaced): re-encoding would give it back
    if not isinstance(html, str):
        raise ParseError(f"unsupported input type {type(html).__name__}")
    if not html or html.isspace():
        raise ParseError("empty input")
    sample = html[:4096]
    bad = len(_CONTROL.findall(sample)) + sample.count("\ufffd")
    if bad > 0.1 * len(sample):
        raise ParseError("binary data, not HTML")
    if len(html) <= 4096 and _ADDRESS.fullmatch(html.strip()):
        raise ParseError("a URL or file path, not HTML: fetch or read the page first")
    declaration = _XML_DECL.search(html, 0, 4096)
    if declaration is not None:
        html = html[:declaration.start()] + html[declaration.end():]
        raw = None
    root = _parse_tree(html, raw)
    if root is None:
        raise ParseError("no elements in input")
    # structured data lives in scripts, which the tree drops: kept aside for the metadata
    page = data if raw is not None else html    # (searched as it was parsed: bytes or str)
    json_ld = tuple(el.text for el in root.iter("script")
                    if el.text and (el.get("type") or "").strip().lower() == "application/ld+json") \
        if _may_hold_json_ld(page) else ()
    if _holds(page, "shadowroot"):
        _open_shadow_roots(root)
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    pruned = prune_tree(root, matcher) if matcher is not None else 0
    targeted = keep_only(root, target_matcher) if target_matcher is not None else 0
    _drop_fallbacks(root)
    _drop_hidden(root)
    if _holds(page, "<pre"):
        _drop_line_numbers(root)
    doc = _build(root, encoding, url)
    doc.json_ld = json_ld
    doc.pruned, doc.targeted = pruned, targeted
    if _holds(page, "schema.org/Answer"):
        doc.answers = _answer_bodies(doc)
    doc.discussion = _holds(page, "DiscussionForumPosting")
    if _holds(page, "articleBody"):
        doc.article_bodies = tuple(sorted(
            n for n in map(doc.node_of, _ARTICLE_BODIES(doc.root)) if n is not None))
    return doc


_ANSWERS = etree.XPath("//*[@itemprop='acceptedAnswer' or @itemprop='suggestedAnswer' or "
                       "contains(@itemtype, 'schema.org/Answer')]")
_QUESTIONS = etree.XPath("//*[@itemscope and contains(@itemtype, 'schema.org/Question')]")
_TEXTS = etree.XPath(".//*[@itemprop='text']")
# schema.org microdata's mark of an article's text (itemprop may list several properties)
_ARTICLE_BODIES = etree.XPath("//*[contains(concat(' ', normalize-space(@itemprop), ' '), "
                              "' articleBody ')]")


def _answer_bodies(doc: Document) -> tuple:
    """The node ids of the posts' texts of a Q&A page marked up with schema.org microdata:
    each Answer's ``itemprop="text"`` (else the Answer) and the Question's own
    ``itemprop="text"`` (the question is part of the thread; a page's Question item often
    holds the whole page, so without a text property of its own it adds nothing)."""
    bodies = []
    for answer in _ANSWERS(doc.root):
        texts = _TEXTS(answer) or [answer]
        bodies.extend(n for n in map(doc.node_of, texts) if n is not None)
    for question in _QUESTIONS(doc.root):
        own = [t for t in _TEXTS(question) if _item_of(t) is question]
        bodies.extend(n for n in map(doc.node_of, own) if n is not None)
    return tuple(sorted(set(bodies)))


def _item_of(element: etree._Element) -> etree._Element | None:
    """The item a microdata property belongs to: the nearest ancestor with ``itemscope``."""
    for ancestor in element.iterancestors():
        if ancestor.get("itemscope") is not None:
            return ancestor
    return None


def _open_shadow_roots(root: etree._Element) -> None:
    """Unwrap the ``<template shadowrootmode>`` (``shadowroot`` before 2023) of declarative
    shadow DOM: a browser renders its content in the page, where other templates' content
    is inert (and dropped with them)."""
    for template in list(root.iter("template")):
        if template.get("shadowrootmode") is not None or template.get("shadowroot") is not None:
            template.tag = _SHADOW_ROOT
    etree.strip_tags(root, _SHADOW_ROOT)


_SHADOW_ROOT = "shadow-root-content"


# elements whose content a browser shows only when it cannot show the element itself.  (A
# <select>'s options stay: emptying it changed 50 of the 978 shared pages, F1 -0.6 summed.)
_FALLBACK_HOLDERS = ("video", "audio", "canvas")


def _drop_fallbacks(root: etree._Element) -> None:
    """Empty ``<video>``, ``<audio>`` and ``<canvas>`` (the elements stay, for the layout of
    E3): "Your browser does not support the video tag" is not the page's text."""
    for el in list(root.iter(*_FALLBACK_HOLDERS)):    # (a holder inside a holder goes too)
        if len(el) or el.text:
            el.text = None
            for child in list(el):
                el.remove(child)        # its tail with it: inside the holder too


# the class of a code listing's line-number gutter or of one line's number: Pygments
# (td.linenos, div.linenodiv, span.linenos), Rouge (td.gutter / td.rouge-gutter, pre.lineno),
# Hugo's Chroma (span.lnt, span.ln), highlight.js' line-numbers plugin, CodeMirror, others
_GUTTER_CLASSES = frozenset((
    "linenos", "linenodiv", "lineno", "gutter", "rouge-gutter", "lnt", "ln", "hljs-ln-numbers",
    "hljs-ln-n", "codemirror-linenumber", "codemirror-gutter-elt", "line-number",
    "line-numbers", "linenumber", "blob-num", "code-line-number"))
_GUTTER_CANDIDATES = etree.XPath(
    "//*[contains(@class, 'line') or contains(@class, 'gutter') or contains(@class, 'ln')"
    " or contains(@class, 'Line') or contains(@class, 'blob-num')]")
_NEAR_CODE = etree.XPath("ancestor-or-self::pre or ancestor::code or .//pre"
                         " or ancestor::*[position() <= 3][.//pre]")
_NOT_A_NUMBER = re.compile(r"[^\d\s]")


def _drop_line_numbers(root: etree._Element) -> None:
    """Remove the line numbers of code listings: an element whose class names a line-number
    gutter (:data:`_GUTTER_CLASSES`), which holds nothing but digits and white space, in or
    next to a ``<pre>``.  "1 2 3" before the code is not the page's text, nor the code's."""
    for el in _GUTTER_CANDIDATES(root):
        if _GUTTER_CLASSES.isdisjoint((el.get("class") or "").lower().split()) \
                or el.getparent() is None:
            continue
        text = el.xpath("string()")
        if text.strip() and not _NOT_A_NUMBER.search(text) and _NEAR_CODE(el):
            remove_keeping_tail(el)


# elements a browser does not render: the ``hidden`` attribute, an inline display: none or
# visibility: hidden or collapse (whitespace, case and CSS comments ignored), a <dialog> that
# is not open
_STYLE_HIDDEN_OR_DIALOG = etree.XPath(
    "descendant-or-self::*[@style or @hidden or self::dialog[not(@open)]]")
_HIDING_WORD = re.compile("none|hidden|collapse", re.I)
_HIDDEN_STYLE = re.compile(          # (not a custom property "--display" or "grid-display")
    r"(?<![\w-])(?:(display)\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))(?![\w-])", re.I)


def _hides(style: str) -> str | None:
    """How the inline ``style`` hides its element: "display" (``display: none``, wherever
    it is in the style), "visibility" (only ``visibility: hidden`` or ``collapse``), or None.
    CSS comments read as spaces, one left open running to the end, found with ``str.find``
    (a regex for them backtracked)."""
    if "/*" in style:
        kept, i = [], 0
        while (j := style.find("/*", i)) >= 0:
            kept.append(style[i:j])
            i = style.find("*/", j + 2)
            if i < 0:
                break
            kept.append(" ")
            i += 2
        else:
            kept.append(style[i:])
        style = "".join(kept)
    found = [m.group(1) for m in _HIDDEN_STYLE.finditer(style)]
    if not found:
        return None
    return "display" if any(found) else "visibility"


_TEXT_LENGTH = etree.XPath("string-length(.)")
HIDDEN_MAX_SHARE = 0.5  # [ours] a hidden element with more of the page's text is kept
REVEALED_MIN_SHARE = 0.2  # [ours] ... or with more, hidden by visibility only (see _drop_hidden)


def _hidden_candidates_python(root: etree._Element) -> list[etree._Element]:
    """The elements with a ``hidden`` attribute or a style naming "none", "hidden" or
    "collapse" (any case), and the ``<dialog>`` elements that are not ``open``, in document
    order: the reference for ``_nodewalk.hidden_candidates``."""
    return [el for el in _STYLE_HIDDEN_OR_DIALOG(root)
            if el.get("hidden") is not None or _closed_dialog(el)
            or _HIDING_WORD.search(el.get("style") or "")]


def _hidden_attribute(el: etree._Element) -> bool:
    """A ``hidden`` attribute but ``until-found`` (text a reader finds and opens: MediaWiki's
    collapsed sections)."""
    value = el.get("hidden")
    return value is not None and value.strip().lower() != "until-found"


def _closed_dialog(el: etree._Element) -> bool:
    return el.tag == "dialog" and el.get("open") is None


def _text_length_python(el: etree._Element) -> int:
    return int(_TEXT_LENGTH(el))


def _drop_hidden(root: etree._Element) -> None:
    """Remove the elements a browser would not render (their tails stay): pages carry hidden
    copies of their article (print or mobile variants), hidden menus and dialogs.  An element
    holding more than :data:`HIDDEN_MAX_SHARE` of the page's text is kept: pages that hide
    their body until a script has run (anti-flicker snippets) would otherwise lose it all.
    One hidden only by ``visibility: hidden`` holding more than 200 characters (white space
    not counted) and :data:`REVEALED_MIN_SHARE` of the page's text, less than half of it
    link text, is kept with what it holds when, after the other removals, its text is not a
    copy of text left elsewhere: its box stays in the layout, to be shown by a script
    (WeChat's article body); drop-down menus hidden this way are mostly links."""
    hidden = _hidden_candidates(root)
    if not hidden:
        return
    total = None
    removed: set = set()
    revealed: list = []                     # judged once every other removal is done
    for el in hidden:                       # document order: an element before its descendants
        how = ("attribute" if _hidden_attribute(el) or _closed_dialog(el)
               else _hides(el.get("style") or ""))
        if not how or el.getparent() is None or any(
                a in removed or (how == "visibility" and a in revealed)
                for a in el.iterancestors()):
            continue    # (hidden by visibility inside a revealed one: shown or gone with it)
        chars = _text_length(el)
        if chars > 200:
            if total is None:
                total = _text_length(root)
            if chars > HIDDEN_MAX_SHARE * total:
                continue
            if how == "visibility" and chars > REVEALED_MIN_SHARE * total:
                visible = _visible_chars(el)
                if visible > 200 and _link_share(el, visible) < 0.5:
                    revealed.append(el)
                    continue
        remove_keeping_tail(el)
        removed.add(el)
    for el in revealed:
        text = " ".join(el.xpath("string()").split())
        if " ".join(root.xpath("string()").split()).count(text[:200]) >= 2:
            remove_keeping_tail(el)        # a copy of text shown elsewhere


def _visible_chars(el: etree._Element) -> int:
    return sum(len(word) for word in el.xpath("string()").split())


def _link_share(el: etree._Element, chars: int) -> float:
    """The share of ``el``'s ``chars`` characters (:func:`_visible_chars`) in its links."""
    return sum(_visible_chars(a) for a in el.iter("a")) / chars if chars else 0.0


def _walk_python(root: etree._Element, codes: dict, intern, block: frozenset,
                 cells: frozenset, lut=None) -> tuple[array, list, list[str], list[str], dict,
                                                      None]:
    """The node table's rows in pre-order: the reference walk (see ``_nodewalk.walk``).

    Eight ints per node, ``(kind, tag code, parent, depth, line, cell, links, end)``, in one
    flat int32 array; the lxml element, the raw text and the tag name per node; the
    ``(class, id)`` attributes of the elements that have one of them (empty ones are None);
    None for the per-run character counts (left to :func:`~.chars.run_counts`; ``lut``
    unused), which the compiled walk counts as it goes.
    """
    rows = array("i")
    elements: list = []
    texts: list[str] = []
    names: list[str] = []
    hints: dict[int, tuple[str | None, str | None]] = {}
    add_row, add_el, add_text, add_name = rows.extend, elements.append, texts.append, names.append
    stack: list[int] = []
    push, pop = stack.append, stack.pop
    links = line_no = cell_no = 0
    cur = -1  # current parent element id
    # a run of only whitespace makes no row; the next run starts with one space instead, so
    # that ``<b>quick</b> <i>brown</i>`` reads "quick brown", not "quickbrown"
    space = False
    for event, el in etree.iterwalk(root, events=("start", "end")):
        name = el.tag
        if event == "start":
            if name.__class__ is not str:  # entity reference: handled at its end event
                continue
            if name in block or name == "br":
                line_no += 1
            elif name in cells:
                cell_no += 1
            code = codes.get(name)
            if code is None:
                code = intern(name)
            i = len(elements)
            add_row((ELEMENT, code, cur, len(stack), line_no, cell_no, links, 0))
            add_el(el); add_text(""); add_name(name)
            cls, ident = el.get("class") or None, el.get("id") or None
            if cls or ident:
                hints[i] = (cls, ident)
            push(i)
            cur = i
            if code == _A:
                links += 1
            text = el.text
            if text:
                if text.isspace():
                    space = True
                else:
                    add_row((TEXT, 0, i, len(stack), line_no, cell_no, links, i + 2))
                    add_el(None); add_text(" " + text if space else text); add_name("#text")
                    space = False
        else:
            if name.__class__ is str:
                i = pop()
                rows[8 * i + 7] = len(elements)
                cur = stack[-1] if stack else -1
                if name == "a":
                    links -= 1
                if name in block:
                    line_no += 1
            tail = el.tail
            if tail and cur >= 0:
                if tail.isspace():
                    space = True
                else:
                    add_row((TEXT, 0, cur, len(stack), line_no, cell_no, links,
                             len(elements) + 1))
                    add_el(None); add_text(" " + tail if space else tail); add_name("#text")
                    space = False
    return rows, elements, texts, names, hints, None


try:
    from ._nodewalk import hidden_candidates as _hidden_candidates
    from ._nodewalk import text_length as _text_length
    from ._nodewalk import walk as _walk
except (ImportError, ValueError):
    # not built (no C compiler at install), or built against an lxml whose binary layout
    # differs from the one installed now (Cython refuses it with a ValueError): same table
    _walk = _walk_python
    _hidden_candidates = _hidden_candidates_python
    _text_length = _text_length_python


def _build(root: etree._Element, encoding: str | None, url: str | None) -> Document:
    # The walk is the per-page cost floor of every method: compiled when built.
    rows, elements, texts, names, hints, counts = _walk(root, _TAG_CODES, tag_code, BLOCK_LEVEL,
                                                        WORD_SEPARATED, CHAR_CLASSES)
    table = np.frombuffer(rows, dtype=np.int32).reshape(-1, 8)
    is_text = table[:, 0] == TEXT
    if counts is None:
        runs = run_counts([t for t in texts if t])
    else:
        per_run = np.frombuffer(counts, dtype=np.int64).reshape(-1, len(RUN_COUNTS))
        runs = {name: per_run[:, k] for k, name in enumerate(RUN_COUNTS)}
    tlen = np.zeros(len(elements), dtype=np.int64)
    tlen[is_text] = runs["length"]
    doc = Document(
        root=root, kind=table[:, 0].astype(np.int8), tag=table[:, 1].copy(),
        parent=table[:, 2].copy(), end=table[:, 7].copy(), depth=table[:, 3].copy(),
        line=table[:, 4].copy(), cell=table[:, 5].copy(), elements=elements, texts=texts,
        tlen=tlen, in_link=table[:, 6] > 0, runs=runs,
        hints=hints, encoding=encoding, url=url,
    )
    doc.__dict__["tag_names"] = names  # the cached property, already known
    return doc
