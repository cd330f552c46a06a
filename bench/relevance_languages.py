"""The relevance filter in languages other than English: pages written for the project.

``bench/languages/src/<lang>.txt`` holds, per language, 3 articles on each of three topics
(information technology, music, science) and 2 on other subjects (sport, cooking, travel...),
written in natural prose for this check; ``bench/languages/topics/<lang>-<topic>.toml`` the
topic files, written in the language from general knowledge of the subject before the pages
and not tuned on them.  Each page is built into a plain site page (title, menu, article,
footer; ``<html lang>``) in memory and judged as the crawl judges it: extraction (``auto``)
and its language, the page's terms added to the IDF statistics, then the score (a fresh model
per language and topic, the default threshold, pages in a seeded shuffled order).

    python bench/relevance_languages.py [--lang de --lang ja] [--seed 1]
    python bench/relevance_languages.py --data bench/languages_hard

``bench/languages_hard`` (another writer, 6 languages, 14 pages each): pages of several
kinds (news, forum posts, reviews, FAQs), per topic one on-topic page in vocabulary a user
would not list, and 5 hard negatives per language from the topics' neighbourhoods.

Prints per language and topic the on-topic pages accepted (of 3), the off-topic ones accepted
(of the others), the lowest on-topic and highest off-topic score, then precision / recall /
F1 per language and in total.  A small, clean set: one page moves a language's F1 by about
0.05, and the distractors are far from the three topics.
"""
from __future__ import annotations

import argparse
import html
import random
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from crawler.relevance import DocumentFrequencies, RelevanceModel, load_topic  # noqa: E402
from extraction import extract_document, parse  # noqa: E402

DATA = Path(__file__).resolve().parent / "languages"
TOPICS = ("it", "music", "science")


@dataclass
class Page:
    lang: str
    name: str       # it-1, music-2, other-1, ...
    label: str      # it, music, science or other
    html: str


def read_pages(lang: str, data: Path = DATA) -> list[Page]:
    """The pages of ``src/<lang>.txt``.  Format: ``@site LABEL | name | menu; items | footer``
    lines, then per page ``=== NAME.html``, ``T: title``, ``H: headline`` and paragraphs
    separated by blank lines."""
    sites: dict[str, tuple[str, list[str], str]] = {}
    pages: list[dict] = []
    for line in (data / "src" / f"{lang}.txt").read_text("utf-8").splitlines():
        if line.startswith("@site "):
            key, name, menu, footer = (x.strip() for x in line[6:].split("|"))
            sites[key] = (name, [m.strip() for m in menu.split(";") if m.strip()], footer)
        elif line.startswith("=== "):
            pages.append({"name": line[4:].strip().removesuffix(".html"), "title": "",
                          "h1": "", "paras": [[]]})
        elif not pages:
            continue
        elif line.startswith("T: ") and not pages[-1]["title"]:
            pages[-1]["title"] = line[3:].strip()
        elif line.startswith("H: ") and not pages[-1]["h1"]:
            pages[-1]["h1"] = line[3:].strip()
        elif not line.strip():
            if pages[-1]["paras"][-1]:
                pages[-1]["paras"].append([])
        else:
            pages[-1]["paras"][-1].append(line.strip())
    out = []
    for p in pages:
        label = p["name"].split("-")[0]
        site, menu, footer = sites.get(p["name"]) or sites[label]
        esc = html.escape
        items = "".join(f'<li><a href="/{i}/">{esc(m)}</a></li>' for i, m in enumerate(menu))
        body = "".join(f"<p>{esc(' '.join(lines), quote=False)}</p>"
                       for lines in p["paras"] if lines)
        out.append(Page(lang, p["name"], label, (
            f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{esc(p['title'])} – {esc(site)}</title></head><body>"
            f'<header><a href="/">{esc(site)}</a><nav><ul>{items}</ul></nav></header>'
            f"<main><article><h1>{esc(p['h1'])}</h1>{body}</article></main>"
            f"<footer><p>{esc(footer)}</p></footer></body></html>")))
    return out


def languages(data: Path = DATA) -> list[str]:
    return sorted(p.stem for p in (data / "src").glob("*.txt"))


@dataclass
class PairResult:
    lang: str
    topic: str
    tp: int
    fp: int
    fn: int
    min_on: float
    max_off: float
    wrong: list[str]
    n_off: int = 8


def judge_pair(lang: str, topic_name: str, pages: list[Page], seed: int = 1,
               data: Path = DATA) -> PairResult:
    """Score every page of a language against one of its topic files, as a crawl does."""
    model = RelevanceModel(load_topic(data / "topics" / f"{lang}-{topic_name}.toml"),
                           DocumentFrequencies())
    order = list(pages)
    random.Random(f"{seed}:{lang}:{topic_name}").shuffle(order)
    tp = fp = fn = 0
    on, off, wrong = [], [], []
    for page in order:
        url = f"https://{lang}.example/{page.name}.html"
        doc = parse(page.html, url)
        result = extract_document(doc, method="auto")
        terms = model.analyse(doc, result.text, url, result.language if result.text else None)
        model.stats.add(terms.terms)
        rel = model.score_page(terms)
        wanted = page.label == topic_name
        (on if wanted else off).append(rel.score)
        if wanted and rel.relevant:
            tp += 1
        elif wanted:
            fn += 1
            wrong.append(f"-{page.name}")
        elif rel.relevant:
            fp += 1
            wrong.append(f"+{page.name}")
    return PairResult(lang, topic_name, tp, fp, fn, min(on), max(off), wrong, len(off))


def f1(results: list[PairResult]) -> tuple[float, float, float]:
    tp, fp, fn = (sum(getattr(r, k) for r in results) for k in ("tp", "fp", "fn"))
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def run(langs: list[str], seed: int = 1, data: Path = DATA) -> list[PairResult]:
    out = []
    for lang in langs:
        pages = read_pages(lang, data)
        out.extend(judge_pair(lang, t, pages, seed, data) for t in TOPICS)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", help="only this language (repeatable)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the page order")
    ap.add_argument("--data", type=Path, default=DATA,
                    help="another set in the same layout (src/, topics/)")
    args = ap.parse_args(argv)
    results = run(args.lang or languages(args.data), args.seed, args.data)
    print("| language | topic | on-topic accepted | off-topic accepted | lowest on | highest off |")
    print("|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r.lang} | {r.topic} | {r.tp}/{r.tp + r.fn} | {r.fp}/{r.n_off} | "
              f"{r.min_on:.3f} | {r.max_off:.3f} |" + (f" {' '.join(r.wrong)}" if r.wrong else ""))
    print("\n| language | precision | recall | F1 |\n|---|---|---|---|")
    for lang in dict.fromkeys(r.lang for r in results):
        p, rc, f = f1([r for r in results if r.lang == lang])
        print(f"| {lang} | {p:.3f} | {rc:.3f} | {f:.3f} |")
    p, rc, f = f1(results)
    print(f"| all | {p:.3f} | {rc:.3f} | {f:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
