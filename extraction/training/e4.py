"""Train the E4 clustering model (ALGORITHMS.md §4.6 clustering phase).

``python -m extraction train e4 [--sets a,b] [--seed 0] [--out extraction/models/e4.json]``

Training samples [DEFAULT, not in the source]: for each training page, the deepest DOM element
whose text covers at least 90% of the gold main-text tokens (:func:`extraction.evaluation.tokens`,
multiset overlap).  The text is that of the pre-processed DOM of step (a), i.e. the text E4
outputs for the node (pages whose gold is mostly link lists are skipped as "not covered").
Samples are z-scored with statistics frozen from all samples, shuffled with the seed; the first
``--initial`` share is clustered with :meth:`IncrementalKMeans.fit` and the rest is fed one by
one with :meth:`IncrementalKMeans.add` (so the buffer logic of §4.5 runs).  Same command ->
same file (k-means runs single-threaded with the seed; floats are rounded to 10 digits).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from ..datasets import TRAIN_SETS, load
from ..document import Document, ParseError, parse
from ..evaluation import tokens
from ..methods.incremental_clustering import (BUFFER_LIMIT, K_RANGE, LINK_THRESHOLD, MODEL_PATH,
                                              PARAGRAPHS, PREFILTER, SEED, E4Model,
                                              IncrementalKMeans, node_features, preprocess)

COVERAGE = 0.9  # [DEFAULT] share of gold tokens the training node must contain


def _coverage(text: str, gold: Counter, total: int) -> float:
    return sum((Counter(tokens(text)) & gold).values()) / total


def training_node(doc: Document, gold_text: str, alive: np.ndarray,
                  coverage: float = COVERAGE) -> tuple[int, float] | None:
    """The deepest alive element whose text covers ``coverage`` of the gold tokens, with its
    coverage; None when even the whole page does not.  Walks down one path from the root."""
    gold = Counter(tokens(gold_text))
    total = sum(gold.values())
    if total == 0:
        return None
    text_len = doc.subtree_sum(doc.tlen * alive)
    need = coverage * total          # every token has at least one character

    def cover(node: int) -> float:
        keep = np.zeros(doc.size, dtype=bool)
        keep[node:doc.end[node]] = True
        return _coverage(doc.text_of(keep & alive), gold, total)

    cur = 0
    cur_cov = cover(cur)
    if cur_cov < coverage:
        return None
    while True:
        best, best_cov = -1, coverage
        for child in doc.element_children(cur):
            if not alive[child] or text_len[child] < need:
                continue
            c = cover(int(child))
            if c >= best_cov and (best < 0 or c > best_cov):
                best, best_cov = int(child), c
        if best < 0:
            return cur, cur_cov
        cur, cur_cov = best, best_cov


def e3_node(doc: Document) -> int | None:
    """The node E3 selects on an unlabelled page (option ``--samples e3`` of §4.6)."""
    from ..methods.visual_units import extract_e3

    node = extract_e3(doc).info.get("node")
    return int(node) if node is not None else None


def collect(sets: list[str], prefilter: str, link_threshold: float, paragraphs: str,
            coverage: float, samples: str = "gold",
            log=print) -> tuple[np.ndarray, list[str], dict]:
    """Raw feature vectors of the training nodes of ``sets`` and per-set counts.

    ``samples="gold"`` [DEFAULT]: :func:`training_node`; ``"e3"``: the node chosen by E3,
    gold text unused."""
    rows, origin = [], []
    counts: dict[str, dict[str, int]] = {}
    for name in sets:
        ds = load(name)
        c = counts[name] = {"pages": len(ds.pages), "samples": 0, "parse_error": 0,
                            "not_covered": 0, "not_candidate": 0}
        for page in ds.pages:
            try:
                doc = parse(page.html(), page.url)
            except ParseError:
                c["parse_error"] += 1
                continue
            alive, cand = preprocess(doc, prefilter, link_threshold)
            if samples == "e3":
                node = e3_node(doc)
            else:
                found = training_node(doc, page.gold, alive, coverage)
                node = found[0] if found else None
            if node is None or not cand[node]:
                c["not_covered" if node is None else "not_candidate"] += 1
                continue
            rows.append(node_features(doc, alive, paragraphs)[node])
            origin.append(name)
            c["samples"] += 1
        why = "E3 found none" if samples == "e3" else "gold not covered"
        log(f"{name}: {c['pages']} pages, {c['samples']} samples; skipped: "
            f"{c['not_covered']} no node ({why}), {c['not_candidate']} node not a candidate, "
            f"{c['parse_error']} parse errors")
    return np.array(rows, dtype=np.float64).reshape(-1, 5), origin, counts


def train(sets: list[str], seed: int = SEED, buffer_limit: int = BUFFER_LIMIT,
          initial: float = 0.5, scaling: str = "zscore", membership: str = "A",
          validity: str = "product", k_range: tuple[int, int] = K_RANGE,
          prefilter: str = PREFILTER, link_threshold: float = LINK_THRESHOLD,
          paragraphs: str = PARAGRAPHS, coverage: float = COVERAGE, samples: str = "gold",
          log=print) -> E4Model:
    """Collect the samples of ``sets`` and fit the incremental model."""
    F, origin, counts = collect(sets, prefilter, link_threshold, paragraphs, coverage, samples,
                                log)
    if len(F) < 2:
        raise ValueError(f"only {len(F)} training samples in {sets}")
    mean, std = E4Model.scaler(F, scaling)
    X = (F - mean) / std
    order = np.random.default_rng(seed).permutation(len(X))
    n0 = max(2, int(round(initial * len(X))))
    clusters = IncrementalKMeans(buffer_limit=buffer_limit, k_range=k_range, validity=validity,
                                 membership=membership, seed=seed)
    clusters.fit(X[order[:n0]])
    log(f"initial fit: {n0} samples -> k={clusters.k} sizes={clusters.sizes.tolist()}")
    events = Counter(clusters.add_many(X[order[n0:]]))
    log(f"incremental: {len(X) - n0} samples added, {clusters.n_assigned} assigned to "
        f"existing clusters, {events['reclustered']} re-clusterings, "
        f"{len(clusters.buffer)} left in the buffer")
    training = {"sets": list(sets), "counts": counts, "samples": int(len(X)),
                "initial": n0, "added": int(len(X) - n0), "sample_rule": samples,
                "coverage": coverage, "seed": seed,
                "reclusterings_during_add": int(events["reclustered"])}
    options = {"prefilter": prefilter, "link_threshold": link_threshold,
               "paragraphs": paragraphs}
    return E4Model(clusters, scaling, mean, std, options, training)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m extraction train e4",
                                description="Train the E4 incremental-clustering model.")
    p.add_argument("--out", default=str(MODEL_PATH), help="model JSON to write")
    p.add_argument("--sets", default=",".join(TRAIN_SETS),
                   help="comma-separated training sets (default: %(default)s)")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--buffer-limit", type=int, default=BUFFER_LIMIT, help="E4-A1")
    p.add_argument("--initial", type=float, default=0.5,
                   help="share of the samples in the initial fit (the rest is added one by one)")
    p.add_argument("--scaling", choices=("zscore", "raw"), default="zscore")
    p.add_argument("--membership", choices=("A", "B"), default="A")
    p.add_argument("--validity", choices=("product", "sum"), default="product")
    p.add_argument("--k-min", type=int, default=K_RANGE[0])
    p.add_argument("--k-max", type=int, default=K_RANGE[1])
    p.add_argument("--prefilter", choices=("delete", "mask"), default=PREFILTER, help="E4-A5")
    p.add_argument("--link-threshold", type=float, default=LINK_THRESHOLD)
    p.add_argument("--paragraphs", choices=("br", "block"), default=PARAGRAPHS)
    p.add_argument("--coverage", type=float, default=COVERAGE,
                   help="share of gold tokens the training node must cover")
    p.add_argument("--samples", choices=("gold", "e3"), default="gold",
                   help="training node: deepest node covering the gold, or E3's node")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    try:
        model = train(sets, args.seed, args.buffer_limit, args.initial, args.scaling,
                      args.membership, args.validity, (args.k_min, args.k_max), args.prefilter,
                      args.link_threshold, args.paragraphs, args.coverage, args.samples)
    except (FileNotFoundError, ValueError) as err:
        print(f"train e4: {err}", file=sys.stderr)
        return 2
    model.save(args.out)
    c = model.clusters
    print(f"k={c.k} sizes={c.sizes.tolist()} dbar={[round(float(d), 3) for d in c.dbar]} "
          f"-> {Path(args.out)}")
    return 0
