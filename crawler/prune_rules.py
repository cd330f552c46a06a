"""``EXTRACTION_PRUNE``: the parts of pages a crawl removes before reading them.

The setting names elements by CSS selector (XPath when one starts with ``/``), as
:mod:`extraction.prune` reads them, for every page or per site:

- a string: one selector (a CSS group ``div.related, #comments`` is one selector);
- a list of selectors, for every page;
- a mapping from host name to selectors: a host's selectors apply to it and its subdomains
  (``example.org`` covers ``www.example.org``), ``"*"``'s to every page;
- on the command line, any of these as JSON (``-s 'EXTRACTION_PRUNE={"example.org":
  ["div.related"]}'``).

A removed element is gone for everything that reads the page: extraction, title, relevance
and the links followed (a pruned menu's links are not followed).  An invalid selector or a
malformed value stops the crawl before it starts, naming the setting.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from extraction.prune import PruneError, check_prune, prune_selectors

from .scope import host_name

NAME = "EXTRACTION_PRUNE"


def _selectors(value: Any, where: str) -> tuple[str, ...]:
    try:
        selectors = prune_selectors(value)
        check_prune(selectors)
    except PruneError as err:
        raise ValueError(f"{NAME}{where}: {err}") from None
    return selectors


class PruneRules:
    """The selectors of ``EXTRACTION_PRUNE`` for each page's URL."""

    def __init__(self, everywhere: tuple[str, ...] = (),
                 by_host: dict[str, tuple[str, ...]] | None = None) -> None:
        self.everywhere = everywhere
        self.by_host = dict(by_host or {})
        self.for_host = lru_cache(maxsize=4096)(self._for_host)

    @classmethod
    def from_settings(cls, settings: Any) -> "PruneRules":
        """The rules of the setting; ``ValueError`` naming it for a bad value."""
        raw = settings.get(NAME)
        if isinstance(raw, str) and raw.strip()[:1] in ("[", "{"):
            try:
                raw = json.loads(raw)
            except ValueError as err:
                raise ValueError(f"{NAME}: not valid JSON ({err}): {raw!r}") from None
        if raw is None or raw == "" or raw == [] or raw == {}:
            return cls()
        if not hasattr(raw, "items"):
            return cls(_selectors(raw, ""))
        everywhere: tuple[str, ...] = ()
        by_host: dict[str, tuple[str, ...]] = {}
        for host, value in raw.items():
            name = str(host).strip().lower().rstrip(".")
            if name == "*":
                everywhere += _selectors(value, "['*']")
                continue
            if not name or "/" in name or ":" in name or " " in name:
                raise ValueError(f"{NAME}: {host!r} is not a host name (give names such as "
                                 "example.org, or '*' for every page)")
            by_host[name] = by_host.get(name, ()) + _selectors(value, f"[{host!r}]")
        return cls(everywhere, by_host)

    @property
    def active(self) -> bool:
        return bool(self.everywhere or self.by_host)

    def for_url(self, url: str) -> tuple[str, ...]:
        """The selectors that apply to the page at ``url`` (empty when none)."""
        if not self.by_host:
            return self.everywhere
        return self.for_host(host_name(url))

    def _for_host(self, host: str) -> tuple[str, ...]:
        selectors = self.everywhere
        labels = host.split(".")
        for i in range(len(labels)):        # the host itself, then each parent domain
            selectors += self.by_host.get(".".join(labels[i:]), ())
        return selectors

    def describe(self) -> str:
        parts = [f"{len(self.everywhere)} for every page"] if self.everywhere else []
        parts += [f"{len(v)} for {host}" for host, v in sorted(self.by_host.items())]
        return ", ".join(parts) or "none"
