"""Accounts endpoints: register, sign in per device and out, your profile and email, your
password (change, reset by email), your tokens. Each calls one service or selector; the
serializers only validate input and shape output.

Managing the account (tokens, password, email, signing out everywhere) is for first-party
sign-ins only: such a view declares `required_scopes = FIRST_PARTY`, and the scope permission
(base.permissions) refuses a personal access token or an app's token with 403
`first_party_only` before the handler runs.
"""

from collections.abc import AsyncIterator, Iterator
from typing import Any, ClassVar

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import QueryDict, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import schema_docs, services
from accounts.export import export_lines, ndjson_chunks
from accounts.limits import PERSONAL_TOKEN_MAX_DAYS
from accounts.models import ApiToken, username_validator
from accounts.presenters import profile_json, signed_in_json, token_json
from accounts.renderers import NdjsonRenderer, OctetStreamRenderer
from accounts.selectors import api_tokens_of, user_profile
from accounts.serializers import DeviceField, DeviceTokenSerializer, ScopesField, TokenSerializer
from accounts.services import (
    account_delete,
    guest_rename,
    token_obtain,
    user_claim,
    user_guest_create,
    user_guest_create_playing,
    user_register,
)
from base.permissions import FIRST_PARTY
from base.players import player_of
from base.scopes import PROFILE_READ, SCOPES
from base.serializers import JsonInputSerializer
from coins.serializers import CoinSummarySerializer
from games.presenters import game_state
from games.serializers import GameStateSerializer, ModeStatsSerializer, SuitsField


def _user_agent(request: Request) -> str:
    """The sign-in's User-Agent, which names an unnamed device (accounts.devices)."""
    return str(request.META.get("HTTP_USER_AGENT", ""))[:512]


class _AuthApi(APIView):
    """Anyone may call these; a stale token sent along is ignored rather than refused."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_scope = "auth"


@schema_docs.user_register
class UserRegisterApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3, max_length=30, validators=[username_validator]
        )
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        schema_rules: ClassVar[dict[str, Any]] = schema_docs.new_password_rules("password")
        email = serializers.EmailField(
            required=False,
            allow_blank=True,
            help_text="Where a password reset is sent (optional; `PATCH /me` sets it later).",
        )
        device = DeviceField()

    class OutputSerializer(DeviceTokenSerializer):
        username = serializers.CharField()

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = user_register(**serializer.validated_data, user_agent=_user_agent(request))
        body = {"username": issued.token.user.username, **signed_in_json(issued)}
        return Response(body, status=status.HTTP_201_CREATED)


@schema_docs.guest_create
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
        body: dict[str, Any] = {"username": issued.token.user.username, "is_guest": True}
        body.update(signed_in_json(issued))
        if suits is not None:  # the game's state exactly as POST /games answers it
            body["game"] = game_state(game) if game is not None else None
        return Response(body, status=status.HTTP_201_CREATED)


@schema_docs.user_claim
class UserClaimApi(APIView):
    """A guest names its account; the same token and games carry on."""

    required_scopes = FIRST_PARTY  # the account itself: never an app's business
    throttle_scope = "auth"

    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3, max_length=30, validators=[username_validator]
        )
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        schema_rules: ClassVar[dict[str, Any]] = schema_docs.new_password_rules("password")

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        is_guest = serializers.BooleanField()

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_claim(user=player_of(request), token=request.auth, **serializer.validated_data)
        return Response({"username": user.username, "is_guest": False})


@schema_docs.token_obtain
class TokenObtainApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)
        device = DeviceField()

    OutputSerializer = DeviceTokenSerializer

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = token_obtain(**serializer.validated_data, user_agent=_user_agent(request))
        return Response(signed_in_json(issued))


@schema_docs.logout
class LogoutApi(APIView):
    """Any token may end itself (a personal access token too)."""

    required_scopes = ()  # any token signs itself out

    def post(self, request: Request) -> Response:
        services.token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


@schema_docs.logout_everywhere
class LogoutEverywhereApi(APIView):
    required_scopes = FIRST_PARTY

    def post(self, request: Request) -> Response:
        services.revoke_tokens(player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@schema_docs.me
class MeApi(APIView):
    required_scopes = {"GET": (PROFILE_READ,), "PATCH": FIRST_PARTY}  # the email: the account's

    class InputSerializer(JsonInputSerializer):
        schema_rules: ClassVar[dict[str, Any]] = {"required": ["email"]}  # PATCH: still required

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

    def get(self, request: Request) -> Response:
        profile = user_profile(user=player_of(request))
        return Response(profile_json(profile))

    def patch(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_update(user=player_of(request), **serializer.validated_data)
        return Response(profile_json(user_profile(user=user)))


@schema_docs.password_change
class PasswordChangeApi(APIView):
    """Throttled per player (scope ``auth``): a stolen sign-in cannot guess the password."""

    required_scopes = FIRST_PARTY

    throttle_scope = "auth"

    class InputSerializer(JsonInputSerializer):
        current_password = serializers.CharField(max_length=128, trim_whitespace=False)
        new_password = serializers.CharField(max_length=128, trim_whitespace=False)
        schema_rules: ClassVar[dict[str, Any]] = schema_docs.new_password_rules("new_password")

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_change(
            user=player_of(request), keep=request.auth, **serializer.validated_data
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@schema_docs.password_reset
class PasswordResetApi(_AuthApi):
    """Throttled per client address (scope ``password_reset``), and one email per address a
    minute whoever asks."""

    throttle_scope = "password_reset"

    class InputSerializer(JsonInputSerializer):
        email = serializers.EmailField()

    class OutputSerializer(serializers.Serializer):
        detail = serializers.CharField()

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_reset_request(**serializer.validated_data)
        detail = "If an account has this email, a link to reset its password is on its way."
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


@schema_docs.password_reset_confirm
class PasswordResetConfirmApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        uid = serializers.CharField(max_length=64, help_text="`uid` of the reset link.")
        token = serializers.CharField(max_length=128, help_text="`token` of the reset link.")
        new_password = serializers.CharField(max_length=128, trim_whitespace=False)
        schema_rules: ClassVar[dict[str, Any]] = schema_docs.new_password_rules("new_password")

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.password_reset_confirm(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _current(request: Request, token: ApiToken) -> bool:
    """Whether ``token`` is the one this request is made with."""
    return isinstance(request.auth, ApiToken) and request.auth.pk == token.pk


@schema_docs.tokens
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

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        tokens = api_tokens_of(user=player_of(request), kind=filters.validated_data.get("kind"))
        return Response([token_json(t, current=_current(request, t)) for t in tokens])

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        issued = services.personal_token_create(
            user=player_of(request), **serializer.validated_data
        )
        body = {**token_json(issued.token, current=False), "token": issued.secret}  # a new one
        return Response(body, status=status.HTTP_201_CREATED)


@schema_docs.token_detail
class TokenDetailApi(APIView):
    required_scopes = FIRST_PARTY

    def delete(self, request: Request, token_id: int) -> Response:
        services.token_delete(user=player_of(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@schema_docs.me_export
class MeExportApi(APIView):
    """Streamed: a sync iterator under WSGI, an async one under ASGI (Django would otherwise
    read a sync iterator whole before sending it)."""

    required_scopes = FIRST_PARTY  # the whole account's data: never an app's token
    throttle_scope = "export"
    renderer_classes = (JSONRenderer, NdjsonRenderer, OctetStreamRenderer)

    def get(self, request: Request) -> HttpResponseBase:
        user = player_of(request)
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


@schema_docs.me_delete
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

    def post(self, request: Request) -> Response:
        user = player_of(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tombstone = account_delete(user=user, **serializer.validated_data)
        return Response({"username": tombstone})


@schema_docs.guest_name
class GuestNameApi(APIView):
    """A guest plays and races under a made-up name until it chooses one here
    (docs/rules.md#guests), checked as a username is; its games stay unranked until it claims
    the account (`POST /auth/claim`)."""

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

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = guest_rename(user=player_of(request), **serializer.validated_data)
        return Response({"username": user.username, "is_guest": user.is_guest})
