"""The OAuth2 provider's figures: token requests (``POST /oauth/token``) by grant type and
result: ``granted``, or the OAuth2 error code it was refused with (RFC 6749 5.2; our
``throttled``). Both labels are bounded: a grant type or an error the server does not know
is counted as ``other``.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from prometheus_client import Counter

from base.metrics.core import Children, bounded, measuring

GRANT_TYPES = frozenset({"authorization_code", "refresh_token"})
ERRORS = frozenset(
    {
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
        "access_denied",
        "server_error",
        "throttled",
    }
)

TOKEN_REQUESTS = Children(
    Counter(
        "spider_oauth_token_requests_total",
        "OAuth2 token requests, by grant type and result (granted, or the OAuth2 error code).",
        ["grant_type", "result"],
    )
)


def token_answered(grant_type: str | None, response: HttpResponse) -> None:
    if not measuring():
        return
    if response.status_code == 200:
        result = "granted"
    else:
        try:
            error = json.loads(response.content).get("error")
        except (ValueError, AttributeError):
            error = None
        result = bounded(error, ERRORS)
    TOKEN_REQUESTS.labels(bounded(grant_type, GRANT_TYPES), result).inc()
