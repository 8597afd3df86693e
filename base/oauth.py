"""OAuth2 access tokens (django-oauth-toolkit) on the API, at the cost of a first-party token.

DOT's `OAuth2Authentication` checks a token through oauthlib on every request: a query and a
whole oauthlib request built and validated, several times the cost of the rest of an action's
authentication. So, as for first-party tokens (base.authentication), a token that checked
out is kept in a small per-process cache for ``TOKEN_CACHE_SECONDS``, with the same bound and
the same invalidation: revoking or deleting an access token (the revocation endpoint, a refresh
token reused, an app deleted, the admin) and saving its user drop the entries in this process
at once (signals connected in ``oauth.apps``); another web process refuses it within
``TOKEN_CACHE_SECONDS`` at the latest. An entry never outlives the token's own expiry.

A token's ``updated`` is its last use (what the player's list of approved apps shows): written
by one UPDATE when ``TOUCH_SECONDS`` old, as a first-party token's ``last_used``, not on every
request (and with no signal: the cache keeps the entry).

Only a token issued to a player acts on the API: one with no user (the client-credentials
grant's, were one ever issued; a registration access token) is refused with 401 and never
cached, so every entry has a user and the invalidation above cannot trip over one.

Our access tokens start with ``ACCESS_PREFIX`` (the generators below), so a first-party token
is told apart by its first characters and passed on to the next authentication class without
a lookup; a token with the prefix that does not check out is 401 `invalid_token` at once.

A leaf module like base.authentication (DRF imports it while its views load).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from django.conf import settings
from django.utils import timezone
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from rest_framework import exceptions

from base.authentication import BEARER_CHALLENGE, TOUCH_SECONDS, _fresh_copy

ACCESS_PREFIX = "spa_"  # "spider access"
REFRESH_PREFIX = "spr_"
MAX_ENTRIES = 10_000  # a bound on memory: past it the cache starts again empty
MAX_TOKEN_LENGTH = 255  # DOT's column; anything longer is no token of ours

# access token string -> (expires at (monotonic), user, AccessToken); the user is copied out.
_cache: dict[str, tuple[float, Any, Any]] = {}
_lock = threading.Lock()


def access_token(request: Any) -> str:
    """DOT's ACCESS_TOKEN_GENERATOR: 256 random bits, with our prefix."""
    return ACCESS_PREFIX + secrets.token_urlsafe(32)


def refresh_token(request: Any) -> str:
    """DOT's REFRESH_TOKEN_GENERATOR."""
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


def forget_token(token_id: Any) -> None:
    """Drop the cached entry of the AccessToken row ``token_id`` in this process."""
    with _lock:
        for key in [k for k, (_, _, token) in _cache.items() if token.pk == token_id]:
            _cache.pop(key, None)


def forget_access_tokens_of(user_id: int) -> None:
    """Drop every cached access token of ``user_id`` in this process."""
    with _lock:
        for key in [k for k, (_, user, _) in _cache.items() if user.pk == user_id]:
            _cache.pop(key, None)


def forget_all_access_tokens() -> None:
    with _lock:
        _cache.clear()


def bearer_key(request: Any) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header that is one of our access
    tokens, else None."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    keyword, _, key = header.partition(" ")
    key = key.strip()
    if keyword != "Bearer" or not key.startswith(ACCESS_PREFIX):
        return None
    return key


def _touch(token: Any) -> None:
    """Write the token's last use (``updated``) if the last write is TOUCH_SECONDS old."""
    at = timezone.now()
    if (at - token.updated).total_seconds() < TOUCH_SECONDS:
        return
    type(token).objects.filter(pk=token.pk).update(updated=at)
    token.updated = at


class OAuthTokenAuthentication(OAuth2Authentication):
    """DOT's DRF authentication, for our access tokens only, behind the per-process cache."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        key = bearer_key(request)
        if key is None:
            return None  # not an access token of ours: a first-party token, or none
        if len(key) > MAX_TOKEN_LENGTH or not key.isascii():
            raise exceptions.AuthenticationFailed("Invalid token.")
        ttl = settings.TOKEN_CACHE_SECONDS
        now = time.monotonic()
        hit = _cache.get(key) if ttl > 0 else None
        if hit is not None and hit[0] > now:
            _touch(hit[2])
            return _fresh_copy(hit[1]), hit[2]
        found = super().authenticate(request)  # oauthlib: known, unexpired, active user
        if found is None or found[0] is None:  # unknown, expired, or no player's token
            raise exceptions.AuthenticationFailed("Invalid token.")
        user, token = found
        if ttl > 0:
            # Never past the token's own expiry (monotonic seconds from now).
            left = (token.expires - timezone.now()).total_seconds()
            with _lock:
                if len(_cache) >= MAX_ENTRIES:
                    _cache.clear()
                _cache[key] = (now + min(ttl, left), user, token)
        _touch(token)
        return _fresh_copy(user), token

    def authenticate_header(self, request: Any) -> str:
        return BEARER_CHALLENGE


class FirstPartyRegistration:
    """DOT's DCR_REGISTRATION_PERMISSION_CLASSES: RFC 7591 registration by a signed-in
    player, with their own sign-in token (`Authorization: Bearer`; never a personal access
    token or an app's, as for `POST /api/v1/apps`), within the per-player limit; the app is
    theirs (DOT takes ``request.user``)."""

    def has_permission(self, request: Any) -> bool:
        from oauth2_provider.models import Application
        from rest_framework.request import Request

        from base.authentication import BearerTokenAuthentication
        from base.permissions import FIRST_PARTY, token_allows

        if bearer_key(request) is not None:
            return False  # an app's token cannot register apps
        try:
            found = BearerTokenAuthentication().authenticate(Request(request))
        except exceptions.AuthenticationFailed:
            return False
        # The API's own decision of first-party access (the `account` scope).
        if found is None or not found[0].is_active or not token_allows(found[1], FIRST_PARTY):
            return False
        if Application.objects.filter(user=found[0]).count() >= settings.OAUTH_APPS_PER_PLAYER:
            return False
        request.user = found[0]
        return True
