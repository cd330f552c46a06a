"""Traps a review built (2026-12-02), crawled over loopback: a shop's facets (one template
per set of keys) and a soft 404 whose relative links make a new path on every page."""
import itertools
import json

from crawler.run import FAST_LOCAL, run_crawl
from crawler.testweb.archive import Record, WebArchive
from crawler.testweb.server import serve_in_thread

HOST = "http://t.test"
HTML = (("Content-Type", "text/html; charset=utf-8"),)
SOLAR = ("Solar panels turn sunlight into electricity; a rooftop solar panel array with a "
         "battery stores the energy of the sun for the evening. ")


def _page(title: str, body: str) -> bytes:
    nav = (f'<a href="{HOST}/">Home</a> <a href="{HOST}/shop/">Shop</a> '
           f'<a href="{HOST}/help/">Help</a>')
    return (f"<html><head><title>{title}</title></head><body><div>{nav}</div>"
            f"<div>{body}</div></body></html>").encode()


def _trap_web() -> WebArchive:
    records = {}

    def add(url: str, title: str, body: str) -> None:
        records[url] = Record(url, 200, "OK", HTML, _page(title, body))

    posts = [f"{HOST}/posts/{k}/" for k in range(8)]
    add(f"{HOST}/", "Solar notes", "<p>Notes on solar energy.</p>" + "".join(
        f'<p><a href="{u}">solar panel note {k}</a></p>' for k, u in enumerate(posts)))
    for k, url in enumerate(posts):
        add(url, f"Solar note {k}", f"<p>{SOLAR * 6} Note {k}.</p>")
    keys, values = ("brand", "color", "size", "sort"), ("a", "b", "c")
    for combo in itertools.product(("",) + values, repeat=len(keys)):
        query = "&".join(f"{k}={v}" for k, v in zip(keys, combo) if v)
        links = []
        for i, k in enumerate(keys):        # each facet page links its neighbours
            for v in values:
                other = list(combo)
                other[i] = v if combo[i] != v else ""
                q = "&".join(f"{kk}={vv}" for kk, vv in zip(keys, other) if vv)
                links.append(f'<a href="{HOST}/shop/?{q}">{k} {v}</a>')
        add(f"{HOST}/shop/?{query}" if query else f"{HOST}/shop/", "Shop",
            "<p>Garden chairs, tables and umbrellas in many colours.</p>" + " ".join(links))
    nav = " ".join(f'<a href="{n}/">{n}</a>' for n in ("news", "blog", "about", "contact"))
    frontier = [f"{HOST}/help/"]
    while frontier and len(records) < 3000:     # every path answers the same page
        url = frontier.pop(0)
        add(url, "Page not found", f"<p>Sorry, this page does not exist.</p><p>{nav}</p>")
        frontier += [f"{url}{n}/" for n in ("news", "blog", "about", "contact")
                     if url.count("/") < 9]
    return WebArchive(records=records, seeds=[f"{HOST}/"])


def test_a_focused_crawl_leaves_facets_and_soft_404s_by_itself(tmp_path):
    topic = tmp_path / "solar.toml"
    topic.write_text('name = "solar"\n[features]\nterms = ["solar panel", "sunlight", '
                     '"solar energy", "battery"]\n', encoding="utf-8")
    web = _trap_web()
    with serve_in_thread(web) as server:
        conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                    STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO",
                    ROBOTSTXT_OBEY="False", CLOSESPIDER_PAGECOUNT="2000")
        result = run_crawl(topic, web.seeds, conf, proxy=server.proxy_url,
                           log_file=tmp_path / "scrapy.log", timeout=600)
        served = [s.url for s in server.server.log]
    assert result.returncode == 0, (tmp_path / "scrapy.log").read_text()[-2000:]
    assert all(f"{HOST}/posts/{k}/" in served for k in range(8))
    summary = json.loads((tmp_path / "corpus" / "crawl-summary.json").read_text())
    assert summary["crawl/stop_reason"].startswith("frontier empty"), summary
    shop = [u for u in served if "/shop/" in u]
    soft = [u for u in served if "/help/" in u]
    # before: the whole shop (256 pages) and 797 of the soft 404's 1,365 paths were fetched
    assert len(shop) <= 60 and len(soft) <= 10, (len(shop), len(soft))
