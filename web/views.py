"""The web client's one page. Everything else it shows comes from the public JSON API.

The page is the same for every client route (``/play``, ``/daily``, ...; web/routes.py): the
ES modules route in the browser, over the table of routes the page carries. It answers with a
strict Content-Security-Policy: only this origin's scripts and styles run, no inline script,
nothing framed. That is what keeps the API token the client holds in ``localStorage`` out of
reach of injected script (docs/architecture.md, "The web client").
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from web.routes import browser_table


def content_security_policy() -> str:
    """The page's CSP. The race event streams may be served from another origin
    (``RACE_STREAM_URL``, e.g. ``make serve``'s port 8001): the page may connect there too."""
    connect = "'self'"
    stream = urlsplit(settings.RACE_STREAM_URL)
    if stream.scheme in ("http", "https") and stream.netloc:
        connect += f" {stream.scheme}://{stream.netloc}"
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


@require_safe
def index(request: HttpRequest, *_: str, **__: str) -> HttpResponse:
    # The router's table comes with the page (web/routes.py: the routes are defined once).
    response = render(request, "web/index.html", {"routes": browser_table()})
    response["Content-Security-Policy"] = content_security_policy()
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "no-cache"  # the page names the current assets
    return response
