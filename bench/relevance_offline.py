"""Offline evaluation of the S2 relevance filter on the wikischools test web.

Reads ``../shared/testweb/wikischools/web.warc.gz`` (relative to the repo root), takes a
deterministic sample of canonical article pages (200 ``text/html`` pages by default: for each
evaluated topic up to ``--per-topic`` of its pages, the rest drawn from all articles), shuffles
them into a crawl-like stream, and for every page: parses it once, extracts the main text
(``--method``, E1 by default for speed), analyses it per topic, adds its terms to that topic's
IDF statistics (so IDF accumulates as pages are seen, as in a crawl) and scores it.  Prints
precision / recall / F1 of ``score >= threshold`` against ``labels.csv`` for each topic and a
threshold sweep for one topic.

    python bench/relevance_offline.py                       # the four shipped topics
    python bench/relevance_offline.py --pages 0             # every article (about 4,600)
    python bench/relevance_offline.py --topic my.toml=subject.History --compare
"""
from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from crawler.relevance import DocumentFrequencies, RelevanceModel, load_topic
from extraction import ParseError, extract_document, parse

DEFAULT_WEB = REPO.parent / "shared" / "testweb" / "wikischools"
DEFAULT_TOPICS = {
    "settings/topics/information-technology.toml": "subject.IT",
    "settings/topics/mathematics.toml": "subject.Mathematics",
    "settings/topics/music.toml": "subject.Music",
    "settings/topics/science.toml": "subject.Science",
}
# Model variants of --compare: name -> RelevanceModel options.
VARIANTS = {
    "default (R1, type norm, hellinger)": {},
    "R1, type norm, projection": {"similarity": "projection"},
    "R1, type norm, cosine (15)": {"similarity": "cosine"},
    "R1, page norm (13), hellinger": {"normalise": "page"},
    "R1, page norm (13), cosine (15)": {"normalise": "page", "similarity": "cosine"},
    "R1, Def.2 block weights": {"position_weights": "block"},
    "R2, hellinger": {"reading": "R2"},
    "R2, cosine (15)": {"reading": "R2", "similarity": "cosine"},
    "R1, sublinear tf": {"sublinear_tf": True},
    "R1, concept cap (min_concepts 2)": {"min_concepts": 2},
    "R1, subjects and judgments 0.5": {"category_weights": {"subjects": 0.5, "judgments": 0.5}},
    "R1, concept cap and subjects/judgments 0.5": {
        "min_concepts": 2, "category_weights": {"subjects": 0.5, "judgments": 0.5}},
}
DEFAULT_VARIANT = "default (R1, type norm, hellinger)"
SWEEP = [0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.35, 0.4, 0.5]


@dataclass
class Page:
    url: str
    subjects: list[str]
    html: bytes = b""
    content_type: str | None = None


def read_labels(web: Path) -> dict[str, list[str]]:
    with open(web / "labels.csv", encoding="utf-8", newline="") as fh:
        return {row["url"]: [s for s in row["subjects"].split(";") if s]
                for row in csv.DictReader(fh)}


def on_topic(subjects: list[str], prefix: str) -> bool:
    return any(s == prefix or s.startswith(prefix + ".") for s in subjects)


def sample_pages(labels: dict[str, list[str]], prefixes: list[str], n: int, per_topic: int,
                 seed: int) -> list[str]:
    """Article URLs (``/wp/`` pages with subjects): stratified sample, shuffled."""
    articles = sorted(u for u, s in labels.items() if "/wp/" in u and "/print/" not in u and s)
    rng = random.Random(seed)
    if n <= 0 or n >= len(articles):
        chosen = list(articles)
    else:
        chosen_set: set[str] = set()
        for prefix in prefixes:
            pos = [u for u in articles if on_topic(labels[u], prefix)]
            chosen_set.update(rng.sample(pos, min(per_topic, len(pos))))
        rest = [u for u in articles if u not in chosen_set]
        chosen_set.update(rng.sample(rest, max(0, n - len(chosen_set))))
        chosen = sorted(chosen_set)
    rng.shuffle(chosen)
    return chosen


def read_warc(path: Path, wanted: set[str]) -> dict[str, tuple[bytes, str | None]]:
    from warcio.archiveiterator import ArchiveIterator

    out: dict[str, tuple[bytes, str | None]] = {}
    with open(path, "rb") as fh:
        for rec in ArchiveIterator(fh):
            if rec.rec_type != "response":
                continue
            uri = rec.rec_headers.get_header("WARC-Target-URI")
            if uri in wanted and rec.http_headers.get_statuscode() == "200":
                out[uri] = (rec.content_stream().read(),
                            rec.http_headers.get_header("Content-Type"))
    return out


def prf(scores: list[float], truth: list[bool], threshold: float) -> tuple[float, float, float,
                                                                           int]:
    tp = sum(1 for s, t in zip(scores, truth) if s >= threshold and t)
    fp = sum(1 for s, t in zip(scores, truth) if s >= threshold and not t)
    fn = sum(1 for s, t in zip(scores, truth) if s < threshold and t)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f, tp + fp


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--web", type=Path, default=DEFAULT_WEB)
    ap.add_argument("--topic", action="append", metavar="TOML=PREFIX",
                    help="topic file and its label prefix (repeatable; default: the four "
                         "shipped topics)")
    ap.add_argument("--pages", type=int, default=200, help="sample size, 0 = every article")
    ap.add_argument("--per-topic", type=int, default=30,
                    help="pages of each evaluated topic forced into the sample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--method", default="e1", help="extraction method (the product uses auto)")
    ap.add_argument("--sweep", default=None, help="topic name for the threshold sweep "
                                                  "(default: the first topic)")
    ap.add_argument("--compare", action="store_true", help="also evaluate the model variants")
    args = ap.parse_args(argv)

    pairs = dict(t.split("=", 1) for t in args.topic) if args.topic else DEFAULT_TOPICS
    topics = [(load_topic(REPO / p if not Path(p).is_absolute() else p), prefix)
              for p, prefix in pairs.items()]
    labels = read_labels(args.web)
    urls = sample_pages(labels, [p for _, p in topics], args.pages, args.per_topic, args.seed)
    t0 = time.time()
    bodies = read_warc(args.web / "web.warc.gz", set(urls))
    urls = [u for u in urls if u in bodies]
    print(f"{len(urls)} article pages, WARC read in {time.time() - t0:.1f} s; extraction "
          f"method {args.method}; IDF accumulates in stream order\n")

    variants = VARIANTS if args.compare else {DEFAULT_VARIANT: {}}
    models = {(v, t.name): RelevanceModel(t, DocumentFrequencies(), **opts)
              for v, opts in variants.items() for t, _ in topics}
    scores: dict[tuple[str, str], list[float]] = {k: [] for k in models}
    truth = {t.name: [on_topic(labels[u], prefix) for u in urls] for t, prefix in topics}
    t0 = time.time()
    empty = 0
    for url in urls:
        html, ctype = bodies[url]
        try:
            doc = parse(html, url, ctype)
        except ParseError:
            doc = None
        text = extract_document(doc, method=args.method).text if doc is not None else ""
        empty += not text
        analysed: dict[str, object] = {}
        for (v, name), model in models.items():
            if doc is None:
                scores[(v, name)].append(0.0)
                continue
            page = model.analyse(doc, text, url)
            model.stats.add(page.terms)   # the crawl sees the page, then judges it
            scores[(v, name)].append(model.score_page(page).score)
            analysed[name] = page
    dt = time.time() - t0
    print(f"scored in {dt:.1f} s ({1000 * dt / max(1, len(urls)):.0f} ms/page for "
          f"{len(models)} topic models); {empty} pages without main text\n")

    for v in variants:
        print(f"== {v}")
        print(f"{'topic':26} {'eta':>5} {'pos':>4} {'acc':>4} {'P':>6} {'R':>6} {'F1':>6}   "
              f"{'best eta':>8} {'best F1':>7}")
        for t, _ in topics:
            model = models[(v, t.name)]
            sc, tr = scores[(v, t.name)], truth[t.name]
            p, r, f, acc = prf(sc, tr, model.threshold)
            best = max(SWEEP, key=lambda x: prf(sc, tr, x)[2])
            print(f"{t.name:26} {model.threshold:5.2f} {sum(tr):4d} {acc:4d} {p:6.3f} {r:6.3f} "
                  f"{f:6.3f}   {best:8.2f} {prf(sc, tr, best)[2]:7.3f}")
        print()

    sweep_name = args.sweep or topics[0][0].name
    key = (DEFAULT_VARIANT, sweep_name)
    if key in scores:
        print(f"Threshold sweep, {sweep_name} ({DEFAULT_VARIANT})")
        print(f"{'eta':>5} {'accepted':>8} {'P':>6} {'R':>6} {'F1':>6}")
        for x in SWEEP:
            p, r, f, acc = prf(scores[key], truth[sweep_name], x)
            print(f"{x:5.2f} {acc:8d} {p:6.3f} {r:6.3f} {f:6.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
