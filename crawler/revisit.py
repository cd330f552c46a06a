"""Pages a recurring crawl fetches again: the seeds and the hubs (``REVISIT_AFTER``), and the
pages whose fetch failed for a passing reason (``RETRY_FAILED_AFTER``).

A crawl run again and again with the same ``JOBDIR`` (from cron, say) continues its queue and
never fetches a URL twice, so it would never see what its seeds and hubs (home, section and
tag pages: on-topic pages that are mostly links) link after they were fetched.  This list keeps
when each seed and each hub was last fetched (``STATE_DIR/revisit.json``); a run starts by
fetching again the ones older than ``REVISIT_AFTER`` hours, past the job's seen-URL filter, so
their new links enter the queue while the links to pages already fetched stay filtered.  A
seed the list does not hold (it never answered, or was fetched as an ordinary page before it
was made a seed) is due as well: the spider fetches it again when the job's filter holds it.  A
revisited page that is no longer a hub leaves the list; at most ``MAX_HUBS`` hubs are kept,
the most recently fetched.

A page whose fetch failed for a passing reason -- after the run's own retries, a status or a
download error Scrapy's retry middleware retries (``RETRY_HTTP_CODES``: 408, 429, 5xx;
``RETRY_EXCEPTIONS``: timeout, refused or lost connection, DNS failure), or a page of a host
whose robots.txt was unreachable -- would stay "fetched" for the job's seen-URL filter and be
lost to every later run.  :class:`FailedFetches` keeps it (``STATE_DIR/failed.json``) with the link
score that scheduled it; a later run requests it again, past the filter and at that score, once
``RETRY_FAILED_AFTER`` hours have passed, until it answers or has failed ``RETRY_FAILED_TIMES``
runs in a row.  At most ``MAX_FAILED`` pages are kept, the most recent failures.
"""
from __future__ import annotations

from typing import Any

import numpy as np

SEED, HUB = "seed", "hub"
MAX_HUBS = 1000
MAX_FAILED = 10_000
RETRY_FAILED_TIMES = 3


def hours_setting(value: Any, name: str) -> float:
    """A setting in hours (``REVISIT_AFTER``, ``RETRY_FAILED_AFTER``) in seconds (unset or 0:
    never); ``ValueError`` naming the setting on anything but a number >= 0."""
    try:
        hours = float(value) if value not in (None, "") else 0.0
    except (TypeError, ValueError):
        hours = -1.0
    if not hours >= 0:
        raise ValueError(f"{name}: expected a number of hours >= 0, got {value!r}")
    return hours * 3600.0


def _elapsed(when: float, now: float, after: float) -> bool:
    """``after`` seconds have passed since ``when``, or ``when`` lies after ``now``: stored by
    a run whose clock was ahead and corrected since, it would otherwise hold the page back
    until the wall clock passes it (a year, for a clock a year ahead)."""
    return when > now or now - when >= after


class RevisitList:
    """URL -> ``(kind, last fetch as Unix time)`` of the seeds and hubs."""

    def __init__(self, max_hubs: int = MAX_HUBS):
        self.pages: dict[str, tuple[str, float]] = {}
        self.max_hubs = max_hubs

    def fetched(self, url: str, kind: str, when: float) -> None:
        """``url`` (a seed or a hub) was fetched at ``when``."""
        old = self.pages.pop(url, None)
        if old is not None and old[0] == SEED:
            kind = SEED                       # a seed stays a seed
        self.pages[url] = (kind, when)        # most recent last
        hubs = [u for u, (k, _) in self.pages.items() if k == HUB]
        for u in hubs[:max(0, len(hubs) - self.max_hubs)]:
            del self.pages[u]

    def forget(self, url: str) -> None:
        """A revisited page that is no longer a hub (seeds stay)."""
        if self.pages.get(url, (SEED,))[0] == HUB:
            del self.pages[url]

    def is_due(self, url: str, now: float, after: float) -> bool:
        """Listed and last fetched at least ``after`` seconds before ``now``, or after it
        (``after`` 0: never due)."""
        entry = self.pages.get(url)
        return after > 0 and entry is not None and _elapsed(entry[1], now, after)

    def seed_due(self, url: str, now: float, after: float) -> bool:
        """A seed to fetch again: due on the list, or not on it at all (never answered: a
        download error records nothing; or fetched only as an ordinary page before it was
        made a seed) (``after`` 0: never due)."""
        return after > 0 and (url not in self.pages or self.is_due(url, now, after))

    def due_hubs(self, now: float, after: float) -> list[str]:
        """The hubs to fetch again, the longest unvisited first."""
        due = [(when, url) for url, (kind, when) in self.pages.items()
               if kind == HUB and self.is_due(url, now, after)]
        return [url for _, url in sorted(due)]

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "pages": [[u, k, round(t, 3)] for u, (k, t) in self.pages.items()]}

    def load(self, data: dict[str, Any]) -> None:
        """Read :meth:`to_dict`'s output (``ValueError`` on another shape)."""
        try:
            rows = [(str(u), str(k), float(t)) for u, k, t in data["pages"]]
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a revisit list ({err})") from err
        for url, kind, when in rows:
            if kind not in (SEED, HUB):
                raise ValueError(f"not a revisit list (kind {kind!r} of {url})")
            self.pages[url] = (kind, when)


def _feature_rows(value: Any) -> np.ndarray:
    """Hashed link-feature rows read back from JSON: a list of ints in ``[0, 2**31)``, sorted
    and distinct as the link model reads them."""
    if not isinstance(value, list) or not all(
            type(r) is int and 0 <= r < 2 ** 31 for r in value):
        raise ValueError("link features are not a list of row numbers")
    return np.unique(np.asarray(value, dtype=np.int32))


class FailedFetches:
    """URL -> ``(failed runs in a row, last failure as Unix time, link score)`` of the pages
    whose last fetch failed for a passing reason; ``max_runs``: the runs in a row after which
    a page is given up (``RETRY_FAILED_TIMES``).  :attr:`evidence` keeps, for a page a link
    score scheduled, what the score was made of (its components and hashed link-feature
    rows), so the retry is re-scored with the queue like any link."""

    def __init__(self, max_pages: int = MAX_FAILED, max_runs: int = RETRY_FAILED_TIMES):
        self.pages: dict[str, tuple[int, float, float]] = {}
        self.evidence: dict[str, tuple[dict, np.ndarray, int]] = {}
        self.max_pages = max_pages
        self.max_runs = max_runs
        self._counted: set[str] = set()      # URLs whose failure this run has counted
        self._given_up: set[str] = set()     # URLs given up in this run

    def failed(self, url: str, when: float, score: float, components: dict | None = None,
               features: Any = None, depth: int = 1) -> bool:
        """Record a failed fetch of ``url`` (scheduled at link ``score``, made of
        ``components`` and hashed ``features`` rows of a link at ``depth`` when a link score
        scheduled it); one failure counts once per run however often it recurs.  False when
        ``url`` has now failed ``max_runs`` runs in a row and is given up (off the list)."""
        if url in self._given_up:
            return False
        runs = self.pages.pop(url, (0, 0.0, 0.0))[0]
        if url not in self._counted:
            self._counted.add(url)
            runs += 1
        if runs >= self.max_runs:
            self._given_up.add(url)
            self.evidence.pop(url, None)
            return False
        self.pages[url] = (runs, when, score)     # most recent last
        if components is not None and isinstance(features, np.ndarray):
            # a copy: the scorer's rows are views of one array per scored page
            self.evidence[url] = (dict(components), np.array(features, dtype=np.int32),
                                  int(depth))
        else:                           # no usable evidence: none rather than a stale one
            self.evidence.pop(url, None)
        while len(self.pages) > self.max_pages:   # the oldest failure goes
            oldest = next(iter(self.pages))
            del self.pages[oldest]
            self.evidence.pop(oldest, None)
        return True

    def failed_request(self, url: str, when: float, meta: dict) -> bool:
        """:meth:`failed` for a request of ``meta``: its link score, components, features and
        depth (``link_score`` ... as the spider schedules a link; none for a seed)."""
        return self.failed(url, when, float(meta.get("link_score") or 0.0),
                           meta.get("link_components"), meta.get("link_features"),
                           meta.get("depth", 1))

    def answered(self, url: str) -> bool:
        """``url`` got an answer that is not a passing failure: off the list.  True when it
        was listed."""
        self.evidence.pop(url, None)
        return self.pages.pop(url, None) is not None

    def due(self, now: float, after: float) -> list[tuple[str, float]]:
        """``(url, score)`` of the pages whose last failure is at least ``after`` seconds old
        or later than ``now`` (``after`` 0: never), the best-scored first (:attr:`evidence`
        holds what the score of each was made of, when known)."""
        if after <= 0:
            return []
        due = [(-score, url) for url, (_, when, score) in self.pages.items()
               if _elapsed(when, now, after)]
        return [(url, -neg) for neg, url in sorted(due)]

    def __len__(self) -> int:
        return len(self.pages)

    def to_dict(self) -> dict[str, Any]:
        evidence = self.evidence
        return {"version": 2, "pages": [
            [u, n, round(t, 3), round(s, 4)] + ([evidence[u][0], evidence[u][1].tolist(),
                                                 evidence[u][2]] if u in evidence else [])
            for u, (n, t, s) in self.pages.items()]}

    def load(self, data: dict[str, Any]) -> None:
        """Read :meth:`to_dict`'s output (version 1 rows have no evidence) in place of what
        the list held (``ValueError`` on another shape)."""
        pages, evidence = {}, {}
        try:
            for row in data["pages"]:
                url, runs, when, score = row[:4]
                pages[str(url)] = (int(runs), float(when), float(score))
                if len(row) == 7:
                    components = {str(k): float(v) for k, v in row[4].items()}
                    if type(row[6]) is not int or row[6] < 0:
                        raise ValueError(f"depth {row[6]!r}")
                    evidence[str(url)] = (components, _feature_rows(row[5]), row[6])
                elif len(row) != 4:
                    raise ValueError(f"a row of {len(row)} fields")
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
            raise ValueError(f"not a failed-fetch list ({err})") from err
        self.pages, self.evidence = pages, evidence
        self._counted.clear()
        self._given_up.clear()
