"""Draft topic files from labelled example pages of a test web (``crawler/topic_draft.py``).

For each ``--topic NAME=PREFIX`` it draws ``--positives`` pages labelled with the prefix and
``--negatives`` pages labelled with other subjects (seeded, so the same examples every run),
drafts a topic file from them and writes it, with the list of the example URLs, to ``--out``.
Crawl with the draft in simulation to compare it with a hand-written file:

    python bench/topic_draft_eval.py --topic music=subject.Music --out /tmp/drafts
    python bench/crawl_sim.py --topic /tmp/drafts/music.toml=subject.Music
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.testweb.archive import load_web  # noqa: E402
from crawler.topic_draft import draft, example_from_html, to_toml  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default=str(ROOT.parent / "shared" / "testweb" / "wikischools"))
    ap.add_argument("--topic", action="append", required=True, metavar="NAME=PREFIX")
    ap.add_argument("--positives", type=int, default=20)
    ap.add_argument("--negatives", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threshold-rule", default="recall")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    web = load_web(args.web)
    args.out.mkdir(parents=True, exist_ok=True)
    pages = sorted(u for u, subjects in web.labels.items() if subjects
                   and (rec := web.get(u)) is not None and rec.status == 200
                   and "html" in rec.content_type)
    for spec in args.topic:
        name, prefix = spec.split("=", 1)
        rng = random.Random(f"{args.seed}:{prefix}")
        on = [u for u in pages if web.on_topic(u, prefix)]
        off = [u for u in pages if not web.on_topic(u, prefix)]
        chosen = (rng.sample(on, min(args.positives, len(on))),
                  rng.sample(off, min(args.negatives, len(off))))
        examples = [[ex for u in urls if not isinstance(
            ex := example_from_html(web.get(u).body, u, u), str)] for urls in chosen]
        start = time.perf_counter()
        d = draft(name, *examples, threshold_rule=args.threshold_rule)
        seconds = time.perf_counter() - start
        (args.out / f"{name}.toml").write_text(to_toml(d), encoding="utf-8")
        (args.out / f"{name}.examples.txt").write_text(
            "".join(f"{kind} {u}\n" for kind, urls in zip(("+", "-"), chosen) for u in urls),
            encoding="utf-8")
        cv = "" if d.cv is None else " / ".join(f"{v:.2f}" for v in d.cv)
        print(f"{name}: {len(examples[0])} positive, {len(examples[1])} negative examples "
              f"({len(on)} pages labelled {prefix}); {len(d.subjects)} subjects, "
              f"{len(d.terms)} terms, threshold {d.threshold}, out-of-fold P / R / F1 {cv}; "
              f"{seconds:.1f} s")
        print("  terms:", ", ".join(c.surface for c in d.terms[:25]))
        print("  subjects:", ", ".join(c.surface for c in d.subjects[:15]))


if __name__ == "__main__":
    main()
