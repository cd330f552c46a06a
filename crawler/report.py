"""A crawl's report from its crawl log: ``python -m crawler.report CORPUS_DIR`` (or the log).

For a crawl run by hand or from cron: how many fetches it made and what they were (statuses,
errors), how many pages it judged on topic and wrote, why the others were not written, how its
harvest rate (documents written per fetch) moved as the crawl went on, and which hosts took the
fetches.  A job's runs append to one crawl log, so the figures cover every run in it; the
stats of ``crawl-summary.json`` are the last run's.  ``--json`` prints the same figures for a monitoring job.  Pure functions over the
log's rows (:func:`summarise`, :func:`render`); the stop reason and a few stats come from
``crawl-summary.json`` beside the log when it is there.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Sequence
from urllib.parse import urlsplit

WINDOWS = 10            # harvest is reported over this many stretches of the crawl
TOP_HOSTS = 10
SUMMARY_KEYS = ("crawl/stop_reason", "elapsed_time_seconds", "relevance/threshold",
                "backoff/hosts", "robotstxt/unavailable/hosts", "robotstxt/crawl_delay/hosts",
                "failed/kept", "sitemaps/urls_queued", "feeds/queued")


def outcome(row: dict[str, Any]) -> str:
    """What became of one fetch: ``written``, or why not (``off topic``, ``duplicate``,
    ``HTTP 404``, ``not HTML``, ``error``, ``listing`` for a sitemap or feed, ...)."""
    if row.get("accepted"):
        return "written"
    if row.get("error"):
        return "error"
    text = (row.get("reason") or row.get("note") or "").strip()
    low = text.lower()
    if "duplicate of" in low:
        return "duplicate"
    if low.startswith(("sitemap", "feed", "not a sitemap", "not a feed")):
        return "listing"
    if low.startswith("hub page"):
        return "hub"
    if not text:
        return "not judged"
    return text.split(":", 1)[0].strip()


def _host(row: dict[str, Any]) -> str:
    return urlsplit(row.get("final_url") or row.get("url") or "").hostname or "?"


def summarise(rows: Iterable[dict[str, Any]], windows: int = WINDOWS,
              top_hosts: int = TOP_HOSTS) -> dict[str, Any]:
    """The report's figures for the crawl-log ``rows`` (robots.txt rows left out: they are
    not fetches of the crawl's budget)."""
    fetches = [r for r in rows if not r.get("robots")]
    n = len(fetches)
    statuses = Counter(str(r["status"]) if r.get("status") is not None else "error"
                       for r in fetches)
    outcomes = Counter(outcome(r) for r in fetches)
    judged = [r for r in fetches if r.get("relevance") is not None]
    written = outcomes.get("written", 0)
    parts = min(max(1, windows), n)
    bounds = [round(i * n / parts) for i in range(parts + 1)] if n else []
    stretches = []
    for start, end in zip(bounds, bounds[1:]):
        hits = sum(1 for r in fetches[start:end] if r.get("accepted"))
        stretches.append({"fetches": f"{start + 1}-{end}", "written": hits,
                          "harvest": round(hits / (end - start), 3)})
    hosts: dict[str, list[int]] = {}
    for r in fetches:
        counts = hosts.setdefault(_host(r), [0, 0])
        counts[0] += 1
        counts[1] += bool(r.get("accepted"))
    busiest = sorted(hosts.items(), key=lambda kv: (-kv[1][0], kv[0]))[:top_hosts]
    return {
        "fetches": n,
        "statuses": dict(statuses.most_common()),
        "judged": len(judged),
        "on_topic": sum(1 for r in judged if r.get("on_topic")),
        "written": written,
        "harvest": round(written / n, 3) if n else 0.0,
        "outcomes": dict(outcomes.most_common()),
        "harvest_by_stretch": stretches,
        "hosts": {"count": len(hosts),
                  "busiest": [{"host": h, "fetches": c[0], "written": c[1],
                               "harvest": round(c[1] / c[0], 3)} for h, c in busiest]},
    }


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return lines


def render(report: dict[str, Any], stats: dict[str, Any] | None = None) -> str:
    """The report as Markdown text (``stats``: the last run's ``crawl-summary.json``)."""
    n = report["fetches"]
    out = [f"fetches: {n}  judged: {report['judged']}  on topic: {report['on_topic']}  "
           f"written: {report['written']}  harvest: {report['harvest']:.3f}  (every run in "
           f"the log)"]
    if stats:
        known = [f"{k}: {stats[k]}" for k in SUMMARY_KEYS if k in stats]
        if known:
            out.append("last run: " + "  ".join(known))
    out += ["", "Outcome of each fetch:", ""]
    out += _table(("outcome", "fetches", "share"),
                  ((k, v, f"{v / n:.1%}") for k, v in report["outcomes"].items()))
    out += ["", "Statuses:", ""]
    out += _table(("status", "fetches"), report["statuses"].items())
    out += ["", "Harvest as the crawl went on (documents written per fetch):", ""]
    out += _table(("fetches", "written", "harvest"),
                  ((s["fetches"], s["written"], f"{s['harvest']:.3f}")
                   for s in report["harvest_by_stretch"]))
    hosts = report["hosts"]
    out += ["", f"Hosts: {hosts['count']}; the busiest:", ""]
    out += _table(("host", "fetches", "written", "harvest"),
                  ((h["host"], h["fetches"], h["written"], f"{h['harvest']:.3f}")
                   for h in hosts["busiest"]))
    return "\n".join(out) + "\n"


def read_log(path: Path) -> list[dict[str, Any]]:
    """The rows of a crawl log; a line that is not a JSON object (a torn last line of a crawl
    killed mid-write, cut inside a character or not) is skipped."""
    rows = []
    with open(path, "rb") as handle:
        for line in handle:
            try:
                row = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if isinstance(row, dict):
                rows.append(row)
    return rows


def _paths(target: Path) -> tuple[Path, Path]:
    if target.is_dir():
        return target / "crawl-log.jsonl", target / "crawl-summary.json"
    return target, target.with_name("crawl-summary.json")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m crawler.report", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", help="CORPUS_DIR (holding crawl-log.jsonl) or a crawl log")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--windows", type=int, default=WINDOWS,
                    help=f"stretches of the crawl for the harvest table (default {WINDOWS})")
    args = ap.parse_args(argv)
    log_path, summary_path = _paths(Path(args.target))
    if not log_path.is_file():
        print(f"no crawl log at {log_path}", file=sys.stderr)
        return 2
    report = summarise(read_log(log_path), windows=max(1, args.windows))
    stats = None
    if summary_path.is_file():
        try:
            stats = json.loads(summary_path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            stats = None
    if args.json:
        if stats:
            report["stats"] = {k: stats[k] for k in SUMMARY_KEYS if k in stats}
        print(json.dumps(report, indent=2))
    else:
        print(render(report, stats), end="")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:         # piped into a reader that stopped (``| head``)
        from extraction.cli import quiet_broken_pipe

        sys.exit(quiet_broken_pipe())
