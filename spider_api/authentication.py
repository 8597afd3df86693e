"""`Authorization: Bearer <token>` authentication, with DRF's authtoken tokens.

A leaf module: DRF imports authentication classes while `rest_framework.views` is still loading,
so this must not import anything that imports `rest_framework.views`.

Every API request authenticates, so a token's user is kept in a small per-process cache for
``TOKEN_CACHE_SECONDS`` (a token lookup is otherwise one query and a third of the ORM work of
a game action). The cache never outlives a change it knows of: deleting or replacing a token
(revoking it, logging out) and saving its user (deactivating, a new password, staff rights)
drop the entries of that user in this process at once (``forget_user``, connected to the model
signals in ``AccountsConfig.ready``). Another web process notices within the TTL at the latest,
the same bound as for any cached credential; ``TOKEN_CACHE_SECONDS=0`` turns the cache off.
"""

from __future__ import annotations

import copy
import re
import threading
import time
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

BEARER_CHALLENGE = 'Bearer realm="api"'
TOKEN_KEY = re.compile(r"[0-9a-f]{40}")  # rest_framework.authtoken's keys: 20 random bytes, hex
MAX_ENTRIES = 10_000  # a bound on memory: past it the cache starts again empty

# token key -> (expires at (monotonic), user, token); the user is copied out per request.
_cache: dict[str, tuple[float, Any, Any]] = {}
_lock = threading.Lock()


def forget_user(user_id: Any) -> None:
    """Drop every cached token of ``user_id`` in this process."""
    with _lock:
        for key in [k for k, (_, user, _) in _cache.items() if user.pk == user_id]:
            _cache.pop(key, None)


def forget_all() -> None:
    with _lock:
        _cache.clear()


def _fresh_copy(user: Any) -> Any:
    """A copy of the cached user for one request, with no cached relations: a request that
    caches relations on its user must not share them. Built directly, as ``Model.from_db``
    builds instances: ``copy.copy`` goes through pickling's protocol (a version check and
    all) and cost a tenth of an action."""
    clone = user.__class__.__new__(user.__class__)
    clone.__dict__.update(user.__dict__)
    clone._state = copy.copy(user._state)
    clone._state.fields_cache = {}
    return clone


class BearerTokenAuthentication(TokenAuthentication):
    keyword = "Bearer"

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if not TOKEN_KEY.fullmatch(key):  # not a key: no query (a NUL byte would be a 500)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        ttl = settings.TOKEN_CACHE_SECONDS
        if ttl <= 0:
            return super().authenticate_credentials(key)
        now = time.monotonic()
        hit = _cache.get(key)
        if hit is not None and hit[0] > now:
            return _fresh_copy(hit[1]), hit[2]
        user, token = super().authenticate_credentials(key)  # raises if invalid or inactive
        with _lock:
            if len(_cache) >= MAX_ENTRIES:
                _cache.clear()
            _cache[key] = (now + ttl, user, token)
        return _fresh_copy(user), token

    def authenticate_header(self, request) -> str:
        return BEARER_CHALLENGE
