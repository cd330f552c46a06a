"""Crawl benchmark on a labelled test web (shared/testweb format), over real loopback HTTP.

    python bench/crawl.py --web ../shared/testweb/wikischools \\
        --topic settings/topics/science.toml=subject.Science [--topic T=PREFIX ...] \\
        [--budgets 250,500,1000,2000] [--strategies bfs,parent,focused] \\
        [--set RELEVANCE_AUTO_THRESHOLD=False ...]

For every topic, the same seeds (the web's seeds.txt) and budget: breadth-first, best-first on
the parent page's relevance (as judged by our relevance pipeline) and the full focused crawler.
Prints harvest rate and target recall at each budget (a fetch = one response, robots.txt
excluded, redirects and 404s included), the relevance filter's precision / recall / F1 against
the labels of the fetched pages, and pages/s of the full pipeline against a fetch-only crawl
in the same run.  Each crawl runs in its own process with a fresh state; the web is served by
one proxy in this process.  The machine's speed drifts by 10% and more within a run of the
benchmark, so a fetch-only crawl runs right before every topic's crawls and each full-pipeline
rate is compared with that one (``--fetch-only once``: one fetch-only crawl for all).
``--set`` passes a Scrapy setting to the topic crawls (not to the fetch-only one).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.run import FAST_LOCAL, run_crawl  # noqa: E402
from crawler.testweb.archive import load_web  # noqa: E402
from crawler.testweb.server import serve_in_thread  # noqa: E402

DEFAULT_TOPICS = {
    "information-technology": "subject.IT",
    "mathematics": "subject.Mathematics",
    "music": "subject.Music",
    "science": "subject.Science",
}


def fetches(log_path: Path) -> list[dict]:
    rows = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if not r.get("robots")]


def measure(rows: list[dict], web, prefix: str, budgets: list[int]) -> dict:
    targets = {u for u in web.labels if web.on_topic(u, prefix)}
    out = {"targets": len(targets), "fetches": len(rows), "budgets": {}}
    for n in budgets:
        first = rows[:n]
        hits = [r["final_url"] for r in first if r.get("status") == 200
                and r["final_url"] in targets]
        out["budgets"][n] = {"harvest": len(hits) / n if len(rows) >= n else None,
                             "harvest_partial": len(hits) / max(1, len(first)),
                             "recall": len(set(hits)) / max(1, len(targets))}
    judged = [r for r in rows if r.get("status") == 200 and r.get("relevance") is not None]
    tp = sum(1 for r in judged if r.get("on_topic") and r["final_url"] in targets)
    fp = sum(1 for r in judged if r.get("on_topic") and r["final_url"] not in targets)
    fn = sum(1 for r in judged if not r.get("on_topic") and r["final_url"] in targets)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    out["filter"] = {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
                     "judged": len(judged)}
    return out


def crawl(topic: Path, seeds: list[str], strategy: str, budget: int, proxy: str,
          workdir: Path, spider: str = "topic", extra: dict | None = None
          ) -> tuple[Path, dict]:
    out = workdir / f"{topic.stem}-{strategy}"
    shutil.rmtree(out, ignore_errors=True)
    settings = dict(FAST_LOCAL, CORPUS_DIR=str(out / "corpus"), STATE_DIR=str(out / "state"),
                    CLOSESPIDER_PAGECOUNT=str(budget + 20), LOG_LEVEL="INFO",
                    STALL_TIMEOUT="60", **(extra or {}))
    started = time.time()
    if spider == "fetchonly":
        settings = dict(FAST_LOCAL, CLOSESPIDER_PAGECOUNT=str(budget), LOG_LEVEL="INFO")
        import os
        import subprocess
        env = dict(os.environ, SCRAPY_SETTINGS_MODULE="crawler.settings", http_proxy=proxy,
                   PYTHONPATH=str(ROOT))
        out.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "scrapy", "crawl", "fetchonly", "-a",
               "seed=" + ",".join(seeds), "-s", "STATS_DUMP=True"]
        for k, v in settings.items():
            cmd += ["-s", f"{k}={v}"]
        with open(out / "scrapy.log", "w") as log:
            subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, check=False)
        text = (out / "scrapy.log").read_text()
        elapsed = _stat(text, "elapsed_time_seconds")
        count = _stat(text, "response_received_count")
        return out, {"elapsed": elapsed or time.time() - started, "responses": count or 0}
    run_crawl(topic, seeds, settings, proxy=proxy,
              spider_args={"strategy": strategy}, log_file=out.with_suffix(".log"))
    summary = json.loads((out / "corpus" / "crawl-summary.json").read_text())
    return out, {"elapsed": summary.get("elapsed_time_seconds") or time.time() - started,
                 "responses": summary.get("fetch/responses", 0),
                 "documents": summary.get("corpus/documents", 0),
                 "stop": summary.get("crawl/stop_reason"),
                 "threshold": summary.get("relevance/threshold")}


def _stat(text: str, key: str) -> float | None:
    for line in text.splitlines():
        if f"'{key}':" in line:
            try:
                return float(line.split(":", 1)[1].strip().rstrip(",}"))
            except ValueError:
                return None
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default=str(ROOT.parent / "shared" / "testweb" / "wikischools"))
    ap.add_argument("--topic", action="append", default=[],
                    help="TOPIC.toml=LABEL_PREFIX (repeatable; default: the four topics)")
    ap.add_argument("--budgets", default="250,500,1000,2000")
    ap.add_argument("--strategies", default="bfs,parent,focused")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "crawl.json"))
    ap.add_argument("--fetch-only", choices=("paired", "once"), default="paired",
                    help="a fetch-only crawl before every topic (default) or once")
    ap.add_argument("--set", action="append", default=[], metavar="SETTING=VALUE",
                    help="a Scrapy setting for the topic crawls, e.g. "
                         "RELEVANCE_AUTO_THRESHOLD=False (repeatable)")
    args = ap.parse_args(argv)
    extra = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            ap.error(f"--set {item!r}: expected SETTING=VALUE")
        extra[key.strip()] = value
    budgets = [int(b) for b in args.budgets.split(",")]
    topics = []
    for spec in args.topic or [f"{ROOT}/settings/topics/{k}.toml={v}"
                               for k, v in DEFAULT_TOPICS.items()]:
        path, _, prefix = spec.partition("=")
        topics.append((Path(path), prefix))
    strategies = args.strategies.split(",")
    web = load_web(args.web)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="crawlbench-"))
    report = {"web": args.web, "budgets": budgets, "settings": extra, "topics": {}}
    with serve_in_thread(web) as server:
        print(f"serving {len(web.records)} URLs at {server.proxy_url}; work dir {workdir}",
              file=sys.stderr)
        fetch_only = None
        for topic, prefix in topics:
            if fetch_only is None or args.fetch_only == "paired":
                _, fetch_only = crawl(Path("fetchonly"), web.seeds, "fetchonly", max(budgets),
                                      server.proxy_url, workdir, spider="fetchonly")
                report.setdefault("fetch_only", fetch_only)
            report["topics"][topic.stem] = {"fetch_only": fetch_only}
            for strategy in strategies:
                print(f"crawling {topic.stem} ({strategy}) ...", file=sys.stderr, flush=True)
                out, run = crawl(topic, web.seeds, strategy, max(budgets), server.proxy_url,
                                 workdir, extra=extra)
                result = measure(fetches(out / "corpus" / "crawl-log.jsonl"), web, prefix,
                                 budgets)
                result["run"] = run
                report["topics"][topic.stem][strategy] = result
    _print(report, budgets, strategies)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


def _print(report: dict, budgets: list[int], strategies: list[str]) -> None:
    b = " / ".join(str(x) for x in budgets)
    print(f"\nTarget recall (harvest rate) at {b} fetches:\n")
    print("| topic (targets) | " + " | ".join(strategies) + " |")
    print("|---|" + "---|" * len(strategies))
    for name, runs in report["topics"].items():
        any_run = runs[strategies[0]]
        cells = []
        for s in strategies:
            bud = runs[s]["budgets"]
            cells.append(" / ".join(f"{bud[n]['recall']:.3f}" for n in budgets) + " ("
                         + " / ".join(f"{bud[n]['harvest_partial']:.2f}" for n in budgets) + ")")
        print(f"| {name} ({any_run['targets']}) | " + " | ".join(cells) + " |")
    print("\nRelevance filter on the fetched pages of the focused crawl (P / R / F1, pages "
          "judged):\n")
    print("| topic | precision | recall | F1 | judged | final threshold |\n"
          "|---|---|---|---|---|---|")
    for name, runs in report["topics"].items():
        run = runs.get("focused", runs[strategies[0]])
        f, eta = run["filter"], run["run"].get("threshold")
        print(f"| {name} | {f['precision']:.3f} | {f['recall']:.3f} | {f['f1']:.3f} | "
              f"{f['judged']} | {'-' if eta is None else f'{eta:.3f}'} |")
    print("\nThroughput over loopback (one crawl process; fetch-only: no extraction, no "
          "scoring, run just before the topic's crawls):\n")
    print("| topic | fetch-only pages/s | full pipeline responses | seconds | pages/s | "
          "full / fetch-only |\n|---|---|---|---|---|---|")
    for name, runs in report["topics"].items():
        if "focused" in runs:
            fo = runs["fetch_only"]
            fo_rate = fo["responses"] / fo["elapsed"] if fo["elapsed"] else 0.0
            r = runs["focused"]["run"]
            rate = r["responses"] / r["elapsed"] if r["elapsed"] else 0.0
            print(f"| {name} | {fo_rate:.1f} | {r['responses']} | {r['elapsed']:.1f} | "
                  f"{rate:.1f} | {rate / fo_rate if fo_rate else 0.0:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
