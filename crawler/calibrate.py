"""Choose a topic's relevance threshold from a finished crawl's log.

    python -m crawler.calibrate CORPUS_DIR[/crawl-log.jsonl] [--topic TOPIC.toml]
        [--labels labels.csv --prefix subject.Music] [--samples 5]

The best threshold depends on the topic file (how many of its terms a typical on-topic page
holds), so the default (0.2) fits some files and not others.  The crawl log holds every judged
page's relevance and title: this prints how many pages each threshold would accept, a histogram
of the scores, and the titles just below and just above the current threshold, for a person to
judge where on-topic pages stop.  With labels (``labels.csv`` of the test-web format, or any
``url,subjects`` CSV) it also prints precision / recall / F1 per threshold.

The figures re-judge the pages this crawl fetched: a crawl run with another threshold follows
other links and fetches other pages, so they guide the choice, they do not predict the crawl.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

DEFAULT_THRESHOLDS = tuple(round(0.05 + 0.025 * k, 3) for k in range(15))   # 0.05 .. 0.40
BAR_WIDTH = 40
BIN_WIDTH = 0.025   # relevance histogram bins


@dataclass(frozen=True)
class JudgedPage:
    url: str
    relevance: float
    title: str


def judged_pages(lines: Iterable[str]) -> list[JudgedPage]:
    """The pages of a crawl log whose relevance was computed (one per final URL, first kept).
    Lines that are not JSON objects are skipped."""
    out, seen = [], set()
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if not isinstance(row, dict) or not isinstance(row.get("relevance"), (int, float)) \
                or not math.isfinite(row["relevance"]):
            continue
        url = str(row.get("final_url") or row.get("url") or "")
        if url in seen:
            continue
        seen.add(url)
        out.append(JudgedPage(url, float(row["relevance"]), str(row.get("title") or "")))
    return out


def read_labels(path: str | Path, prefix: str) -> set[str]:
    """URLs labelled ``prefix`` or a subject below it in a ``url,subjects`` CSV (subjects
    joined by ``;``)."""
    with open(path, encoding="utf-8-sig", newline="") as fh:     # a BOM (Excel) is dropped
        return {row["url"] for row in csv.DictReader(fh)
                if any(s == prefix or s.startswith(prefix + ".")
                       for s in (row.get("subjects") or "").split(";"))}


def threshold_table(pages: Sequence[JudgedPage], thresholds: Sequence[float],
                    positives: set[str] | None = None) -> list[dict]:
    """Per threshold: pages accepted, their share, and with ``positives`` precision / recall /
    F1 against them (over the judged pages)."""
    rows = []
    relevant = sum(p.url in positives for p in pages) if positives is not None else 0
    for t in thresholds:
        accepted = [p for p in pages if p.relevance >= t]
        row = {"threshold": t, "accepted": len(accepted),
               "share": len(accepted) / len(pages) if pages else 0.0}
        if positives is not None:
            tp = sum(p.url in positives for p in accepted)
            precision = tp / len(accepted) if accepted else 0.0
            recall = tp / relevant if relevant else 0.0
            row.update(precision=precision, recall=recall,
                       f1=2 * precision * recall / (precision + recall)
                       if precision + recall else 0.0)
        rows.append(row)
    return rows


def histogram(pages: Sequence[JudgedPage], width: float = BIN_WIDTH, top: float = 0.5
              ) -> list[tuple[float, int]]:
    """Counts of relevance scores per bin ``[lo, lo + width)``; the last bin takes all from
    ``top - width`` up."""
    bins = int(round(top / width))
    counts = [0] * bins
    for p in pages:
        counts[min(bins - 1, max(0, _bin(p.relevance, width)))] += 1
    return [(round(k * width, 4), c) for k, c in enumerate(counts)]


def _bin(value: float, width: float) -> int:
    """Index of the bin ``[k * width, (k + 1) * width)`` holding ``value``; a value on an edge
    (0.3 with width 0.025, which floats put just below 12) goes to the bin it starts."""
    return math.floor(value / width + 1e-9)


def around(pages: Sequence[JudgedPage], threshold: float, band: float, n: int
           ) -> tuple[list[JudgedPage], list[JudgedPage]]:
    """Up to ``n`` pages just below and just above ``threshold`` (within ``band``), closest
    first."""
    below = sorted((p for p in pages if threshold - band <= p.relevance < threshold),
                   key=lambda p: -p.relevance)
    above = sorted((p for p in pages if threshold <= p.relevance < threshold + band),
                   key=lambda p: p.relevance)
    return below[:n], above[:n]


def report(pages: Sequence[JudgedPage], threshold: float, positives: set[str] | None = None,
           samples: int = 5) -> str:
    if not pages:
        return "no judged page in the log (no line with a relevance score)"
    from .relevance.threshold import valley_threshold

    auto = valley_threshold([p.relevance for p in pages], threshold)
    out = [f"{len(pages)} judged pages; at the current threshold {threshold:g}: "
           f"{sum(p.relevance >= threshold for p in pages)} on topic",
           f"the automatic threshold's rule on these pages: {auto.value:g} ({auto.reason})", ""]
    hist = histogram(pages)
    peak = max(c for _, c in hist) or 1
    out.append("relevance  pages")
    at = min(len(hist) - 1, _bin(threshold, BIN_WIDTH))
    for k, (lo, c) in enumerate(hist):
        mark = " <- threshold" if k == at else ""
        out.append(f"{lo:5.3f}  {c:6d}  {'#' * round(BAR_WIDTH * c / peak)}{mark}")
    out.append("")
    table = threshold_table(pages, sorted(set(DEFAULT_THRESHOLDS) | {threshold}), positives)
    head = "| threshold | on topic | share |" + (" precision | recall | F1 |"
                                               if positives is not None else "")
    out += [head, "|" + "---|" * (head.count("|") - 1)]
    for row in table:
        line = f"| {row['threshold']:g} | {row['accepted']} | {row['share']:.3f} |"
        if positives is not None:
            line += f" {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f} |"
        out.append(line)
    below, above = around(pages, threshold, 0.05, samples)
    out += ["", f"just below {threshold:g} (rejected):"]
    out += [f"  {p.relevance:.3f}  {p.title or '(no title)'}  {p.url}" for p in below] or \
        ["  (none)"]
    out += [f"just above {threshold:g} (accepted):"]
    out += [f"  {p.relevance:.3f}  {p.title or '(no title)'}  {p.url}" for p in above] or \
        ["  (none)"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m crawler.calibrate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log", type=Path,
                    help="a crawl's crawl-log.jsonl, or its CORPUS_DIR (holding one)")
    ap.add_argument("--topic", type=Path, help="topic file (its threshold is the current one)")
    ap.add_argument("--threshold", type=float, help="current threshold (default: the topic "
                    "file's, else the one an automatic threshold ended at (crawl-summary.json "
                    "beside the log), else the model default)")
    ap.add_argument("--labels", type=Path, help="url,subjects CSV of known labels")
    ap.add_argument("--prefix", help="the subject prefix of the topic in --labels")
    ap.add_argument("--samples", type=int, default=5)
    args = ap.parse_args(argv)
    if args.log.is_dir():                       # a corpus folder, as crawler.report takes
        args.log = args.log / "crawl-log.jsonl"
    if (args.labels is None) != (args.prefix is None):
        ap.error("--labels and --prefix go together")
    from .relevance.model import THRESHOLD
    threshold = args.threshold
    if threshold is None and args.topic is not None:
        from .relevance.topic import TopicError, load_topic
        try:
            threshold = load_topic(args.topic).threshold
        except (OSError, TopicError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    if threshold is None:       # a crawl run with the automatic threshold says where it ended
        summary = args.log.parent / "crawl-summary.json"
        try:
            threshold = json.loads(summary.read_text(encoding="utf-8")).get(
                "relevance/threshold")
        except (OSError, ValueError, AttributeError):
            threshold = None
    try:
        threshold = THRESHOLD if threshold is None else float(threshold)
        if not 0.0 <= threshold <= 1.0:        # nan and inf included
            raise ValueError(f"threshold {threshold!r} is not a number from 0 to 1")
    except (TypeError, ValueError) as err:     # a summary edited by hand: "0.2x"
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        with open(args.log, encoding="utf-8", errors="replace") as fh:
            pages = judged_pages(fh)
        positives = read_labels(args.labels, args.prefix) if args.labels else None
    except (OSError, KeyError, ValueError, csv.Error) as err:    # UnicodeDecodeError too
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(report(pages, threshold, positives, args.samples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
