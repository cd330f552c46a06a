"""The crawl's scope: which URLs it may fetch at all, whatever their score.

Three rules, all off by default, each a user's choice rather than a learnt one:

- allowed domains (the ``allowed_domains`` spider argument; ``seeds`` means the seeds' hosts):
  a URL's host must be one of them or a subdomain, the rule of Scrapy's ``OffsiteMiddleware``,
  which also gets the list and so checks redirects;
- ``URL_INCLUDE`` / ``URL_EXCLUDE``: regular expressions searched in the canonical URL; a URL
  must match an include pattern (when any is given) and no exclude pattern;
- ``MAX_PAGES_PER_HOST``: at most N requests are sent to one host (robots.txt and retries not
  counted), so no single site swallows the budget of a broad crawl.

Links outside the scope are dropped before they are scored; requests already queued are
dropped when the downloader gets them (:class:`crawler.middlewares.ScopeMiddleware`).
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Any, Iterable
from urllib.parse import urlsplit

from .links import canonical, idna_host


def host_name(url: str) -> str:
    """The lower-case host name of an absolute URL (no port), ``""`` when it has none."""
    return urlsplit(url).hostname or ""


def _ip_address(name: str) -> str | None:
    """``name`` as an IPv4 or IPv6 address in its usual form (brackets allowed around the
    latter), None when it is none."""
    try:
        return str(ipaddress.ip_address(name.strip("[]")))
    except ValueError:
        return None


def _patterns(name: str, raw: Any) -> tuple[re.Pattern[str], ...]:
    """Compile a setting's patterns: a list, or a string of whitespace-separated patterns
    (URLs hold no raw whitespace, so no pattern needs one)."""
    if raw in (None, "", (), []):
        return ()
    items = raw.split() if isinstance(raw, str) else list(raw)
    out = []
    for item in items:
        try:
            out.append(re.compile(str(item)))
        except (re.error, OverflowError, RecursionError) as err:   # a{99999999999}, (((...
            raise ValueError(f"{name}: bad regular expression {item!r}: {err!r}") from err
    return tuple(out)


def parse_domains(value: str | Iterable[str] | None, seeds: Iterable[str]) -> list[str]:
    """The ``allowed_domains`` argument as a list of lower-case host names (internationalised
    ones in punycode, as canonical request URLs carry them): comma-separated names, a list, or
    ``seeds`` (the hosts of the seed URLs).  Raises ``ValueError`` for a name that is not a
    host name (a URL, a path, a port)."""
    if value is None or value == "":
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in (str(i).strip().lower() for i in items):
        if not item:
            continue
        # (the seeds' hosts as their requests carry them)
        names = [host_name(canonical(s)) for s in seeds] if item == "seeds" else [item]
        for name in names:
            address = _ip_address(name)
            if address is not None:
                if address not in out:
                    out.append(address)
                continue
            # an internationalised name as requests carry it: UTS #46, as crawler.links
            # writes request URLs (Python's IDNA 2003 codec makes "straße" "strasse")
            name = idna_host(name) or name      # (refused below when idna refuses it)
            if not re.fullmatch(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?", name):
                raise ValueError(f"allowed_domains: {name!r} is not a host name "
                                 "(give names such as example.org, comma-separated, or 'seeds')")
            name = name.rstrip(".")
            if name not in out:
                out.append(name)
    return out


@dataclass(frozen=True)
class Scope:
    domains: tuple[str, ...] = ()
    include: tuple[re.Pattern[str], ...] = ()
    exclude: tuple[re.Pattern[str], ...] = ()
    max_per_host: int = 0     # 0: no cap

    @classmethod
    def from_settings(cls, settings: Any, domains: Iterable[str] = ()) -> "Scope":
        """The scope of ``URL_INCLUDE``, ``URL_EXCLUDE``, ``MAX_PAGES_PER_HOST`` and the
        allowed domains; a bad value raises ``ValueError`` naming the setting."""
        raw = settings.get("MAX_PAGES_PER_HOST")
        try:
            cap = int(raw) if raw not in (None, "") else 0
        except (TypeError, ValueError):
            cap = -1
        if cap < 0:
            raise ValueError(f"MAX_PAGES_PER_HOST: expected a whole number >= 0 (0: no cap), "
                             f"got {raw!r}")
        return cls(tuple(domains), _patterns("URL_INCLUDE", settings.get("URL_INCLUDE")),
                   _patterns("URL_EXCLUDE", settings.get("URL_EXCLUDE")), cap)

    @property
    def active(self) -> bool:
        return bool(self.domains or self.include or self.exclude or self.max_per_host)

    def on_site(self, host: str) -> bool:
        """``host`` is one of the allowed domains or a subdomain of one (all when none)."""
        if not self.domains:
            return True
        return any(host == d or host.endswith("." + d) for d in self.domains)

    def refusal(self, url: str) -> str | None:
        """Why ``url`` is outside the scope (``offsite``, ``excluded``, ``not included``), or
        None.  The per-host cap is not checked here: it depends on the crawl's counts."""
        if self.domains and not self.on_site(host_name(url)):
            return "offsite"
        if any(p.search(url) for p in self.exclude):
            return "excluded"
        if self.include and not any(p.search(url) for p in self.include):
            return "not included"
        return None

    def capped(self, host: str, counts: dict[str, int]) -> bool:
        """``host`` has had its ``max_per_host`` requests."""
        return bool(self.max_per_host) and counts.get(host, 0) >= self.max_per_host

    def describe(self) -> str:
        parts = []
        if self.domains:
            parts.append("domains " + ",".join(self.domains))
        if self.include:
            parts.append("include " + " ".join(p.pattern for p in self.include))
        if self.exclude:
            parts.append("exclude " + " ".join(p.pattern for p in self.exclude))
        if self.max_per_host:
            parts.append(f"at most {self.max_per_host} requests per host")
        return "; ".join(parts) or "unrestricted"
