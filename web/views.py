"""The web client's one page. Everything else it shows comes from the public JSON API.

The page is the same for every client route (``/play``, ``/daily``, ...): the ES modules
route in the browser. It answers with a strict Content-Security-Policy: only this origin's
scripts and styles run, no inline script, nothing framed. That is what keeps the API token
the client holds in ``localStorage`` out of reach of injected script (see README, Web client).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


@require_safe
def index(request: HttpRequest, **_: str) -> HttpResponse:
    response = render(request, "web/index.html")
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "no-cache"  # the page names the current assets
    return response
