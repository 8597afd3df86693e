"""Accounts endpoints: register, get a token, read your own profile. Each calls one service or
selector; the serializers only validate input and shape output."""

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.export import export_lines, ndjson_chunks
from accounts.models import User, username_validator
from accounts.selectors import user_profile
from accounts.services import (
    NotAGuest,
    WrongPassword,
    account_delete,
    token_obtain,
    user_claim,
    user_guest_create,
    user_register,
)
from coins.serializers import CoinSummarySerializer
from games.serializers import ModeStatsSerializer
from spider_api.errors import DomainError
from spider_api.openapi import bad_request, error_example, error_response, invalid_example
from spider_api.players import player_of
from spider_api.serializers import JsonInputSerializer

_CREDENTIALS = OpenApiExample(
    "Credentials",
    value={"username": "alice", "password": "correct horse battery"},
    request_only=True,
)
_TOKEN = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


class _AuthApi(APIView):
    """Anyone may call these; a stale token sent along is ignored rather than refused."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_scope = "auth"


class UserRegisterApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3, max_length=30, validators=[username_validator]
        )
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")

    @extend_schema(
        operation_id="auth_register",
        tags=["auth"],
        summary="Create an account",
        description="Creates a player and returns their API token. Usernames are unique "
        "regardless of case; passwords must pass the server's password rules.",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("username", "This field is required.")),
            409: error_response(
                "The username exists (in any letter case).",
                "username_taken",
                "That username is taken; choose another.",
            ),
        },
        examples=[
            _CREDENTIALS,
            OpenApiExample(
                "Registered",
                value={"username": "alice", "token": _TOKEN},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_register(**serializer.validated_data)
        output = self.OutputSerializer({"username": user.username, "token": user.auth_token.key})
        return Response(output.data, status=status.HTTP_201_CREATED)


class GuestCreateApi(_AuthApi):
    """Throttled per client address like registration (scope ``auth``)."""

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(help_text="A made-up name, `guest-` and 10 hex digits.")
        token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")
        is_guest = serializers.BooleanField()

    @extend_schema(
        operation_id="auth_guest",
        tags=["auth"],
        summary="Play as a guest",
        description="Creates a guest player and returns their API token, so a first visit "
        "plays at once. A guest's games are unranked: no coins, no leaderboard, no ranked "
        "daily attempt. Claim the account later (`POST /auth/claim`) to keep the games.",
        request=None,
        responses={
            201: OutputSerializer,
            409: error_response(
                "Three made-up names in a row were taken (40 random bits each: a freak); ask "
                "again.",
                "username_taken",
                "That username is taken; choose another.",
            ),
        },
        examples=[
            OpenApiExample(
                "Guest",
                value={"username": "guest-3f9a2c1b7e", "token": _TOKEN, "is_guest": True},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        user = user_guest_create()
        output = self.OutputSerializer(
            {"username": user.username, "token": user.auth_token.key, "is_guest": True}
        )
        return Response(output.data, status=status.HTTP_201_CREATED)


class UserClaimApi(APIView):
    """A guest names its account; the same token and games carry on."""

    permission_classes = (IsAuthenticated,)
    throttle_scope = "auth"

    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3, max_length=30, validators=[username_validator]
        )
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        is_guest = serializers.BooleanField()

    @extend_schema(
        operation_id="auth_claim",
        tags=["auth"],
        summary="Claim your guest account",
        description="Gives the calling guest a username and password. The token stays valid "
        "and the games are kept; they stay unranked, as they were played.",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("username", "This field is required.")),
            409: error_response(
                "The username exists (in any letter case), or the account is not a guest's.",
                "username_taken",
                "That username is taken; choose another.",
                error_example(NotAGuest.code, NotAGuest.detail),
            ),
        },
        examples=[_CREDENTIALS],
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)  # the view's permission let only players in
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_claim(user=request.user, **serializer.validated_data)
        return Response(self.OutputSerializer({"username": user.username, "is_guest": False}).data)


class TokenObtainApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        summary="Get your API token",
        description="Returns the player's API token (the same one until it is revoked).",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("password", "This field is required.")),
            401: error_response(
                "The username or the password is wrong.",
                "invalid_credentials",
                "Wrong username or password.",
            ),
        },
        examples=[
            _CREDENTIALS,
            OpenApiExample(
                "Token", value={"token": _TOKEN}, response_only=True, status_codes=["200"]
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = token_obtain(**serializer.validated_data)
        return Response(self.OutputSerializer({"token": token.key}).data)


class MeApi(APIView):
    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        date_joined = serializers.DateTimeField()
        is_staff = serializers.BooleanField()
        is_guest = serializers.BooleanField(help_text="A guest: unranked until claimed.")
        stats = ModeStatsSerializer(many=True, help_text="Per suit mode (1, 2, 4).")
        coins = CoinSummarySerializer(help_text="Your balance and today's (UTC) earnings.")

    @extend_schema(
        operation_id="me",
        tags=["auth"],
        summary="Your profile",
        description="Your account, your statistics per suit mode (1, 2, 4) and your coins "
        "(balance and today's earnings, UTC).",
        responses={200: OutputSerializer},
    )
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)  # the view's permission let only players in
        profile = user_profile(user=request.user)
        return Response(self.OutputSerializer(profile).data)


def _first_party(request: Request) -> None:
    """Managing the account itself is for the player's own sign-in tokens (spider_api.scopes):
    never an OAuth2 access token (it names an application) nor a personal access token."""
    auth = request.auth
    if getattr(auth, "application_id", None) is not None or getattr(auth, "kind", "") == "personal":
        raise FirstPartyOnly()


class FirstPartyOnly(DomainError):
    code, status = "insufficient_scope", 403
    detail = "Only your own sign-in token may do this, not a token given to an app."


FIRST_PARTY_ONLY = error_response(
    "The token is an app's (OAuth2) or a personal access token: managing the account takes "
    "your own sign-in token.",
    FirstPartyOnly.code,
    FirstPartyOnly.detail,
)


class NdjsonRenderer(BaseRenderer):
    """Lets `Accept: application/x-ndjson` through content negotiation; an error answer is
    then one JSON line."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = None

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        return json.dumps(data).encode() + b"\n"


class OctetStreamRenderer(NdjsonRenderer):
    """`Accept: application/octet-stream`: the same bytes, as a plain download (what a
    generated client reads as bytes; it knows no NDJSON)."""

    media_type = "application/octet-stream"
    format = "bytes"


class MeExportApi(APIView):
    """Streamed: a sync iterator under WSGI, an async one under ASGI (Django would otherwise
    read a sync iterator whole before sending it)."""

    throttle_scope = "export"
    renderer_classes = (JSONRenderer, NdjsonRenderer, OctetStreamRenderer)

    @extend_schema(
        operation_id="me_export",
        tags=["auth"],
        summary="Download your data",
        description="Everything the server keeps about you, as NDJSON (one JSON object a "
        "line, each with a `type`): `export` (the format), `profile`, every `game` oldest "
        "first with its whole `log` (a game in progress shows only what `GET /games/{id}` "
        "shows: no face-down card, no seed), every `coins` ledger entry, every `leaderboard` "
        "entry (ranked wins, with a daily attempt's place on its day's board) and every "
        "`race` you were dealt into. Streamed as it is read; throttled (scope `export`). "
        "Only with your own sign-in token.",
        responses={
            (200, NdjsonRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, "The export, one JSON object a line."
            ),
            (200, OctetStreamRenderer.media_type): OpenApiResponse(
                OpenApiTypes.BINARY, "The same, asked for with `Accept: application/octet-stream`."
            ),
            403: FIRST_PARTY_ONLY,
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        user = player_of(request)
        _first_party(request)
        chunks = ndjson_chunks(export_lines(user=user))
        content: Any = (
            _async_chunks(chunks) if isinstance(request._request, ASGIRequest) else chunks
        )
        octets = isinstance(request.accepted_renderer, OctetStreamRenderer)
        media = OctetStreamRenderer.media_type if octets else NdjsonRenderer.media_type
        response = StreamingHttpResponse(content, content_type=media)
        day = timezone.now().date().isoformat()
        response["Content-Disposition"] = (
            f'attachment; filename="spider-{user.username}-{day}.ndjson"'
        )
        response["Cache-Control"] = "no-store"
        return response


async def _async_chunks(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    # On the request's own thread (thread-sensitive), so the same database connection.
    step = sync_to_async(lambda: next(chunks, None), thread_sensitive=True)
    while (chunk := await step()) is not None:
        yield chunk


class MeDeleteApi(APIView):
    throttle_scope = "account_delete"

    class InputSerializer(JsonInputSerializer):
        password = serializers.CharField(
            max_length=128,
            trim_whitespace=False,
            required=False,
            allow_blank=True,
            default="",
            help_text="Your password (a guest, who has none, may leave it out).",
        )

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(
            help_text="The tombstone name your results are kept under (`deleted-` and 10 hex "
            "digits)."
        )

    @extend_schema(
        operation_id="me_delete",
        tags=["auth"],
        summary="Delete your account",
        description="Deletes your account for good, once your password confirms it "
        "(docs/rules.md#deleting-an-account): games in progress end (resigned), every token "
        "is revoked, your username, email and password are erased. Your finished games, "
        "leaderboard places, daily attempts, race results and coin ledger stay, under a "
        "tombstone name, so the boards stay verifiable; your username is free for anyone to "
        "take. Throttled (scope `account_delete`). Only with your own sign-in token.",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            403: error_response(
                "The password is wrong, or the token is not your own sign-in token.",
                WrongPassword.code,
                WrongPassword.detail,
                error_example(FirstPartyOnly.code, FirstPartyOnly.detail),
            ),
        },
        examples=[
            OpenApiExample(
                "Confirm", value={"password": "correct horse battery"}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        user = player_of(request)
        _first_party(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tombstone = account_delete(user=user, **serializer.validated_data)
        return Response(self.OutputSerializer({"username": tombstone}).data)
