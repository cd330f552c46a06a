"""The result of extracting one page."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


class OptionError(ValueError):
    """A method's option has a value it cannot take (the caller's error: :func:`extract`
    raises it, unlike a fault of the page)."""


@dataclass
class Selection:
    """What a method returns: the main text, how sure it is, and why it is empty when it is."""

    text: str
    confidence: float = 0.0
    reason: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    nodes: Any = field(default=None, repr=False)  # ids of the text nodes of the main text


def empty(reason: str, **info: Any) -> Selection:
    return Selection("", 0.0, reason, dict(info))


@dataclass
class ExtractionResult:
    """Main text, title and metadata of a page.

    ``reason`` says why ``text`` is empty (``None`` otherwise); ``info`` holds method details,
    e.g. ``{"geometry": "approximated"}`` for E3/E5/E6; ``markdown``, when asked for, the same
    text as Markdown; ``html``, when asked for, the same text as an HTML fragment;
    ``comments``, when asked for, the page's reader comments ("" when none).
    """

    text: str
    title: str | None
    method: str
    confidence: float
    reason: str | None = None
    language: str | None = None
    encoding: str | None = None
    url: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    nodes: Any = field(default=None, repr=False, compare=False)  # main-text node ids (Document)
    markdown: str | None = field(default=None, repr=False)  # with extract(..., markdown=True)
    html: str | None = field(default=None, repr=False)  # with extract(..., html_output=True)
    comments: str | None = field(default=None, repr=False)  # with extract(..., comments=True)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("nodes", None)
        for key in ("markdown", "html", "comments"):
            if out[key] is None:        # (asked for: a key of its own)
                del out[key]
        return out

    def __bool__(self) -> bool:
        return bool(self.text)
