"""Pruning and targets (``extract(..., prune=..., target=...)``, ``--prune``, ``--target``,
``EXTRACTION_PRUNE``, ``EXTRACTION_TARGET``): what a list of selectors costs and what a
generic list does to the text.

    python bench/prune.py [--sets cleaneval-dev,...|unseen] [--quick N]

Over every page of the sets (the extraction benchmark's evaluation sets by default), in one
process: ms per page of ``parse`` without selectors and with a generic list of boilerplate
selectors (:data:`GENERIC`, the kind a user might try first; the faster of two alternating
passes, and their ratio), the pages where the list removed something and how many
elements, and token F1 (shared/extraction/README.md's metric) of ``auto`` and ``e2``
without and with the list; then the same F1 with a generic target (:data:`GENERIC_TARGET`)
and the pages it matched.  Pruning and targets are meant for what a user knows of a site;
the generic lists show what guessing costs an extractor that already leaves boilerplate out.
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
GENERIC_TARGET = ("article", "main", "[role=main]")


def main(argv: list[str] | None = None) -> int:
    from extraction import extract_document, parse
    from extraction.document import ParseError
    from extraction.evaluation import score

    args = arguments(__doc__.split("\n")[0], argv)
    names, pages = load_pages(args.sets, args.quick)
    data = [(key, html.encode("utf-8") if isinstance(html, str) else html, url)
            for key, html, url, _gold in pages]

    def parse_all(prune=None, target=None):
        docs = {}
        for key, html, url in data:
            try:
                docs[key] = parse(html, url, prune=prune, target=target)
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
    targeted = parse_all(target=GENERIC_TARGET)
    matched = sum(1 for d in targeted.values() if d.targeted)
    print(f"generic target: {', '.join(GENERIC_TARGET)} (matched {matched} / {len(pages)} "
          "pages)\n")
    print("| method | F1 without | F1 with the list | better | worse "
          "| F1 with the target | better | worse |")
    print("|---|---|---|---|---|---|---|---|")
    for method in ("auto", "e2"):
        texts = {variant: {key: extract_document(doc, method=method).text
                           for key, doc in parsed.items()}
                 for variant, parsed in (("plain", docs[False]), ("pruned", docs[True]),
                                         ("target", targeted))}
        f1 = {variant: score(gold, t) for variant, t in texts.items()}
        rows = {variant: {r["id"]: r["f1"] for r in s.per_page} for variant, s in f1.items()}
        cells = [f"{f1['plain'].f1:.3f}"]
        for variant in ("pruned", "target"):
            better = sum(rows[variant][k] > rows["plain"][k] + 1e-9 for k in gold)
            worse = sum(rows[variant][k] < rows["plain"][k] - 1e-9 for k in gold)
            cells += [f"{f1[variant].f1:.3f}", str(better), str(worse)]
        print(f"| {method} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
