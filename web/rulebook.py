"""The rulebook (docs/rules.md, the one source of the rules) rendered to HTML for the web
client's rules page, with markdown-it-py (CommonMark, tables).

Raw HTML in the source is escaped, not passed through (``html: False``), so the page shows
only the markup Markdown itself makes. Headings carry GitHub's anchors (``#undo``,
``#one-tap-destination``): the links the docs and the code cite open the same section here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from markdown_it import MarkdownIt

from base.conditional import strong_etag

RULEBOOK = Path(settings.BASE_DIR) / "docs" / "rules.md"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


CACHE_SECONDS = 300  # how long a client may keep the rulebook (`Cache-Control`)


@dataclass(frozen=True, slots=True)
class Section:
    level: int
    title: str
    anchor: str


@dataclass(frozen=True, slots=True)
class Rulebook:
    title: str
    html: str
    sections: tuple[Section, ...]
    etag: str


def rulebook_json(book: Rulebook) -> dict[str, Any]:
    """The rulebook as `GET /api/v1/rules` answers it (no ETag: that is a header)."""
    sections = [{"level": s.level, "title": s.title, "anchor": s.anchor} for s in book.sections]
    return {"title": book.title, "html": book.html, "sections": sections}


def render(source: str) -> Rulebook:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(source)
    sections: list[Section] = []
    title = ""
    for k, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[k + 1]
        # The heading's text as GitHub slugs it: code spans and emphasis by their text.
        text = "".join(
            child.content
            for child in inline.children or []
            if child.type in ("text", "code_inline")
        )
        anchor = slug(text)
        token.attrSet("id", anchor)
        level = int(token.tag[1])
        if level == 1 and not title:
            title = text
        else:
            sections.append(Section(level=level, title=text, anchor=anchor))
    html = md.renderer.render(tokens, md.options, {})
    return Rulebook(title=title, html=html, sections=tuple(sections), etag=strong_etag(source))


@cache
def _rendered(mtime_ns: int) -> Rulebook:
    return render(RULEBOOK.read_text(encoding="utf-8"))


def rulebook() -> Rulebook:
    """The rulebook as it is on disk (rendered once per version of the file)."""
    return _rendered(RULEBOOK.stat().st_mtime_ns)
