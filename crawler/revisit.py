"""Pages a recurring crawl fetches again: the seeds and the hubs (``REVISIT_AFTER``).

A crawl run again and again with the same ``JOBDIR`` (from cron, say) continues its queue and
never fetches a URL twice, so it would never see what its seeds and hubs (home, section and
tag pages: on-topic pages that are mostly links) link after they were fetched.  This list keeps
when each seed and each hub was last fetched (``STATE_DIR/revisit.json``); a run starts by
fetching again the ones older than ``REVISIT_AFTER`` hours, past the job's seen-URL filter, so
their new links enter the queue while the links to pages already fetched stay filtered.  A
revisited page that is no longer a hub leaves the list; at most ``MAX_HUBS`` hubs are kept,
the most recently fetched.
"""
from __future__ import annotations

from typing import Any

SEED, HUB = "seed", "hub"
MAX_HUBS = 1000


def revisit_after(value: Any) -> float:
    """``REVISIT_AFTER`` in seconds (the setting is in hours; unset or 0: never)."""
    try:
        hours = float(value) if value not in (None, "") else 0.0
    except (TypeError, ValueError):
        hours = -1.0
    if not hours >= 0:
        raise ValueError(f"REVISIT_AFTER: expected a number of hours >= 0, got {value!r}")
    return hours * 3600.0


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
        """Listed and last fetched at least ``after`` seconds before ``now`` (``after`` 0:
        never due)."""
        entry = self.pages.get(url)
        return after > 0 and entry is not None and now - entry[1] >= after

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
