"""Numbered output files that a reader never sees half-written (the corpus shards, the WARC
files).

``STEM-NNNNN.SUFFIX`` is written as ``.STEM-NNNNN.SUFFIX.tmp`` (hidden) and renamed when it
is closed.  A file a killed crawl left behind is cut where its last complete unit ends (a
line, a record: the caller's ``complete_length``) and published when the next crawl opens the
directory; numbering goes on after the highest number present.
"""
from __future__ import annotations

import logging
import os
import re
import zlib
from pathlib import Path
from typing import IO, Any, Callable

log = logging.getLogger(__name__)


class PublishedFiles:
    """The numbered files of one directory; at most one is open, as :attr:`handle`."""

    def __init__(self, directory: str | Path, stem: str, suffix: str,
                 complete_length: Callable[[Path], int]):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.stem, self.suffix = stem, suffix
        name = rf"{re.escape(stem)}-(\d{{5,}})\.{re.escape(suffix)}"
        self._final = re.compile(rf"^{name}$")
        self._temp = re.compile(rf"^\.{name}\.tmp$")
        self.complete_length = complete_length
        self.recover()
        self.handle: IO | None = None
        self.committed = 0          # bytes of the open file that end with a complete unit
        self.number = self._next_number()

    def name(self, number: int) -> str:
        return f"{self.stem}-{number:05d}.{self.suffix}"

    def _temp_path(self, number: int) -> Path:
        return self.directory / f".{self.name(number)}.tmp"

    def _next_number(self) -> int:
        numbers = [int(m.group(1)) for p in self.directory.iterdir()
                   if (m := self._final.match(p.name) or self._temp.match(p.name))]
        return max(numbers, default=-1) + 1

    def recover(self) -> list[Path]:
        """Publish the files a killed crawl left open, cut after their last complete unit
        (a file with none is removed)."""
        published = []
        for path in sorted(self.directory.iterdir()):
            m = self._temp.match(path.name)
            if not m:
                continue
            end = self.complete_length(path)
            if end == 0:
                path.unlink()
                continue
            with open(path, "r+b") as handle:
                handle.truncate(end)
            final = self.directory / self.name(int(m.group(1)))
            os.replace(path, final)
            published.append(final)
        return published

    def open(self, **kwargs: Any) -> IO:
        """Open the next file under its temporary name (``kwargs`` as for :func:`open`)."""
        self.handle = open(self._temp_path(self.number), **kwargs)
        self.committed = 0
        return self.handle

    def commit(self) -> None:
        """The open file ends with a complete unit now (call it after each unit written)."""
        self.committed = self.handle.tell()

    def abandon(self) -> Path | None:
        """After a failed write (a full disk): close the open file, cut it back to its last
        complete unit (:meth:`commit`) and publish it, or remove it when it holds none, so
        that no torn unit is ever published.  Never raises; returns the published path."""
        handle, self.handle = self.handle, None
        if handle is None:
            return None
        temp = self._temp_path(self.number)
        try:
            handle.close()          # its flush may fail again: what it held is cut below
        except (OSError, ValueError):
            pass
        try:
            if self.committed == 0:
                temp.unlink(missing_ok=True)
                return None
            os.truncate(temp, self.committed)
            return self._rename()
        except OSError as err:      # left as a temporary file: the next start recovers it
            log.error("%s: cannot cut back to its last complete unit: %s", temp, err)
            self.number += 1
            return None

    def publish(self) -> Path | None:
        """Close the open file and give it its final name (None when none is open)."""
        if self.handle is None:
            return None
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.handle.close()
        self.handle = None
        return self._rename()

    def _rename(self) -> Path:
        """Give the closed temporary file its final name."""
        number, self.number = self.number, self.number + 1   # first: a failed rename never
        final = self.directory / self.name(number)            # makes the next file reuse it
        os.replace(self._temp_path(number), final)
        return final


def gzip_members_length(path: str | Path, chunk: int = 1 << 20) -> int:
    """Bytes of ``path`` up to the end of its last complete gzip member (0 when none is).

    For files of one gzip member per unit (a WARC record, a gzip corpus document): a member
    whose stream ends and whose checksum holds (``zlib`` checks it) is a complete unit; a
    crawl killed mid-write leaves a torn one."""
    end = pos = 0
    inflater = zlib.decompressobj(wbits=31)
    with open(path, "rb") as stream:
        pending = b""
        while True:
            data = pending or stream.read(chunk)
            pending = b""
            if not data:
                return end
            try:
                inflater.decompress(data)
            except zlib.error as err:
                log.info("%s: cut after byte %d (%s)", path, end, err)
                return end
            if not inflater.eof:
                pos += len(data)
                continue
            used = len(data) - len(inflater.unused_data)
            pos += used
            end = pos
            pending = inflater.unused_data
            inflater = zlib.decompressobj(wbits=31)
