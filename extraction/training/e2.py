"""Re-learn E2's support probabilities and, by PSO, its weights and threshold (§2.6–2.8).

    python -m extraction train e2 [--sets cleaneval-train,...] [--out extraction/models/e2.json]

Blocks of the training pages are labelled content when at least half of their text is in the
gold text (``training.labels``).  Support probabilities (Definition 1) are the share of content
blocks per feature interval; PSO (Algorithm 1) maximises the F-score of Definition 3 measured in
characters pooled over all pages (E2-A6 default).  PSO constants c1 = c2 = 2.0 and the inertia
0.9 -> 0.4 are [DEFAULT]s (the paper gives only m = 100, e = 1000 and the range [0, 3]).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..datasets import TRAIN_SETS, load
from ..document import TEXT, ParseError, parse
from ..methods.pso_blocks import INTERVALS, MODEL_PATH, N_COMBOS, PAPER_PARAMS, pre_block
from .labels import GoldIndex


@dataclass
class TrainingBlocks:
    combos: np.ndarray      # joint interval index per block
    intervals: np.ndarray   # (n, 5) interval per feature
    chars: np.ndarray       # t1, the block's text length
    content: np.ndarray     # bool label


def collect_blocks(sets: list[str]) -> tuple[TrainingBlocks, int]:
    combos, intervals, chars, content = [], [], [], []
    pages = 0
    for name in sets:
        for page in load(name).pages:
            try:
                doc = parse(page.html(), page.url)
            except ParseError:
                continue
            blocks = pre_block(doc)
            texts: dict[int, list[str]] = defaultdict(list)
            for i in np.flatnonzero((doc.kind == TEXT) & blocks.alive):
                texts[int(blocks.owner[i])].append(doc.texts[i])
            gold = GoldIndex(page.gold)
            labels = [gold.overlap(" ".join(texts[int(b)])) >= 0.5 for b in blocks.ids]
            combos.append(blocks.combos())
            intervals.append(blocks.intervals())
            chars.append(blocks.features[:, 0])
            content.append(np.array(labels, dtype=bool))
            pages += 1
    return TrainingBlocks(np.concatenate(combos), np.concatenate(intervals),
                          np.concatenate(chars).astype(float), np.concatenate(content)), pages


def support_probabilities(data: TrainingBlocks) -> list[list[float]]:
    """Definition 1: P(B=S | t_i in interval) = share of content blocks in that interval."""
    probs = []
    for i, n_int in enumerate(INTERVALS):
        row = []
        for k in range(n_int):
            mask = data.intervals[:, i] == k
            row.append(float(data.content[mask].mean()) if mask.any()
                       else PAPER_PARAMS["probabilities"][i][k])
        probs.append(row)
    return probs


def combo_probability_matrix(probs: list[list[float]]) -> np.ndarray:
    grid = np.array(np.unravel_index(np.arange(N_COMBOS), INTERVALS)).T
    return np.array([[probs[i][grid[c, i]] for i in range(5)] for c in range(N_COMBOS)])


def fitness(particles: np.ndarray, pmat: np.ndarray, pos: np.ndarray, neg: np.ndarray
            ) -> np.ndarray:
    """F-score (Definition 3) of every particle (rows: 5 weights + epsilon)."""
    w, eps = particles[:, :5], particles[:, 5]
    total = w.sum(axis=1)
    scores = (pmat @ w.T) / np.where(total > 0, total, 1.0)        # (48, m)
    pred = (scores > eps) & (total > 0)
    tp = pos @ pred
    found = (pos + neg) @ pred
    truth = pos.sum()
    denom = found + truth
    return np.where(denom > 0, 2 * tp / np.maximum(denom, 1e-12), 0.0)


def pso(pmat: np.ndarray, pos: np.ndarray, neg: np.ndarray, m: int = 100, e: int = 1000,
        lo: float = 0.0, hi: float = 3.0, c1: float = 2.0, c2: float = 2.0,
        w_start: float = 0.9, w_end: float = 0.4, seed: int = 0
        ) -> tuple[np.ndarray, float, float]:
    """Algorithm 1: swarm of ``m`` particles in [lo, hi]^6, ``e`` + 1 generations (E2-A2)."""
    rng = np.random.default_rng(seed)
    dim = 6
    x = rng.uniform(lo, hi, (m, dim))
    v = rng.uniform(-(hi - lo), hi - lo, (m, dim))
    pbest, pbest_f = x.copy(), np.zeros(m)
    gbest, gbest_f = x[0].copy(), 0.0
    for t in range(e + 1):
        f = fitness(x, pmat, pos, neg)                      # re-evaluated every generation (E2-A1)
        better = f > pbest_f                                # strictly better (E2-A3)
        pbest[better], pbest_f[better] = x[better], f[better]
        best = int(np.argmax(f))
        if f[best] > gbest_f:
            gbest, gbest_f = x[best].copy(), float(f[best])
        inertia = w_start - (w_start - w_end) * t / e
        r1, r2 = rng.random((m, dim)), rng.random((m, dim))
        v = inertia * v + c1 * r1 * (pbest - x) + c2 * r2 * (gbest - x)
        x = np.clip(x + v, lo, hi)                          # positions kept in range (E2-A4)
    return gbest[:5], float(gbest[5]), gbest_f


def best_threshold(pmat: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                   weights: np.ndarray) -> tuple[float, float]:
    """E2-A8 baseline: the epsilon maximising F for fixed weights."""
    scores = pmat @ weights / weights.sum()
    cands = np.concatenate(([0.0], np.unique(scores)))
    particles = np.column_stack([np.tile(weights, (len(cands), 1)), cands])
    f = fitness(particles, pmat, pos, neg)
    return float(cands[int(np.argmax(f))]), float(f.max())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m extraction train e2", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(TRAIN_SETS))
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--particles", type=int, default=100)
    ap.add_argument("--generations", type=int, default=1000)
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    started = time.time()
    data, pages = collect_blocks(sets)
    if not len(data.combos):
        print("no training blocks found (is ../shared/extraction there?)", file=sys.stderr)
        return 1
    probs = support_probabilities(data)
    pmat = combo_probability_matrix(probs)
    pos = np.bincount(data.combos, weights=data.chars * data.content, minlength=N_COMBOS)
    neg = np.bincount(data.combos, weights=data.chars * ~data.content, minlength=N_COMBOS)
    weights, eps, best_f = pso(pmat, pos, neg, m=args.particles, e=args.generations,
                               seed=args.seed)
    paper_f = float(fitness(np.array([PAPER_PARAMS["weights"] + [PAPER_PARAMS["epsilon"]]]),
                            combo_probability_matrix(PAPER_PARAMS["probabilities"]),
                            pos, neg)[0])
    base_eps, base_f = best_threshold(pmat, pos, neg, np.ones(5))
    model = {
        "probabilities": [[round(p, 6) for p in row] for row in probs],
        "weights": [round(float(w), 6) for w in weights],
        "epsilon": round(eps, 6),
        "source": f"trained by PSO on {','.join(sets)}",
        "training": {
            "sets": sets, "pages": pages, "blocks": int(len(data.combos)),
            "content_blocks": int(data.content.sum()), "seed": args.seed,
            "particles": args.particles, "generations": args.generations,
            "c1": 2.0, "c2": 2.0, "inertia": [0.9, 0.4], "range": [0.0, 3.0],
            "fitness_unit": "characters, pooled",
            "f_trained": round(best_f, 6), "f_paper_params": round(paper_f, 6),
            "f_unoptimised_baseline": round(base_f, 6), "baseline_epsilon": round(base_eps, 6),
        },
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(f"{pages} pages, {len(data.combos)} blocks ({int(data.content.sum())} content); "
          f"training F (chars): PSO {best_f:.4f}, paper parameters {paper_f:.4f}, "
          f"unoptimised (all weights 1) {base_f:.4f}; {time.time() - started:.1f}s -> {args.out}")
    return 0
