"""Crawler traps: where the budget goes on a generated blog full of traps (crawler/demo/trapweb.py).

    python bench/traps.py [--budgets 50,100,200,400] [--strategies bfs,focused]

Generates the trap web in a temporary folder, crawls it over loopback from its home page with
each strategy (the same process per crawl as ``bench/crawl.py``) and prints, per strategy, the
recall of the 22 renewable-energy posts at each budget and what the fetches were: posts,
printer views (the ``print/print/...`` loop), calendar months, listing pages past the last
post (endless pagination), faceted search pages, URLs with a session id, and the rest; the
number of fetches and of documents written.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from crawl import crawl, fetches, measure  # noqa: E402

from crawler.demo import trapweb  # noqa: E402
from crawler.testweb import load_web, serve_in_thread  # noqa: E402

KINDS = ("post", "print view", "calendar", "empty listing", "search facet", "session id", "other")
LAST_LISTING = -(-len(trapweb.POSTS) // trapweb.PER_PAGE)


def kind_of(url: str) -> str:
    if "sessionid=" in url:
        return "session id"
    if "/print/" in url:
        return "print view"
    if "/calendar/" in url:
        return "calendar"
    if "/search/" in url:
        return "search facet"
    m = re.search(r"/page/(\d+)/", url)
    if m and int(m.group(1)) > LAST_LISTING:
        return "empty listing"
    if "/posts/" in url:
        return "post"
    return "other"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budgets", default="50,100,200,400")
    ap.add_argument("--strategies", default="bfs,focused")
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="trapbench-"))
    web_dir = workdir / "trapweb"
    trapweb.build(web_dir)
    web = load_web(web_dir)
    rows = {}
    with serve_in_thread(web) as server:
        for strategy in args.strategies.split(","):
            out, run = crawl(web_dir / "topic.toml", web.seeds, strategy, max(budgets),
                             server.proxy_url, workdir)
            log = fetches(out / "corpus" / "crawl-log.jsonl")
            rows[strategy] = (measure(log, web, "subject.Energy", budgets),
                              Counter(kind_of(r["final_url"]) for r in log[:max(budgets)]), run)
    print(f"\nEnergy posts ({rows[next(iter(rows))][0]['targets']}) fetched, recall at "
          f"{' / '.join(map(str, budgets))} fetches, and the first {max(budgets)} fetches by "
          "kind:\n")
    print("| strategy | recall | " + " | ".join(KINDS) + " | fetches | documents | stop |")
    print("|---|---|" + "---|" * len(KINDS) + "---|---|---|")
    for strategy, (m, kinds, run) in rows.items():
        recall = " / ".join(f"{m['budgets'][n]['recall']:.2f}" for n in budgets)
        print(f"| {strategy} | {recall} | " + " | ".join(str(kinds[k]) for k in KINDS)
              + f" | {m['fetches']} | {run.get('documents')} | {run.get('stop') or '-'} |")
    print(json.dumps({s: dict(k) for s, (_, k, _) in rows.items()}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
