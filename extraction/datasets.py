"""Access to the evaluation datasets of ``shared/extraction`` (never copied into the repo).

The folder is found from ``$SHARED_DIR`` or as ``../shared`` next to the checkout.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent

# Splits used for learning (E2, E4, auto) and the sets used only for evaluation.
TRAIN_SETS = ("cleaneval-train", "dragnet-train", "zh-wce-train")
# Sets distributed whole (no split) whose "article" gold teaches auto what an article body is:
# a fixed half of each, chosen by a hash of the page's host (of its id when it has no URL),
# trains auto; the other half ("<set>:dev") is where every tool is compared.
HALVED_SETS = ("l3s-gn1", "scrapinghub-aeb")
AUTO_TRAIN_SETS = TRAIN_SETS + tuple(f"{s}:train" for s in HALVED_SETS)
EVAL_SETS = ("cleaneval-dev", "dragnet-dev", "zh-wce-dev", "cleanportaleval", "l3s-gn1:dev",
             "scrapinghub-aeb:dev")
FULLTEXT_SETS = ("cleaneval-dev", "dragnet-dev", "cleanportaleval")
# every shared page once: the evaluation sets whole, then the training splits
WHOLE_SETS = tuple(s.split(":")[0] for s in EVAL_SETS) + TRAIN_SETS
# the pages written for the project (bench/): "unseen" for development, "heldout" and
# "heldout2" (written 2026-12-03, after the changes the first two sets led to) measured only
PROJECT_SETS = {"unseen": REPO_ROOT / "bench" / "extraction_unseen",
                "heldout": REPO_ROOT / "bench" / "extraction_heldout",
                "heldout2": REPO_ROOT / "bench" / "extraction_heldout2"}


def project_folders(*names: str) -> list[str]:
    """The page folders (each holding a ``gold.jsonl``) of the :data:`PROJECT_SETS` named."""
    return [str(d) for name in names for d in sorted(PROJECT_SETS[name].iterdir())
            if (d / "gold.jsonl").is_file()]


def shared_dir() -> Path:
    return Path(os.environ.get("SHARED_DIR", REPO_ROOT.parent / "shared")).resolve()


def extraction_dir() -> Path:
    return shared_dir() / "extraction"


@dataclass
class Page:
    id: str
    path: Path
    gold: str
    title: str | None
    lang: str | None
    url: str | None
    gold_kind: str
    siblings: list[Path] = field(default_factory=list)

    def html(self) -> bytes:
        return self.path.read_bytes()


@dataclass
class Dataset:
    name: str
    path: Path
    pages: list[Page]

    @property
    def gold_kind(self) -> str:
        kinds = {p.gold_kind for p in self.pages}
        return kinds.pop() if len(kinds) == 1 else "mixed"

    @property
    def tokenizer(self) -> str:
        return "cjk"


def available() -> list[str]:
    root = extraction_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "gold.jsonl").is_file())


def half_of(page_id: str, url: str | None) -> str:
    """"train" or "dev": the fixed half of a HALVED_SETS page (by host, else by id)."""
    key = (urlsplit(url).hostname or "") if url else ""
    key = key.removeprefix("www.") or page_id
    return "train" if hashlib.sha1(key.encode("utf-8")).digest()[0] % 2 == 0 else "dev"


def load(name: str, limit: int | None = None) -> Dataset:
    """A dataset of ``shared/extraction`` by name, the half ``"<set>:train"`` / ``"<set>:dev"``
    of a HALVED_SETS set, or any folder in the same format given by its path (one holding
    ``gold.jsonl``, e.g. ``bench/extraction_unseen/zh``)."""
    if os.sep in name or "/" in name:
        folder, half = Path(name), ""
        name = folder.name
    else:
        name, _, half = name.partition(":")
        folder = extraction_dir() / name
    if not (folder / "gold.jsonl").is_file():
        raise FileNotFoundError(f"dataset {name!r} not found: no gold.jsonl in {folder}")
    siblings: dict[str, list[Path]] = {}
    sib_index = folder / "siblings.jsonl"
    if sib_index.is_file():
        for line in sib_index.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                siblings[row["id"]] = [folder / "siblings" / s for s in row["siblings"]]
    pages = []
    for line in (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if half and half_of(row["id"], row.get("url")) != half:
            continue
        pages.append(Page(row["id"], folder / f"{row['id']}.html", row.get("text") or "",
                          row.get("title"), row.get("lang"), row.get("url"),
                          row.get("gold_kind", "article"), siblings.get(row["id"], [])))
        if limit and len(pages) >= limit:
            break
    return Dataset(f"{name}:{half}" if half else name, folder, pages)
