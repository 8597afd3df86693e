"""The OpenAPI description of the apps endpoints (oauth/views.py): each view's operations,
their answers and examples. Each function reads the serializers off the view class it
decorates, so the schema shows exactly what the view validates."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from base.openapi import (
    ErrorSerializer,
    View,
    bad_request,
    error_example,
    invalid_example,
)
from base.pagination import PAGE_PARAMETERS
from oauth import services
from oauth.errors import AuthorizationRefused
from oauth.serializers import (
    ApprovalSerializer,
    AuthorizationErrorSerializer,
    AuthorizationQuerySerializer,
)

TAGS = ["apps"]

AUTHORIZATION_ERROR = OpenApiResponse(
    AuthorizationErrorSerializer,
    "The request is not one the app may make (unknown client, a redirect URI it did not "
    "register, no PKCE S256 challenge, an unknown scope, ...).",
    examples=[
        error_example(
            AuthorizationRefused.code,
            "Mismatching redirect URI.",
            error="invalid_request",
            redirect_to=None,
        ),
        invalid_example("client_id", "This field is required."),
    ],
)

# As OAuth2 spells them (RFC 6749 A, RFC 7636 4.2), each at most as long as the view's
# AuthorizationQuerySerializer reads it (blank is refused like a missing one); PKCE with
# S256 is required (PKCE_REQUIRED, RFC 9700); a redirect URI is one an app could register.
_VSCHAR = r"^[\x20-\x7E]+$"
_SCOPE_TOKEN = r"[\x21\x23-\x5B\x5D-\x7E]+"
_PKCE = ("code_challenge", "code_challenge_method")


def _query(name: str, description: str, **schema: Any) -> OpenApiParameter:
    field = AuthorizationQuerySerializer().fields[name]
    if "enum" not in schema:
        schema["maxLength"] = getattr(field, "max_length", None)
    return OpenApiParameter(
        name,
        {"type": "string", **schema},
        required=field.required or name in _PKCE,
        description=description,
    )


_QUERY = [
    _query("response_type", "`code`.", enum=["code"]),
    _query("client_id", "The app's client id.", pattern=_VSCHAR),
    _query(
        "redirect_uri",
        "One of the app's redirect URIs (optional if it has only one).",
        pattern=services.REDIRECT_URI_PATTERN,
    ),
    _query(
        "scope",
        "Space-separated scopes (see the `oauth2` security scheme).",
        pattern=f"^{_SCOPE_TOKEN}( {_SCOPE_TOKEN})*$",
    ),
    _query("state", "Anything: sent back with the code.", pattern=_VSCHAR),
    _query(
        "code_challenge",
        "PKCE: BASE64URL(SHA256(code_verifier)).",
        pattern="^[A-Za-z0-9._~-]{43,128}$",
    ),
    _query("code_challenge_method", "`S256` (`plain` is refused).", enum=["S256"]),
]


def apps(view: View) -> View:
    """The operations of AppsApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="apps_list",
            tags=TAGS,
            summary="Your apps",
            description="The OAuth2 apps you registered, newest first (never their secrets).",
            parameters=PAGE_PARAMETERS,
            responses={
                200: view.PageSerializer,
                400: bad_request(
                    invalid_example("page_size", "A whole number 1..100."), body=False
                ),
            },
        ),
        post=extend_schema(
            operation_id="apps_create",
            tags=TAGS,
            summary="Register an app",
            description="Registers an OAuth2 app of yours for the authorization-code grant with "
            "PKCE (S256). A confidential app gets a `client_secret`, shown in this answer only.",
            request=view.InputSerializer,
            responses={
                201: view.OutputSerializer,
                400: bad_request(invalid_example("redirect_uris", "This field is required.")),
                409: OpenApiResponse(
                    ErrorSerializer,
                    "You have as many apps as a player may have (OAUTH_APPS_PER_PLAYER).",
                    examples=[
                        error_example(services.TooManyApps.code, services.TooManyApps.detail)
                    ],
                ),
            },
            examples=[
                OpenApiExample(
                    "A browser app",
                    value={"name": "Spider Stats", "redirect_uris": ["https://app.example/cb"]},
                    request_only=True,
                )
            ],
        ),
    )(view)


def app_detail(view: View) -> View:
    """The operations of AppDetailApi."""
    return extend_schema_view(
        delete=extend_schema(
            operation_id="apps_delete",
            tags=TAGS,
            summary="Delete an app",
            description="Deletes your app, and with it every code and token it was given: its "
            "tokens stop working (within TOKEN_CACHE_SECONDS on other web processes).",
            request=None,
            responses={
                204: None,
                404: OpenApiResponse(
                    ErrorSerializer,
                    "No app of yours has this client id.",
                    examples=[
                        error_example(services.AppNotFound.code, services.AppNotFound.detail)
                    ],
                ),
            },
        ),
    )(view)


def authorization(view: View) -> View:
    """The operations of AuthorizationApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="oauth_authorization_read",
            tags=TAGS,
            summary="Read an authorization request",
            description="For the authorization page: the app and the scopes an authorization "
            "request (the query string of `/oauth/authorize`, passed on as it is) asks for.",
            parameters=_QUERY,
            responses={200: view.OutputSerializer, 400: AUTHORIZATION_ERROR},
        ),
        post=extend_schema(
            operation_id="oauth_authorization_decide",
            tags=TAGS,
            summary="Approve or deny an authorization request",
            description="The signed-in player's answer to the authorization request in the query "
            "string. Approved, the app gets a code (valid 60 s, once, with the PKCE verifier); "
            "denied, `error=access_denied`. Either way, send the browser to `redirect_to`.",
            parameters=_QUERY,
            request=view.InputSerializer,
            responses={200: view.DecisionSerializer, 400: AUTHORIZATION_ERROR},
        ),
    )(view)


def approvals(view: View) -> View:
    """The operations of ApprovalsApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="me_approved_apps",
            tags=TAGS,
            summary="Apps you approved",
            description="Every app that may act for you (one you approved on the authorization "
            "page, holding a live token), with its scopes and when it last acted, most recent "
            "first. First-party sign-ins only.",
            responses={200: ApprovalSerializer(many=True)},
        ),
    )(view)


def approval_detail(view: View) -> View:
    """The operations of ApprovalDetailApi."""
    return extend_schema_view(
        delete=extend_schema(
            operation_id="me_approved_apps_revoke",
            tags=TAGS,
            summary="Revoke an app you approved",
            description="Ends the app's access at once: its access and refresh tokens stop "
            "working (within TOKEN_CACHE_SECONDS on other web processes) and its unused codes "
            "with them. To act for you again it must ask you again. First-party sign-ins only.",
            request=None,
            responses={
                204: None,
                404: OpenApiResponse(
                    ErrorSerializer,
                    "No app you approved (with a live token) has this client id.",
                    examples=[
                        error_example(
                            services.ApprovalNotFound.code, services.ApprovalNotFound.detail
                        )
                    ],
                ),
            },
        ),
    )(view)
