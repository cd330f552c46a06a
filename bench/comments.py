"""Reader comments (extraction/comments.py) on the real pages: how many pages get comments,
what the step costs, CleanEval's F1 with and without them, and a random sample to judge.

    python bench/comments.py [--sample 20] [--seed 20261202]

No set has gold comments.  CleanEval's gold keeps a page's comments, the other sets' drop
them, so the text-and-comments F1 on CleanEval is the one score; the sample is printed for a
reader to judge (README, "Reader comments": 17 of 20 were the pages' reader comments).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))



def _group(name: str) -> str:
    """A shared set's name without its split ("dragnet-dev" -> "dragnet")."""
    return name.rsplit("-", 1)[0] if name.endswith(("-dev", "-train")) else name


def main(argv: list[str] | None = None) -> int:
    from extraction import extract_document, parse
    from extraction.comments import comments_text
    from extraction.datasets import WHOLE_SETS, load, project_folders
    from extraction.evaluation import score

    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=20, help="pages with comments to print")
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args(argv)
    folders = project_folders("unseen", "heldout")
    found: list[tuple[str, str, str]] = []
    pages: dict[str, int] = {}
    with_comments: dict[str, int] = {}
    gold, text_only, with_text = {}, {}, {}
    seconds = 0.0
    for name in (*WHOLE_SETS, *folders):
        group = _group(name) if name in WHOLE_SETS else "the project's pages"
        for page in load(name).pages:
            doc = parse(page.html(), page.url)
            result = extract_document(doc)
            started = time.perf_counter()
            comments = comments_text(doc, result.nodes)
            seconds += time.perf_counter() - started
            pages[group] = pages.get(group, 0) + 1
            if comments:
                with_comments[group] = with_comments.get(group, 0) + 1
                found.append((Path(name).name, page.id, comments))
            if name.startswith("cleaneval"):
                gold[page.id] = page.gold
                text_only[page.id] = result.text
                with_text[page.id] = result.text + ("\n" + comments if comments else "")
    total = sum(pages.values())
    print("| pages | pages with comments |\n|---|---|")
    for group, count in pages.items():
        print(f"| {group} | {with_comments.get(group, 0)} of {count} |")
    print(f"| all | {len(found)} of {total} |")
    print(f"\ncomments step: {seconds / total * 1000:.2f} ms per page")
    print(f"CleanEval (gold keeps comments), token F1: text {score(gold, text_only).f1:.4f}, "
          f"text and comments {score(gold, with_text).f1:.4f}")
    print(f"\nA random sample of {min(args.sample, len(found))} (seed {args.seed}), to judge:")
    for name, page_id, comments in random.Random(args.seed).sample(
            found, min(args.sample, len(found))):
        print(f"== {name} {page_id} ({len(comments)} chars) | "
              + comments[:200].replace("\n", " | "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
