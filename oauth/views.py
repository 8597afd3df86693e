"""Third-party apps: a player registers, lists and deletes their apps; and the web client's
authorization page asks here what an app's authorization request is (app, scopes) and sends
the player's approval or denial, which answers the URL to send the browser back to.

The authorization endpoint itself (`/oauth/authorize`) is a page of the web client, signed in
with its bearer token rather than a Django session, so these views run DOT's own request
validation and response (OAuthLibMixin: `validate_authorization_request`,
`create_authorization_response`) on the query string the page passes on as it came.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.models import Application
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views.mixins import OAuthLibMixin
from oauthlib import oauth2
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from oauth import selectors, services
from oauth.validator import REDIRECT_NAMED
from spider_api.errors import DomainError
from spider_api.openapi import (
    ErrorSerializer,
    ValidationErrorSerializer,
    bad_request,
    error_example,
    invalid_example,
)
from spider_api.pagination import PAGE_PARAMETERS, page_json, page_request, page_serializer
from spider_api.permissions import FIRST_PARTY
from spider_api.players import player_of
from spider_api.scopes import SCOPES
from spider_api.serializers import JsonInputSerializer

TAGS = ["apps"]
MAX_REDIRECT_URIS = 10


class AppSerializer(serializers.Serializer):
    client_id = serializers.CharField(help_text="The app's public identifier (`client_id`).")
    name = serializers.CharField()
    redirect_uris = serializers.ListField(child=serializers.CharField())
    confidential = serializers.BooleanField(
        help_text="A confidential app (a server) authenticates with its secret; a public one "
        "(a browser or mobile app) with PKCE alone."
    )
    created = serializers.DateTimeField()


def app_json(app: Application) -> dict[str, Any]:
    return {
        "client_id": app.client_id,
        "name": app.name,
        "redirect_uris": app.redirect_uris.split(),
        "confidential": app.client_type == Application.CLIENT_CONFIDENTIAL,
        "created": app.created,
    }


class AppsApi(APIView):
    """Your apps (GET: PageSerializer); register one (POST: InputSerializer,
    OutputSerializer). Managing apps is the account's own business: first-party only."""

    required_scopes = FIRST_PARTY
    PageSerializer = page_serializer("AppPage", AppSerializer)

    class InputSerializer(JsonInputSerializer):
        name = serializers.CharField(max_length=100, help_text="Shown to players who approve it.")
        redirect_uris = serializers.ListField(
            child=serializers.CharField(max_length=500),
            min_length=1,
            max_length=MAX_REDIRECT_URIS,
            help_text="Where the player's browser is sent back with the code: an exact match "
            "of the request's `redirect_uri` (http or https, no fragment).",
        )
        confidential = serializers.BooleanField(default=False)

    @property
    def throttle_scope(self) -> str | None:  # registering is throttled like signing up
        return "auth" if self.request.method == "POST" else None

    class OutputSerializer(AppSerializer):
        client_secret = serializers.CharField(
            allow_null=True,
            help_text="A confidential app's secret, shown this once (it is kept hashed); null "
            "for a public app.",
        )

    @extend_schema(
        operation_id="apps_list",
        tags=TAGS,
        summary="Your apps",
        description="The OAuth2 apps you registered, newest first (never their secrets).",
        parameters=PAGE_PARAMETERS,
        responses={
            200: PageSerializer,
            400: bad_request(invalid_example("page_size", "A whole number 1..100."), body=False),
        },
    )
    def get(self, request: Request) -> Response:
        asked = page_request(request.query_params)
        apps = selectors.apps_of(user=player_of(request))
        rows = apps[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [app_json(a) for a in rows]))

    @extend_schema(
        operation_id="apps_create",
        tags=TAGS,
        summary="Register an app",
        description="Registers an OAuth2 app of yours for the authorization-code grant with "
        "PKCE (S256). A confidential app gets a `client_secret`, shown in this answer only.",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("redirect_uris", "This field is required.")),
            409: OpenApiResponse(
                ErrorSerializer,
                "You have as many apps as a player may have (OAUTH_APPS_PER_PLAYER).",
                examples=[error_example(services.TooManyApps.code, services.TooManyApps.detail)],
            ),
        },
        examples=[
            OpenApiExample(
                "A browser app",
                value={"name": "Spider Stats", "redirect_uris": ["https://app.example/cb"]},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registered = services.app_register(user=player_of(request), **serializer.validated_data)
        body = {**app_json(registered.app), "client_secret": registered.client_secret}
        return Response(self.OutputSerializer(body).data, status=status.HTTP_201_CREATED)


class AppDetailApi(APIView):
    required_scopes = FIRST_PARTY

    @extend_schema(
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
                examples=[error_example(services.AppNotFound.code, services.AppNotFound.detail)],
            ),
        },
    )
    def delete(self, request: Request, client_id: str) -> Response:
        services.app_delete(user=player_of(request), client_id=client_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- the authorization page's two calls ----------------------------------------------------------


class AuthorizationRefused(DomainError):
    code, status = "invalid_authorization_request", 400
    detail = "This authorization request is not valid."


class AuthorizationErrorSerializer(ValidationErrorSerializer):
    error = serializers.CharField(
        required=False, help_text="With `invalid_authorization_request`: the OAuth2 error."
    )
    redirect_to = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="Where to send the browser to tell the app (its redirect URI with `error`); "
        "null when the client or its redirect URI is itself wrong: then never redirect.",
    )


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

_QUERY = [
    OpenApiParameter(name, str, required=name in ("client_id", "response_type"), description=text)
    for name, text in [
        ("response_type", "`code`."),
        ("client_id", "The app's client id."),
        ("redirect_uri", "One of the app's redirect URIs (optional if it has only one)."),
        ("scope", "Space-separated scopes (see the `oauth2` security scheme)."),
        ("state", "Anything: sent back with the code."),
        ("code_challenge", "PKCE: BASE64URL(SHA256(code_verifier))."),
        ("code_challenge_method", "`S256` (`plain` is refused)."),
    ]
]


class _AuthorizationApi(OAuthLibMixin, APIView):
    """Approving an app is the player's own act: first-party only."""

    required_scopes = FIRST_PARTY

    class FilterSerializer(serializers.Serializer):
        response_type = serializers.CharField(max_length=32)
        client_id = serializers.CharField(max_length=255)
        redirect_uri = serializers.CharField(max_length=500, required=False)
        scope = serializers.CharField(max_length=500, required=False)
        state = serializers.CharField(max_length=500, required=False)
        code_challenge = serializers.CharField(max_length=128, required=False)
        code_challenge_method = serializers.CharField(max_length=16, required=False)

    def validated(self, request: Request) -> tuple[list[str], dict[str, Any]]:
        """DOT's validation of the authorization request in the query string: the scopes
        asked for and the request's credentials; AuthorizationRefused if it is not valid."""
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        try:
            scopes, credentials = self.validate_authorization_request(request._request)
            if credentials.get("code_challenge_method") != "S256":
                # DOT refuses "plain" (COMPLIANT_BCP_RFC9700_PKCE_METHOD) only once approved,
                # when it makes the code; the page should not ask the player first.
                error = oauth2.InvalidRequestError(
                    description='Unsupported "plain" code_challenge_method; use "S256".',
                    state=credentials.get("state"),
                )
                raise OAuthToolkitError(error, redirect_uri=credentials["redirect_uri"])
            # The token request must then name it too (oauth.validator).
            credentials[REDIRECT_NAMED] = "redirect_uri" in filters.validated_data
            return scopes, credentials
        except OAuthToolkitError as exc:
            refusal = self.refused(exc)
            raise AuthorizationRefused(detail=refusal.detail, extra=refusal.extra) from None

    def refused(self, exc: OAuthToolkitError) -> AuthorizationRefused:
        """The refusal of a request DOT found invalid: its OAuth2 error, and where to tell the
        app (never for an unknown client or a redirect URI it did not register)."""
        redirect_to = self.error_redirect(exc)
        error = exc.oauthlib_error
        return AuthorizationRefused(
            detail=error.description or AuthorizationRefused.detail,
            extra={"error": error.error, "redirect_to": redirect_to},
        )

    def error_redirect(self, exc: OAuthToolkitError) -> str | None:
        """Where to send the browser with the error, ``iss`` included (RFC 9207 asks it of
        error responses too; DOT adds it to the code's only); None where never to redirect."""
        redirect, info = self.error_response(exc)
        if not redirect:
            return None
        parts = urlsplit(info["url"])
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "iss"]
        query.append(("iss", oauth2_settings.oauth2_authorization_server_issuer(self.request)))
        return urlunsplit(parts._replace(query=urlencode(query)))


class AuthorizationApi(_AuthorizationApi):
    """What an authorization request asks (GET: OutputSerializer); the player's answer
    (POST: InputSerializer, DecisionSerializer)."""

    class OutputSerializer(serializers.Serializer):
        class AppSerializer(serializers.Serializer):
            client_id = serializers.CharField()
            name = serializers.CharField()
            owner = serializers.CharField(allow_null=True, help_text="Who registered it.")

        class ScopeSerializer(serializers.Serializer):
            name = serializers.CharField()
            description = serializers.CharField()

        app = AppSerializer()
        scopes = ScopeSerializer(many=True, help_text="What the app asks to do as you.")
        redirect_uri = serializers.CharField(help_text="Where your browser goes back to.")

    class InputSerializer(JsonInputSerializer):
        allow = serializers.BooleanField(help_text="true: approve; false: deny.")

    class DecisionSerializer(serializers.Serializer):
        redirect_to = serializers.CharField(
            help_text="Send the browser here: the app's redirect URI with `code` and `state` "
            "(approved) or `error=access_denied` (denied)."
        )

    @extend_schema(
        operation_id="oauth_authorization_read",
        tags=TAGS,
        summary="Read an authorization request",
        description="For the authorization page: the app and the scopes an authorization "
        "request (the query string of `/oauth/authorize`, passed on as it is) asks for.",
        parameters=_QUERY,
        responses={200: OutputSerializer, 400: AUTHORIZATION_ERROR},
    )
    def get(self, request: Request) -> Response:
        scopes, credentials = self.validated(request)
        app = Application.objects.select_related("user").get(client_id=credentials["client_id"])
        body = {
            "app": {
                "client_id": app.client_id,
                "name": app.name or app.client_id,
                "owner": app.user.get_username() if app.user else None,
            },
            "scopes": [{"name": s, "description": SCOPES.get(s, s)} for s in scopes],
            "redirect_uri": credentials["redirect_uri"],
        }
        return Response(self.OutputSerializer(body).data)

    @extend_schema(
        operation_id="oauth_authorization_decide",
        tags=TAGS,
        summary="Approve or deny an authorization request",
        description="The signed-in player's answer to the authorization request in the query "
        "string. Approved, the app gets a code (valid 60 s, once, with the PKCE verifier); "
        "denied, `error=access_denied`. Either way, send the browser to `redirect_to`.",
        parameters=_QUERY,
        request=InputSerializer,
        responses={200: DecisionSerializer, 400: AUTHORIZATION_ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        scopes, credentials = self.validated(request)
        try:
            uri, _headers, _body, _status = self.create_authorization_response(
                request._request, " ".join(scopes), credentials, serializer.validated_data["allow"]
            )
        except OAuthToolkitError as exc:
            if exc.oauthlib_error.error != "access_denied":
                refusal = self.refused(exc)
                raise AuthorizationRefused(detail=refusal.detail, extra=refusal.extra) from None
            denied = self.error_redirect(exc)
            assert denied is not None  # a denial always goes back to the app
            uri = denied
        return Response(self.DecisionSerializer({"redirect_to": uri}).data)
