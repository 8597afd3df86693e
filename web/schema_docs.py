"""The OpenAPI description of `GET /api/v1/rules` (web/api.py). The function reads the
serializers off the view class it decorates."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view

from base.openapi import View, etag_parameters, not_modified
from web.rulebook import CACHE_SECONDS

RULEBOOK_PARAMETERS = etag_parameters("the rulebook", f"`public, max-age={CACHE_SECONDS}`.")


def rulebook(view: View) -> View:
    """The operations of RulebookApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="rules_read",
            tags=["rules"],
            summary="The rulebook",
            description="Every rule the server enforces, with its numbers: the project's rulebook "
            "(docs/rules.md) as HTML, and its sections for a table of contents.",
            parameters=RULEBOOK_PARAMETERS,
            responses={
                200: view.OutputSerializer,
                304: not_modified("the rulebook"),
            },
        ),
    )(view)
