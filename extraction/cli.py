"""Command line: ``python -m extraction {extract,batch,evaluate,train} ...``."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from . import extract
from .evaluation import TOKENIZERS, evaluate_files
from .methods import METHOD_NAMES, canonical

log = logging.getLogger("extraction")


def _method(name: str) -> str:
    try:
        return canonical(name)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def cmd_extract(args: argparse.Namespace) -> int:
    try:
        siblings = [Path(s).read_bytes() for s in args.siblings]
    except OSError as err:
        print(f"{err.filename}: cannot read sibling page: {err.strerror}", file=sys.stderr)
        return 2
    status = 0
    for name in args.files:
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as err:
            print(f"{name}: cannot read: {err.strerror}", file=sys.stderr)
            status = 1
            continue
        result = extract(data, args.url, method=args.method, siblings=siblings)
        if args.json:
            row = result.to_dict()
            row["file"] = name
            print(json.dumps(row, ensure_ascii=False))
        else:
            if len(args.files) > 1:
                print(f"==> {name} <==")
            if result.text:
                print(result.text)
            else:
                print(f"{name}: no main text: {result.reason}", file=sys.stderr)
    return status


def _sibling_map(folder: Path) -> dict[str, list[Path]]:
    index = folder / "siblings.jsonl"
    out: dict[str, list[Path]] = {}
    if index.is_file():
        for line in index.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out[row["id"]] = [folder / "siblings" / s for s in row["siblings"]]
    return out


def cmd_batch(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    folder = Path(args.input)
    files = sorted(folder.glob("*.html"))
    if not files:
        print(f"{folder}: no *.html files", file=sys.stderr)
        return 1
    siblings = _sibling_map(folder)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    failed = 0
    with open(out, "w", encoding="utf-8") as handle:
        for path in tqdm(files, desc=f"extract ({args.method})", unit="page",
                         disable=args.quiet or len(files) < 20):
            try:
                sibs = [p.read_bytes() for p in siblings.get(path.stem, []) if p.is_file()]
                result = extract(path.read_bytes(), method=args.method, siblings=sibs)
                text, reason = result.text, result.reason
            except Exception as err:  # never abort a batch on one page
                text, reason = "", f"failed: {err!r}"
            if not text:
                failed += 1
                log.warning("%s: empty text (%s)", path.name, reason)
            row = {"id": path.stem, "text": text}
            if args.with_reason and reason:
                row["reason"] = reason
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(files)} pages -> {out} ({failed} empty)", file=sys.stderr)
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    try:
        result = evaluate_files(args.data, args.pred, args.tokenizer)
    except (OSError, ValueError) as err:
        print(f"evaluate: {err}", file=sys.stderr)
        return 2
    if args.json:
        row = result.__dict__.copy()
        row["data"] = str(args.data)
        print(json.dumps(row, ensure_ascii=False, indent=1))
    else:
        print(result.line())
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from importlib import import_module

    module = import_module(f".training.{args.what}", __package__)
    return module.main(args.rest)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m extraction",
                                     description="Main-content extraction from HTML pages.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress and reasons")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("extract", help="print the main text of HTML files ('-' = stdin)")
    p.add_argument("files", nargs="+")
    p.add_argument("--method", type=_method, default="auto",
                   help=f"one of {', '.join(METHOD_NAMES)}")
    p.add_argument("--siblings", nargs="*", default=[], help="other pages of the same site")
    p.add_argument("--url", default=None, help="the page URL (for relative links, metadata)")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("batch", help="extract every *.html of a folder into a JSONL file")
    p.add_argument("--input", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--method", type=_method, default="auto")
    p.add_argument("--with-reason", action="store_true", help="add the reason of empty results")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("evaluate", help="bag-of-tokens P/R/F1 of predictions against gold")
    p.add_argument("--data", required=True, help="dataset folder with gold.jsonl")
    p.add_argument("--pred", required=True, help="predictions JSONL")
    p.add_argument("--tokenizer", choices=TOKENIZERS, default="auto")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("train", help="learn parameters: e2 (PSO), e4 (clustering), auto")
    p.add_argument("what", choices=("e2", "e4", "auto"))
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options of the trainer (--help)")
    p.set_defaults(func=cmd_train)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    return args.func(args)
