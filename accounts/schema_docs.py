"""The OpenAPI description of the accounts endpoints (accounts/views.py): each view's
operations, their answers and examples. Each function reads the serializers off the view
class it decorates, so the schema shows exactly what the view validates."""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from accounts.errors import (
    NotAGuest,
    ResetLinkInvalid,
    TooManyTokens,
    UsernameTaken,
    WrongPassword,
)
from accounts.limits import PERSONAL_TOKEN_MAX_DAYS
from accounts.renderers import NdjsonRenderer, OctetStreamRenderer
from accounts.serializers import TokenSerializer
from base.openapi import (
    NOT_FOUND,
    View,
    bad_request,
    code_examples,
    error_example,
    error_response,
    invalid_example,
)

_CREDENTIALS = OpenApiExample(
    "Credentials",
    value={"username": "alice", "password": "correct horse battery"},
    request_only=True,
)

_TOKEN = "spd_dev_3nV1xQ0kTzq8aP5mWc2LrY7uJb4Hd9Gf6Se0Ko1N00b7Xq"

_PAT = "spd_pat_7Fq2Lm9Xc4Tz1Wv8Nb5Rk3Ys6Hd0Gj2Pa7Ue4Qo9Mi03ZkY1"

_EXPIRES = "2027-01-01T12:00:00Z"

EMAIL = OpenApiExample("Email", value={"email": "alice@example.com"}, request_only=True)


def new_password_rules(field: str) -> dict[str, Any]:
    """The schema of a new password's field: Django's MinimumLengthValidator (8 characters by
    default). Its other validators (a common password, all digits, too like the username) no
    schema can say: they answer 400 `invalid`, as documented."""
    return {"properties": {field: {"minLength": 8}}}


def user_register(view: View) -> View:
    """The operations of UserRegisterApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_register",
            tags=["auth"],
            summary="Create an account",
            description="Creates a player and signs them in on this device: a first-party token, "
            "as `POST /auth/token` gives. Usernames are unique regardless of case; passwords must "
            "pass the server's password rules.",
            request=view.InputSerializer,
            responses={
                201: view.OutputSerializer,
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
        ),
    )(view)


def guest_create(view: View) -> View:
    """The operations of GuestCreateApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_guest",
            tags=["auth"],
            summary="Play as a guest",
            description="Creates a guest player and signs them in (a first-party token, as "
            "`POST /auth/token` gives), so a first visit "
            "plays at once. A guest's games are unranked: no coins, no leaderboard, no ranked "
            "daily attempt. Claim the account later (`POST /auth/claim`) to keep the games. "
            "With `suits` (1, 2 or 4) the guest's first game is dealt too and comes back in "
            "`game`: a first visit needs this one request to show a table.",
            request=view.InputSerializer,
            responses={
                201: view.OutputSerializer,
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
        ),
    )(view)


def user_claim(view: View) -> View:
    """The operations of UserClaimApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_claim",
            tags=["auth"],
            summary="Claim your guest account",
            description="Gives the calling guest a username and password. The token in use stays "
            "valid (any other of the guest's ends, as with any new password) and the games are "
            "kept; they stay unranked, as they were played.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("username", "This field is required.")),
                409: error_response(
                    "The username exists (in any letter case), or the account is not a guest's.",
                    "username_taken",
                    "That username is taken; choose another.",
                    error_example(NotAGuest.code, NotAGuest.detail),
                ),
            },
            examples=[_CREDENTIALS],
        ),
    )(view)


def token_obtain(view: View) -> View:
    """The operations of TokenObtainApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_token",
            tags=["auth"],
            summary="Sign in on a device (first-party clients only)",
            description="Trades the player's password for a token for this device: one token per "
            "device, so signing in again with the same `device` replaces its token (the old one "
            "stops working). The token expires FIRST_PARTY_TOKEN_DAYS (30 by default) after its "
            "last use. **For the service's own clients only** (the web client): a third-party app "
            "must never ask for a player's password; it uses OAuth2, or the player gives it a "
            "personal access token (`POST /me/tokens`) with only the scopes it needs.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
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
        ),
    )(view)


def logout(view: View) -> View:
    """The operations of LogoutApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_logout",
            tags=["auth"],
            summary="Sign out",
            description="Revokes the token this request is made with; every other token stays.",
            request=None,
            responses={204: None},
        ),
    )(view)


def logout_everywhere(view: View) -> View:
    """The operations of LogoutEverywhereApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_logout_everywhere",
            tags=["auth"],
            summary="Sign out everywhere",
            description="Revokes every token of the player, this one included: every device's "
            "sign-in, every personal access token and every app's OAuth token; admin sessions end "
            "too. Other web processes may still accept a revoked token for TOKEN_CACHE_SECONDS "
            "(10 s by default). First-party sign-ins only.",
            request=None,
            responses={204: None},
        ),
    )(view)


def me(view: View) -> View:
    """The operations of MeApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="me",
            tags=["auth"],
            summary="Your profile",
            description="Your account, your statistics per suit mode (1, 2, 4) and your coins "
            "(balance and today's earnings, UTC).",
            responses={200: view.OutputSerializer},
        ),
        patch=extend_schema(
            operation_id="me_update",
            tags=["auth"],
            summary="Change your email",
            description='Sets the email password resets are sent to (`""`: none). '
            "First-party sign-ins only: the email is a way into the account.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("email", "Enter a valid email address.")),
            },
            examples=[EMAIL],
        ),
    )(view)


def password_change(view: View) -> View:
    """The operations of PasswordChangeApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="me_password",
            tags=["auth"],
            summary="Change your password",
            description="Sets a new password (it must pass the server's password rules). Every "
            "other token of yours is revoked (other devices, personal access tokens, apps' OAuth "
            "tokens) and admin sessions end; the token of this request keeps working. "
            "First-party sign-ins only.",
            request=view.InputSerializer,
            responses={
                204: None,
                400: bad_request(invalid_example("current_password", "Wrong password.")),
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
        ),
    )(view)


def password_reset(view: View) -> View:
    """The operations of PasswordResetApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_password_reset",
            tags=["auth"],
            summary="Forgot your password: ask for a reset link",
            description="Emails a link to the web client's reset page (`/reset?uid=...&token=...`) "
            "to each account with this email that has a password. The answer is the same 202 "
            "whether or not there is one, so it tells no one which addresses have accounts. The "
            "link works once, for PASSWORD_RESET_TIMEOUT (an hour by default); send it with a new "
            "password to `POST /auth/password-reset/confirm`.",
            request=view.InputSerializer,
            responses={
                202: view.OutputSerializer,
                400: bad_request(invalid_example("email", "Enter a valid email address.")),
            },
            examples=[EMAIL],
        ),
    )(view)


def password_reset_confirm(view: View) -> View:
    """The operations of PasswordResetConfirmApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="auth_password_reset_confirm",
            tags=["auth"],
            summary="Set a new password with a reset link",
            description="Sets the password of the account the link was sent for. Every token of "
            "the account is revoked and its sessions end: sign in again with the new password.",
            request=view.InputSerializer,
            responses={
                204: None,
                400: bad_request(
                    invalid_example("new_password", "This password is too common."),
                    *code_examples(ResetLinkInvalid),
                ),
            },
        ),
    )(view)


def tokens(view: View) -> View:
    """The operations of TokensApi."""
    return extend_schema_view(
        get=extend_schema(
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
            },
        ),
        post=extend_schema(
            operation_id="me_tokens_create",
            tags=["auth"],
            summary="Create a personal access token",
            description="A token for a script or an app of yours, limited to `scopes`, expiring "
            f"in `expires_in_days` (at most {PERSONAL_TOKEN_MAX_DAYS}). The answer holds the "
            "secret, the only time it is shown. A personal access token cannot manage the account "
            "(tokens, password, email). First-party sign-ins only.",
            request=view.InputSerializer,
            responses={
                201: view.OutputSerializer,
                400: bad_request(invalid_example("scopes", "Unknown scope x; choose from ...")),
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
        ),
    )(view)


def token_detail(view: View) -> View:
    """The operations of TokenDetailApi."""
    return extend_schema_view(
        delete=extend_schema(
            operation_id="me_tokens_delete",
            tags=["auth"],
            summary="Revoke a token",
            description="Revokes one of your tokens: a personal access token, or a device's "
            "sign-in (that device is signed out). First-party sign-ins only.",
            responses={204: None, 404: NOT_FOUND},
        ),
    )(view)


def me_export(view: View) -> View:
    """The operations of MeExportApi."""
    return extend_schema_view(
        get=extend_schema(
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
                    OpenApiTypes.BINARY,
                    "The same, asked for with `Accept: application/octet-stream`.",
                ),
            },
        ),
    )(view)


def me_delete(view: View) -> View:
    """The operations of MeDeleteApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="me_delete",
            tags=["auth"],
            summary="Delete your account",
            description="Deletes your account for good, once your password confirms it "
            "(docs/rules.md#deleting-an-account): games in progress end (resigned), every token "
            "is revoked, your username, email and password are erased. Your finished games, "
            "leaderboard places, daily attempts, race results and coin ledger stay, under a "
            "tombstone name, so the boards stay verifiable; your username is free for anyone to "
            "take. Throttled (scope `account_delete`). Only with your own sign-in token.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                403: error_response(
                    "The password is wrong, or the token is not your own sign-in token.",
                    WrongPassword.code,
                    WrongPassword.detail,
                ),
            },
            examples=[
                OpenApiExample(
                    "Confirm", value={"password": "correct horse battery"}, request_only=True
                )
            ],
        ),
    )(view)


def guest_name(view: View) -> View:
    """The operations of GuestNameApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="me_name",
            tags=["auth"],
            summary="Choose your name (guests)",
            description="A guest chooses the name it plays, races and is shown under (its "
            "statistics are at `/players/{username}`). It stays a guest: its games are "
            "unranked until it claims the account (`POST /auth/claim`, which may keep this "
            "name). A claimed account keeps its name.",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                400: bad_request(
                    invalid_example(
                        "username",
                        "A username is 3 to 30 letters, digits, '_' or '-'.",
                    )
                ),
                409: error_response(
                    "The name is taken (in any letter case), or the account is not a guest's.",
                    UsernameTaken.code,
                    UsernameTaken.detail,
                    error_example(NotAGuest.code, NotAGuest.detail),
                ),
            },
            examples=[OpenApiExample("A name", value={"username": "alice"}, request_only=True)],
        ),
    )(view)
