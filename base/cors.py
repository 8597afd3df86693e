"""Browsers on other origins: django-cors-headers, plus one rule of ours.

* Public reads (``PUBLIC_READS``: the boards, the daily challenge, players, finished games and
  their logs, the schema) answer GET/HEAD from any origin when no token is sent.
* Everything else (every POST, and any request carrying a token) answers only the origins in
  ``CORS_ALLOWED_ORIGINS`` (``*`` for any: the API authenticates with Bearer tokens, never
  cookies, so a page on another origin holds nothing it was not given).
* A preflight is answered by the middleware before authentication: it never needs a token.
"""

from __future__ import annotations

from typing import Final

from corsheaders.middleware import CorsMiddleware as _CorsMiddleware
from django.http import HttpRequest
from django.urls import Resolver404, resolve

# URL names whose GET needs no token (a finished game's state and log are public; an
# unfinished one answers 404 to anyone but its player, whatever the origin).
PUBLIC_READS: Final = frozenset(
    {
        "leaderboard:leaderboard",
        "leaderboard:daily",
        "leaderboard:daily-leaderboard",
        "games:player",
        "games:game",
        "games:actions",
        "schema",
    }
)
_SAFE: Final = ("GET", "HEAD")


def is_public_read(request: HttpRequest) -> bool:
    """A tokenless GET/HEAD of a public read, or the preflight of one."""
    if request.method == "OPTIONS":  # a preflight: judge the request it announces
        method = request.headers.get("Access-Control-Request-Method", "").upper()
        announced = request.headers.get("Access-Control-Request-Headers", "")
        with_token = "authorization" in {h.strip().lower() for h in announced.split(",")}
    else:
        method = request.method or ""
        with_token = "Authorization" in request.headers
    if method not in _SAFE or with_token:
        return False
    try:
        return resolve(request.path_info).view_name in PUBLIC_READS
    except Resolver404:
        return False


class CorsMiddleware(_CorsMiddleware):
    """django-cors-headers' middleware, with public reads open to every origin."""

    def check_signal(self, request: HttpRequest) -> bool:
        return is_public_read(request) or super().check_signal(request)
