"""Bag-of-tokens precision / recall / F1 of extracted text against gold text.

The metric of ``shared/extraction/README.md``: NFKC + casefold; with the ``cjk`` tokenizer
(also ``auto``) every CJK ideograph, kana or hangul character is a token and every maximal run
of other word characters is a token; ``words`` keeps plain ``\\w+`` runs.  Per page P/R/F1 over
token multisets (both empty: 1, one empty: 0); a dataset scores the mean over all gold pages,
a missing prediction counting as empty.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

# Unicode blocks whose characters are single tokens (Hangul Jamo, CJK radicals, CJK symbols
# that are letters, kana, bopomofo, hangul, CJK ideographs and their extensions).
_CJK_BLOCKS = (
    (0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3005, 0x3007), (0x3021, 0x3029), (0x3038, 0x303C),
    (0x3040, 0x309F), (0x30A0, 0x30FF), (0x3100, 0x312F), (0x3130, 0x318F), (0x31A0, 0x31BF),
    (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7AF),
    (0xD7B0, 0xD7FF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x1B000, 0x1B16F),
    (0x20000, 0x3134F),
)
_CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_BLOCKS)
_CJK_TOKENS = re.compile(f"[{_CJK_CLASS}]|(?:(?![{_CJK_CLASS}])\\w)+")
_WORD_TOKENS = re.compile(r"\w+")
TOKENIZERS = ("auto", "cjk", "words")


def tokens(text: str | None, tokenizer: str = "auto") -> list[str]:
    folded = unicodedata.normalize("NFKC", text or "").casefold()
    if tokenizer in ("auto", "cjk"):
        return _CJK_TOKENS.findall(folded)
    if tokenizer == "words":
        return _WORD_TOKENS.findall(folded)
    raise ValueError(f"unknown tokenizer {tokenizer!r}; choose from {TOKENIZERS}")


def prf(predicted: list[str], gold: list[str]) -> tuple[float, float, float]:
    if not predicted and not gold:
        return 1.0, 1.0, 1.0
    if not predicted or not gold:
        return 0.0, 0.0, 0.0
    overlap = sum((Counter(predicted) & Counter(gold)).values())
    p, r = overlap / len(predicted), overlap / len(gold)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@dataclass
class Score:
    pages: int
    precision: float
    recall: float
    f1: float
    missing: int
    extra: int
    tokenizer: str
    per_page: list[dict]

    def line(self) -> str:
        return (f"pages={self.pages} P={self.precision:.4f} R={self.recall:.4f} "
                f"F1={self.f1:.4f} missing={self.missing} extra={self.extra} "
                f"tokenizer={self.tokenizer}")


def score(gold: Mapping[str, str], predicted: Mapping[str, str], tokenizer: str = "auto",
          gold_order: Iterable[str] | None = None) -> Score:
    """Score ``predicted`` (id -> text) against ``gold`` (id -> text)."""
    rows = []
    for page_id in (gold_order or gold):
        pred_tokens = tokens(predicted.get(page_id, ""), tokenizer)
        gold_tokens = tokens(gold[page_id], tokenizer)
        p, r, f = prf(pred_tokens, gold_tokens)
        rows.append({"id": page_id, "precision": p, "recall": r, "f1": f,
                     "pred_tokens": len(pred_tokens), "gold_tokens": len(gold_tokens),
                     "missing": page_id not in predicted})
    n = len(rows)

    def mean(key: str) -> float:
        return sum(row[key] for row in rows) / n if n else 0.0

    return Score(n, mean("precision"), mean("recall"), mean("f1"),
                 sum(row["missing"] for row in rows),
                 sum(1 for k in predicted if k not in gold),
                 "cjk" if tokenizer == "auto" else tokenizer, rows)


def read_jsonl(path: str | Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{number}: bad JSON: {err}") from err
    return rows


def evaluate_files(data: str | Path, pred: str | Path, tokenizer: str = "auto") -> Score:
    """Score a predictions JSONL against a dataset folder (or its gold.jsonl)."""
    data = Path(data)
    gold_path = data if data.suffix == ".jsonl" else data / "gold.jsonl"
    gold = _texts(gold_path)
    return score(gold, _texts(pred), tokenizer, list(gold))


def _texts(path: str | Path) -> dict[str, str]:
    """Id -> text of a JSONL of ``{"id": ..., "text": ...}`` rows, in file order; ``ValueError``
    naming the file and the row (counted among the non-blank lines) of another shape."""
    out: dict[str, str] = {}
    for number, row in enumerate(read_jsonl(path), 1):
        text = row.get("text") if isinstance(row, dict) else None
        if not isinstance(row, dict) or "id" not in row or not isinstance(text, (str, type(None))):
            raise ValueError(f"{path}: row {number} is not {{\"id\": ..., \"text\": \"...\"}}: "
                             f"{str(row)[:80]}")
        out[str(row["id"])] = text or ""
    return out
