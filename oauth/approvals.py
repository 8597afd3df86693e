"""The apps a player approved (`/api/v1/me/approved-apps`): each with what it may do and when it
last acted, and the player's way to end its access. The account's own business: first-party
sign-ins only, never an app's token (which could otherwise hide itself or its peers)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from oauth import selectors, services
from spider_api.openapi import FIRST_PARTY_ONLY, ErrorSerializer, error_example
from spider_api.permissions import FIRST_PARTY
from spider_api.players import player_of
from spider_api.scopes import SCOPES

TAGS = ["apps"]


class ApprovalSerializer(serializers.Serializer):
    class AppSerializer(serializers.Serializer):
        client_id = serializers.CharField()
        name = serializers.CharField()
        owner = serializers.CharField(allow_null=True, help_text="Who registered it.")

    class ScopeSerializer(serializers.Serializer):
        name = serializers.CharField()
        description = serializers.CharField()

    app = AppSerializer()
    scopes = ScopeSerializer(many=True, help_text="What it may do as you.")
    approved = serializers.DateTimeField(help_text="When its oldest live token was issued.")
    last_used = serializers.DateTimeField(
        help_text="When it last acted (a request, a refresh), to the minute or so."
    )


def approval_json(approval: selectors.Approval) -> dict[str, Any]:
    app = approval.app
    return {
        "app": {
            "client_id": app.client_id,
            "name": app.name or app.client_id,
            "owner": app.user.get_username() if app.user else None,
        },
        "scopes": [{"name": s, "description": SCOPES.get(s, s)} for s in approval.scopes],
        "approved": approval.approved,
        "last_used": approval.last_used,
    }


class ApprovalsApi(APIView):
    required_scopes = FIRST_PARTY

    @extend_schema(
        operation_id="me_approved_apps",
        tags=TAGS,
        summary="Apps you approved",
        description="Every app that may act for you (one you approved on the authorization "
        "page, holding a live token), with its scopes and when it last acted, most recent "
        "first. First-party sign-ins only.",
        responses={200: ApprovalSerializer(many=True), 403: FIRST_PARTY_ONLY},
    )
    def get(self, request: Request) -> Response:
        approvals = selectors.approvals_of(user=player_of(request))
        return Response(ApprovalSerializer([approval_json(a) for a in approvals], many=True).data)


class ApprovalDetailApi(APIView):
    required_scopes = FIRST_PARTY

    @extend_schema(
        operation_id="me_approved_apps_revoke",
        tags=TAGS,
        summary="Revoke an app you approved",
        description="Ends the app's access at once: its access and refresh tokens stop "
        "working (within TOKEN_CACHE_SECONDS on other web processes) and its unused codes "
        "with them. To act for you again it must ask you again. First-party sign-ins only.",
        request=None,
        responses={
            204: None,
            403: FIRST_PARTY_ONLY,
            404: OpenApiResponse(
                ErrorSerializer,
                "No app you approved (with a live token) has this client id.",
                examples=[
                    error_example(services.ApprovalNotFound.code, services.ApprovalNotFound.detail)
                ],
            ),
        },
    )
    def delete(self, request: Request, client_id: str) -> Response:
        services.approval_revoke(user=player_of(request), client_id=client_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
