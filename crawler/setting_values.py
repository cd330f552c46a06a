"""Reading the project's own settings with errors that name the setting.

Scrapy's ``getint`` / ``getfloat`` fail on a bad value with Python's bare message
(``invalid literal for int() with base 10: 'abc'``), which names neither the setting nor what
it expects; a directory setting that names a file fails deep inside the crawl's setup.  These
readers raise ``ValueError`` with ``NAME: expected ..., got VALUE`` instead, which
``scrapy crawl`` reports in one line (:mod:`crawler.commands.crawl`).
"""
from __future__ import annotations

import math
import os
from datetime import date
from pathlib import Path
from typing import Any


def number_setting(settings: Any, name: str, default: float, *, integer: bool = False,
                   minimum: float = 0.0, maximum: float = math.inf) -> Any:
    """Setting ``name`` as a number in ``[minimum, maximum]`` (an ``int`` when ``integer``);
    ``default`` when unset or empty."""
    raw = settings.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    try:
        value = float(raw)
        if integer:
            if not value.is_integer():
                raise ValueError
            value = int(value)
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None or not math.isfinite(value) or not minimum <= value <= maximum:
        kind = "a whole number" if integer else "a number"
        bounds = f">= {minimum:g}" if maximum == math.inf else f"in [{minimum:g}, {maximum:g}]"
        raise ValueError(f"{name}: expected {kind} {bounds}, got {raw!r}")
    return value


def status_codes(settings: Any, name: str, default: Any = ()) -> frozenset[int]:
    """Setting ``name`` as HTTP status codes (a list, or a comma-separated string; empty:
    none); ``ValueError`` naming the setting on anything else."""
    value = settings.getlist(name, list(default))
    try:
        codes = frozenset(int(c) for c in value if str(c).strip())
    except (TypeError, ValueError):
        codes = frozenset({0})
    if not all(100 <= c <= 599 for c in codes):
        raise ValueError(f"{name}: expected HTTP status codes (100-599), got {value!r}")
    return codes


def bool_setting(settings: Any, name: str, default: bool = False) -> bool:
    """Setting ``name`` as a boolean (Scrapy's ``getbool``: ``True``/``False``, ``1``/``0``,
    ``true``/``false``); ``ValueError`` naming the setting on anything else."""
    try:
        return settings.getbool(name, default)
    except ValueError as error:
        raise ValueError(f"{name}: expected True or False (1 / 0), got "
                         f"{settings.get(name)!r}") from error


def date_setting(settings: Any, name: str) -> date | None:
    """Setting ``name`` as a day (ISO 8601, ``2024-01-31``; a time after it is ignored);
    ``None`` when unset or empty; ``ValueError`` naming the setting on anything else."""
    raw = settings.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        return date.fromisoformat(str(raw).strip()[:10])
    except ValueError:
        raise ValueError(f"{name}: expected a date YYYY-MM-DD, got {raw!r}") from None


def directory_setting(value: str | os.PathLike | None, name: str, default: str) -> Path:
    """The directory of setting ``name`` (``default`` when unset), created if missing;
    ``ValueError`` naming the setting when it cannot be created or written."""
    path = Path(value or default)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{name}: cannot create the directory {str(path)!r}: "
                         f"{error.strerror or error}") from error
    if not os.access(path, os.W_OK | os.X_OK):
        raise ValueError(f"{name}: the directory {str(path)!r} is not writable")
    return path


def retry_exceptions(settings: Any) -> tuple[type[BaseException], ...]:
    """The download errors Scrapy's retry middleware takes for passing (``RETRY_EXCEPTIONS``:
    a refused connection, a failed DNS lookup, a timeout...), loaded."""
    from scrapy.utils.misc import load_object

    return tuple(load_object(e) if isinstance(e, str) else e
                 for e in settings.getlist("RETRY_EXCEPTIONS"))
