"""The item that travels through the pipelines: one fetched HTML page."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from extraction import Document, ExtractionResult


# the extraction's metadata a corpus record holds (README, "Corpus format")
CORPUS_METADATA = ("description", "author", "date", "site_name", "canonical_url", "keywords",
                   "image", "categories", "tags", "license")


@dataclass
class PageItem:
    url: str                     # URL as scheduled (before redirects)
    final_url: str               # URL of the response
    status: int
    depth: int
    parent: str | None
    fetched_at: str
    content_type: str | None
    doc: Document = field(repr=False)
    score: float | None = None   # link score that scheduled the request
    robots: frozenset = frozenset()  # page-level robots directives (noindex, nofollow)
    raw: Any = field(default=None, repr=False)  # RawResponse to archive if written (CORPUS_WARC)
    warc: dict[str, Any] | None = None  # where the response was archived (CORPUS_WARC=all)
    revisit: bool = False        # fetched again (REVISIT_AFTER): judged, feeds no statistics
    # filled by the pipelines
    extraction: ExtractionResult | None = field(default=None, repr=False)
    extractor: str | None = None  # the method and its trade-off: "auto", "auto:precision"
    relevance: float | None = None
    relevance_detail: dict[str, Any] = field(default_factory=dict)
    on_topic: bool = False
    duplicate_of: str | None = None
    accepted: bool = False       # written to the corpus
    hub: bool = False            # on topic, not written: a hub (CORPUS_MAX_LINK_SHARE)
    reason: str | None = None    # why not accepted
    judged: Any = field(default=None, repr=False)  # Deferred fired by the last pipeline
    analysis: Any = field(default=None, repr=False)  # (PageTerms, Relevance) for the library

    def document(self) -> dict[str, Any]:
        """The corpus record (README, "Corpus format")."""
        ex = self.extraction
        return {
            "url": self.url, "final_url": self.final_url,
            "title": ex.title if ex else None, "text": ex.text if ex else "",
            "language": ex.language if ex else None,
            "relevance": round(self.relevance or 0.0, 6), "topic": None,
            "extractor": self.extractor or (ex.method if ex else None),
            "fetched_at": self.fetched_at,
            "content_sha1": None, "depth": self.depth, "parent": self.parent,
            "matched": self.relevance_detail.get("matched", {}),
            "metadata": {k: v for k, v in (ex.metadata if ex else {}).items()
                         if k in CORPUS_METADATA},
        }
