"""A copy of a test web whose hosts publish sitemaps, to measure ``FOLLOW_SITEMAPS`` in a crawl.

    python bench/with_sitemaps.py ../shared/testweb/wikischools /tmp/wikischools-sitemaps
    python bench/crawl.py --web /tmp/wikischools-sitemaps --strategies focused

Every host's robots.txt gains a ``Sitemap:`` line naming ``/sitemap.xml``, which lists every
URL of the host recorded with status 200 and an HTML type, in the order of the web's WARC
(labels and seeds are copied).  The copy is written with the crawler's own WARC writer
(``crawler/warc.py``) as ``crawl-00000.warc.gz`` in the destination folder, which
``load_web`` and ``python -m crawler.testweb serve`` read like a test web; it lives outside
the project (never commit it).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.testweb.archive import LABELS_NAME, SEEDS_NAME, host_of, load_web  # noqa: E402
from crawler.warc import RawResponse, WarcArchive  # noqa: E402

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap_body(urls: list[str]) -> bytes:
    """A sitemaps.org ``urlset`` listing ``urls``."""
    rows = "".join(f"<url><loc>{escape(u)}</loc></url>\n" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n{rows}</urlset>\n' \
        .encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", help="test-web folder (shared/testweb format)")
    ap.add_argument("dest", type=Path, help="new folder for the copy")
    args = ap.parse_args(argv)
    web = load_web(args.source)
    if args.dest.exists():
        shutil.rmtree(args.dest)
    listed: dict[str, list[str]] = {}
    for url, record in web.records.items():
        if record.status == 200 and record.content_type in ("text/html", "application/xhtml+xml"):
            listed.setdefault(host_of(url), []).append(url)
    now = datetime.now(timezone.utc)
    archive = WarcArchive(args.dest, "all", max_bytes=1 << 40)
    for host, urls in listed.items():
        robots_url, sitemap_url = f"http://{host}/robots.txt", f"http://{host}/sitemap.xml"
        robots = web.records.get(robots_url)
        body = robots.body if robots is not None and robots.status == 200 else b""
        if body and not body.endswith(b"\n"):
            body += b"\n"
        archive.write(RawResponse(robots_url, 200, "HTTP/1.1",
                                  (("Content-Type", "text/plain; charset=utf-8"),),
                                  body + f"Sitemap: {sitemap_url}\n".encode(), now))
        archive.write(RawResponse(sitemap_url, 200, "HTTP/1.1",
                                  (("Content-Type", "application/xml"),), sitemap_body(urls), now))
    for url, record in web.records.items():
        if url not in {f"http://{h}/robots.txt" for h in listed}:
            archive.write(RawResponse(url, record.status, "HTTP/1.1", record.headers,
                                      record.body, now))
    archive.close()
    for name in (LABELS_NAME, SEEDS_NAME):
        if (Path(args.source) / name).is_file():
            shutil.copy(Path(args.source) / name, args.dest / name)
    copy = load_web(args.dest)
    print(f"{args.dest}: {len(copy.records)} URLs, sitemaps on {len(listed)} hosts listing "
          f"{sum(map(len, listed.values()))} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
