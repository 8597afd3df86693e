"""`GET /api/v1/rules`: the rulebook, for the web client's rules page and any other client."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.conditional import conditional_answer
from web import schema_docs
from web.rulebook import CACHE_SECONDS, rulebook, rulebook_json


class RulebookSectionSerializer(serializers.Serializer):
    level = serializers.IntegerField(min_value=2, max_value=6, help_text="2: a section, 3: a part.")
    title = serializers.CharField()
    anchor = serializers.CharField(help_text="The heading's `id` in `html` (GitHub's anchor).")


@schema_docs.rulebook
class RulebookApi(APIView):
    """Public: the rules are nobody's secret."""

    authentication_classes = ()  # a stale token sent along is ignored, as on the auth calls
    permission_classes = (AllowAny,)
    required_scopes = ()  # public data: no scope (base/scopes.py)

    class OutputSerializer(serializers.Serializer):
        title = serializers.CharField()
        html = serializers.CharField(
            help_text="docs/rules.md rendered (CommonMark and tables; raw HTML in the source "
            "is escaped). Headings carry their anchors as `id`."
        )
        sections = RulebookSectionSerializer(many=True, help_text="The headings, in order.")

    def get(self, request: Request) -> Response:
        book = rulebook()
        return conditional_answer(
            request, rulebook_json(book), etag=book.etag, max_age=CACHE_SECONDS
        )
