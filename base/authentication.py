"""`Authorization: Bearer <token>` authentication, with the API tokens of `accounts.ApiToken`.

A leaf module: DRF imports authentication classes while `rest_framework.views` is still loading,
so this must not import anything that imports `rest_framework.views` (the models are found by
name when a token is first looked up: the apps below accounts, which import this module, must
not import accounts through it).

A secret is looked up by its SHA-256 (base.tokens); one that cannot be a token of ours (the
wrong shape or checksum) costs no query. Every API request authenticates, so a token and its
user are kept in a small per-process cache for ``TOKEN_CACHE_SECONDS`` (a lookup is otherwise
one statement, ``_token_with_user``). The cache never outlives a change it
knows of: deleting a token (revoking it, signing out) and saving its user (deactivating, a new
password, staff rights) drop the entries of that user in this process at once (``forget_user``,
connected to the model signals in ``AccountsConfig.ready``). Another web process notices
within the TTL at the latest, the same bound as for any cached credential;
``TOKEN_CACHE_SECONDS=0`` turns the cache off.

Expiry is checked on every request, cached or not. ``last_used`` (and a device token's sliding
expiry, FIRST_PARTY_TOKEN_DAYS from then) is written by one UPDATE when the last write is
``TOUCH_SECONDS`` old, not once per request: at most once a minute per token and web process.
"""

from __future__ import annotations

import copy
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from base import rows
from base.tokens import looks_like_a_token, secret_hash

if TYPE_CHECKING:
    from accounts.models import User

BEARER_CHALLENGE = 'Bearer realm="api"'
MAX_ENTRIES = 10_000  # a bound on memory: past it the cache starts again empty
TOUCH_SECONDS = 60  # last_used (and a device token's expiry) is written this often at most


@dataclass
class _Entry:
    until: float  # monotonic: the entry answers until then
    user: User
    token: Any  # accounts.models.ApiToken
    expires_at: float  # epoch seconds: the token's expiry
    touch_at: float  # epoch seconds: last_used is due to be written


# token key -> entry; the user is copied out per request.
_cache: dict[str, _Entry] = {}
_lock = threading.Lock()


def forget_user(user_id: int) -> None:
    """Drop every cached token of ``user_id`` in this process."""
    with _lock:
        for key in [k for k, entry in _cache.items() if entry.user.pk == user_id]:
            _cache.pop(key, None)


def forget_all() -> None:
    with _lock:
        _cache.clear()


def _fresh_copy(user: User) -> User:
    """A copy of the cached user for one request, with no cached relations: a request that
    caches relations on its user must not share them. Built directly, as ``Model.from_db``
    builds instances: ``copy.copy`` goes through pickling's protocol (a version check and
    all) and cost a tenth of an action."""
    clone = user.__class__.__new__(user.__class__)
    clone.__dict__.update(user.__dict__)
    clone._state = copy.copy(user._state)
    clone._state.fields_cache = {}
    return clone


@cache
def _token_sql(vendor: str) -> tuple[str, list[rows.Shape]]:
    """SELECT a token by its hash, with its user (the models by name: see the docstring)."""
    token_model, user_model = apps.get_model("accounts", "ApiToken"), get_user_model()
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    columns, shapes = rows.shapes(((token_model, "t"), (user_model, "u")), DEFAULT_DB_ALIAS)
    user_id = qn(token_model._meta.get_field("user").column)
    key_hash = qn(token_model._meta.get_field("key_hash").column)
    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(token_model._meta.db_table)} t "
        f"JOIN {qn(user_model._meta.db_table)} u ON u.{qn(user_model._meta.pk.column)} = "
        f"t.{user_id} WHERE t.{key_hash} = %s"
    )
    return sql, shapes


def _token_with_user(key_hash: str) -> Any:
    """The token whose secret hashes to ``key_hash``, ``token.user`` loaded; None if none.
    One statement written once per process (base/rows.py): a player acting every few
    seconds across several web processes is often not in the cache of the one serving them
    (a racer at a 2-second pace on five workers: by chance about a third of their requests),
    and compiled by the ORM the lookup cost more CPU than the rest of a game action
    (bench/token_lookup.py)."""
    connection: Any = connections[DEFAULT_DB_ALIAS]
    sql, shapes = _token_sql(connection.vendor)
    with rows.cursor(connection) as cursor:
        cursor.execute(sql, [key_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    token, user = rows.instances(connection, row, shapes)
    type(token).user.field.set_cached_value(token, user)
    return token


def _lookup(key: str, until: float) -> _Entry:
    token = _token_with_user(secret_hash(key))
    if token is None or not token.user.is_active:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    last = token.last_used.timestamp() if token.last_used else 0.0
    return _Entry(until, token.user, token, token.expires.timestamp(), last + TOUCH_SECONDS)


def _touch(entry: _Entry, now: float) -> None:
    """Write last_used, and slide a device token's expiry, in one UPDATE (no signal: the
    cache keeps the entry)."""
    token = entry.token
    at = datetime.fromtimestamp(now, UTC)
    changes: dict[str, Any] = {"last_used": at}
    if token.is_first_party:
        changes["expires"] = at + timedelta(days=settings.FIRST_PARTY_TOKEN_DAYS)
    type(token).objects.filter(pk=token.pk).update(**changes)
    for field, value in changes.items():
        setattr(token, field, value)
    entry.expires_at = token.expires.timestamp()
    entry.touch_at = now + TOUCH_SECONDS


class BearerTokenAuthentication(TokenAuthentication):
    keyword = "Bearer"

    def authenticate_credentials(self, key: str) -> Any:
        # No query for what cannot be a key (a NUL byte would be a 500). OAuth access tokens
        # (`spa_`) are taken before this class (base.oauth), so anything else is refused.
        if not looks_like_a_token(key):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        ttl = settings.TOKEN_CACHE_SECONDS
        monotonic = time.monotonic()
        entry = _cache.get(key)
        if entry is None or entry.until <= monotonic:
            entry = _lookup(key, monotonic + ttl)  # raises if unknown or the user is inactive
            if ttl > 0:
                with _lock:
                    if len(_cache) >= MAX_ENTRIES:
                        _cache.clear()
                    _cache[key] = entry
        now = time.time()
        if now >= entry.expires_at:
            raise exceptions.AuthenticationFailed(_("The token has expired; sign in again."))
        if now >= entry.touch_at:
            _touch(entry, now)
        return _fresh_copy(entry.user), entry.token

    def authenticate_header(self, request: Any) -> str:
        return BEARER_CHALLENGE
