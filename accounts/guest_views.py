"""A guest's name (`POST /me/name`): a guest plays and races under a made-up name until it
chooses one here (docs/rules.md#guests), checked as a username is; its games stay unranked
until it claims the account (`POST /auth/claim`)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import username_validator
from accounts.services import NotAGuest, UsernameTaken, guest_rename
from spider_api.openapi import (
    FIRST_PARTY_ONLY,
    bad_request,
    error_example,
    error_response,
    invalid_example,
)
from spider_api.permissions import FIRST_PARTY
from spider_api.players import player_of
from spider_api.serializers import JsonInputSerializer


class GuestNameApi(APIView):
    required_scopes = FIRST_PARTY  # the account itself: never an app's business
    throttle_scope = "auth"  # a name is a lookup of every account's: paced as signing up

    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3,
            max_length=30,
            validators=[username_validator],
            help_text="3 to 30 letters, digits, `_` or `-`; unique in any letter case.",
        )

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        is_guest = serializers.BooleanField(help_text="Still a guest: unranked until claimed.")

    @extend_schema(
        operation_id="me_name",
        tags=["auth"],
        summary="Choose your name (guests)",
        description="A guest chooses the name it plays, races and is shown under (its "
        "statistics are at `/players/{username}`). It stays a guest: its games are unranked "
        "until it claims the account (`POST /auth/claim`, which may keep this name). A "
        "claimed account keeps its name.",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: bad_request(
                invalid_example(
                    "username",
                    "A username is 3 to 30 letters, digits, '_' or '-'.",
                )
            ),
            403: FIRST_PARTY_ONLY,
            409: error_response(
                "The name is taken (in any letter case), or the account is not a guest's.",
                UsernameTaken.code,
                UsernameTaken.detail,
                error_example(NotAGuest.code, NotAGuest.detail),
            ),
        },
        examples=[OpenApiExample("A name", value={"username": "alice"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = guest_rename(user=player_of(request), **serializer.validated_data)
        return Response(self.OutputSerializer(user).data)
