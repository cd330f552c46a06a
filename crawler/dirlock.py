"""One crawl per output directory: an advisory lock (``fcntl.flock``) on ``DIR/.lock``, held
while the crawl runs and released when it closes or its process ends (a kill included).

Two crawls writing one ``CORPUS_DIR`` would publish each other's open shards and interleave
their crawl logs; two sharing a ``STATE_DIR`` would overwrite each other's learning.  Within
one process a directory may be locked again (counted): tests and tools open several crawls in
turn.  Where ``fcntl`` does not exist (Windows) nothing is locked.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:     # pragma: no cover - not POSIX
    fcntl = None

LOCK_NAME = ".lock"
_HELD: dict[str, list] = {}     # resolved directory -> [open lock file, times locked]


def lock_directory(directory: str | os.PathLike, setting: str) -> None:
    """Take ``directory``'s lock; ``ValueError`` naming ``setting`` when another process
    holds it."""
    key = str(Path(directory).resolve())
    held = _HELD.get(key)
    if held is not None:
        held[1] += 1
        return
    handle: IO = open(Path(directory) / LOCK_NAME, "a")
    if fcntl is not None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            handle.close()
            raise ValueError(f"{setting}: {directory} is in use by another crawl (its "
                             f"{LOCK_NAME} is locked); give each crawl its own {setting}") \
                from err
    _HELD[key] = [handle, 1]


def unlock_directory(directory: str | os.PathLike) -> None:
    """Give back one :func:`lock_directory` of ``directory`` (the last one releases it)."""
    key = str(Path(directory).resolve())
    held = _HELD.get(key)
    if held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        del _HELD[key]
        held[0].close()         # closing the file releases the lock
