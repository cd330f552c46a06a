"""``python -m crawler.demo``: a real focused crawl of the built-in demo web over loopback.

Serves ``crawler/demo/web.warc.gz`` as an HTTP proxy on 127.0.0.1, runs
``scrapy crawl topic`` on the demo topic through it, and shows where the corpus is.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from ..run import FAST_LOCAL, run_crawl
from ..testweb.archive import DEMO_DIR, load_web
from ..testweb.server import serve_in_thread


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m crawler.demo", description=__doc__)
    ap.add_argument("--out", default="demo-output",
                    help="folder for the demo's corpus/ and state/ (replaced at each run "
                         "unless --keep) and crawl.log (the last run's Scrapy log); nothing "
                         "else in it is touched")
    ap.add_argument("--method", default="auto", help="EXTRACTION_METHOD")
    ap.add_argument("--keep", action="store_true",
                    help="continue the earlier demo output's corpus and state")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        ap.error(f"--out {out}: not a folder")
    corpus, state, scrapy_log = out / "corpus", out / "state", out / "crawl.log"
    if not args.keep:
        for path in (corpus, state):
            if path.is_dir():
                shutil.rmtree(path)
    out.mkdir(parents=True, exist_ok=True)
    before = set(_shards(corpus))
    web = load_web(DEMO_DIR)
    with serve_in_thread(web) as server:
        print(f"demo web: {len(web.records)} URLs on {', '.join(sorted(web.hosts))}, "
              f"served by the proxy {server.proxy_url}")
        settings = dict(FAST_LOCAL, CORPUS_DIR=str(corpus), STATE_DIR=str(state),
                        EXTRACTION_METHOD=args.method, LOG_LEVEL="INFO")
        result = run_crawl(DEMO_DIR / "topic.toml", web.seeds, settings, proxy=server.proxy_url,
                           log_file=scrapy_log)
    rows = [json.loads(line) for p in _shards(corpus) if p not in before
            for line in p.read_text(encoding="utf-8").splitlines()]
    log_lines = corpus / "crawl-log.jsonl"
    fetched = len(log_lines.read_text(encoding="utf-8").splitlines()) if log_lines.is_file() else 0
    print(f"\ncrawl exit code {result.returncode}; {fetched} responses logged, "
          f"{len(rows)} on-topic documents written by this run")
    if result.returncode:
        errors = [line for line in scrapy_log.read_text(encoding="utf-8").splitlines()
                  if " ERROR: " in line or " CRITICAL: " in line]
        for line in errors[-5:]:
            print(f"  {line}")
        print(f"the crawl's log: {scrapy_log}")
    for row in rows[:12]:
        print(f"  {row['relevance']:.3f}  {row['language'] or '?':2s}  {row['title']}")
    print(f"\ncorpus:    {corpus / 'documents'}/part-*.jsonl")
    print(f"crawl log: {log_lines}")
    print(f"state:     {state}")
    print(f"report:    python -m crawler.report {corpus}")
    return 0 if result.returncode == 0 and (rows or args.keep) else 1


def _shards(corpus: Path) -> list[Path]:
    return sorted((corpus / "documents").glob("part-*.jsonl"))


if __name__ == "__main__":
    sys.exit(main())
