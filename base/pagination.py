"""The API's one pagination shape, for every list.

Ask with ``?page=N`` (from 1) and ``?page_size=`` (1..100, 20 by default); the answer is
``{"page": N, "page_size": S, "has_next": bool, "results": [...]}``. A page past the end is an
empty ``results`` with ``has_next`` false, not an error. A page asks the database for one row
more than it shows to know whether a next page exists: no ``COUNT(*)`` of a whole table, and
no absolute URLs that would depend on the proxies in front.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

DEFAULT_PAGE_SIZE: Final = 20
MAX_PAGE_SIZE: Final = 100
MAX_PAGE: Final = 100_000  # beyond every list; keeps OFFSET far from integer overflow

PAGE_PARAMETERS: Final = [
    OpenApiParameter(
        "page",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1},
        required=False,
        description="The page, from 1.",
    ),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE, "default": DEFAULT_PAGE_SIZE},
        required=False,
        description=f"Items per page, up to {MAX_PAGE_SIZE}.",
    ),
]


@dataclass(frozen=True, slots=True)
class PageRequest:
    page: int
    page_size: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size

    @property
    def limit(self) -> int:
        """Rows to fetch: one more than the page shows, to know whether another follows."""
        return self.page_size + 1


def _int_param(params: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not lo <= int(raw) <= hi:
        raise ValidationError({name: [f"A whole number {lo}..{hi}."]})
    return int(raw)


def page_request(params: Mapping[str, str]) -> PageRequest:
    """The page asked for in the query string; out of range is 400 `invalid`."""
    return PageRequest(
        page=_int_param(params, "page", 1, 1, MAX_PAGE),
        page_size=_int_param(params, "page_size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
    )


def page_json(request: PageRequest, rows: Sequence[Any]) -> dict[str, Any]:
    """The page's answer from up to ``request.limit`` rows fetched at ``request.offset``."""
    return {
        "page": request.page,
        "page_size": request.page_size,
        "has_next": len(rows) > request.page_size,
        "results": list(rows[: request.page_size]),
    }


def page_serializer(name: str, item: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The documented shape of a page of ``item``s (the schema component ``name``)."""
    fields = {
        "page": serializers.IntegerField(min_value=1),
        "page_size": serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE),
        "has_next": serializers.BooleanField(help_text="Ask for page + 1 while this is true."),
        "results": item(many=True),
    }
    return type(f"{name}Serializer", (serializers.Serializer,), fields)
