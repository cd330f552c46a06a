"""Per-page cost of the focused crawler's own work, without the network or Scrapy.

Replays the pages of a crawl log (``crawl-log.jsonl`` of a crawl of a shared test web, e.g. from
``bench/crawl.py --workdir DIR``) in their fetch order through what the spider and the item
pipelines do for each page (parse, extraction, relevance analysis and scoring, the feature
library, link extraction, link scoring, feedback) with one fresh crawl state, and prints
milliseconds per page for each stage.

    python bench/pipeline_replay.py --log DIR/science-focused/corpus/crawl-log.jsonl \\
        --topic settings/topics/science.toml [--web ../shared/testweb/wikischools] [--pages 600]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.links import extract_links  # noqa: E402
from crawler.relevance.topic import load_topic  # noqa: E402
from crawler.state import CrawlState  # noqa: E402
from crawler.testweb.archive import load_web  # noqa: E402
from extraction import extract_document, parse  # noqa: E402


def replay_pages(log: Path, web_dir: str, limit: int) -> list[tuple[str, bytes, int]]:
    """(url, body, depth) of the logged 200 responses the web holds, in log order."""
    web = load_web(web_dir)
    pages = []
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        url = row.get("final_url") or row["url"]
        record = web.records.get(url)
        if row.get("status") == 200 and record is not None and record.body:
            pages.append((url, record.body, int(row.get("depth") or 0)))
        if len(pages) >= limit:
            break
    return pages


def replay(pages: list[tuple[str, bytes, int]], topic_path: str) -> Counter:
    """Seconds spent per stage over ``pages``."""
    state = CrawlState.open(tempfile.mkdtemp(prefix="replay-state-"), load_topic(topic_path))
    spent: Counter = Counter()
    clock = time.perf_counter

    for url, body, depth in pages:
        t0 = clock()
        doc = parse(body, url, "text/html")
        t1 = clock()
        extraction = extract_document(doc, method="auto")
        t2 = clock()
        model = state.relevance
        page = model.analyse(doc, extraction.text, url,
                             extraction.language if extraction.text else None)
        t3 = clock()
        state.frequencies.add(page.terms)
        relevance = model.score_page(page)
        t4 = clock()
        state.library.observe(page, relevance, model.vector, state.frequencies.idf_many)
        t5 = clock()
        links = [link for link in extract_links(doc, url, extraction.nodes) if not link.nofollow]
        t6 = clock()
        urls = [link.url for link in links]
        state.observe_urls(urls)
        scored = state.scorer.score(links, relevance.score, depth, state.traps.factors(urls),
                                    language=relevance.language)
        t7 = clock()
        accepted = relevance.relevant and bool(extraction.text)
        first = scored[0] if scored else None
        state.judged(url, first.features if first else None,
                     first.components if first else None, accepted, on_topic=accepted)
        t8 = clock()
        for name, a, b in (("parse", t0, t1), ("extraction (auto)", t1, t2),
                           ("relevance analysis", t2, t3), ("relevance scoring", t3, t4),
                           ("feature library", t4, t5), ("link extraction", t5, t6),
                           ("link scoring", t6, t7), ("feedback", t7, t8)):
            spent[name] += b - a
    return spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", type=Path, required=True, help="crawl-log.jsonl to replay")
    ap.add_argument("--topic", default=str(ROOT / "settings" / "topics" / "science.toml"))
    ap.add_argument("--web", default=str(ROOT.parent / "shared" / "testweb" / "wikischools"))
    ap.add_argument("--pages", type=int, default=600)
    args = ap.parse_args(argv)
    pages = replay_pages(args.log, args.web, args.pages)
    if not pages:
        print(f"no replayable pages in {args.log}", file=sys.stderr)
        return 1
    spent = replay(pages, args.topic)
    n = len(pages)
    print(f"| stage | ms/page ({n} pages) |\n|---|---|")
    for name, seconds in spent.most_common():
        print(f"| {name} | {seconds / n * 1000:.2f} |")
    print(f"| all | {sum(spent.values()) / n * 1000:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
