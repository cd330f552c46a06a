"""Publication-date benchmark on the shared pages (no gold dates exist for them).

For every page of the shared evaluation and training sets: the date our metadata gives
(``result.metadata["date"]``) and htmldate's (``find_date(original_date=True)``, the library
trafilatura uses), each with and without the page's URL.  Prints how many pages get a date,
and, as a proxy gold, agreement with the date in the page's URL (``/2012/08/09/``) on the pages
that have one, each tool reading the page without its URL: same day, or within a day (a time
zone apart).  Also the milliseconds per page each spends (ours: the whole of
``read_metadata``, every metadata field, on an already parsed page; htmldate: ``find_date`` on
the page's bytes, its own parse included).

    python bench/dates.py [--sets cleaneval-dev,...] [--show 20]
"""
from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extraction import parse  # noqa: E402
from extraction.datasets import AUTO_TRAIN_SETS, EVAL_SETS, available, load  # noqa: E402
from extraction.dates import url_date  # noqa: E402
from extraction.metadata import read_metadata  # noqa: E402

try:
    from htmldate import find_date
except ImportError:
    find_date = None


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def _htmldate(html: bytes, url: str | None) -> tuple[str | None, float]:
    t0 = time.perf_counter()
    try:
        found = find_date(html, url=url, original_date=True)
    except Exception:   # (its errors on odd pages are its result: no date)
        found = None
    return found, time.perf_counter() - t0


def _ours(html: bytes, url: str | None) -> tuple[str | None, float]:
    doc = parse(html, url)
    t0 = time.perf_counter()
    found = read_metadata(doc).get("date")
    return found, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join((*EVAL_SETS, *AUTO_TRAIN_SETS)))
    ap.add_argument("--show", type=int, default=0, help="print this many disagreements")
    args = ap.parse_args()
    names = [n for n in args.sets.split(",") if n.split(":")[0] in available()]
    tools = {"ours": _ours}
    if find_date is not None:
        tools["htmldate"] = _htmldate
    else:
        print("htmldate is not installed (pip install -e '.[bench]'): ours only")
    seen: set[Path] = set()
    rows = []
    for name in names:
        for page in load(name).pages:
            if page.path in seen:
                continue
            seen.add(page.path)
            html = page.html()
            row = {"url": page.url, "gold": url_date(page.url)}
            for tool, run in tools.items():
                row[tool], row[tool + "_s"] = run(html, page.url)
                row[tool + "_blind"], _ = run(html, None)
            rows.append(row)
    dated = [r for r in rows if r["gold"]]
    print(f"{len(rows)} pages ({', '.join(names)}); {len(dated)} with a date in their URL\n")
    print("| tool | pages with a date | ms/page | URL-dated pages read without the URL: "
          "a date | same day | within a day | other |")
    print("|---|---|---|---|---|---|---|")
    for tool in tools:
        found = sum(1 for r in rows if r[tool])
        ms = sum(r[tool + "_s"] for r in rows) / len(rows) * 1000
        blind = [(r, _day(r[tool + "_blind"]), _day(r["gold"])) for r in dated]
        some = sum(1 for _, d, _ in blind if d)
        same = sum(1 for _, d, g in blind if d and d == g)
        near = sum(1 for _, d, g in blind if d and abs((d - g).days) <= 1)
        print(f"| {tool} | {found} / {len(rows)} | {ms:.2f} | {some} / {len(dated)} | {same} | "
              f"{near} | {some - near} |")
    if "htmldate" in tools:
        both = [(_day(r["ours"]), _day(r["htmldate"])) for r in rows
                if r["ours"] and r["htmldate"]]
        agree = sum(1 for a, b in both if a and b and abs((a - b).days) <= 1)
        print(f"\nBoth give a date (URLs given) on {len(both)} pages; within a day of each other "
              f"on {agree}")
    if args.show:
        print()
        shown = 0
        for r in dated:
            day = _day(r["ours_blind"])
            if day and abs((day - _day(r["gold"])).days) > 1 and shown < args.show:
                shown += 1
                print("ours", r["ours_blind"], "url", r["gold"], r.get("htmldate_blind"), r["url"])
        if "htmldate" in tools:
            print()
            for r in rows:
                a, b = _day(r["ours"]), _day(r["htmldate"])
                if a and b and abs((a - b).days) > 1 and shown < 2 * args.show:
                    shown += 1
                    print("ours", r["ours"], "htmldate", r["htmldate"], r["url"])


if __name__ == "__main__":
    main()
