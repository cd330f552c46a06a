"""JSON lines that any strict UTF-8 reader accepts (the corpus shards, the crawl log)."""
from __future__ import annotations

import json
import re
from typing import Any

# a lone surrogate (from a page's "\ud800" JSON-LD escape, say) cannot be encoded as UTF-8
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON (UTF-8 text kept as it is, a lone surrogate replaced by
    U+FFFD, a value JSON has no type for written as its ``str``), newline included."""
    line = json.dumps(obj, ensure_ascii=False, default=str)
    if _SURROGATE.search(line):
        line = _SURROGATE.sub("\ufffd", line)
    return line + "\n"
