"""JSON lines that any strict UTF-8 reader accepts (the corpus shards, the crawl log)."""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
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


def ends_mid_line(path: str | Path) -> bool:
    """The file exists, is not empty and does not end with a newline (a line cut by a kill
    or a full disk: what is appended next must start a line of its own)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False     # a pipe or a device (CRAWL_LOG=/dev/stdout): nothing to read
        with open(path, "rb") as f:
            f.seek(-1, 2)
            return f.read(1) != b"\n"
    except OSError:          # missing or empty
        return False
