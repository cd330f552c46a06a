"""Generate a trap web (``python -m crawler.demo.trapweb --out DIR``): one blog full of crawler
traps around a few real articles, in the format of ``shared/testweb/README.md``.

``http://www.trapblog.test/`` (the only seed) publishes 22 renewable-energy articles and 10
cooking and football ones (the demo web's titles, bodies drawn from its sentence pools), and
around them the structures that swallow a naive crawler's budget:

- an events calendar, 1990-2049, month pages linking the previous and next month and year
  (720 pages; only 2024's months list posts);
- endless pagination: ``/page/N/`` answers for N up to 400, posts listed on the first seven;
- a relative-link loop: every post links ``print/`` (a printer view, which links ``print/``
  again: ``/posts/x/print/print/...``, 6 levels recorded);
- session ids: related-post links carry ``?sessionid=<hex>``, different on every page;
- faceted search: ``/search/?page=N&sort=S&tag=T`` (4 tags x 3 orders x 30 pages), every
  result page listing posts of its tag and linking the other tags, orders and pages.

Labels: posts ``subject.Energy`` / ``subject.Food`` / ``subject.Sport``; every other page has
none; ``topic.toml`` is the demo's renewable-energy topic.  Nothing is stored in the
repository: tests and ``bench/traps.py`` generate it.
"""
from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

from .build import (ARTICLES, HEADINGS, MONTHS, POOLS, TOPIC_TOML, Response, esc,
                    html_response, link, write_labels, write_warc)

H = "http://www.trapblog.test"
SEEDS = [f"{H}/"]
YEARS = range(1990, 2050)
PAGES = 400                 # /page/N/ recorded for N <= PAGES
PER_PAGE = 5
PRINT_DEPTH = 6             # /posts/x/print/ ... print/ levels recorded
POST_YEAR = 2024
TAGS = ("energy", "food", "sport", "all")
SORTS = ("new", "old", "popular")
FACET_PAGES = 30


def _rng_int(key: str) -> int:
    return int(hashlib.sha256(key.encode()).hexdigest()[:12], 16)


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]


class Post:
    def __init__(self, k: int, title: str, subject: str, pools: list[str]):
        self.k, self.title, self.subject, self.pools = k, title, subject, pools
        self.url = f"{H}/posts/{_slug(title)}/"
        self.month = 1 + k % 11

    def paragraphs(self) -> list[str]:
        sentences = [s for p in self.pools for s in POOLS[p]]
        order = sorted(range(len(sentences)), key=lambda i: _rng_int(f"{self.url}{i}"))
        picked = [sentences[i] for i in order[:12]]
        return [" ".join(picked[j:j + 3]) for j in range(0, 12, 3)]


def _posts() -> list[Post]:
    posts = []
    for art in ARTICLES:
        kind = art.pools[0]
        if kind in POOLS and not kind.endswith("_zh"):
            subject = {"cooking": "subject.Food", "football": "subject.Sport"}.get(kind,
                                                                                 "subject.Energy")
            posts.append(Post(len(posts), art.title, subject, art.pools))
    return posts


POSTS = _posts()


def _page(title: str, main: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)} | Trap Blog</title></head>
<body>
<div id="top"><a href="{H}/">Trap Blog</a> &middot; <a href="{H}/page/2/">Older posts</a>
&middot; <a href="{H}/calendar/{POST_YEAR}/01/">Archive</a> &middot; <a href="{esc(_facet_url("all", "new", 1))}">Search</a>
&middot; <a href="{H}/about/">About</a></div>
<div id="main">
{main}
</div>
<div id="footer">Trap Blog, a weblog about this and that.</div>
</body></html>
"""


def _teasers(posts: list[Post]) -> str:
    return "\n".join(f"<h2>{link(p.url, p.title)}</h2>" for p in posts)


def _home() -> str:
    return _page("Home", "<h1>Latest posts</h1>\n<p>Notes on energy, food and football.</p>\n"
                 + _teasers(POSTS[:PER_PAGE]))


def _listing(n: int) -> str:
    posts = POSTS[(n - 1) * PER_PAGE:n * PER_PAGE]
    body = _teasers(posts) if posts else "<p>Nothing here yet.</p>"
    nav = f'<p><a href="{H}/page/{n - 1}/">Newer</a> | <a href="{H}/page/{n + 1}/">Older</a></p>'
    return _page(f"Page {n}", f"<h1>Posts, page {n}</h1>\n{body}\n{nav}")


def _month(year: int, month: int) -> str:
    prev = (year, month - 1) if month > 1 else (year - 1, 12)
    nxt = (year, month + 1) if month < 12 else (year + 1, 1)
    posts = [p for p in POSTS if year == POST_YEAR and p.month == month]
    body = _teasers(posts) if posts else "<p>No posts this month.</p>"
    nav = " | ".join(f'<a href="{H}/calendar/{y}/{m:02d}/">{label}</a>' for label, (y, m) in (
        ("Previous month", prev), ("Next month", nxt), ("Previous year", (year - 1, month)),
        ("Next year", (year + 1, month))))
    return _page(f"{MONTHS[month - 1]} {year}",
                 f"<h1>Archive: {MONTHS[month - 1]} {year}</h1>\n{body}\n<p>{nav}</p>")


def _facet_url(tag: str, sort: str, page: int) -> str:
    """In canonical order (the test-web server matches URLs as recorded; a crawler sorts)."""
    return f"{H}/search/?page={page}&sort={sort}&tag={tag}"


def _facet(tag: str, sort: str, page: int) -> str:
    """A result page: the posts of ``tag`` in some order, cycling, and links to its neighbours
    in every facet."""
    pool = [p for p in POSTS if tag == "all" or p.subject == "subject." + tag.title()
            or (tag == "energy" and p.subject == "subject.Energy")]
    if sort != "new":
        pool = pool[::-1] if sort == "old" else sorted(pool, key=lambda p: _rng_int(p.url))
    start = (page - 1) * PER_PAGE
    shown = [pool[(start + i) % len(pool)] for i in range(PER_PAGE)]
    facets = [(t, sort, 1) for t in TAGS if t != tag] + [(tag, o, page) for o in SORTS if o != sort]
    facets += [(tag, sort, p) for p in (page - 1, page + 1) if 1 <= p <= FACET_PAGES]
    nav = " | ".join(f'<a href="{esc(_facet_url(*f))}">{esc(f"{f[0]}, {f[1]}, page {f[2]}")}</a>'
                     for f in facets)
    return _page(f"Search: {tag}", f"<h1>Posts tagged {tag}</h1>\n{_teasers(shown)}\n<p>{nav}</p>")


def _post(post: Post, printer: int = 0) -> str:
    paras = post.paragraphs()
    kind = "en" if post.subject == "subject.Energy" else \
        "en-cooking" if post.subject == "subject.Food" else "en-football"
    heads = HEADINGS[kind]
    body = "\n".join(f"<h3>{esc(heads[i % len(heads)])}</h3>\n<p>{esc(p)}</p>" if i else
                     f"<p>{esc(p)}</p>" for i, p in enumerate(paras))
    others = [POSTS[(post.k + d) % len(POSTS)] for d in (1, 2, 5)]
    session = hashlib.sha1(f"{post.url}{printer}".encode()).hexdigest()[:16]
    related = "".join(f"<li>{link(o.url + '?sessionid=' + session, o.title)}</li>" for o in others)
    main = (f"<article><h1>{esc(post.title)}</h1>\n<p class=\"date\">{MONTHS[post.month - 1]} "
            f"{POST_YEAR}</p>\n{body}\n</article>\n"
            f'<p><a href="print/">Printer-friendly version</a></p>\n'
            f"<h4>Related posts</h4><ul>{related}</ul>")
    return _page(post.title + (" (print)" if printer else ""), main)


def build_responses() -> list[Response]:
    out = [Response(f"{H}/robots.txt", 200, b"User-agent: *\nDisallow:\n",
                    "text/plain; charset=utf-8"),
           html_response(f"{H}/", _home(), []),
           html_response(f"{H}/about/", _page("About", "<h1>About</h1><p>A small blog.</p>"), [])]
    out += [html_response(f"{H}/page/{n}/", _listing(n), []) for n in range(1, PAGES + 1)]
    out += [html_response(f"{H}/calendar/{y}/{m:02d}/", _month(y, m), [])
            for y in YEARS for m in range(1, 13)]
    out += [html_response(_facet_url(t, o, n), _facet(t, o, n), [])
            for t in TAGS for o in SORTS for n in range(1, FACET_PAGES + 1)]
    for post in POSTS:
        out.append(html_response(post.url, _post(post), [post.subject]))
        for level in range(1, PRINT_DEPTH + 1):
            out.append(html_response(post.url + "print/" * level, _post(post, level), []))
    return out


def build(out_dir: str | Path) -> dict[str, int]:
    """Write ``web.warc.gz``, ``labels.csv``, ``seeds.txt`` and ``topic.toml`` (the demo's
    renewable-energy topic, seeded with this web's home) into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    responses = build_responses()
    write_warc(responses, out_dir / "web.warc.gz")
    write_labels(responses, out_dir / "labels.csv")
    (out_dir / "seeds.txt").write_text("".join(s + "\n" for s in SEEDS), encoding="utf-8")
    (out_dir / "topic.toml").write_text(TOPIC_TOML.format(seeds=", ".join(f'"{s}"' for s in SEEDS)),
                                        encoding="utf-8")
    return {"urls": len(responses), "posts": len(POSTS),
            "energy_posts": sum(p.subject == "subject.Energy" for p in POSTS)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Generate the trap web.")
    ap.add_argument("--out", type=Path, required=True)
    print(build(ap.parse_args(argv).out))


if __name__ == "__main__":
    main()
