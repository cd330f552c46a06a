"""Deterministic offline replica of the focused crawl, for comparing link-scoring variants.

A real crawl (``bench/crawl.py``) runs 16 requests at once, so the order of responses, and
with it the recall at a budget, varies from run to run by a few targets.  This simulation
takes the spider's decisions one fetch at a time, with no network and no Scrapy, on a test web
in the ``shared/testweb`` format: the same crawl state, extraction, relevance pipeline, dedup,
link extraction, link scoring, trap factors, duplicate-URL upgrades, re-scoring at the head of
the queue and re-prioritization of the whole queue, the seed hosts' sitemaps
(``FOLLOW_SITEMAPS``; not the seeds' feeds, ``FOLLOW_FEEDS``), with a FIFO queue per priority
as in Scrapy.  Redirects are followed at once and
cost a fetch each; robots.txt is honoured; a URL the web lacks is a 404.  Two runs of the same
code give the same numbers, so a difference between two variants is theirs.

    python bench/crawl_sim.py --topic settings/topics/science.toml=subject.Science \\
        [--web ../shared/testweb/wikischools] [--budget 1000] [--log OUT.jsonl]
"""
from __future__ import annotations

import argparse
import heapq
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.corpus import MAX_LINK_SHARE, MIN_CHARS, link_share, refusal, text_chars
from crawler.frontier import (
    UPGRADE_MARGIN,
    head_rescore_due,
    reprioritize_due,
    rescorable,
    rescore_queued,
)
from crawler.link_scoring import SEED_PRIORITY
from crawler.links import Link, canonical, extract_links
from crawler.relevance.topic import load_topic
from crawler.robots_meta import robots_directives
from crawler.settings import FEATURE_LEARN_FROM as LEARN_FROM
from crawler.settings import RELEVANCE_AUTO_THRESHOLD as AUTO_THRESHOLD
from crawler.sitemaps import (ListingBudget, best_scored, candidates, listed_urls,
                              read_sitemap, sitemaps_in_robots)
from crawler.state import CrawlState
from crawler.testweb.archive import Record, WebArchive, load_web
from crawler.traps import leads_elsewhere
from extraction import ParseError, extract_document, parse


class WebFetcher:
    """Fetches of a test web as a crawler makes them: robots.txt honoured, each redirect a
    fetch of its own, a URL the web lacks a 404."""

    def __init__(self, web: WebArchive):
        self.web = web
        self.robots: dict[str, RobotFileParser] = {}

    def allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        host = f"{parts.scheme}://{parts.netloc}"
        rp = self.robots.get(host)
        if rp is None:
            rp = self.robots[host] = RobotFileParser()
            record = self.web.get(host + "/robots.txt")
            rp.parse(record.body.decode("utf-8", "replace").splitlines()
                     if record is not None and record.status == 200 else [])
        return rp.can_fetch("*", url)

    def fetch(self, url: str, fetched: set[str]
              ) -> tuple[list[tuple[str, int]], str | None, Record | None]:
        """Fetch ``url``, following redirects (at most five), and add every URL met to
        ``fetched``.  Returns the redirect fetches ``(url, status)`` in order, the final URL
        (None when a redirect leads to a URL fetched before: nothing more is fetched) and its
        record (None for a URL the web lacks: a 404)."""
        hops, final = [], url
        record = self.web.get(url)
        for _ in range(5):
            if record is None or not 300 <= record.status < 400 or not record.location:
                break
            fetched.add(final)
            hops.append((final, record.status))
            final = canonical(urljoin(final, record.location))
            if final in fetched:
                return hops, None, None
            record = self.web.get(final)
        fetched.update((url, final))
        return hops, final, record


class SimulatedCrawl:
    """One focused crawl of ``web`` for ``topic``, one fetch at a time."""

    def __init__(self, web: WebArchive, topic_path: str, seeds: list[str], shuffle: int = 0,
                 auto_threshold: bool = AUTO_THRESHOLD, learn_from: str = LEARN_FROM):
        self.web = web
        # ties between equal priorities: FIFO as in Scrapy, or a seeded random order
        self.tie = itertools.count().__next__ if not shuffle else random.Random(shuffle).random
        self._state_dir = tempfile.TemporaryDirectory(prefix="sim-state-")  # removed with us
        self.state = CrawlState.open(self._state_dir.name, load_topic(topic_path),
                                     auto_threshold=auto_threshold, learn_from=learn_from)
        self.queue: list = []
        self.best: dict[str, int] = {}
        self.fetched: set[str] = set()
        self.fetcher = WebFetcher(web)
        self.log: list[dict] = []
        self.reprioritized_at = 0
        for url in seeds:
            self._push(canonical(url), SEED_PRIORITY, {"depth": 0, "parent": None})
        # FOLLOW_SITEMAPS: the sitemaps the seed hosts' robots.txt name, queued like the seeds
        self.sitemaps = ListingBudget()
        for host in dict.fromkeys(urlsplit(canonical(url)).hostname for url in seeds):
            robots = web.records.get(f"http://{host}/robots.txt")
            body = robots.body if robots is not None and robots.status == 200 else b""
            for url in sitemaps_in_robots(body, f"http://{host}/robots.txt"):
                if self.sitemaps.take_file(host, url):
                    self._push(url, SEED_PRIORITY, {"depth": 0, "parent": None,
                                                    "sitemap_of": host})

    # ------------------------------------------------------------------ queue
    def _push(self, url: str, priority: int, meta: dict) -> None:
        old = self.best.get(url)
        if url in self.fetched or (old is not None and priority < old + UPGRADE_MARGIN):
            return
        self.best[url] = priority
        heapq.heappush(self.queue, (-priority, self.tie(), url, meta))

    def _pop(self) -> tuple[str, dict] | None:
        """The head of the queue after re-scoring, as ``RescoringPriorityQueue.pop`` does."""
        scorer, traps = self.state.scorer, self.state.traps
        while self.queue:
            neg, _, url, meta = heapq.heappop(self.queue)
            if url in self.fetched or rescorable(meta) and traps.factor(url) == 0.0:
                continue
            if not head_rescore_due(meta, scorer.learner.seen):
                return url, meta
            new = rescore_queued(scorer, traps, [(url, meta)])[0]
            head = -self.queue[0][0] if self.queue else None
            if head is not None and new < head and new < -neg:
                heapq.heappush(self.queue, (-new, self.tie(), url, meta))
                continue
            return url, meta
        return None

    # ------------------------------------------------------------------ fetching
    def _reprioritize(self) -> None:
        """Re-score the whole queue in one batch, as ``RescoringPriorityQueue`` does."""
        scorer, traps = self.state.scorer, self.state.traps
        self.reprioritized_at = scorer.learner.seen
        entries = [e for e in self.queue if e[2] not in self.fetched]
        scorable = [e for e in entries if rescorable(e[3])]
        scored = rescore_queued(scorer, traps, [(url, meta) for _, _, url, meta in scorable])
        priority = {id(e): new for e, new in zip(scorable, scored)}
        best: dict[str, int] = {}       # each URL's best queued copy (frontier.best_copies)
        self.queue = []
        for entry in entries:
            neg, tie, url, meta = entry
            if id(entry) in priority:
                neg = -priority[id(entry)]
                best[url] = max(best.get(url, -neg), -neg)
            self.queue.append((neg, tie, url, meta))
        self.best.update(best)
        heapq.heapify(self.queue)

    def step(self) -> bool:
        if reprioritize_due(self.state.scorer.learner.seen - self.reprioritized_at,
                            len(self.queue)):
            self._reprioritize()
        head = self._pop()
        if head is None:
            return False
        url, meta = head
        if not self.fetcher.allowed(url):
            self.fetched.add(url)
            return True
        if "sitemap_of" in meta and not self.sitemaps.left(meta["sitemap_of"]):
            return True                 # the spider's ScopeMiddleware: allowance spent
        hops, final, record = self.fetcher.fetch(url, self.fetched)
        self.log += [{"url": hop, "status": status, "relevance": None} for hop, status in hops]
        if final is None:
            return True
        status = record.status if record is not None else 404
        row = {"url": final, "status": status, "relevance": None, "on_topic": False,
               "accepted": False}
        self.log.append(row)
        if "sitemap_of" in meta:
            if status == 200:
                self._sitemap(final, meta["sitemap_of"], record.body)
            return True
        if status != 200 or "html" not in record.content_type:
            self._judged(meta, final, False, False)
            return True
        try:
            doc = parse(record.body, final, record.header("Content-Type"))
        except ParseError:
            self._judged(meta, final, False, False)
            return True
        robots = robots_directives(doc, [v for k, v in record.headers
                                         if k.lower() == "x-robots-tag"])
        self._page(doc, url, final, meta, row, robots)
        return True

    def _page(self, doc, url: str, final: str, meta: dict, row: dict,
              robots: frozenset = frozenset()) -> None:
        """The item pipelines, then the spider's feedback and link scoring."""
        state = self.state
        extraction = extract_document(doc, method="auto")
        relevance, page = state.judge_relevance(
            doc, extraction.text, final,
            language=extraction.language if extraction.text else None)
        if state.learn_from == "relevant":      # as the pipelines do
            state.learn(page, relevance)
        on_topic = relevance.relevant and bool(extraction.text)
        accepted = hub = False
        if on_topic:
            kind, original, minhash = state.duplicate(url, final, extraction.text)
            refused = refusal(original if kind else None, robots,
                              link_share(doc, extraction.nodes), MAX_LINK_SHARE,
                              text_chars(extraction.text), MIN_CHARS)
            if refused is None:
                state.dedup.add(final, extraction.text, minhash)
                accepted = True
                if state.learn_from == "written":
                    state.learn(page, relevance)
            hub = refused is not None and refused[0] == "corpus/hub"
        row.update(relevance=relevance.score, on_topic=on_topic, accepted=accepted)
        links = []
        if "nofollow" not in robots and not state.echoes.repeats(
                final, extraction.title, extraction.text):      # as the spider does
            links = [link for link in extract_links(doc, final, extraction.nodes)
                     if not link.nofollow]
        if links:
            state.observe_urls([link.url for link in links])
            links = [link for link in links if link.url not in self.fetched]
        useful_hub = hub and leads_elsewhere(final, links, self.best)   # as the spider does
        self._judged(meta, final, accepted or useful_hub, on_topic)
        if not links:
            return
        urls = [link.url for link in links]
        depth = meta["depth"]
        for s in state.scorer.score(links, relevance.score, depth, state.traps.factors(urls),
                                    language=relevance.language):
            if s.score > 0.0:
                self._push(s.link.url, s.priority,
                           {"depth": depth + 1, "parent": final, "link_score": s.score,
                            "link_components": s.components, "link_features": s.features})

    def _sitemap(self, url: str, host: str, body: bytes) -> None:
        """The spider's ``parse_sitemap``: the host's listed URLs, scored on the URL alone."""
        found = read_sitemap(body)
        urls = listed_urls(found, url, host)
        if found.kind == "sitemapindex":
            for child in urls:
                if self.sitemaps.take_file(host, child):
                    self._push(child, SEED_PRIORITY, {"depth": 0, "parent": url,
                                                      "sitemap_of": host})
            return
        left = self.sitemaps.left(host)
        links = [Link(u) for u in candidates(
            [u for u in urls if u not in self.fetched and u not in self.best], left)]
        self.sitemaps.take(host, min(left, len(links)))
        for s in best_scored(self.state.scorer.score(links, 0.0, 0, self.state.traps.factors(
                [link.url for link in links]), inlinks="none"), left):
            if s.score > 0.0:
                self._push(s.link.url, s.priority,
                           {"depth": 1, "parent": url, "link_score": s.score,
                            "link_components": s.components, "link_features": s.features})

    def _judged(self, meta: dict, url: str, accepted: bool, on_topic: bool) -> None:
        self.state.judged(url, meta.get("link_features"), meta.get("link_components"),
                          accepted, on_topic)


def simulate(web: WebArchive, topic_path: str, budget: int, shuffle: int = 0,
             auto_threshold: bool = AUTO_THRESHOLD, learn_from: str = LEARN_FROM) -> list[dict]:
    crawl = SimulatedCrawl(web, topic_path, web.seeds, shuffle, auto_threshold, learn_from)
    while len(crawl.log) < budget and crawl.step():
        pass
    return crawl.log[:budget]


def measure(log: list[dict], targets: set[str], checkpoints: list[int]) -> dict:
    """Target recall at each checkpoint and the relevance filter's precision / recall / F1."""
    recall = [len({r["url"] for r in log[:n] if r["status"] == 200 and r["url"] in targets})
              / max(1, len(targets)) for n in checkpoints]
    judged = [r for r in log if r["relevance"] is not None]
    tp = sum(r["on_topic"] and r["url"] in targets for r in judged)
    fp = sum(r["on_topic"] and r["url"] not in targets for r in judged)
    fn = sum(not r["on_topic"] and r["url"] in targets for r in judged)
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return {"recall": recall, "filter": (p, r, 2 * p * r / (p + r) if p + r else 0.0)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default=str(ROOT.parent / "shared" / "testweb" / "wikischools"))
    ap.add_argument("--topic", action="append", required=True, metavar="TOML=PREFIX",
                    help="topic file and the label prefix of its targets (repeatable)")
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--checkpoints", default="250,500,1000")
    ap.add_argument("--runs", type=int, default=1,
                    help="run 1 breaks priority ties first-in first-out (as Scrapy does), "
                         "runs 2.. in a seeded random order; the table gives the mean "
                         "and the range")
    ap.add_argument("--log", type=Path, help="write the first run's fetches as JSON lines")
    ap.add_argument("--auto-threshold", choices=("on", "off"),
                    default="on" if AUTO_THRESHOLD else "off",
                    help="RELEVANCE_AUTO_THRESHOLD (default: the crawler's setting)")
    ap.add_argument("--learn-from", choices=("written", "relevant"), default=LEARN_FROM,
                    help="FEATURE_LEARN_FROM (default: the crawler's setting)")
    args = ap.parse_args(argv)
    web = load_web(args.web)
    checkpoints = [int(x) for x in args.checkpoints.split(",") if int(x) <= args.budget]
    print(f"| topic (targets) | recall at {' / '.join(map(str, checkpoints))} | "
          f"range at {checkpoints[-1]} | filter P / R / F1 | s/run |\n|---|---|---|---|---|")
    for spec in args.topic:
        path, _, prefix = spec.partition("=")
        targets = {u for u in web.labels if web.on_topic(u, prefix)}
        t0 = time.perf_counter()
        results = []
        for run in range(args.runs):
            log = simulate(web, path, args.budget, shuffle=run,
                           auto_threshold=args.auto_threshold == "on",
                           learn_from=args.learn_from)
            results.append(measure(log, targets, checkpoints))
            if args.log and run == 0:
                out = args.log.with_name(f"{args.log.stem}-{Path(path).stem}{args.log.suffix}") \
                    if len(args.topic) > 1 else args.log
                out.write_text("".join(json.dumps(row) + "\n" for row in log), encoding="utf-8")
        seconds = (time.perf_counter() - t0) / args.runs
        recall = [statistics.mean(res["recall"][k] for res in results)
                  for k in range(len(checkpoints))]
        last = [res["recall"][-1] for res in results]
        p, r, f1 = (statistics.mean(res["filter"][k] for res in results) for k in range(3))
        print(f"| {Path(path).stem} ({len(targets)}) | {' / '.join(f'{x:.3f}' for x in recall)} "
              f"| {min(last):.3f}-{max(last):.3f} | {p:.3f} / {r:.3f} / {f1:.3f} "
              f"| {seconds:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
