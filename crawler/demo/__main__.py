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
    ap.add_argument("--out", default="demo-output", help="folder for corpus/ and state/")
    ap.add_argument("--method", default="auto", help="EXTRACTION_METHOD")
    ap.add_argument("--keep", action="store_true", help="keep an earlier demo output")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not args.keep:
        shutil.rmtree(out)
    web = load_web(DEMO_DIR)
    with serve_in_thread(web) as server:
        print(f"demo web: {len(web.records)} URLs on {', '.join(sorted(web.hosts))}, "
              f"served by the proxy {server.proxy_url}")
        settings = dict(FAST_LOCAL, CORPUS_DIR=str(out / "corpus"), STATE_DIR=str(out / "state"),
                        EXTRACTION_METHOD=args.method, LOG_LEVEL="INFO")
        result = run_crawl(DEMO_DIR / "topic.toml", web.seeds, settings, proxy=server.proxy_url)
    docs = sorted((out / "corpus" / "documents").glob("part-*.jsonl"))
    rows = [json.loads(line) for p in docs for line in p.read_text(encoding="utf-8").splitlines()]
    log_lines = (out / "corpus" / "crawl-log.jsonl")
    fetched = len(log_lines.read_text(encoding="utf-8").splitlines()) if log_lines.is_file() else 0
    print(f"\ncrawl exit code {result.returncode}; {fetched} responses logged, "
          f"{len(rows)} on-topic documents written")
    for row in rows[:12]:
        print(f"  {row['relevance']:.3f}  {row['language'] or '?':2s}  {row['title']}")
    print(f"\ncorpus:    {out / 'corpus' / 'documents'}/part-*.jsonl")
    print(f"crawl log: {log_lines}")
    print(f"state:     {out / 'state'}")
    print(f"report:    python -m crawler.report {out / 'corpus'}")
    return 0 if result.returncode == 0 and rows else 1


if __name__ == "__main__":
    sys.exit(main())
