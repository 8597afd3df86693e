"""The provider's own endpoints (django-oauth-toolkit's views), held to what the metadata
advertises and throttled.

- Registration (RFC 7591/7592) takes only the grants of ``OAUTH2_GRANT_TYPES_SUPPORTED``:
  DOT's view would register a client-credentials, password or implicit app.
- The token and revocation endpoints are throttled per client address and per client id
  (scopes ``oauth_token`` and ``oauth_client``): a confidential client's secret is checked
  against its hash (hundreds of milliseconds of CPU) on every request. A refusal is 429 in
  OAuth2's error shape, with ``Retry-After`` and the RateLimit-* fields.
- An authorization code is good for one try: a token request that presents one and fails
  (a wrong verifier, another app, a redirect URI that does not match) burns it, so a code
  that leaked cannot be tried again and again.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from typing import Any
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider import views as dot
from oauth2_provider.models import get_grant_model
from oauth2_provider.settings import oauth2_settings

from base.throttling import throttle_wait

MAX_CLIENT_ID = 100  # DOT's client_id column; anything longer names no client


def _refusal(error: str, description: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": error, "error_description": description}, status=status)


def _unsupported_grants(body: bytes) -> JsonResponse | None:
    """RFC 7591's refusal of metadata asking for a grant the server does not offer; None if
    the body asks for none (or is not JSON: DOT's view says so itself)."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    offered = oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED
    grants = data.get("grant_types", ["authorization_code"])
    if isinstance(grants, list):
        unsupported = [g for g in grants if isinstance(g, str) and g not in offered]
        if unsupported:
            return _refusal(
                "invalid_client_metadata",
                f"Unsupported grant_types: {', '.join(map(repr, unsupported))}; this server "
                f"offers {', '.join(offered)}.",
            )
    responses = data.get("response_types", ["code"])
    if isinstance(responses, list) and any(
        r not in oauth2_settings.OAUTH2_RESPONSE_TYPES_SUPPORTED for r in responses
    ):
        return _refusal("invalid_client_metadata", "response_types: only 'code' is offered.")
    return None


class RegistrationView(dot.DynamicClientRegistrationView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttled = _throttled(request, client_id=None, scope="auth")
        if throttled is not None:
            return throttled
        return _unsupported_grants(request.body) or super().post(request, *args, **kwargs)


class RegistrationManagementView(dot.DynamicClientRegistrationManagementView):
    def put(self, request: HttpRequest, client_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _unsupported_grants(request.body)
        return refused or super().put(request, client_id, *args, **kwargs)


def _client_id(request: HttpRequest) -> str | None:
    """The client a token or revocation request names: HTTP Basic's user, else the form's
    ``client_id``; None if it names none we could have."""
    keyword, _, credentials = request.headers.get("Authorization", "").partition(" ")
    client_id: str | None = None
    if keyword.lower() == "basic":
        try:
            decoded = base64.b64decode(credentials.strip(), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            decoded = ""
        client_id = unquote(decoded.partition(":")[0]) or None
    else:
        client_id = request.POST.get("client_id") or None
    if client_id is None or len(client_id) > MAX_CLIENT_ID or not client_id.isascii():
        return None
    return client_id


def _throttled(request: HttpRequest, *, client_id: str | None, scope: str) -> JsonResponse | None:
    """Count the request per address in ``scope`` and, naming a client, per client in
    ``oauth_client``; a 429 if either is spent."""
    waits = [throttle_wait(scope=scope, user=None, meta=request.META, request=request)]
    if client_id is not None:
        waits.append(
            throttle_wait(
                scope="oauth_client", user=None, ident=f"client:{client_id}", request=request
            )
        )
    wait = max((w for w in waits if w is not None), default=None)
    if wait is None:
        return None
    seconds = max(1, math.ceil(wait))
    response = _refusal(
        "throttled", f"Too many requests; try again in {seconds} seconds.", status=429
    )
    response["Retry-After"] = str(seconds)
    return response


FORM = "application/x-www-form-urlencoded"


def _admitted(request: HttpRequest) -> JsonResponse | None:
    """The refusal of a token or revocation request before the provider sees it: not a form
    post (RFC 6749 3.2; Django would fail on a multipart body without a boundary), or one
    past its throttles; None to go on."""
    if request.content_type != FORM:
        return _refusal("invalid_request", f"Send the parameters as {FORM}.")
    return _throttled(request, client_id=_client_id(request), scope="oauth_token")


class TokenView(dot.TokenView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _admitted(request)
        if refused is not None:
            return refused
        grant = request.POST.get("grant_type")
        if grant is not None and grant not in oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED:
            # Refused before DOT: its device-code grant reads fields it never checked (a 500),
            # and no grant outside the metadata is ever worth a lookup.
            return _refusal(
                "unsupported_grant_type",
                f"This server grants {', '.join(oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED)}.",
            )
        response = super().post(request, *args, **kwargs)
        code = request.POST.get("code")
        if (
            response.status_code >= 400
            and request.POST.get("grant_type") == "authorization_code"
            and code
        ):
            get_grant_model().objects.filter(code=code).delete()
        return response


@method_decorator(csrf_exempt, name="dispatch")
class MetadataView(dot.OAuthServerMetadataView):
    """RFC 8414's metadata: a public read that takes no cookie. Exempt from CSRF, so a method
    it does not have is its 405 rather than CSRF's HTML 403."""


class RevokeTokenView(dot.RevokeTokenView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _admitted(request) or super().post(request, *args, **kwargs)
