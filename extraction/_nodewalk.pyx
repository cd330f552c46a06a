# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled pre-order walk of an lxml tree into the rows of the node table.

The same walk as :func:`extraction.document._walk_python` (which stays the reference and the
fallback when this module is not built), read straight off libxml2's nodes through lxml's
public C API instead of one Python iteration per ``iterwalk`` event.  The two must give equal
tables: ``tests/test_nodewalk.py`` compares them on real pages.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode

cetree.import_lxml__etree()

ctypedef const unsigned char* xmlChar_p

cdef enum:
    WIDTH = 8  # kind, tag code, parent, depth, line, cell, links, end
    F_BLOCK = 1
    F_CELL = 2
    F_BR = 4
    F_LINK = 8


cdef struct Table:
    int* rows
    Py_ssize_t n
    Py_ssize_t cap


cdef int _grow(Table* t) except -1:
    cdef Py_ssize_t cap = t.cap * 2 if t.cap else 1024
    cdef int* rows = <int*> PyMem_Realloc(t.rows, cap * WIDTH * sizeof(int))
    if rows == NULL:
        raise MemoryError()
    t.rows, t.cap = rows, cap
    return 0


cdef inline int _add(Table* t, int kind, int code, int parent, int depth, int line, int cell,
                     int links, int end) except -1:
    if t.n == t.cap:
        _grow(t)
    cdef int* r = t.rows + t.n * WIDTH
    r[0] = kind; r[1] = code; r[2] = parent; r[3] = depth
    r[4] = line; r[5] = cell; r[6] = links; r[7] = end
    t.n += 1
    return 0


cdef inline str _decode(const xmlChar_p s):
    """A libxml2 string (UTF-8, NUL-terminated) as a Python str."""
    return PyUnicode_DecodeUTF8(<const char*> s, strlen(<const char*> s), "replace")


cdef inline bint _is_text(xmlNode* c) noexcept nogil:
    return c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE


cdef inline bint _is_element_like(xmlNode* c) noexcept nogil:
    # what lxml exposes as an element (and iterwalk visits): elements, comments, PIs, entities
    return (c.type == tree.XML_ELEMENT_NODE or c.type == tree.XML_COMMENT_NODE
            or c.type == tree.XML_PI_NODE or c.type == tree.XML_ENTITY_REF_NODE)


cdef inline xmlNode* _next_element_like(xmlNode* c) noexcept nogil:
    while c != NULL and not _is_element_like(c):
        c = c.next
    return c


cdef inline bint _ascii_space(unsigned char b) noexcept nogil:
    # the ASCII characters for which str.isspace() is true
    return b == 32 or (9 <= b <= 13) or (28 <= b <= 31)


# character classes of extraction.chars (its _LUT): the bits the counts read
cdef enum:
    C_SPACE = 1
    C_PUNCT = 2
    C_END = 4
    C_NBSP = 8
    C_STOP = 16
    C_DOT = 32
    C_SEP = 64
    N_COUNTS = 5    # length, punct, ends, stops, nbsp: chars.run_counts per text run


cdef struct RunState:
    bint prev_gap
    bint prev_dot
    long long solid, words, punct, ends, stops, nbsp, dots


cdef inline void _scan(RunState* st, const unsigned char* s,
                       const unsigned char[::1] lut) noexcept:
    """Feed the UTF-8 text ``s`` (NUL-terminated) to the counts of one run."""
    cdef unsigned int cp
    cdef unsigned char c, cls
    cdef bint gap
    cdef Py_ssize_t size = lut.shape[0]
    while s[0] != 0:
        c = s[0]
        if c < 0x80:
            cp = c
            s += 1
        elif c < 0xE0 and s[1] != 0:
            cp = ((c & 0x1F) << 6) | (s[1] & 0x3F)
            s += 2
        elif c < 0xF0 and s[1] != 0 and s[2] != 0:
            cp = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F)
            s += 3
        elif s[1] != 0 and s[2] != 0 and s[3] != 0:
            cp = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) \
                | (s[3] & 0x3F)
            s += 4
        else:               # a truncated sequence (libxml2 never gives one): stop there
            break
        cls = lut[cp] if cp < <unsigned int> size else 0
        gap = (cls & (C_SPACE | C_SEP)) != 0
        if st.prev_dot and gap:
            st.dots += 1
        if not gap:
            st.solid += 1
            if st.prev_gap:
                st.words += 1
        if cls & C_PUNCT:
            st.punct += 1
        if cls & C_END:
            st.ends += 1
        if cls & C_STOP:
            st.stops += 1
        if cls & C_NBSP:
            st.nbsp += 1
        st.prev_gap = gap
        st.prev_dot = (cls & C_DOT) != 0


cdef struct Counts:
    long long* data
    Py_ssize_t n
    Py_ssize_t cap


cdef int _add_counts(Counts* k, RunState* st) except -1:
    cdef long long* grown
    if k.n == k.cap:
        k.cap = k.cap * 2 if k.cap else 512
        grown = <long long*> PyMem_Realloc(k.data, k.cap * N_COUNTS * sizeof(long long))
        if grown == NULL:
            raise MemoryError()
        k.data = grown
    if st.prev_dot:                      # a "." at the end of the run ends a sentence
        st.dots += 1
    cdef long long* r = k.data + k.n * N_COUNTS
    r[0] = st.solid + (st.words - 1 if st.words > 1 else 0)
    r[1] = st.punct
    r[2] = st.ends + st.dots
    r[3] = st.stops + st.dots
    r[4] = st.nbsp
    k.n += 1
    return 0


cdef object _text_run(xmlNode* c, const unsigned char[::1] lut, Counts* counts):
    """lxml's ``.text``/``.tail`` starting at ``c``, None when it is empty, "" when it is all
    space; a run's counts go to ``counts`` (not for an all-space run)."""
    cdef xmlNode* first = NULL
    cdef xmlNode* cur = c
    cdef int pieces = 0
    cdef const unsigned char* s
    cdef bint solid = False, other = False
    while cur != NULL and _is_text(cur):
        s = <const unsigned char*> cur.content
        if s != NULL and s[0] != 0:
            if first == NULL:
                first = cur
            pieces += 1
            if not solid:
                while s[0] != 0:
                    if s[0] >= 128:
                        other = True
                    elif not _ascii_space(s[0]):
                        solid = True
                        break
                    s += 1
        cur = cur.next
    if first == NULL:
        return None
    if not (solid or other):
        return ""
    cdef object text
    if pieces == 1:
        text = _decode(first.content)
    else:
        parts = []
        cur = first
        while cur != NULL and _is_text(cur):
            if cur.content != NULL:
                parts.append(_decode(cur.content))
            cur = cur.next
        text = "".join(parts)
    if not solid and text.isspace():
        return ""
    cdef RunState st
    st.prev_gap, st.prev_dot = True, False
    st.solid = st.words = st.punct = st.ends = st.stops = st.nbsp = st.dots = 0
    cur = first
    while cur != NULL and _is_text(cur):
        if cur.content != NULL:
            _scan(&st, <const unsigned char*> cur.content, lut)
        cur = cur.next
    _add_counts(counts, &st)
    return text


cdef object _attribute(xmlNode* c, const char* wanted):
    """The value of the attribute ``wanted`` (no namespace) of element ``c``; None when absent
    or empty (what lxml's ``el.get(wanted) or None`` gives)."""
    cdef tree.xmlAttr* a = c.properties
    cdef xmlNode* v
    while a != NULL:
        if a.ns == NULL and a.name != NULL and strcmp(<const char*> a.name, wanted) == 0:
            v = a.children
            if v != NULL and v.next == NULL and v.content != NULL:
                if (<const char*> v.content)[0] == 0:
                    return None
                return _decode(v.content)
            parts = []
            while v != NULL:
                if v.content != NULL:
                    parts.append(_decode(v.content))
                v = v.next
            return "".join(parts) or None
        a = a.next
    return None


cdef int _add_text(Table* t, object text, int parent, int depth, int line, int cell, int links,
                   int end, list elements, list texts, list names) except -1:
    """A text-run row (``.text`` of ``parent`` or a tail) and its entries in the lists."""
    _add(t, 1, 0, parent, depth, line, cell, links, end)
    elements.append(None)
    texts.append(text)
    names.append("#text")
    return 0


def walk(cetree._Element root, dict codes, object intern, frozenset block, frozenset cells,
         const unsigned char[::1] lut):
    """``(rows, elements, texts, names, hints, counts)`` of the subtree of ``root``, in pre-order.

    ``rows``: bytes of int32 rows ``(kind, tag code, parent, depth, line, cell, links, end)``
    (kind 0 element, 1 text run); ``elements``: the lxml element per row (None for text runs);
    ``texts``: the raw text per row ("" for elements); ``names``: the tag per row ("#text" for
    text runs); ``hints``: ``{row: (class, id)}`` for the elements with a non-empty class or
    id (the other one None); ``counts``: bytes of int64 rows ``(length, punct, ends, stops,
    nbsp)`` per text run, what ``chars.run_counts`` gives, with ``lut`` its class table.
    ``codes`` maps tag names to codes, ``intern(name)`` assigns a new one.
    """
    cdef Table t
    t.rows = NULL
    t.n = t.cap = 0
    cdef int* stack = NULL
    cdef int* flag_stack = NULL
    cdef Py_ssize_t depth = 0, stack_cap = 0
    cdef int line_no = 0, cell_no = 0, links = 0, cur = -1, i, code, flags
    # an all-space run makes no row: the next run starts with one space (``_walk_python``)
    cdef bint space = False
    cdef xmlNode* c = root._c_node
    cdef xmlNode* top = c
    cdef xmlNode* nxt
    cdef cetree._Document doc = root._doc
    cdef dict info = {}
    cdef int* grown
    elements = []
    texts = []
    names = []
    hints = {}
    cdef Counts counts
    counts.data = NULL
    counts.n = counts.cap = 0
    try:
        while True:
            # ---------------------------------------------------------------- start of c
            if c.type == tree.XML_ELEMENT_NODE:
                if c.ns != NULL and c.ns.href != NULL:
                    name = "{%s}%s" % ((<bytes> c.ns.href).decode("utf-8", "replace"),
                                       (<bytes> c.name).decode("utf-8", "replace"))
                else:
                    name = _decode(c.name)
                entry = info.get(name)
                if entry is None:
                    code_obj = codes.get(name)
                    if code_obj is None:
                        code_obj = intern(name)
                    flags = ((F_BLOCK if name in block else 0) | (F_CELL if name in cells else 0)
                             | (F_BR if name == "br" else 0) | (F_LINK if name == "a" else 0))
                    entry = info[name] = (code_obj, flags, name)
                code = (<tuple> entry)[0]
                flags = (<tuple> entry)[1]
                name = (<tuple> entry)[2]
                if flags & (F_BLOCK | F_BR):
                    line_no += 1
                elif flags & F_CELL:
                    cell_no += 1
                i = <int> t.n
                _add(&t, 0, code, cur, <int> depth, line_no, cell_no, links, 0)
                elements.append(cetree.elementFactory(doc, c))
                texts.append("")
                names.append(name)
                if c.properties != NULL:
                    cls = _attribute(c, "class")
                    ident = _attribute(c, "id")
                    if cls is not None or ident is not None:
                        hints[i] = (cls, ident)
                if depth == stack_cap:
                    stack_cap = stack_cap * 2 if stack_cap else 256
                    grown = <int*> PyMem_Realloc(stack, stack_cap * sizeof(int))
                    if grown == NULL:
                        raise MemoryError()
                    stack = grown
                    grown = <int*> PyMem_Realloc(flag_stack, stack_cap * sizeof(int))
                    if grown == NULL:
                        raise MemoryError()
                    flag_stack = grown
                stack[depth] = i
                flag_stack[depth] = flags
                depth += 1
                cur = i
                if flags & F_LINK:
                    links += 1
                text = _text_run(c.children, lut, &counts)
                if text is not None:
                    if not text:
                        space = True
                    else:
                        _add_text(&t, " " + text if space else text, i, <int> depth, line_no,
                                  cell_no, links, i + 2, elements, texts, names)
                        space = False
                nxt = _next_element_like(c.children)
                if nxt != NULL:
                    c = nxt
                    continue
            # ---------------------------------------------------------------- end of c, and up
            while True:
                if c.type == tree.XML_ELEMENT_NODE:
                    depth -= 1
                    i = stack[depth]
                    t.rows[i * WIDTH + 7] = <int> t.n
                    cur = stack[depth - 1] if depth else -1
                    flags = flag_stack[depth]
                    if flags & F_LINK:
                        links -= 1
                    if flags & F_BLOCK:
                        line_no += 1
                if c == top:
                    break
                if cur >= 0:
                    text = _text_run(c.next, lut, &counts)
                    if text is not None:
                        if not text:
                            space = True
                        else:
                            _add_text(&t, " " + text if space else text, cur, <int> depth,
                                      line_no, cell_no, links, <int> t.n + 1, elements, texts,
                                      names)
                            space = False
                nxt = _next_element_like(c.next)
                if nxt != NULL:
                    c = nxt
                    break
                c = c.parent
                if c == NULL:  # detached subtree: cannot happen for a parsed page's root
                    break
            if c == top or c == NULL:
                break
        rows = PyBytes_FromStringAndSize(<char*> t.rows, t.n * WIDTH * sizeof(int))
        run_counts = PyBytes_FromStringAndSize(<char*> counts.data,
                                               counts.n * N_COUNTS * sizeof(long long))
    finally:
        PyMem_Free(t.rows)
        PyMem_Free(counts.data)
        PyMem_Free(stack)
        PyMem_Free(flag_stack)
    return rows, elements, texts, names, hints, run_counts


# ------------------------------------------------------------------------ hidden elements

cdef inline unsigned char _lower(unsigned char b) noexcept nogil:
    return b | 0x20 if 65 <= b <= 90 else b


cdef bint _contains_lower(const unsigned char* s, const char* word) noexcept nogil:
    """``word`` (lower-case ASCII) occurs in the NUL-terminated ``s``, ASCII case ignored."""
    cdef Py_ssize_t i = 0, j
    while s[i]:
        j = 0
        while word[j] and _lower(s[i + j]) == <unsigned char> word[j]:
            j += 1
        if not word[j]:
            return True
        i += 1
    return False


cdef bint _maybe_hidden(xmlNode* c) noexcept nogil:
    """Element ``c`` has a ``hidden`` attribute, or a ``style`` naming "none", "hidden" or
    "collapse"."""
    cdef tree.xmlAttr* a = c.properties
    cdef xmlNode* v
    while a != NULL:
        if a.ns == NULL and a.name != NULL:
            if strcmp(<const char*> a.name, "hidden") == 0:
                return True
            if strcmp(<const char*> a.name, "style") == 0:
                v = a.children
                while v != NULL:
                    if v.content != NULL and (_contains_lower(v.content, "none")
                                              or _contains_lower(v.content, "hidden")
                                              or _contains_lower(v.content, "collapse")):
                        return True
                    v = v.next
        a = a.next
    return False


cdef bint _closed_dialog(xmlNode* c) noexcept nogil:
    """Element ``c`` is a ``<dialog>`` without an ``open`` attribute (not rendered)."""
    cdef tree.xmlAttr* a
    if c.ns != NULL or c.name == NULL or strcmp(<const char*> c.name, "dialog") != 0:
        return False
    a = c.properties
    while a != NULL:
        if a.ns == NULL and a.name != NULL and strcmp(<const char*> a.name, "open") == 0:
            return False
        a = a.next
    return True


cdef inline xmlNode* _next_in_subtree(xmlNode* c, xmlNode* top, bint descend) noexcept nogil:
    """The node after ``c`` in a pre-order walk of ``top``'s subtree (NULL at its end),
    entering ``c``'s children when ``descend``."""
    if descend and c.children != NULL:
        return c.children
    while c != top and c.next == NULL:
        c = c.parent
    return NULL if c == top else c.next


def hidden_candidates(cetree._Element root):
    """The elements of ``root``'s subtree, in document order, with a ``hidden`` attribute or a
    ``style`` attribute naming "none", "hidden" or "collapse" in any case, and the ``<dialog>``
    elements that are not ``open``: a superset of the hidden ones, what
    ``extraction.document._hidden_candidates_python`` gives."""
    cdef xmlNode* top = root._c_node
    cdef xmlNode* c = top
    cdef cetree._Document doc = root._doc
    found = []
    while c != NULL:
        if c.type == tree.XML_ELEMENT_NODE:
            if c.properties != NULL and _maybe_hidden(c) or _closed_dialog(c):
                found.append(cetree.elementFactory(doc, c))
            c = _next_in_subtree(c, top, True)
        else:
            c = _next_in_subtree(c, top, False)
    return found


def text_length(cetree._Element root):
    """Characters of the text in ``root``'s subtree (its tail excluded): what
    ``len("".join(root.itertext()))`` gives."""
    cdef xmlNode* top = root._c_node
    cdef xmlNode* c = top
    cdef const unsigned char* s
    cdef Py_ssize_t n = 0, i
    while c != NULL:
        if c.type == tree.XML_ELEMENT_NODE:
            c = _next_in_subtree(c, top, True)
            continue
        if _is_text(c) and c.content != NULL:
            s = c.content
            i = 0
            while s[i]:
                if (s[i] & 0xC0) != 0x80:       # not a UTF-8 continuation byte
                    n += 1
                i += 1
        c = _next_in_subtree(c, top, False)
    return n
