"""`GET /api/v1/rules`: the rulebook, for the web client's rules page and any other client."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from spider_api.openapi import etag_parameters
from web.rulebook import rulebook

CACHE_SECONDS = 300

RULEBOOK_PARAMETERS = etag_parameters("the rulebook", f"`public, max-age={CACHE_SECONDS}`.")


class RulebookSectionSerializer(serializers.Serializer):
    level = serializers.IntegerField(min_value=2, max_value=6, help_text="2: a section, 3: a part.")
    title = serializers.CharField()
    anchor = serializers.CharField(help_text="The heading's `id` in `html` (GitHub's anchor).")


class RulebookApi(APIView):
    """Public: the rules are nobody's secret."""

    authentication_classes = ()  # a stale token sent along is ignored, as on the auth calls
    permission_classes = (AllowAny,)
    required_scopes = ()  # public data: no scope (spider_api/scopes.py)

    class OutputSerializer(serializers.Serializer):
        title = serializers.CharField()
        html = serializers.CharField(
            help_text="docs/rules.md rendered (CommonMark and tables; raw HTML in the source "
            "is escaped). Headings carry their anchors as `id`."
        )
        sections = RulebookSectionSerializer(many=True, help_text="The headings, in order.")

    @extend_schema(
        operation_id="rules_read",
        tags=["rules"],
        summary="The rulebook",
        description="Every rule the server enforces, with its numbers: the project's rulebook "
        "(docs/rules.md) as HTML, and its sections for a table of contents.",
        parameters=RULEBOOK_PARAMETERS,
        responses={
            200: OutputSerializer,
            304: OpenApiResponse(description="Not modified: the rulebook is the one you hold."),
        },
    )
    def get(self, request: Request) -> Response:
        book = rulebook()
        headers = {"ETag": book.etag, "Cache-Control": f"public, max-age={CACHE_SECONDS}"}
        if request.headers.get("If-None-Match") == book.etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        body = self.OutputSerializer(
            {"title": book.title, "html": book.html, "sections": book.sections}
        ).data
        return Response(body, headers=headers)
