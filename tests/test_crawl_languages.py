"""A focused crawl of a small German web over real loopback HTTP: pages, topic and link texts
read by German rules end to end (the topic lists dictionary forms, the pages inflect them)."""
from __future__ import annotations

import json
from pathlib import Path

from crawler.run import FAST_LOCAL, run_crawl
from crawler.testweb.archive import Record, WebArchive
from crawler.testweb.server import serve_in_thread

HOME = "http://www.technik.test/"
ARTICLES = {
    "sprachen": ("Die wichtigsten Programmiersprachen",
                 "Programmiersprachen wie Python, Java und Rust werden von Entwicklern auf "
                 "allen Betriebssystemen genutzt. Die Compiler der Programmiersprachen "
                 "übersetzen den Quelltext in Maschinencode, den die Rechner ausführen."),
    "systeme": ("Betriebssysteme im Vergleich",
                "Betriebssysteme verwalten die Programme der Rechner. Auf den Servern der "
                "Rechenzentren laufen andere Betriebssysteme als auf den Rechnern zu Hause, "
                "und jede Software braucht Treiber für ihre Hardware."),
    "netze": ("Wie Rechnernetze funktionieren",
              "In Rechnernetzen tauschen die Rechner Daten über Protokolle aus. Die Software "
              "der Router leitet die Pakete weiter; ohne Netzwerke gäbe es kein Internet und "
              "keine verteilten Betriebssysteme."),
}
OTHERS = {
    "kuchen": ("Der beste Apfelkuchen",
               "Für den Apfelkuchen braucht man Äpfel, Mehl, Butter, Zucker und Eier. Die Äpfel "
               "werden geschält und in Scheiben geschnitten, der Teig ruht eine Stunde im "
               "Kühlschrank, dann backt der Kuchen vierzig Minuten im Ofen."),
    "wandern": ("Wandern im Schwarzwald",
                "Die schönsten Wanderwege des Schwarzwalds führen durch dichte Wälder zu "
                "Seen und Aussichtstürmen. Im Herbst färben sich die Blätter, und in den "
                "Hütten gibt es Kuchen und heiße Suppen für die Wanderer."),
}
TOPIC = '''name = "informatik"
languages = ["de"]

[features]
terms = ["Programmiersprache", "Betriebssystem", "Rechner", "Software", "Compiler",
         "Rechnernetz", "Netzwerk"]
'''


def _page(title: str, body: str, links: str = "") -> bytes:
    return (f'<html lang="de"><head><meta charset="utf-8"><title>{title}</title></head><body>'
            f"<h1>{title}</h1><p>{body}</p><p>{body}</p>{links}</body></html>").encode("utf-8")


def _web() -> WebArchive:
    html = (("Content-Type", "text/html; charset=utf-8"),)
    pages = {**ARTICLES, **OTHERS}
    links = "".join(f'<li><a href="/{slug}.html">{title}</a></li>'
                    for slug, (title, _) in pages.items())
    records = {HOME: Record(HOME, 200, "OK", html, _page(
        "Technik und Freizeit", "Artikel über Rechner, Software, Essen und Reisen.",
        f"<ul>{links}</ul>"))}
    for slug, (title, body) in pages.items():
        url = f"{HOME}{slug}.html"
        records[url] = Record(url, 200, "OK", html, _page(title, body, '<a href="/">Start</a>'))
    return WebArchive(records=records, seeds=[HOME])


def test_a_german_topic_crawls_a_german_web(tmp_path: Path):
    topic = tmp_path / "informatik.toml"
    topic.write_text(TOPIC, encoding="utf-8")
    conf = dict(FAST_LOCAL, CORPUS_DIR=str(tmp_path / "corpus"),
                STATE_DIR=str(tmp_path / "state"), LOG_LEVEL="INFO", STALL_TIMEOUT="60")
    with serve_in_thread(_web()) as server:
        result = run_crawl(topic, [HOME], conf, proxy=server.proxy_url,
                           log_file=tmp_path / "scrapy.log", timeout=300)
    log_text = (tmp_path / "scrapy.log").read_text(encoding="utf-8")
    assert result.returncode == 0, log_text[-3000:]
    docs = [json.loads(x) for p in sorted((tmp_path / "corpus" / "documents").glob("*.jsonl"))
            for x in p.read_text(encoding="utf-8").splitlines()]
    written = {d["url"].rsplit("/", 1)[-1] for d in docs}
    assert {f"{slug}.html" for slug in ARTICLES} <= written
    assert not {f"{slug}.html" for slug in OTHERS} & written
    assert all(d["language"] == "de" for d in docs)
    rows = [json.loads(x) for x in (tmp_path / "corpus" / "crawl-log.jsonl")
            .read_text(encoding="utf-8").splitlines()]
    anchor = {r["url"].rsplit("/", 1)[-1]: (r.get("components") or {}).get("anchor", 0.0)
              for r in rows if r["url"].endswith(".html")}
    # the inflected anchors of the articles meet the topic's terms; the others' do not
    assert all(anchor[f"{slug}.html"] > 0 for slug in ARTICLES), anchor
    assert all(anchor[f"{slug}.html"] == 0 for slug in OTHERS), anchor
