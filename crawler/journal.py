"""``JOBDIR/frontier.log``: the job's seen-URL log, and the journal of its request queue.

Scrapy writes the index of its disk queue (``JOBDIR/requests.queue``) only when a crawl closes:
a crawl killed hard (``kill -9``, a second Ctrl-C, a crash, the machine going down) leaves a
queue the next run cannot read.  This log is enough to queue again what was left.  One line per
event, appended:

``Q fp priority depth url [kind]``
    queued through the seen-URL filter (a new URL, or a priority upgrade);
``Q fp priority``
    its priority changed in the queue (re-prioritization; the URL is on the line above), or a
    line written before the journal existed;
``A fp priority depth url [kind]``
    queued again past the filter (``dont_filter``): a retry, a redirect of such a request, a
    request recovered after a kill;
``F fp``
    its download was sent (a URL is fetched at most once);
``D fp``
    the crawl is done with that download: its crawl-log line is written (the page judged, and
    written to the corpus or refused) and the requests it led to (links, a redirect, a retry)
    are journaled above;
``U fp``
    dropped before its download (the crawl's scope): neither queued nor fetched any more;
``S fp``
    a copy queued again (``A``) dropped before its download because its URL was fetched
    meanwhile (a recovered request redirected to a fetched page): not to be recovered;
``R`` / ``K``
    a run started after a clean close / after a killed run.

``kind`` says what a listing request was: ``seed``, ``feed`` or ``sitemap=HOST`` (none for a
page).  After a kill, a download sent and not done with (``F`` or ``A`` without a later
``D``) counts as not fetched: it is fetched again.  A line the kill cut short is ignored, and a
queued URL whose line was cut is not recovered (its fingerprint does not match).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from scrapy import Request

LISTING_KINDS = ("seed", "feed", "sitemap")
# request meta key of the callable that a response's "done" line waits for besides its
# crawl-log line: called once the requests the response led to are journaled
# (crawler.frontier.JournalScheduler, crawler.middlewares.JournalOutputMiddleware)
OUTPUTS_JOURNALED = "_outputs_journaled"


@dataclass(frozen=True)
class Entry:
    """A queued request as the journal has it."""
    url: str
    priority: int
    depth: int
    kind: str | None = None      # None (a page), "seed", "feed", "sitemap=HOST"


@dataclass
class Replayed:
    best: dict[bytes, int] = field(default_factory=dict)    # fp -> last queued priority
    fetched: set[bytes] = field(default_factory=set)
    recovered: list[Entry] = field(default_factory=list)    # best first


def request_kind(request: Request) -> str | None:
    """The journal's ``kind`` of a request (its listing type; None for a page)."""
    listing = request.meta.get("listing")
    if listing == "sitemap" and request.meta.get("sitemap_of"):
        return f"sitemap={request.meta['sitemap_of']}"
    return listing if listing in LISTING_KINDS else None


def queue_line(tag: str, fp: bytes, request: Request) -> str:
    """A ``Q`` or ``A`` line with the request's URL, depth and kind."""
    kind = request_kind(request)
    return (f"{tag} {fp.hex()} {request.priority} {int(request.meta.get('depth') or 0)} "
            f"{request.url}{' ' + kind if kind else ''}\n")


def _entry(parts: list[str]) -> Entry:
    return Entry(parts[4], int(parts[2]), int(parts[3]), parts[5] if len(parts) == 6 else None)


def replay(lines: Iterable[str], recover: bool = False,
           fingerprint: Callable[[str], bytes] | None = None) -> Replayed:
    """The state a log describes.  ``recover`` (the last run was killed): also the entries of
    the requests queued and not fetched, best first; ``fingerprint(url)`` checks the URL of a
    line a kill may have cut (the last one before ``K`` and at the end)."""
    out = Replayed()
    best, fetched = out.best, out.fetched
    entries: dict[bytes, Entry] = {}       # kept only to recover
    unfinished: set[bytes] = set()         # F without D, in the current run
    again: dict[bytes, Entry] = {}         # A without D (across clean closes)
    # the last line read, when a full Q or A line: (fp, its entry, the entries it replaced)
    last: tuple[bytes, Entry, Entry | None, Entry | None] | None = None

    def damaged() -> bool:
        if last is None or fingerprint is None:
            return False
        try:
            return fingerprint(last[1].url) != last[0]
        except ValueError:
            return True

    def restore(table: dict[bytes, Entry], fp: bytes, previous: Entry | None) -> None:
        if previous is None:
            table.pop(fp, None)
        else:
            table[fp] = previous

    def killed() -> None:                  # the run up to here was killed
        if damaged():                      # its last line was cut: undo it
            fp, _, entry_before, again_before = last
            restore(entries, fp, entry_before)
            restore(again, fp, again_before)
        fetched.difference_update([fp for fp in unfinished if fp in best])
        fetched.difference_update(again)
        if recover:
            entries.update(again)
        unfinished.clear()
        again.clear()

    for line in lines:
        parts = line.split()
        if parts == ["K"]:                   # killed() reads the line before it
            killed()
            last = None
            continue
        last = None
        try:
            tag = parts[0] if parts else ""
            if tag == "Q" and len(parts) in (3, 5, 6):
                fp, priority = bytes.fromhex(parts[1]), int(parts[2])
                if len(parts) >= 5:
                    entry = _entry(parts)
                    last = (fp, entry, entries.get(fp), again.get(fp))
                elif recover and fp in entries:          # re-prioritized: same URL, depth
                    e = entries[fp]
                    entry = Entry(e.url, priority, e.depth, e.kind)
                else:
                    entry = None
                best[fp] = priority
                if recover and entry is not None:
                    entries[fp] = entry
            elif tag == "A" and len(parts) in (5, 6):
                fp = bytes.fromhex(parts[1])
                entry = _entry(parts)
                last = (fp, entry, entries.get(fp), again.get(fp))
                again[fp] = entry
            elif tag == "F" and len(parts) == 2:
                fp = bytes.fromhex(parts[1])
                fetched.add(fp)
                unfinished.add(fp)
            elif tag == "D" and len(parts) == 2:
                fp = bytes.fromhex(parts[1])
                unfinished.discard(fp)
                if fp in again:                       # a request queued again, now done
                    fetched.add(fp)
                    del again[fp]
            elif tag == "S" and len(parts) == 2:
                again.pop(bytes.fromhex(parts[1]), None)
            elif tag == "U" and len(parts) == 2:
                fp = bytes.fromhex(parts[1])
                fetched.discard(fp)
                best.pop(fp, None)
                entries.pop(fp, None)
                unfinished.discard(fp)
                again.pop(fp, None)
            elif parts == ["R"]:          # (a request queued again stays so: a clean
                unfinished.clear()        # close kept it in Scrapy's queue, until its D)
        except ValueError:
            continue                                  # a line cut by a kill
    if recover:
        killed()
        out.recovered = sorted((e for fp, e in entries.items() if fp not in fetched),
                               key=lambda e: -e.priority)
    return out
