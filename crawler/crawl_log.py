"""``CRAWL_LOG``: one JSON line per response received, in the order received.

Every response gets a sequence number when it arrives (downloader middleware).  Responses that
need no judgment (redirects, errors, non-HTML) are complete at once; an HTML page is complete
when the pipelines have judged it.  Lines are written, and flushed, as soon as every earlier
response is complete, so the file is in arrival order and grows as the crawl goes.
"""
from __future__ import annotations

import json
import logging
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from .dirlock import lock_file, unlock_file
from .jsonl import ends_mid_line, json_line

log = logging.getLogger(__name__)

FIELDS = ("url", "final_url", "status", "depth", "parent", "score", "relevance", "accepted",
          "fetched_at")


class CrawlLog:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # two crawls given one CRAWL_LOG would interleave their lines (the corpus and state
        # directories are locked; a log may be anywhere)
        lock_file(self.path, "CRAWL_LOG")
        self._handle = open(self.path, "a", encoding="utf-8")
        if ends_mid_line(self.path):
            self._handle.write("\n")   # a line cut by a kill or a full disk stays alone
        self._next_seq = 0
        self._next_write = 0
        self._pending: dict[int, dict[str, Any] | None] = {}
        self._complete: dict[int, dict[str, Any]] = {}
        self._opened: dict[int, float] = {}
        self._on_written: dict[int, Callable[[], None]] = {}
        self.lines = 0
        self.write_errors = 0

    def open_entry(self, entry: dict[str, Any],
                   on_written: Callable[[], None] | None = None) -> int:
        """Register a received response; returns its sequence number.  ``on_written`` is
        called once its line is written (the frontier's journal: the crawl is done with that
        download)."""
        seq = self._next_seq
        self._next_seq += 1
        self._pending[seq] = entry
        self._opened[seq] = time.monotonic()
        if on_written is not None:
            self._on_written[seq] = on_written
        return seq

    def is_open(self, seq: int | None) -> bool:
        """True while the response ``seq`` waits for its line to be completed."""
        return seq in self._pending

    def complete(self, seq: int | None, **fields: Any) -> None:
        if seq is None or seq not in self._pending:
            return
        entry = self._pending.pop(seq) or {}
        self._opened.pop(seq, None)
        entry.update(fields)
        self._complete[seq] = entry
        self._flush()

    def _flush(self) -> None:
        written = []
        try:
            while self._next_write in self._complete:
                entry = self._complete.pop(self._next_write)
                written.append(self._next_write)
                self._next_write += 1           # first: a failed write never stalls the log
                self.lines += 1
                self._handle.write(json_line(entry))
            if written:
                self._handle.flush()
        except OSError as err:                  # disk full: the crawl goes on, said once
            self.write_errors += 1
            if self.write_errors == 1:
                log.error("crawl log %s: cannot write (%s); its lines are being lost",
                          self.path, err)
        for seq in written:
            done = self._on_written.pop(seq, None)
            if done is not None:
                done()

    def expire(self, max_age: float) -> int:
        """Complete entries pending longer than ``max_age`` seconds (their page was lost)."""
        now = time.monotonic()
        old = [seq for seq, t in self._opened.items() if now - t > max_age]
        for seq in old:
            self.complete(seq, note="page not judged in time")
        return len(old)

    def close(self) -> None:
        for seq in sorted(self._pending):
            self.complete(seq, note="crawl ended before this page was judged")
        try:
            self._flush()
            self._handle.close()
        finally:
            unlock_file(self.path)


def write_summary(path: str | Path, stats: dict[str, Any], reason: str | None) -> None:
    """The crawl's Scrapy stats as JSON (``<CORPUS_DIR>/crawl-summary.json``)."""
    out = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in stats.items()}
    out.setdefault("finish_reason", reason)
    start = stats.get("start_time")
    if "elapsed_time_seconds" not in out and isinstance(start, datetime):
        now = datetime.now(start.tzinfo) if start.tzinfo else datetime.now()
        out["elapsed_time_seconds"] = round((now - start).total_seconds(), 3)
    Path(path).write_text(json.dumps(out, indent=1, sort_keys=True, default=str),
                          encoding="utf-8")
