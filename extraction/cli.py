"""Command line: ``python -m extraction {extract,batch,evaluate,train} ...``."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Iterator

from . import extract, html_page
from .evaluation import TOKENIZERS, evaluate_files
from .fetch import TIMEOUT, FetchError, fetch_page, is_url
from .methods import METHOD_NAMES, canonical
from .methods.auto import FAVOR_CUTS
from .prune import PruneError, check_prune
from .warc_input import WARC_SUFFIXES, WarcPages, is_warc, shown

log = logging.getLogger("extraction")


def _method(name: str) -> str:
    try:
        return canonical(name)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value!r}")
    return number


def _read_page(name: str, timeout: float) -> tuple[bytes, str | None, str | None]:
    """A page named on the command line: its bytes, URL and HTTP Content-Type (``-`` is
    stdin, an http(s) URL is fetched); ``OSError`` or :class:`FetchError` when it cannot be
    read."""
    if name == "-":
        return sys.stdin.buffer.read(), None, None
    if is_url(name):
        page = fetch_page(name, timeout=timeout)
        return page.body, page.url, page.content_type or None
    return Path(name).read_bytes(), None, None


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {value!r}")
    return number


def cmd_extract(args: argparse.Namespace) -> int:
    siblings = []
    for name in args.siblings:
        try:
            siblings.append(_read_page(name, args.timeout)[0])
        except OSError as err:
            print(f"{shown(name)}: cannot read sibling page: {err.strerror}", file=sys.stderr)
            return 2
        except FetchError as err:
            print(f"cannot fetch sibling page: {err}", file=sys.stderr)
            return 2
    status = 0
    markdown = args.markdown or args.links or args.images   # (--links asks for Markdown too)
    if args.html and markdown and not args.json:
        print("--html prints an HTML page, --markdown/--links/--images Markdown: give one "
              "(or --json for both)", file=sys.stderr)
        return 2
    for name in args.files:
        try:
            data, fetched_url, content_type = _read_page(name, args.timeout)
        except OSError as err:
            print(f"{shown(name)}: cannot read: {err.strerror}", file=sys.stderr)
            status = 1
            continue
        except FetchError as err:
            print(err, file=sys.stderr)
            status = 1
            continue
        result = extract(data, args.url or fetched_url, method=args.method,
                         siblings=siblings, content_type=content_type, markdown=markdown,
                         markdown_links=args.links, markdown_images=args.images,
                         html_output=args.html, comments=args.comments, **_options(args))
        if args.json:
            row = result.to_dict()
            row["file"] = shown(name)
            print(json.dumps(row, ensure_ascii=False))
        else:
            if len(args.files) > 1:
                print(f"==> {shown(name)} <==")
            if not result.text:
                print(f"{shown(name)}: no main text: {result.reason}", file=sys.stderr)
            if args.html:
                print(html_page(result.html or "", result.title, result.language,
                                result.metadata, result.url, comments=result.comments), end="")
                continue
            if result.text:
                print(result.markdown if markdown else result.text)
            if result.comments:
                print(f"\n{COMMENTS_RULE}\n{result.comments}")
    return status


def _sibling_map(folder: Path) -> dict[str, list[Path]]:
    """Page id -> its sibling pages, from ``siblings.jsonl`` (``{"id": ..., "siblings": [file,
    ...]}`` a line); a line that is not such a row is reported and left out, an unreadable
    index gives no siblings."""
    index = folder / "siblings.jsonl"
    out: dict[str, list[Path]] = {}
    if not index.is_file():
        return out
    try:
        lines = index.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        log.warning("%s: cannot read, no sibling pages: %s", shown(index), err)
        return out
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            out[str(row["id"])] = [folder / "siblings" / str(s) for s in row["siblings"]]
        except (ValueError, KeyError, TypeError) as err:
            log.warning("%s: line %d is not {\"id\": ..., \"siblings\": [...]}: %r",
                        shown(index), number, err)
    return out


@dataclass(frozen=True)
class _Job:
    """One page of a batch: read by the main process, extracted by a worker."""
    key: str
    body: bytes
    url: str | None = None
    content_type: str | None = None
    siblings: tuple[bytes, ...] = ()
    fields: tuple[tuple[str, str | None], ...] = ()   # written before the text (WARC pages)
    error: str | None = None          # why the page could not be read (its row says so)


def _folder_jobs(folder: Path, files: list[Path]) -> Iterator[_Job]:
    siblings = _sibling_map(folder)
    for path in files:
        key = shown(path.stem)
        try:
            body = path.read_bytes()
        except OSError as err:
            log.warning("%s: cannot read: %s", shown(path), err.strerror)
            yield _Job(key, b"", error=f"cannot read: {err.strerror}")
            continue
        sibs = []
        for sibling in siblings.get(path.stem, []):
            try:                        # (a bad sibling costs the page its sibling only)
                sibs.append(sibling.read_bytes())
            except OSError as err:
                log.warning("%s: sibling page of %s not read: %s", shown(sibling), key,
                            err.strerror)
        yield _Job(key, body, siblings=tuple(sibs))


def _warc_jobs(sources: list[WarcPages]) -> Iterator[_Job]:
    for source in sources:
        for page in source:
            yield _Job(page.record_id, page.body, page.url, page.content_type,
                       fields=(("url", page.url), ("warc_date", page.date)))


FAVOR_HELP = ("auto only: keep less boilerplate at the cost of some text (precision) or lose "
              "less text at the cost of more boilerplate (recall); default balanced")
PRUNE_HELP = ("remove the elements this CSS selector (XPath when it starts with /) matches "
              "before the page is read, e.g. 'div.related' or '#comments'; repeatable")
TARGET_HELP = ("read only the elements this selector matches (and the page's head) when it "
               "matches any, e.g. 'article .post-body'; a page it does not match is read "
               "whole; repeatable")

# the line between a page's text and its comments in `extract --comments`'s plain output
COMMENTS_RULE = "--- comments ---"


def _options(args: argparse.Namespace) -> dict:
    """The options of :func:`extract` the command line gives beyond the outputs: the
    method's (``--favor`` for ``auto``) and the selectors of ``--prune`` and ``--target``."""
    options = {"favor": args.favor} if args.favor else {}
    if args.prune:
        options["prune"] = tuple(args.prune)
    if args.target:
        options["target"] = tuple(args.target)
    return options


def _extract_row(job: _Job, method: str, with_reason: bool, full: bool, max_bytes: int = 0,
                 markdown: bool = False, links: bool = False, images: bool = False,
                 options: dict | None = None, comments: bool = False, html: bool = False
                 ) -> tuple[dict, str | None]:
    """The output row of one page and, when its text is empty, why (never raises).  A page
    over ``max_bytes`` (when not 0) is not extracted: ``auto`` peaked at 2.2 GB on a 20 MB
    page of 2.3 million nodes, in each worker.  ``markdown``: a "markdown" field too, with
    its ``links`` and ``images``; ``options``: the method's (checked by the caller);
    ``comments``: a "comments" field too; ``html``: an "html" field too."""
    try:
        if job.error:
            result, text, reason = None, "", job.error
        elif max_bytes and len(job.body) > max_bytes:
            result, text, reason = None, "", \
                f"page of {len(job.body):,} bytes, over --max-bytes {max_bytes:,}"
        else:
            result = extract(job.body, job.url, method=method, siblings=job.siblings,
                             content_type=job.content_type, markdown=markdown,
                             markdown_links=links, markdown_images=images,
                             html_output=html, comments=comments, **(options or {}))
            text, reason = result.text, result.reason
    except Exception as err:  # noqa: BLE001 - never abort a batch on one page
        result, text, reason = None, "", f"failed: {err!r}"
    row: dict = {"id": job.key, **dict(job.fields)}
    if full and result is not None:
        row.update((k, v) for k, v in result.to_dict().items() if k not in row)
    else:
        row["text"] = text
        if markdown:
            row["markdown"] = result.markdown if result is not None else ""
        if html:
            row["html"] = (result.html or "") if result is not None else ""
        if comments:
            row["comments"] = (result.comments or "") if result is not None else ""
        if job.fields and result is not None:
            row.update(title=result.title, language=result.language)
    if with_reason and reason:
        row["reason"] = reason
    return row, None if text else (reason or "no main text")


def _batches(jobs: Iterator[_Job], size: int) -> Iterator[list[_Job]]:
    batch: list[_Job] = []
    for job in jobs:
        batch.append(job)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def cmd_batch(args: argparse.Namespace) -> int:
    from multiprocessing import get_context

    from tqdm import tqdm

    source = Path(args.input)
    warcs: list[WarcPages] = []
    if source.is_dir():
        files = sorted(source.glob("*.html"))
        if not files:
            warcs = [WarcPages(p) for p in sorted(source.iterdir()) if is_warc(p)]
        if not files and not warcs:
            print(f"{source}: no *.html or WARC files", file=sys.stderr)
            return 1
    elif source.is_file() and is_warc(source):
        warcs = [WarcPages(source)]
    else:
        print(f"{source}: not a folder of *.html files nor a WARC file ({', '.join(WARC_SUFFIXES)})",
              file=sys.stderr)
        return 1
    jobs = _warc_jobs(warcs) if warcs else _folder_jobs(source, files)
    total = None if warcs else len(files)
    work = partial(_extract_row, method=args.method, with_reason=args.with_reason,
                   full=args.full, max_bytes=args.max_bytes,
                   markdown=args.markdown or args.links or args.images, links=args.links,
                   images=args.images, options=_options(args), comments=args.comments,
                   html=args.html)
    out = Path(args.output)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle = open(out, "w", encoding="utf-8")
    except OSError as err:
        print(f"{shown(out)}: cannot write: {err.strerror or err}", file=sys.stderr)
        return 2
    pages = empty = 0
    # workers ignore Ctrl-C: the main process ends them (a worker's KeyboardInterrupt left
    # the pool joining zombies for ever)
    pool = get_context("spawn").Pool(args.workers, initializer=_ignore_interrupts) \
        if args.workers > 1 else None
    finished = False
    try:
        with handle, tqdm(total=total, desc=f"extract ({args.method})", unit="page",
                          disable=args.quiet or (total is not None and total < 20)) as progress:
            # bounded windows, in input order: a large archive is never held in memory whole
            for batch in _batches(jobs, 64 * max(1, args.workers)):
                rows = pool.map(work, batch, chunksize=4) if pool else map(work, batch)
                for row, why_empty in rows:
                    if why_empty is not None:
                        empty += 1
                        log.warning("%s: empty text (%s)", row["id"], why_empty)
                    handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                pages += len(batch)
                progress.update(len(batch))
        finished = True
    except OSError as err:          # the disk filled up, the output went away
        print(f"{shown(out)}: cannot write after {pages} pages: {err.strerror or err}",
              file=sys.stderr)
        return 2
    finally:
        if pool is not None:
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()
    summary = f"{pages} pages -> {out} ({empty} empty)"
    skipped = sum((w.skipped for w in warcs), Counter())
    records = sum(w.records for w in warcs)
    if warcs:
        summary += (f"; {records} WARC records, skipped: "
                    + (", ".join(f"{n} {why}" for why, n in skipped.most_common()) or "none"))
    print(summary, file=sys.stderr)
    if warcs and not pages and not records and skipped.get("archive damaged"):
        print(f"{source}: no WARC record could be read", file=sys.stderr)
        return 1
    return 0


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


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

    p = sub.add_parser("extract", help="print the main text of HTML files or http(s) URLs "
                                       "('-' = stdin)")
    p.add_argument("files", nargs="+", metavar="FILE_OR_URL")
    p.add_argument("--method", type=_method, default="auto",
                   help=f"one of {', '.join(METHOD_NAMES)}")
    p.add_argument("--siblings", nargs="*", default=[],
                   help="other pages of the same site (files or URLs)")
    p.add_argument("--favor", choices=tuple(FAVOR_CUTS), default=None, help=FAVOR_HELP)
    p.add_argument("--url", default=None,
                   help="the page URL (for relative links, metadata; a fetched page's own "
                        "URL after redirects by default)")
    p.add_argument("--timeout", type=_seconds, default=TIMEOUT,
                   help=f"seconds to wait for a fetched page's server (default {TIMEOUT:g})")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--markdown", action="store_true",
                   help="print the main text as Markdown (headings, lists, quotes, code, "
                        "tables); with --json, a \"markdown\" field")
    p.add_argument("--links", action="store_true",
                   help="Markdown with the links of the text as [text](url)")
    p.add_argument("--images", action="store_true",
                   help="Markdown with the images of the text as ![alt](url)")
    p.add_argument("--html", action="store_true",
                   help="print the main text as an HTML page (headings, lists, quotes, code, "
                        "tables, links, images; nothing of the page's own markup); with "
                        "--json, an \"html\" field (the fragment)")
    p.add_argument("--comments", action="store_true",
                   help=f"also the page's reader comments (after a line {COMMENTS_RULE!r}; "
                        "with --json, a \"comments\" field)")
    p.add_argument("--prune", action="append", metavar="SELECTOR", default=[], help=PRUNE_HELP)
    p.add_argument("--target", action="append", metavar="SELECTOR", default=[],
                   help=TARGET_HELP)
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("batch", help="extract every page of a folder or WARC archive into JSONL")
    p.add_argument("--input", required=True,
                   help="a folder of *.html files, a WARC file (.warc, .warc.gz) or a folder "
                        "of WARC files")
    p.add_argument("--output", required=True)
    p.add_argument("--method", type=_method, default="auto")
    p.add_argument("--favor", choices=tuple(FAVOR_CUTS), default=None, help=FAVOR_HELP)
    p.add_argument("--workers", type=_positive, default=1,
                   help="processes extracting in parallel (default 1)")
    p.add_argument("--full", action="store_true",
                   help="write the whole result (title, metadata, language, ...) per page")
    p.add_argument("--with-reason", action="store_true", help="add the reason of empty results")
    p.add_argument("--markdown", action="store_true",
                   help="add a \"markdown\" field: the main text as Markdown")
    p.add_argument("--links", action="store_true",
                   help="the \"markdown\" field with the links as [text](url)")
    p.add_argument("--images", action="store_true",
                   help="the \"markdown\" field with the images as ![alt](url)")
    p.add_argument("--html", action="store_true",
                   help="add an \"html\" field: the main text as an HTML fragment with its "
                        "links and images")
    p.add_argument("--comments", action="store_true",
                   help="add a \"comments\" field: the page's reader comments")
    p.add_argument("--max-bytes", type=_positive, default=0,
                   help="skip pages larger than this many bytes, with the reason (default: no "
                        "limit; auto peaked at 2.2 GB on a 20 MB page of 2.3 million nodes, in "
                        "each worker)")
    p.add_argument("--prune", action="append", metavar="SELECTOR", default=[], help=PRUNE_HELP)
    p.add_argument("--target", action="append", metavar="SELECTOR", default=[],
                   help=TARGET_HELP)
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "favor", None) and args.method != "auto":
        parser.error(f"--favor applies to the auto method only, not {args.method}")
    try:
        check_prune(getattr(args, "prune", None))
        check_prune(getattr(args, "target", None), "target")
    except PruneError as err:
        parser.error(str(err))
    for stream in (sys.stdout, sys.stderr):
        # a console that cannot show a character (an ASCII locale, a Windows code page)
        # gets its escape, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except KeyboardInterrupt:       # Ctrl-C: the rows written so far stay, complete
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:         # output piped into a reader that stopped (``| head``)
        return quiet_broken_pipe()


def quiet_broken_pipe() -> int:
    """After stdout's reader went away: no traceback when the interpreter flushes stdout at
    exit (stdout pointed at /dev/null); exit status 141, a shell's for SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141
