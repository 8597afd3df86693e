"""Content negotiation: an unknown ``?format=`` is 406, like an Accept header nothing
matches, with the formats there are. DRF answered 404 "Not found." for a path that exists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Any, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except Http404 as missing:  # only raised for a format no renderer has
            formats = ", ".join(sorted({r.format for r in renderers}))
            raise NotAcceptable(
                f"No format {self._asked(request, format_suffix)!r} here: {formats}."
            ) from missing

    def _asked(self, request: Any, format_suffix: str | None) -> str:
        return format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE, "")
