"""One crawl per output directory: an advisory lock (``fcntl.flock``) on ``DIR/.lock``, held
while the crawl runs and released when it closes or its process ends (a kill included).

Two crawls writing one ``CORPUS_DIR`` would publish each other's open shards and interleave
their crawl logs; two sharing a ``STATE_DIR`` would overwrite each other's learning.  A
``CRAWL_LOG``, which may lie outside the corpus directory, is locked itself
(:func:`lock_file`).  Within one process a directory or file may be locked again (counted):
tests and tools open several crawls in turn.  Where ``fcntl`` does not exist (Windows)
nothing is locked.
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
_HELD: dict[str, list] = {}     # resolved lock file -> [its open handle, times locked]


def lock_directory(directory: str | os.PathLike, setting: str) -> None:
    """Take ``directory``'s lock; ``ValueError`` naming ``setting`` when another process
    holds it."""
    _take(Path(directory) / LOCK_NAME, setting,
          f"{directory} is in use by another crawl (its {LOCK_NAME} is locked)")


def unlock_directory(directory: str | os.PathLike) -> None:
    """Give back one :func:`lock_directory` of ``directory`` (the last one releases it)."""
    _give_back(Path(directory) / LOCK_NAME)


def lock_file(path: str | os.PathLike, setting: str) -> None:
    """Take the lock of the file ``path`` itself (created when missing): as
    :func:`lock_directory`."""
    _take(Path(path), setting, f"{str(path)!r} is written by another crawl")


def unlock_file(path: str | os.PathLike) -> None:
    """Give back one :func:`lock_file` of ``path``."""
    _give_back(Path(path))


def _take(lock_path: Path, setting: str, in_use: str) -> None:
    key = str(lock_path.resolve())
    held = _HELD.get(key)
    if held is not None:
        held[1] += 1
        return
    handle: IO = open(lock_path, "a")
    if fcntl is not None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            handle.close()
            raise ValueError(f"{setting}: {in_use}; give each crawl its own {setting}") \
                from err
    _HELD[key] = [handle, 1]


def _give_back(lock_path: Path) -> None:
    key = str(lock_path.resolve())
    held = _HELD.get(key)
    if held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        del _HELD[key]
        held[0].close()         # closing the file releases the lock
