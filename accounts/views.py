"""Accounts endpoints: register, sign in per device and out, your profile and email, your
password (change, reset by email), your tokens. Each calls one service or selector; the
serializers only validate input and shape output.

Managing the account (tokens, password, email, signing out everywhere) is for first-party
sign-ins only: `require_first_party` (accounts.permissions) refuses a personal access token or
an app's token with 403 `first_party_only`.
"""

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import QueryDict, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.export import export_lines, ndjson_chunks
from accounts.models import ApiToken, User, username_validator
from accounts.permissions import FirstPartyOnly, require_first_party
from accounts.selectors import api_tokens_of, user_profile
from accounts.services import (
    DEVICE_NAME_MAX_LENGTH,
    PERSONAL_TOKEN_MAX_DAYS,
    IssuedToken,
    NotAGuest,
    ResetLinkInvalid,
    TooManyTokens,
    WrongPassword,
    account_delete,
    token_obtain,
    user_claim,
    user_guest_create,
    user_guest_create_playing,
    user_register,
)
from coins.serializers import CoinSummarySerializer
from games.presenters import game_state
from games.serializers import GameStateSerializer, ModeStatsSerializer, SuitsField
from spider_api.openapi import (
    NOT_FOUND,
    bad_request,
    code_examples,
    error_example,
    error_response,
    invalid_example,
)
from spider_api.permissions import FIRST_PARTY
from spider_api.players import player_of
from spider_api.scopes import PROFILE_READ, SCOPES
from spider_api.serializers import JsonInputSerializer

_CREDENTIALS = OpenApiExample(
    "Credentials",
    value={"username": "alice", "password": "correct horse battery"},
    request_only=True,
)
_TOKEN = "spd_dev_3nV1xQ0kTzq8aP5mWc2LrY7uJb4Hd9Gf6Se0Ko1N00b7Xq"
_PAT = "spd_pat_7Fq2Lm9Xc4Tz1Wv8Nb5Rk3Ys6Hd0Gj2Pa7Ue4Qo9Mi03ZkY1"
_EXPIRES = "2027-01-01T12:00:00Z"
_DEVICE_HELP = (
    "A name for this device (1 to 64 characters, e.g. `alice-phone`): signing in again with "
    "the same name replaces that device's token. Omitted: it is named from the request's "
    "`User-Agent` (`Chrome on Android`, `Firefox on Windows 2`: unique among your devices) "
    "and returned; send it next time."
)
FIRST_PARTY_ONLY = error_response(
    "A personal access token or an app's token: only a first-party sign-in manages the account.",
    FirstPartyOnly.code,
    FirstPartyOnly.detail,
)


# A first-party sign-in just made: its secret (shown this once) and when it expires.
class DeviceTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")
    expires = serializers.DateTimeField(
        help_text="When it stops working unless used: every use moves it on by "
        "FIRST_PARTY_TOKEN_DAYS (30 days by default)."
    )
    device = serializers.CharField(help_text="The device's name, as sent or as made up.")


def _user_agent(request: Request) -> str:
    """The sign-in's User-Agent, which names an unnamed device (accounts.devices)."""
    return str(request.META.get("HTTP_USER_AGENT", ""))[:512]


def _signed_in(issued: IssuedToken) -> dict[str, Any]:
    return {
        "token": issued.secret,
        "expires": issued.token.expires,
        "device": issued.token.name,
    }


class _DeviceField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            required=False,
            min_length=1,
            max_length=DEVICE_NAME_MAX_LENGTH,
            help_text=_DEVICE_HELP,
            **kwargs,
        )


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
        email = serializers.EmailField(
            required=False,
            allow_blank=True,
            help_text="Where a password reset is sent (optional; `PATCH /me` sets it later).",
        )
        device = _DeviceField()

    class OutputSerializer(DeviceTokenSerializer):
        username = serializers.CharField()

    @extend_schema(
        operation_id="auth_register",
        tags=["auth"],
        summary="Create an account",
        description="Creates a player and signs them in on this device: a first-party token, "
        "as `POST /auth/token` gives. Usernames are unique regardless of case; passwords must "
        "pass the server's password rules.",
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
                value={
                    "username": "alice",
                    "token": _TOKEN,
                    "expires": _EXPIRES,
                    "device": "alice-laptop",
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = user_register(**serializer.validated_data, user_agent=_user_agent(request))
        output = self.OutputSerializer(
            {"username": issued.token.user.username, **_signed_in(issued)}
        )
        return Response(output.data, status=status.HTTP_201_CREATED)


class GuestCreateApi(_AuthApi):
    """Throttled per client address like registration (scope ``auth``). A first deal comes
    with at most each guest made, as `POST /games` would deal it to a new guest (whose
    per-player ``pool`` count is nothing yet): the ``auth`` rate bounds both."""

    class InputSerializer(JsonInputSerializer):
        suits = SuitsField(required=False)  # the first game's: see the description

    class OutputSerializer(DeviceTokenSerializer):
        username = serializers.CharField(help_text="A made-up name, `guest-` and 10 hex digits.")
        is_guest = serializers.BooleanField()
        game = GameStateSerializer(
            required=False,
            allow_null=True,
            help_text="With `suits`: the new game, as `POST /games` answers it; null when no "
            "deal could be had now (start one with `POST /games`). Absent without `suits`.",
        )

    @extend_schema(
        operation_id="auth_guest",
        tags=["auth"],
        summary="Play as a guest",
        description="Creates a guest player and signs them in (a first-party token, as "
        "`POST /auth/token` gives), so a first visit "
        "plays at once. A guest's games are unranked: no coins, no leaderboard, no ranked "
        "daily attempt. Claim the account later (`POST /auth/claim`) to keep the games. "
        "With `suits` (1, 2 or 4) the guest's first game is dealt too and comes back in "
        "`game`: a first visit needs this one request to show a table.",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("suits", "Choose 1, 2 or 4.")),
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
                value={
                    "username": "guest-3f9a2c1b7e",
                    "token": _TOKEN,
                    "expires": _EXPIRES,
                    "device": "Firefox on Android",
                    "is_guest": True,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        no_body = isinstance(request.data, QueryDict) and not request.data
        asked = self.InputSerializer(data={} if no_body else request.data)
        asked.is_valid(raise_exception=True)
        suits = asked.validated_data.get("suits")
        if suits is None:
            issued, game = user_guest_create(user_agent=_user_agent(request)), None
        else:
            playing = user_guest_create_playing(suits=suits, user_agent=_user_agent(request))
            issued, game = playing.issued, playing.game
        body = {"username": issued.token.user.username, "is_guest": True, **_signed_in(issued)}
        answer = dict(self.OutputSerializer(body).data)
        answer.pop("game", None)  # the schema's; the body's is the game's state as it is
        if suits is not None:  # the game's state exactly as POST /games answers it
            answer["game"] = game_state(game) if game is not None else None
        return Response(answer, status=status.HTTP_201_CREATED)


class UserClaimApi(APIView):
    """A guest names its account; the same token and games carry on."""

    required_scopes = FIRST_PARTY  # the account itself: never an app's business
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
        description="Gives the calling guest a username and password. The token in use stays "
        "valid (any other of the guest's ends, as with any new password) and the games are "
        "kept; they stay unranked, as they were played.",
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
        user = user_claim(user=request.user, token=request.auth, **serializer.validated_data)
        return Response(self.OutputSerializer({"username": user.username, "is_guest": False}).data)


class TokenObtainApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        device = _DeviceField()

    OutputSerializer = DeviceTokenSerializer

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        summary="Sign in on a device (first-party clients only)",
        description="Trades the player's password for a token for this device: one token per "
        "device, so signing in again with the same `device` replaces its token (the old one "
        "stops working). The token expires FIRST_PARTY_TOKEN_DAYS (30 by default) after its "
        "last use. **For the service's own clients only** (the web client): a third-party app "
        "must never ask for a player's password; it uses OAuth2, or the player gives it a "
        "personal access token (`POST /me/tokens`) with only the scopes it needs.",
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
            OpenApiExample(
                "Credentials",
                value={
                    "username": "alice",
                    "password": "correct horse battery",
                    "device": "alice-laptop",
                },
                request_only=True,
            ),
            OpenApiExample(
                "Token",
                value={"token": _TOKEN, "expires": _EXPIRES, "device": "alice-laptop"},
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = token_obtain(**serializer.validated_data, user_agent=_user_agent(request))
        return Response(self.OutputSerializer(_signed_in(issued)).data)


class LogoutApi(APIView):
    """Any token may end itself (a personal access token too)."""

    required_scopes = ()  # any token signs itself out

    @extend_schema(
        operation_id="auth_logout",
        tags=["auth"],
        summary="Sign out",
        description="Revokes the token this request is made with; every other token stays.",
        request=None,
        responses={204: None},
    )
    def post(self, request: Request) -> Response:
        services.token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutEverywhereApi(APIView):
    required_scopes = FIRST_PARTY

    @extend_schema(
        operation_id="auth_logout_everywhere",
        tags=["auth"],
        summary="Sign out everywhere",
        description="Revokes every token of the player, this one included: every device's "
        "sign-in, every personal access token and every app's OAuth token; admin sessions end "
        "too. Other web processes may still accept a revoked token for TOKEN_CACHE_SECONDS "
        "(10 s by default). First-party sign-ins only.",
        request=None,
        responses={204: None, 403: FIRST_PARTY_ONLY},
    )
    def post(self, request: Request) -> Response:
        require_first_party(request)
        services.revoke_tokens(player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    required_scopes = {"GET": (PROFILE_READ,), "PATCH": FIRST_PARTY}  # the email: the account's

    class InputSerializer(JsonInputSerializer):
        email = serializers.EmailField(
            allow_blank=True,
            help_text='Where a password reset is sent; `""` removes it. Not public, not '
            "checked, and not unique: a reset mails every account with the address.",
        )

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        email = serializers.CharField(help_text='Yours only (never public); `""`: none.')
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

    @extend_schema(
        operation_id="me_update",
        tags=["auth"],
        summary="Change your email",
        description='Sets the email password resets are sent to (`""`: none). '
        "First-party sign-ins only: the email is a way into the account.",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("email", "Enter a valid email address.")),
            403: FIRST_PARTY_ONLY,
        },
        examples=[OpenApiExample("Email", value={"email": "alice@example.com"}, request_only=True)],
    )
    def patch(self, request: Request) -> Response:
        require_first_party(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_update(user=player_of(request), **serializer.validated_data)
        return Response(self.OutputSerializer(user_profile(user=user)).data)


class PasswordChangeApi(APIView):
    """Throttled per player (scope ``auth``): a stolen sign-in cannot guess the password."""

    required_scopes = FIRST_PARTY

    throttle_scope = "auth"

    class InputSerializer(JsonInputSerializer):
        current_password = serializers.CharField(max_length=128, trim_whitespace=False)
        new_password = serializers.CharField(max_length=128, trim_whitespace=False)

    @extend_schema(
        operation_id="me_password",
        tags=["auth"],
        summary="Change your password",
        description="Sets a new password (it must pass the server's password rules). Every "
        "other token of yours is revoked (other devices, personal access tokens, apps' OAuth "
        "tokens) and admin sessions end; the token of this request keeps working. "
        "First-party sign-ins only.",
        request=InputSerializer,
        responses={
            204: None,
            400: bad_request(invalid_example("current_password", "Wrong password.")),
            403: FIRST_PARTY_ONLY,
        },
        examples=[
            OpenApiExample(
                "New password",
                value={
                    "current_password": "correct horse battery",
                    "new_password": "another long passphrase",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        keep = require_first_party(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_change(user=player_of(request), keep=keep, **serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetApi(_AuthApi):
    """Throttled per client address (scope ``password_reset``), and one email per address a
    minute whoever asks."""

    throttle_scope = "password_reset"

    class InputSerializer(JsonInputSerializer):
        email = serializers.EmailField()

    class OutputSerializer(serializers.Serializer):
        detail = serializers.CharField()

    @extend_schema(
        operation_id="auth_password_reset",
        tags=["auth"],
        summary="Forgot your password: ask for a reset link",
        description="Emails a link to the web client's reset page (`/reset?uid=...&token=...`) "
        "to each account with this email that has a password. The answer is the same 202 "
        "whether or not there is one, so it tells no one which addresses have accounts. The "
        "link works once, for PASSWORD_RESET_TIMEOUT (an hour by default); send it with a new "
        "password to `POST /auth/password-reset/confirm`.",
        request=InputSerializer,
        responses={
            202: OutputSerializer,
            400: bad_request(invalid_example("email", "Enter a valid email address.")),
        },
        examples=[OpenApiExample("Email", value={"email": "alice@example.com"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_reset_request(**serializer.validated_data)
        detail = "If an account has this email, a link to reset its password is on its way."
        return Response(self.OutputSerializer({"detail": detail}).data, status=202)


class PasswordResetConfirmApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        uid = serializers.CharField(max_length=64, help_text="`uid` of the reset link.")
        token = serializers.CharField(max_length=128, help_text="`token` of the reset link.")
        new_password = serializers.CharField(max_length=128, trim_whitespace=False)

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        tags=["auth"],
        summary="Set a new password with a reset link",
        description="Sets the password of the account the link was sent for. Every token of "
        "the account is revoked and its sessions end: sign in again with the new password.",
        request=InputSerializer,
        responses={
            204: None,
            400: bad_request(
                invalid_example("new_password", "This password is too common."),
                *code_examples(ResetLinkInvalid),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_reset_confirm(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(SCOPES)},
        "minItems": 1,
        "uniqueItems": True,
    }
)
class ScopesField(serializers.ListField):
    # Scope names of spider_api.scopes.SCOPES, at least one; an unknown one is named in one
    # message (a list's per-item errors would not be a list of messages).

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.CharField(max_length=64), min_length=1, **kwargs)

    def to_internal_value(self, data: Any) -> list[str]:
        scopes = super().to_internal_value(data)
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown:
            raise serializers.ValidationError(
                f"Unknown scope {', '.join(unknown)}; choose from {', '.join(SCOPES)}."
            )
        twice = sorted({s for s in scopes if scopes.count(s) > 1})
        if twice:  # the schema says each once (uniqueItems): a doubled one is refused, not merged
            raise serializers.ValidationError(f"Each scope once: {', '.join(twice)} is repeated.")
        return sorted(scopes)


# One of your tokens, never its secret.
class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # `device`: a sign-in (POST /auth/token); `personal`: a personal access token.
    kind = serializers.ChoiceField(choices=ApiToken.Kind.choices)
    name = serializers.CharField(help_text="The device's name, or the token's.")
    scopes = serializers.ListField(
        child=serializers.CharField(), help_text="What it may do; a sign-in: every scope."
    )
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="To the minute or so (written once a minute at most)."
    )
    expires = serializers.DateTimeField(help_text="A sign-in's moves on as it is used.")
    current = serializers.BooleanField(help_text="The token of this request.")


def _token_json(token: ApiToken, request: Request) -> dict[str, Any]:
    current = getattr(request.auth, "pk", None) == token.pk and isinstance(request.auth, ApiToken)
    return {
        "id": token.pk,
        "kind": token.kind,
        "name": token.name,
        "scopes": token.scopes,
        "created": token.created,
        "last_used": token.last_used,
        "expires": token.expires,
        "current": current,
    }


class TokensApi(APIView):
    """Your tokens: the sign-ins of your devices and your personal access tokens."""

    required_scopes = FIRST_PARTY

    class FilterSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=ApiToken.Kind.values, required=False)

    class InputSerializer(JsonInputSerializer):
        name = serializers.CharField(min_length=1, max_length=64)
        scopes = ScopesField(
            help_text="What the token may do: " + ", ".join(f"`{s}`" for s in SCOPES) + "."
        )
        expires_in_days = serializers.IntegerField(
            min_value=1,
            max_value=PERSONAL_TOKEN_MAX_DAYS,
            help_text=f"It stops working this many days from now (1 to {PERSONAL_TOKEN_MAX_DAYS}).",
        )

    class OutputSerializer(TokenSerializer):
        token = serializers.CharField(
            help_text="The secret, shown this once: copy it now. Send as "
            "`Authorization: Bearer <token>`."
        )

    @extend_schema(
        operation_id="me_tokens",
        tags=["auth"],
        summary="Your tokens",
        description="Every token that acts for you, newest first: each device's sign-in "
        "(`device`) and your personal access tokens (`personal`), never their secrets. "
        "First-party sign-ins only.",
        parameters=[
            OpenApiParameter(
                "kind",
                {"$ref": "#/components/schemas/ApiTokenKindEnum"},
                required=False,
                description="Only the tokens of this kind.",
            )
        ],
        responses={
            200: TokenSerializer(many=True),
            400: bad_request(invalid_example("kind", '"x" is not a valid choice.'), body=False),
            403: FIRST_PARTY_ONLY,
        },
    )
    def get(self, request: Request) -> Response:
        require_first_party(request)
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        tokens = api_tokens_of(user=player_of(request), kind=filters.validated_data.get("kind"))
        return Response(TokenSerializer([_token_json(t, request) for t in tokens], many=True).data)

    @extend_schema(
        operation_id="me_tokens_create",
        tags=["auth"],
        summary="Create a personal access token",
        description="A token for a script or an app of yours, limited to `scopes`, expiring "
        f"in `expires_in_days` (at most {PERSONAL_TOKEN_MAX_DAYS}). The answer holds the "
        "secret, the only time it is shown. A personal access token cannot manage the account "
        "(tokens, password, email). First-party sign-ins only.",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("scopes", "Unknown scope x; choose from ...")),
            403: FIRST_PARTY_ONLY,
            409: error_response(
                "You have as many personal access tokens as one may.",
                TooManyTokens.code,
                TooManyTokens.detail,
            ),
        },
        examples=[
            OpenApiExample(
                "A bot",
                value={"name": "my bot", "scopes": ["game:play"], "expires_in_days": 90},
                request_only=True,
            ),
            OpenApiExample(
                "Created",
                value={
                    "id": 7,
                    "kind": "personal",
                    "name": "my bot",
                    "scopes": ["game:play"],
                    "created": "2026-12-02T12:00:00Z",
                    "last_used": None,
                    "expires": "2027-03-02T12:00:00Z",
                    "current": False,
                    "token": _PAT,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        require_first_party(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = services.personal_token_create(
            user=player_of(request), **serializer.validated_data
        )
        body = {**_token_json(issued.token, request), "token": issued.secret}
        return Response(self.OutputSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenDetailApi(APIView):
    required_scopes = FIRST_PARTY

    @extend_schema(
        operation_id="me_tokens_delete",
        tags=["auth"],
        summary="Revoke a token",
        description="Revokes one of your tokens: a personal access token, or a device's "
        "sign-in (that device is signed out). First-party sign-ins only.",
        responses={204: None, 403: FIRST_PARTY_ONLY, 404: NOT_FOUND},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        require_first_party(request)
        services.token_delete(user=player_of(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


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

    required_scopes = FIRST_PARTY  # the whole account's data: never an app's token
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
        require_first_party(request)
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
    required_scopes = FIRST_PARTY
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
        require_first_party(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tombstone = account_delete(user=user, **serializer.validated_data)
        return Response(self.OutputSerializer({"username": tombstone}).data)
