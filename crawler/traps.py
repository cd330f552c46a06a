"""Crawler-trap avoidance without site-specific rules.

* URL templates: a URL's host and path with every digit run replaced by ``#`` and query values
  dropped (``/events/2006/05/17/`` -> ``/events/#/#/#/``).  Calendars, endless pagination and
  numbered archives share one template; once a template has been fetched ``min_samples`` times
  its link factor follows its yield of accepted pages against the rest of the crawl's, so a
  template that yields nothing fades out while a productive one (``/article/#``) keeps full
  weight.
  A URL with a query also counts for its path's family of queries (:func:`families`), and its
  factor is the lower of the two: a shop's facets, one template per set of keys, are one trap.
  A template whose last ``refuse_after`` or more fetches in a row yielded nothing is refused
  (factor 0, its queued links dropped at the head of the queue) when such a run of misses has
  probability below ``refuse_p`` at the acceptance rate of the rest of the crawl [ours]: the
  far ends of an endless calendar or pagination then stop taking whatever budget the crawl
  has left, after the productive months or pages at their start.  The refusal lasts
  ``retry_after`` fetches of the crawl; then the template is on probation (its run set to half of
  ``refuse_after``), so a family of URLs that held the topic after all (numbered articles of a
  general site) can come back through links found meanwhile.  The runs are not saved: a new
  run gives every template a fresh start (today's page 1 of a listing is worth a look).
* Repeated path segments (``/a/b/a/b/a/``, ``/post/print/print/``) and very deep paths are
  refused outright.
* Session ids are removed by URL canonicalisation (``links.canonical``).
* The links of a page whose text repeats an earlier page's of the same host are not
  followed (:class:`EchoPages`: soft 404s, session ids in the path).
* A hub (an on-topic page that is mostly links, not written) counts as a useful fetch only
  when it :func:`leads_elsewhere`: otherwise facets and sorted views of a listing, each an
  on-topic hub, would keep their template productive for ever.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Container, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from .links import Link

_DIGITS = re.compile(r"\d+")
MAX_SEGMENTS = 12


@lru_cache(maxsize=1 << 16)
def template(url: str) -> str:
    parts = urlsplit(url)
    keys = "&".join(sorted(kv.split("=", 1)[0] for kv in parts.query.split("&") if kv))
    return f"{parts.hostname}{_DIGITS.sub('#', parts.path)}?{_DIGITS.sub('#', keys)}"


@lru_cache(maxsize=1 << 16)
def families(url: str) -> tuple[str, ...]:
    """The templates a URL's fetch counts for: its :func:`template` and, for a URL with a
    query, its path's whole family of queries (``/shop/?*``): a shop's facets (each set of
    keys its own template, 63 of them for six keys) are one trap."""
    own = template(url)
    if own.endswith("?"):
        return (own,)
    return own, own[:own.index("?") + 1] + "*"


@lru_cache(maxsize=1 << 16)
def repeated_segments(url: str) -> bool:
    """A path that loops: deeper than :data:`MAX_SEGMENTS`, a non-numeric segment three times,
    a pair of segments twice, or a non-numeric segment twice in a row below the first level
    (``/post/print/print/``: a relative link on the page it leads to; ``/2006/01/01/`` is a
    date, ``/courses/1/lessons/1/steps/1`` numbers its levels, ``/django/django`` is a
    repository named after its owner)."""
    segments = [s for s in urlsplit(url).path.split("/") if s]
    if len(segments) > MAX_SEGMENTS:
        return True
    counts = Counter(s for s in segments if not s.isdigit())
    if counts and counts.most_common(1)[0][1] >= 3:
        return True
    if any(a == b and not a.isdigit() for a, b in zip(segments[1:], segments[2:])):
        return True
    pairs = Counter(zip(segments, segments[1:]))
    return bool(pairs) and pairs.most_common(1)[0][1] >= 2


def leads_elsewhere(url: str, links: Iterable[Link], known: Container[str]) -> bool:
    """Whether a page at ``url`` links a URL not ``known`` (fetched or queued) outside its own
    template: what makes a hub (listing, calendar month, search result) worth its fetch.
    Sorted views, facets and further pages of one listing only lead to more of themselves."""
    own = template(url)
    return any(link.url not in known and template(link.url) != own for link in links)


ECHO_MIN_CHARS = 20        # [ours] shorter texts (an image page's caption) are not compared
ECHO_MAX_PAGES = 200_000   # [ours] texts remembered (12 bytes each and the first URL)


class EchoPages:
    """Pages whose text repeats, exactly, the text of an earlier page of the same host [ours]:
    a soft 404 that answers every path with one page (its relative links resolve under a new
    path each time), a catalogue under a session id in the path.  Their links lead to more of
    the same, so they are not followed; the page itself is judged as any other.  Not saved: a
    new run starts afresh."""

    def __init__(self, max_pages: int = ECHO_MAX_PAGES):
        self.max_pages = max_pages
        self.first: dict[bytes, str] = {}      # digest of host and text -> first URL

    def repeats(self, url: str, title: str | None, main_text: str) -> bool:
        """Whether the page at ``url`` repeats the title and main text of an earlier page of
        its host (the same URL fetched again is no repeat)."""
        text = f"{title}\n{main_text}"
        if len(text) < ECHO_MIN_CHARS:
            return False
        key = hashlib.blake2b(f"{urlsplit(url).hostname}\n{text}".encode("utf-8", "replace"),
                              digest_size=12).digest()
        first = self.first.get(key)
        if first is None:
            if len(self.first) < self.max_pages:
                self.first[key] = url
            return False
        return first != url


class TrapDetector:
    def __init__(self, min_samples: int = 8, refuse_after: int = 20, refuse_p: float = 0.01,
                 retry_after: int = 200):
        self.min_samples = min_samples
        self.refuse_after, self.refuse_p, self.retry_after = refuse_after, refuse_p, retry_after
        self.fetched: Counter[str] = Counter()
        self.accepted: Counter[str] = Counter()
        # sums of ``fetched`` and ``accepted`` over all templates, kept up to date by record
        self.fetched_total = self.accepted_total = 0
        self.misses: Counter[str] = Counter()    # current run of unaccepted fetches
        self.refused: dict[str, int] = {}        # template -> fetched_total when refused

    def record(self, url: str, accepted: bool) -> None:
        self.fetched_total += 1
        self.accepted_total += accepted
        for key in families(url):
            self.fetched[key] += 1
            if accepted:
                self.accepted[key] += 1
                self.misses.pop(key, None)
                self.refused.pop(key, None)
            else:
                self.misses[key] += 1
                if key not in self.refused and self._unlikely(key, self.misses[key]):
                    self.refused[key] = self.fetched_total

    def _rest_rate(self, key: str) -> float:
        """The acceptance rate of the crawl's fetches outside template ``key`` [ours]: a trap
        compared with the whole crawl lowers the rate it is compared with (a facet shop that
        took 96% of the fetches made its own misses look ordinary)."""
        return (self.accepted_total - self.accepted.get(key, 0) + 1.0) \
            / (self.fetched_total - self.fetched.get(key, 0) + 2.0)

    def _unlikely(self, key: str, run: int) -> bool:
        """A run of ``run`` misses has probability below ``refuse_p`` at the rate of the rest
        of the crawl."""
        return run >= self.refuse_after and (1.0 - self._rest_rate(key)) ** run < self.refuse_p

    def factor(self, url: str) -> float:
        """Multiplier in [0, 1] for a link's score (0: never request): the lowest of its
        templates' (:func:`families`)."""
        if repeated_segments(url):
            return 0.0
        return min(map(self._factor, families(url)))

    def _factor(self, key: str) -> float:
        n = self.fetched.get(key, 0)
        if n < self.min_samples:
            return 1.0
        since = self.refused.get(key)
        if since is not None:
            if self.fetched_total - since < self.retry_after:
                return 0.0      # a run of misses that would be unlikely at the rest's rate
            del self.refused[key]                   # probation
            self.misses[key] = self.refuse_after // 2
        rate = (self.accepted.get(key, 0) + 0.5) / (n + 1.0)
        return float(min(1.0, rate / max(self._rest_rate(key), 1e-6)))

    def factors(self, urls: list[str]) -> list[float]:
        return [self.factor(u) for u in urls]

    def to_dict(self) -> dict:
        return {"fetched": dict(self.fetched), "accepted": dict(self.accepted),
                "fetched_total": self.fetched_total, "accepted_total": self.accepted_total}

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict()), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path, **options) -> "TrapDetector":
        detector = cls(**options)
        path = Path(path)
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            detector.fetched.update(data.get("fetched", {}))
            detector.accepted.update(data.get("accepted", {}))
            # (a fetch counts in each of its templates: the totals are saved; a file written
            # before 2026-12-02 holds one template per fetch)
            detector.fetched_total = int(data.get("fetched_total",
                                                  sum(detector.fetched.values())))
            detector.accepted_total = int(data.get("accepted_total",
                                                   sum(detector.accepted.values())))
        return detector
