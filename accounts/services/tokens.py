"""API tokens: a device's sign-in (one per device name, replacing the one it had), a
personal access token, one revoked by id or the one in use, and every token of a player
revoked at once (``revoke_tokens``: ours, django-oauth-toolkit's, the Django sessions).

Every token is an `ApiToken` row (accounts.models); revoking one deletes it, and the token cache
of this process forgets its user at once (`base.authentication.forget_user`, on the model
signals); other web processes within TOKEN_CACHE_SECONDS.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.devices import device_label, unique_name
from accounts.errors import InvalidCredentials, TokenNotFound, TooManyTokens
from accounts.limits import MAX_DEVICE_TOKENS, MAX_PERSONAL_TOKENS
from accounts.models import ApiToken, User
from base import tokens
from base.authentication import forget_user


@dataclass(frozen=True)
class IssuedToken:
    """A token just made, with its secret: the only time the secret is known."""

    token: ApiToken
    secret: str


def _issue(*, user: User, kind: str, name: str, scope: str, expires: Any) -> IssuedToken:
    prefix = tokens.DEVICE_PREFIX if kind == ApiToken.Kind.DEVICE else tokens.PERSONAL_PREFIX
    secret = tokens.make_secret(prefix)
    token = ApiToken.objects.create(
        user=user,
        kind=kind,
        name=name,
        scope=scope,
        key_hash=tokens.secret_hash(secret),
        expires=expires,
    )
    return IssuedToken(token=token, secret=secret)


def device_token_expiry() -> Any:
    """A device token's expiry from now; it slides with use (base.authentication)."""
    return timezone.now() + timedelta(days=settings.FIRST_PARTY_TOKEN_DAYS)


@transaction.atomic
def device_token_issue(
    *, user: User, device: str | None = None, user_agent: str = ""
) -> IssuedToken:
    """The device's new token, replacing the one it had. Unnamed, it is named from the
    User-Agent of the sign-in ("Chrome on Android", accounts.devices), unique among the
    player's devices. The user's row is locked, so two sign-ins of one device at once leave
    one token."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    devices = ApiToken.objects.filter(user=user, kind=ApiToken.Kind.DEVICE)
    name = device or unique_name(
        device_label(user_agent), set(devices.values_list("name", flat=True))
    )
    devices.filter(name=name).delete()
    recent = (F("last_used").desc(nulls_last=True), F("created").desc())
    surplus = devices.order_by(*recent).values_list("pk", flat=True)
    stale = list(surplus[MAX_DEVICE_TOKENS - 1 :])
    if stale:
        ApiToken.objects.filter(pk__in=stale).delete()
    return _issue(
        user=user, kind=ApiToken.Kind.DEVICE, name=name, scope="", expires=device_token_expiry()
    )


@transaction.atomic
def token_obtain(
    *, username: str, password: str, device: str | None = None, user_agent: str = ""
) -> IssuedToken:
    """A new first-party token for ``device`` (unnamed: named from ``user_agent``),
    replacing the one that device had. Raises InvalidCredentials."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise InvalidCredentials()
    assert isinstance(user, User)
    # The password checked must still be the password once the row is locked: a new one
    # committed meanwhile revoked every token, and this one must not outlive it.
    locked = User.objects.select_for_update().filter(pk=user.pk).values_list("password", flat=True)
    if locked.first() != user.password:
        raise InvalidCredentials()
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return device_token_issue(user=user, device=device, user_agent=user_agent)


@transaction.atomic
def personal_token_create(
    *, user: User, name: str, scopes: list[str], expires_in_days: int
) -> IssuedToken:
    """A personal access token with ``scopes`` (base.scopes.SCOPES names) for
    ``expires_in_days`` (1 to PERSONAL_TOKEN_MAX_DAYS). Raises TooManyTokens."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # the count below holds
    mine = ApiToken.objects.filter(user=user, kind=ApiToken.Kind.PERSONAL)
    if mine.count() >= MAX_PERSONAL_TOKENS:
        raise TooManyTokens()
    return _issue(
        user=user,
        kind=ApiToken.Kind.PERSONAL,
        name=name,
        scope=" ".join(sorted(set(scopes))),
        expires=timezone.now() + timedelta(days=expires_in_days),
    )


def token_delete(*, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s tokens by id. Raises TokenNotFound (another's is none)."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenNotFound()


def token_revoke(*, token: Any) -> None:
    """Sign out: revoke the token a request came with (ours, or an OAuth access token)."""
    token.revoke()


def _oauth_models() -> list[Any]:
    """django-oauth-toolkit's token models, when it is installed: refresh tokens first (each
    points at an access token), then access tokens, ID tokens and authorization codes."""
    if not apps.is_installed("oauth2_provider"):
        return []
    dot = importlib.import_module("oauth2_provider.models")
    return [
        dot.get_refresh_token_model(),
        dot.get_access_token_model(),
        dot.get_id_token_model(),
        dot.get_grant_model(),
    ]


def _sessions_end(user: User) -> int:
    """End the user's Django sessions (the admin's: the API uses none). Sessions are not
    indexed by user, so the live ones are read; only staff ever have one."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()
    return len(ended)


def revoke_tokens(user: User, keep: Any = None) -> None:
    """Revoke every token of ``user`` but ``keep`` (a token in use, or None): device and
    personal tokens, OAuth tokens when django-oauth-toolkit is installed, and end their
    Django sessions. Seen at once by this process, by the others within TOKEN_CACHE_SECONDS."""
    with transaction.atomic():
        mine = ApiToken.objects.filter(user=user)
        if isinstance(keep, ApiToken):
            mine = mine.exclude(pk=keep.pk)
        mine.delete()
        for model in _oauth_models():
            theirs = model.objects.filter(user=user)
            if isinstance(keep, model):
                theirs = theirs.exclude(pk=keep.pk)
            theirs.delete()
        _sessions_end(user)
        # Forgotten now and again at the commit: a request of this process in between could
        # still read the rows as they were.
        transaction.on_commit(lambda: forget_user(user.pk))
    forget_user(user.pk)
