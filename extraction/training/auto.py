"""Train the ``auto`` extractor's block classifier.

    python -m extraction train auto [--sets ...] [--out-dir extraction/models]

Every block (``extraction.features``) of the training pages is labelled content when at least
half of its text is in the gold text; a gradient-boosted tree ensemble (scikit-learn
``HistGradientBoostingClassifier``, fixed seed, no early stopping) learns the label, each page
weighing the same in total.  The trees are exported to ``auto.npz`` (numpy arrays) and the
feature list, threshold and training summary to ``auto.json``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..datasets import AUTO_TRAIN_SETS, load
from ..document import ParseError, parse
from ..features import (FEATURE_NAMES, STAGE2_NAMES, block_table, layout_words_read,
                        stage2_features)
from ..forest import from_sklearn
from .labels import GoldIndex

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"


@dataclass
class PageBlocks:
    doc: object
    table: object
    y: np.ndarray
    w: np.ndarray


# Pages per training set in the fingerprint of the model's training data (``auto.json``).
FINGERPRINT_PAGES = 8


def collect(sets: list[str], per_set: int | None = None) -> list[PageBlocks]:
    """Blocks, labels and weights of the pages of ``sets`` (the first ``per_set`` of each),
    their class/id hints reading :data:`~extraction.features.LAYOUT_WORDS` as the shipped
    model's training did."""
    with layout_words_read():
        return _collect(sets, per_set)


def _collect(sets: list[str], per_set: int | None) -> list[PageBlocks]:
    pages = []
    for name in sets:
        for page in load(name, limit=per_set).pages:
            try:
                doc = parse(page.html(), page.url)
            except ParseError:
                continue
            table = block_table(doc)
            if not len(table.ids):
                continue
            gold = GoldIndex(page.gold)
            y = np.array([gold.overlap(t) >= 0.5 for t in table.texts])
            length = np.exp(table.x[:, FEATURE_NAMES.index("log_len")]) - 1
            w = np.sqrt(length)
            pages.append(PageBlocks(doc, table, y, w / max(w.sum(), 1e-9)))
    return pages


def fingerprint(sets: list[str]) -> dict:
    """Block count, content-block count and per-feature sums over the first pages of every
    training set: what the shipped model was trained on, for a test to compare with what the
    current parser and features give (a feature change without retraining fails it)."""
    pages = collect(sets, FINGERPRINT_PAGES)
    x = np.vstack([p.table.x for p in pages]).astype(np.float64)
    return {"pages_per_set": FINGERPRINT_PAGES, "pages": len(pages), "blocks": int(len(x)),
            "content_blocks": int(sum(int(p.y.sum()) for p in pages)),
            "feature_sums": [round(float(v), 3) for v in x.sum(axis=0)]}


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, seed: int, iterations: int,
        leaves: int, rate: float):
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=iterations, learning_rate=rate, max_leaf_nodes=leaves, min_samples_leaf=40,
        l2_regularization=1.0, early_stopping=False, random_state=seed)
    model.fit(x, y, sample_weight=w * 1000)
    return from_sklearn(model)


def out_of_fold(pages: list[PageBlocks], folds: int, **params) -> list[np.ndarray]:
    """Stage-1 probabilities of every page from a model that did not see that page."""
    order = np.arange(len(pages)) % folds
    probs: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in range(folds):
        train_pages = [p for p, f in zip(pages, order) if f != k]
        model = fit(np.vstack([p.table.x for p in train_pages]),
                    np.concatenate([p.y for p in train_pages]),
                    np.concatenate([p.w for p in train_pages]), **params)
        for i in np.flatnonzero(order == k):
            probs[i] = model.probability(pages[i].table.x)
    return probs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m extraction train auto", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(AUTO_TRAIN_SETS))
    ap.add_argument("--out-dir", default=str(MODEL_DIR))
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--iterations", type=int, default=150)
    ap.add_argument("--leaves", type=int, default=15)
    ap.add_argument("--rate", type=float, default=0.1)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    started = time.time()
    pages = collect(sets)
    if not pages:
        print("no training pages found (is ../shared/extraction there?)", file=sys.stderr)
        return 1
    params = dict(seed=args.seed, iterations=args.iterations, leaves=args.leaves,
                  rate=args.rate)
    x = np.vstack([p.table.x for p in pages])
    y = np.concatenate([p.y for p in pages])
    w = np.concatenate([p.w for p in pages])
    stage1 = fit(x, y, w, **params)
    oof = out_of_fold(pages, args.folds, **params)
    x2 = np.vstack([stage2_features(p.table, p.doc, prob) for p, prob in zip(pages, oof)])
    stage2 = fit(x2, y, w, **params)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stage1.save(out / "auto.npz")
    stage2.save(out / "auto2.npz")
    accuracy = float(((stage2.probability(x2) >= args.threshold) == y).mean())
    oof_accuracy = float(((np.concatenate(oof) >= args.threshold) == y).mean())
    summary = {
        "features": list(FEATURE_NAMES),
        "stage2_features": list(STAGE2_NAMES),
        "threshold": args.threshold,
        "training": {"sets": sets, "pages": len(pages), "blocks": int(len(y)), "folds": args.folds,
                     "stage1_oof_block_accuracy": round(oof_accuracy, 4),
                     "content_blocks": int(y.sum()), "seed": args.seed,
                     "iterations": args.iterations, "leaves": args.leaves,
                     "learning_rate": args.rate, "stage2_train_block_accuracy": round(accuracy, 4)},
        "fingerprint": fingerprint(sets),
    }
    (out / "auto.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"{summary['training']['pages']} pages, {len(y)} blocks ({int(y.sum())} content), "
          f"stage-1 out-of-fold accuracy {oof_accuracy:.4f}, stage-2 train accuracy {accuracy:.4f}, {time.time() - started:.1f}s -> {out}/auto.npz")
    return 0
