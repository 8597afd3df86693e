"""Third-party apps: a player registers, lists and deletes their apps; and the web client's
authorization page asks here what an app's authorization request is (app, scopes) and sends
the player's approval or denial, which answers the URL to send the browser back to.

The authorization endpoint itself (`/oauth/authorize`) is a page of the web client, signed in
with its bearer token rather than a Django session, so these views run DOT's own request
validation and response (OAuthLibMixin: `validate_authorization_request`,
`create_authorization_response`) on the query string the page passes on as it came.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views.mixins import OAuthLibMixin
from oauthlib import oauth2
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.pagination import page_json, page_request, page_serializer
from base.permissions import FIRST_PARTY
from base.players import player_of
from base.serializers import JsonInputSerializer
from oauth import schema_docs, selectors, services
from oauth.errors import AuthorizationRefused
from oauth.presenters import app_json, approval_json, authorization_json
from oauth.serializers import (
    AppSerializer,
    AppSummarySerializer,
    AuthorizationQuerySerializer,
    ScopeSerializer,
)
from oauth.validator import REDIRECT_NAMED

MAX_REDIRECT_URIS = 10


@schema_docs.apps
class AppsApi(APIView):
    """Your apps (GET: PageSerializer); register one (POST: InputSerializer,
    OutputSerializer). Managing apps is the account's own business: first-party only."""

    required_scopes = FIRST_PARTY
    PageSerializer = page_serializer("AppPage", AppSerializer)

    class InputSerializer(JsonInputSerializer):
        name = serializers.CharField(max_length=100, help_text="Shown to players who approve it.")
        redirect_uris = serializers.ListField(
            child=serializers.CharField(max_length=500, trim_whitespace=False),
            min_length=1,
            max_length=MAX_REDIRECT_URIS,
            help_text="Where the player's browser is sent back with the code: an exact match "
            "of the request's `redirect_uri` (http or https, no fragment).",
        )
        confidential = serializers.BooleanField(default=False)

        # The redirect URIs app_register takes (services.REDIRECT_URI_PATTERN).
        schema_rules: ClassVar[dict[str, Any]] = {
            "properties": {
                "redirect_uris": {
                    "items": {
                        "type": "string",
                        "maxLength": 500,
                        "pattern": services.REDIRECT_URI_PATTERN,
                    }
                }
            }
        }

    @property
    def throttle_scope(self) -> str | None:  # registering is throttled like signing up
        return "auth" if self.request.method == "POST" else None

    class OutputSerializer(AppSerializer):
        client_secret = serializers.CharField(
            allow_null=True,
            help_text="A confidential app's secret, shown this once (it is kept hashed); null "
            "for a public app.",
        )

    def get(self, request: Request) -> Response:
        asked = page_request(request.query_params)
        apps = selectors.apps_of(user=player_of(request))
        rows = apps[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [app_json(a) for a in rows]))

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registered = services.app_register(user=player_of(request), **serializer.validated_data)
        body = {**app_json(registered.app), "client_secret": registered.client_secret}
        return Response(body, status=status.HTTP_201_CREATED)


@schema_docs.app_detail
class AppDetailApi(APIView):
    required_scopes = FIRST_PARTY

    def delete(self, request: Request, client_id: str) -> Response:
        services.app_delete(user=player_of(request), client_id=client_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- the authorization page's two calls ----------------------------------------------------------


class _AuthorizationApi(OAuthLibMixin, APIView):
    """Approving an app is the player's own act: first-party only."""

    required_scopes = FIRST_PARTY

    FilterSerializer = AuthorizationQuerySerializer

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


@schema_docs.authorization
class AuthorizationApi(_AuthorizationApi):
    """What an authorization request asks (GET: OutputSerializer); the player's answer
    (POST: InputSerializer, DecisionSerializer)."""

    class OutputSerializer(serializers.Serializer):
        app = AppSummarySerializer()
        scopes = ScopeSerializer(many=True, help_text="What the app asks to do as you.")
        redirect_uri = serializers.CharField(help_text="Where your browser goes back to.")

    class InputSerializer(JsonInputSerializer):
        allow = serializers.BooleanField(help_text="true: approve; false: deny.")

    class DecisionSerializer(serializers.Serializer):
        redirect_to = serializers.CharField(
            help_text="Send the browser here: the app's redirect URI with `code` and `state` "
            "(approved) or `error=access_denied` (denied)."
        )

    def get(self, request: Request) -> Response:
        scopes, credentials = self.validated(request)
        app = selectors.app_by_client_id(client_id=credentials["client_id"])
        return Response(authorization_json(app, scopes, credentials["redirect_uri"]))

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
        return Response({"redirect_to": uri})


@schema_docs.approvals
class ApprovalsApi(APIView):
    """The apps a player approved. The account's own business: first-party sign-ins only,
    never an app's token (which could otherwise hide itself or its peers)."""

    required_scopes = FIRST_PARTY

    def get(self, request: Request) -> Response:
        approvals = selectors.approvals_of(user=player_of(request))
        return Response([approval_json(a) for a in approvals])


@schema_docs.approval_detail
class ApprovalDetailApi(APIView):
    """Ends an approved app's access at once (first-party sign-ins only)."""

    required_scopes = FIRST_PARTY

    def delete(self, request: Request, client_id: str) -> Response:
        services.approval_revoke(user=player_of(request), client_id=client_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
