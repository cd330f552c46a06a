"""``python -m crawler.testweb serve DIR [--port N]`` and ``python -m crawler.testweb info DIR``.

``DIR`` is a test-web folder, a ``.warc.gz`` file, or ``demo`` for the built-in demo web.
"""
from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter

from warcio.exceptions import ArchiveLoadFailed

from .archive import WebArchive, host_of, load_web
from .server import serve


def _info(web: WebArchive) -> str:
    out = [f"web: {web.path}", f"recorded URLs: {len(web)}"]
    by_status = Counter(rec.status for rec in web.records.values())
    out.append("by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(by_status.items())))
    by_type = Counter((rec.status, rec.content_type or "-") for rec in web.records.values())
    out.append("by status and content type:")
    out += [f"  {s} {t}: {n}" for (s, t), n in sorted(by_type.items())]
    per_host = Counter(host_of(url) for url in web.records)
    out.append(f"hosts ({len(web.hosts)}):")
    out += [f"  {h}: {per_host[h]} URLs" for h in sorted(web.hosts)]
    labelled = sum(1 for subjects in web.labels.values() if subjects)
    out.append(f"labels: {len(web.labels)} rows, {labelled} with subjects")
    top = Counter(top for subjects in web.labels.values()
                  for top in {s.split(".")[1] if "." in s else s for s in subjects})
    if top:
        out.append("  top-level subjects: " + ", ".join(f"{s}: {n}" for s, n in top.most_common()))
    body = sum(len(rec.body) for rec in web.records.values())
    out.append(f"body bytes: {body:,}")
    out.append(f"seeds ({len(web.seeds)}):")
    out += [f"  {s}" for s in web.seeds]
    return "\n".join(out)


WEB_HELP = ("test-web folder, .warc.gz file, folder of .warc.gz files (a crawl's CORPUS_WARC), "
            "or 'demo'")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m crawler.testweb",
                                     description="Serve or describe an offline test web.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="serve DIR as an HTTP proxy on 127.0.0.1")
    p_serve.add_argument("web", help=WEB_HELP)
    p_serve.add_argument("--port", type=int, default=8080, help="port (0: any free port)")
    p_serve.add_argument("--host", default="127.0.0.1", help="loopback address to bind")
    p_serve.add_argument("-v", "--verbose", action="store_true", help="log every request")
    p_info = sub.add_parser("info", help="counts by status and content type, hosts, seeds")
    p_info.add_argument("web", help=WEB_HELP)
    args = parser.parse_args(argv)

    try:
        web = load_web(args.web)
    except (OSError, ValueError, ArchiveLoadFailed) as err:   # no WARC there, not a WARC
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    if args.command == "info":
        print(_info(web))
        return 0
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s")

    def ready(host: str, port: int) -> None:
        print(f"serving {len(web)} URLs on {len(web.hosts)} hosts as a proxy at "
              f"http://{host}:{port}  (Ctrl-C to stop)")
        print(f"export http_proxy=http://{host}:{port}")
        sys.stdout.flush()

    try:
        serve(web, args.host, args.port, on_ready=ready)
    except KeyboardInterrupt:
        print("stopped")
    except BrokenPipeError:                     # the reader of its output went away
        return 0
    except (OSError, ValueError) as err:        # port in use, a host that is not loopback
        parser.exit(1, f"{parser.prog}: cannot serve on {args.host}:{args.port}: {err}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
