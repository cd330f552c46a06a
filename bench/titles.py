"""Title benchmark: 160 pages of 23 synthetic sites (`bench/title_sites.py`: the title
conventions of news, docs, wikis, forums, shops, Chinese and Japanese CMSes, written by hand
with the headline a careful reader would give) fed in crawl order.  For every page: the title
without sibling titles (a), with the <title>s of the up-to-four previous pages of its host as the
crawler passes them (b), and trafilatura's (c).  Prints exact-match counts (strict: the
expected headline; lenient: also the alternatives written for ambiguous pages), per site and
per kind, and every page where (b) is worse than (a) or wrong.

    python bench/titles.py
"""
import html as H
import sys
from collections import OrderedDict, defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))      # the package, not bench/extraction.py
from title_sites import SITES  # noqa: E402  (bench/ is on the path: the script's folder)
from extraction import parse, extract_document
try:
    import trafilatura
    from trafilatura.metadata import extract_metadata
except ImportError:
    trafilatura = None

FILL = ("{h} The details were confirmed on Tuesday by officials familiar with the matter, "
        "who spoke on condition that they not be named because the plans are not yet final. "
        "Residents and local businesses have been following the situation closely for weeks.",
        "Several people interviewed said the decision came as no surprise, although the timing "
        "was unexpected. Others said they would wait to see how the changes work in practice "
        "before forming an opinion, and that more information would be published soon.",
        "A spokesperson said further updates would follow later in the week. The announcement "
        "was made after a lengthy review that considered several alternatives, costs and the "
        "likely effect on the people most directly concerned.")

def page_html(p, site_label):
    e = H.escape
    head = [f"<title>{e(p['title'])}</title>", '<meta charset="utf-8">']
    if p["og"]:
        head.append(f'<meta property="og:title" content="{e(p["og"])}">')
    if p["site"]:
        head.append(f'<meta property="og:site_name" content="{e(p["site"])}">')
    head.append(f'<link rel="canonical" href="{e(p["url"].split("?")[0])}">')
    h1s = list(p["h1"])
    body = ['<header class="site-header">']
    # a logo <h1> (first, equal to the site name) sits in the header; others in the article
    logo = None
    if h1s and len(h1s) >= 1 and ("logo-h1" in p["tags"]) and not h1s[0].startswith("<"):
        logo = h1s.pop(0)
        body.append(f'<h1 class="logo"><a href="/">{e(logo)}</a></h1>')
    else:
        body.append('<div class="logo"><a href="/">Home</a></div>')
    body.append('<nav><ul><li><a href="/news/">News</a></li><li><a href="/sports/">Sports</a>'
                '</li><li><a href="/about/">About</a></li><li><a href="/contact/">Contact</a>'
                '</li></ul></nav></header><main><article>')
    for h in h1s:
        body.append(h if h.startswith("<") else f"<h1>{e(h)}</h1>")
    if p["h2"]:
        body.append(f"<h2>{e(p['h2'])}</h2>")
    body.append('<p class="byline">By Staff Writer · March 12, 2024</p>')
    lead = p["h2"] or (h1s[0] if h1s and not h1s[0].startswith("<") else p["expect"])
    for i, para in enumerate(FILL):
        body.append(f"<p>{e(para.format(h=lead + '.' if i == 0 else ''))}</p>")
    body.append('</article></main><footer><p>© 2024 All rights reserved. '
                '<a href="/privacy/">Privacy</a> · <a href="/terms/">Terms</a></p></footer>')
    lang = "zh" if site_label.startswith("zh") else "ja" if site_label.startswith("ja") else "en"
    return (f'<!DOCTYPE html><html lang="{lang}"><head>{"".join(head)}</head>'
            f'<body>{"".join(body)}</body></html>')

norm = lambda t: " ".join((t or "").lower().split())

def run():
    rows = []
    state = OrderedDict()                                   # host -> OrderedDict(url -> title)
    for label, pages in SITES.items():
        for p in pages:
            html = page_html(p, label)
            host = urlsplit(p["url"]).hostname
            titles = state.setdefault(host, OrderedDict())
            sib = [t for u, t in titles.items() if u != p["url"]]
            doc = parse(html.encode(), url=p["url"])
            a = extract_document(doc).title
            doc = parse(html.encode(), url=p["url"])
            res = extract_document(doc, sibling_titles=sib)
            b = res.title
            c = None
            if trafilatura:
                md = extract_metadata(html, default_url=p["url"])
                c = md.title if md else None
            t = res.metadata.get("html_title")
            if t:
                titles[p["url"]] = t
                titles.move_to_end(p["url"])
                while len(titles) > 4:
                    titles.popitem(last=False)
            good = {norm(p["expect"])}
            ok = good | {norm(x) for x in p["ok"]}
            rows.append(dict(site=label, url=p["url"], title=p["title"], og=p["og"],
                             h1=p["h1"], tags=sorted(p["tags"] | ({"og"} if p["og"] else set())),
                             expect=p["expect"], ok=p["ok"], sib=sib, a=a, b=b, c=c,
                             **{f"{k}_strict": norm(v) in good for k, v in zip("abc", (a, b, c))},
                             **{f"{k}_ok": norm(v) in ok for k, v in zip("abc", (a, b, c))}))
    return rows

if __name__ == "__main__":
    rows = run()
    n = len(rows)
    print(f"pages {n}, sites {len(SITES)}")
    for mode in ("strict", "ok"):
        print(mode, {k: sum(r[f"{k}_{mode}"] for r in rows) for k in "abc"})
    print("\nper site (lenient):  a  b  c / n")
    per = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        s = per[r["site"]]
        s[0] += r["a_ok"]; s[1] += r["b_ok"]; s[2] += r["c_ok"]; s[3] += 1
    for k, s in per.items():
        print(f"{k:50s} {s[0]:2d} {s[1]:2d} {s[2]:2d} / {s[3]}")
    print("\nper tag (lenient):")
    pt = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        for t in r["tags"] + ["no-og"] * (not r["og"]):
            s = pt[t]; s[0] += r["a_ok"]; s[1] += r["b_ok"]; s[2] += r["c_ok"]; s[3] += 1
    for k, s in pt.items():
        print(f"{k:50s} {s[0]:2d} {s[1]:2d} {s[2]:2d} / {s[3]}")
    print("\n== b worse than a ==")
    for r in rows:
        if r["a_ok"] and not r["b_ok"] or (r["a_strict"] and not r["b_strict"]):
            print(f"[{r['site']}] {r['url']}\n  title={r['title']!r}\n  sib={r['sib']}\n"
                  f"  a={r['a']!r}\n  b={r['b']!r}\n  expect={r['expect']!r}")
    print("\n== b better than a ==")
    for r in rows:
        if r["b_ok"] and not r["a_ok"] or (r["b_strict"] and not r["a_strict"]):
            print(f"[{r['site']}] {r['title']!r}\n  a={r['a']!r}  b={r['b']!r}")
    print("\n== b wrong (lenient) ==")
    for r in rows:
        if not r["b_ok"]:
            print(f"[{r['site']}] {r['url']}\n  title={r['title']!r} h1={r['h1']} og={r['og']!r}\n"
                  f"  a={r['a']!r}\n  b={r['b']!r}\n  c={r['c']!r}\n  expect={r['expect']!r}")
