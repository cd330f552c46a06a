"""``EXTRACTION_PRUNE`` and ``EXTRACTION_TARGET``: the parts of pages a crawl removes before
reading them, and the parts it reads alone when a page has them.

Each setting names elements by CSS selector (XPath when one starts with ``/``), as
:mod:`extraction.prune` reads them, for every page or per site:

- a string: one selector (a CSS group ``div.related, #comments`` is one selector);
- a list of selectors, for every page;
- a mapping from host name to selectors: a host's selectors apply to it and its subdomains
  (``example.org`` covers ``www.example.org``), ``"*"``'s to every page;
- on the command line, any of these as JSON (``-s 'EXTRACTION_PRUNE={"example.org":
  ["div.related"]}'``).

A removed element is gone for everything that reads the page: extraction, title, relevance
and the links followed (a pruned menu's links are not followed).  So is everything of the
body outside a target, on the pages where the target matches (a site's article pages; its
home and section pages, which hold no article body, are read whole and their links
followed).  An invalid selector or a malformed value stops the crawl before it starts,
naming the setting.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from extraction.prune import PruneError, check_prune, prune_selectors

from .scope import host_name

SETTINGS = {"prune": "EXTRACTION_PRUNE", "target": "EXTRACTION_TARGET"}


def _selectors(value: Any, what: str, where: str) -> tuple[str, ...]:
    try:
        selectors = prune_selectors(value, what)
        check_prune(selectors, what)
    except PruneError as err:
        raise ValueError(f"{SETTINGS[what]}{where}: {err}") from None
    return selectors


class PruneRules:
    """The selectors of ``EXTRACTION_PRUNE`` (or ``EXTRACTION_TARGET``) for each page's URL."""

    def __init__(self, everywhere: tuple[str, ...] = (),
                 by_host: dict[str, tuple[str, ...]] | None = None) -> None:
        self.everywhere = everywhere
        self.by_host = dict(by_host or {})
        self.for_host = lru_cache(maxsize=4096)(self._for_host)

    @classmethod
    def from_settings(cls, settings: Any, what: str = "prune") -> "PruneRules":
        """The rules of the setting of ``what`` (``prune`` or ``target``, see
        :data:`SETTINGS`); ``ValueError`` naming it for a bad value."""
        name = SETTINGS[what]
        raw = settings.get(name)
        if isinstance(raw, str) and raw.strip()[:1] in ("[", "{"):
            try:
                raw = json.loads(raw)
            except ValueError as err:
                raise ValueError(f"{name}: not valid JSON ({err}): {raw!r}") from None
        if raw is None or raw == "" or raw == [] or raw == {}:
            return cls()
        if not hasattr(raw, "items"):
            return cls(_selectors(raw, what, ""))
        everywhere: tuple[str, ...] = ()
        by_host: dict[str, tuple[str, ...]] = {}
        for host, value in raw.items():
            key = str(host).strip().lower().rstrip(".")
            if key == "*":
                everywhere += _selectors(value, what, "['*']")
                continue
            if not key or "/" in key or ":" in key or " " in key:
                raise ValueError(f"{name}: {host!r} is not a host name (give names such as "
                                 "example.org, or '*' for every page)")
            by_host[key] = by_host.get(key, ()) + _selectors(value, what, f"[{host!r}]")
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
