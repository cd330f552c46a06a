"""Pruning (``extract(..., prune=...)``, ``--prune``, ``EXTRACTION_PRUNE``): what a list of
selectors costs and what a generic list does to the text.

    python bench/prune.py [--sets cleaneval-dev,...|unseen] [--quick N]

Over every page of the sets (the extraction benchmark's evaluation sets by default), in one
process: ms per page of ``parse`` without selectors and with a generic list of boilerplate
selectors (:data:`GENERIC`, the kind a user might try first; the faster of two alternating
passes, and their ratio), the pages where the list removed something and how many
elements, and token F1 (shared/extraction/README.md's metric) of ``auto`` and ``e2``
without and with the list.  Pruning is meant for what a user knows of a site; the generic
list shows what guessing costs an extractor that already leaves boilerplate out.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_pages import arguments, load_pages  # noqa: E402

GENERIC = ("nav", "footer", "aside", "[class*=related]", "[class*=share]", "#comments",
           "[class*=newsletter]", "[class*=advert]")


def main(argv: list[str] | None = None) -> int:
    from extraction import extract_document, parse
    from extraction.document import ParseError
    from extraction.evaluation import score

    args = arguments(__doc__.split("\n")[0], argv)
    names, pages = load_pages(args.sets, args.quick)
    data = [(key, html.encode("utf-8") if isinstance(html, str) else html, url)
            for key, html, url, _gold in pages]

    def parse_all(prune):
        docs = {}
        for key, html, url in data:
            try:
                docs[key] = parse(html, url, prune=prune)
            except ParseError:
                pass
        return docs

    parse_all(None)                                  # warm-up: imports, codecs
    timings: dict[bool, list[float]] = {False: [], True: []}
    docs = {}
    for pruned in (False, True, False, True):
        started = time.perf_counter()
        docs[pruned] = parse_all(GENERIC if pruned else None)
        timings[pruned].append(time.perf_counter() - started)
    ms = {k: 1000 * min(v) / len(pages) for k, v in timings.items()}
    touched = [d.pruned for d in docs[True].values() if d.pruned]
    gold = {key: g for key, _html, _url, g in pages}
    print(f"{len(pages)} pages ({', '.join(Path(n).name for n in names)})")
    print(f"generic list: {', '.join(GENERIC)}\n")
    print("| parse ms/page without | with the list | ratio | pages pruned | elements removed |")
    print("|---|---|---|---|---|")
    print(f"| {ms[False]:.2f} | {ms[True]:.2f} | {ms[True] / ms[False]:.2f} | "
          f"{len(touched)} / {len(pages)} | {sum(touched)} |\n")
    print("| method | F1 without | F1 with the list | pages better | pages worse |")
    print("|---|---|---|---|---|")
    for method in ("auto", "e2"):
        texts = {pruned: {key: extract_document(doc, method=method).text
                          for key, doc in docs[pruned].items()} for pruned in (False, True)}
        rows = {pruned: {r["id"]: r["f1"] for r in score(gold, texts[pruned]).per_page}
                for pruned in (False, True)}
        better = sum(rows[True][k] > rows[False][k] + 1e-9 for k in gold)
        worse = sum(rows[True][k] < rows[False][k] - 1e-9 for k in gold)
        print(f"| {method} | {score(gold, texts[False]).f1:.3f} | "
              f"{score(gold, texts[True]).f1:.3f} | {better} | {worse} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
