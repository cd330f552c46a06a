"""The page's image, categories, tags and license (extraction/metadata.py) on the 978 shared
pages, against trafilatura's ``extract_metadata`` on the same pages.

    python bench/metadata_fields.py

No gold exists for these fields: it counts the pages each tool gives a value and, where both
give one, how often they agree (the same address but for a trailing "/"; the same terms in
any case and order).  trafilatura counts the keywords meta as tags and gives a license's
label ("CC BY-NC-SA 2.5") where we give its address, so those two never agree by design.
"""
from __future__ import annotations

import logging
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIELDS = ("image", "categories", "tags", "license")


def _same(ours, theirs) -> bool:
    if isinstance(ours, list) or isinstance(theirs, list):
        return {t.casefold() for t in ours or ()} == {t.casefold() for t in theirs or ()}
    return ours.rstrip("/") == theirs.rstrip("/")


def main() -> int:
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    from trafilatura.metadata import extract_metadata

    from extraction import extract
    from extraction.datasets import WHOLE_SETS, load

    ours_count = dict.fromkeys(FIELDS, 0)
    theirs_count = dict.fromkeys(FIELDS, 0)
    both = dict.fromkeys(FIELDS, 0)
    agree = dict.fromkeys(FIELDS, 0)
    pages = 0
    for name in WHOLE_SETS:
        for page in load(name).pages:
            pages += 1
            html = page.html()
            ours = extract(html, page.url).metadata
            try:
                meta = extract_metadata(html.decode("utf-8", "replace"), default_url=page.url)
            except Exception:   # noqa: BLE001 - a reference tool's failure is its empty answer
                meta = None
            for field in FIELDS:
                theirs = getattr(meta, field, None) or None if meta is not None else None
                ours_count[field] += bool(ours.get(field))
                theirs_count[field] += bool(theirs)
                if ours.get(field) and theirs:
                    both[field] += 1
                    agree[field] += _same(ours[field], theirs)
    print(f"{pages} pages\n")
    print("| field | ours | trafilatura | both | the same where both |\n|---|---|---|---|---|")
    for field in FIELDS:
        print(f"| {field} | {ours_count[field]} | {theirs_count[field]} | {both[field]} | "
              f"{agree[field]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
