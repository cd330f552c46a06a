"""Naive crawl baselines on a labelled test web, for any topic prefix.

The strategies of ``shared/testweb/README.md`` ("Naive baselines"), on the link graph as our
crawler sees it (links read by :func:`crawler.links.extract_links`, canonical URLs, session ids
dropped, file types that are never HTML not requested), with the fetch rules of
``bench/crawl_sim.py`` (robots.txt honoured, each redirect and each 404 a fetch):

``breadth-first``  first in, first out
``true-parent``    best-first on the true label of the page a link was found on
``oracle``         best-first on the true label of the link's target

Ties are broken first in, first out; a URL found again from a better page moves up.  The
simulation of our own crawler gives its recall at the same budgets on the same graph, so the two
tables compare like with like (e.g. the "at least 90% of the oracle" target of issue #5):

    python bench/crawl_baselines.py --topic subject.History [--topic subject.Religion ...] \\
        [--web ../shared/testweb/wikischools] [--budgets 250,500,1000,2000]
"""
from __future__ import annotations

import argparse
import heapq
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from crawl_sim import WebFetcher  # noqa: E402

from crawler.links import canonical, extract_links  # noqa: E402
from crawler.testweb.archive import WebArchive, load_web  # noqa: E402
from extraction import ParseError, parse  # noqa: E402

STRATEGIES = ("breadth-first", "true-parent", "oracle")


class LinkGraph:
    """Outgoing links of every page of a web, read once and kept."""

    def __init__(self, web: WebArchive):
        self.web = web
        self._links: dict[str, list[str]] = {}

    def links(self, url: str) -> list[str]:
        out = self._links.get(url)
        if out is None:
            record = self.web.get(url)
            out = []
            if record is not None and record.status == 200 and "html" in record.content_type:
                try:
                    doc = parse(record.body, url, record.header("Content-Type"))
                    out = [link.url for link in extract_links(doc, url) if not link.nofollow]
                except ParseError:
                    pass
            self._links[url] = out
        return out


def crawl(graph: LinkGraph, prefix: str, strategy: str, budget: int) -> list[tuple[str, int]]:
    """The first ``budget`` fetches ``(url, status)`` of one baseline crawl from the seeds."""
    web = graph.web
    fetcher = WebFetcher(web)
    tie = itertools.count()
    queue: list = []
    best: dict[str, int] = {}
    fetched: set[str] = set()
    log: list[tuple[str, int]] = []

    def push(url: str, priority: int) -> None:
        if url in fetched or best.get(url, -1) >= priority:
            return
        best[url] = priority
        heapq.heappush(queue, (-priority, next(tie), url))

    for seed in web.seeds:
        push(canonical(seed), 1)
    while queue and len(log) < budget:
        _, _, url = heapq.heappop(queue)
        if url in fetched or not fetcher.allowed(url):
            fetched.add(url)
            continue
        hops, final, record = fetcher.fetch(url, fetched)
        log += hops
        if final is None:
            continue
        log.append((final, record.status if record is not None else 404))
        parent_on = web.on_topic(final, prefix)
        for link in graph.links(final):
            if strategy == "breadth-first":
                priority = 0
            elif strategy == "true-parent":
                priority = int(parent_on)
            else:
                priority = int(web.on_topic(link, prefix))
            push(link, priority)
    return log[:budget]


def recall(log: list[tuple[str, int]], targets: set[str], budget: int) -> float:
    hit = {url for url, status in log[:budget] if status == 200 and url in targets}
    return len(hit) / max(1, len(targets))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default=str(ROOT.parent / "shared" / "testweb" / "wikischools"))
    ap.add_argument("--topic", action="append", required=True, metavar="PREFIX",
                    help="label prefix of the targets, e.g. subject.Science (repeatable)")
    ap.add_argument("--budgets", default="250,500,1000,2000")
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    graph = LinkGraph(load_web(args.web))
    print(f"| topic (targets) | {' | '.join(STRATEGIES)} |\n|---|{'---|' * len(STRATEGIES)}")
    for prefix in args.topic:
        targets = {u for u in graph.web.labels if graph.web.on_topic(u, prefix)}
        cells = []
        for strategy in STRATEGIES:
            log = crawl(graph, prefix, strategy, max(budgets))
            cells.append(" / ".join(f"{recall(log, targets, b):.3f}" for b in budgets))
        print(f"| {prefix} ({len(targets)}) | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
