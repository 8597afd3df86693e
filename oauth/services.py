"""Writes of third-party apps: a player registers one (its client id, and a secret shown once
for a confidential app) and deletes one, which revokes every token it holds; and a player
ends an app's access they approved (every token it holds for them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import AccessToken, Application, RefreshToken, get_grant_model

from base.errors import DomainError
from oauth import selectors
from oauth.models import IssuedCode

if TYPE_CHECKING:
    from accounts.models import User


class TooManyApps(DomainError):
    code, status = "too_many_apps", 409
    detail = "You have registered as many apps as a player may (OAUTH_APPS_PER_PLAYER)."


class AppNotFound(DomainError):
    code, detail, status = "not_found", "No such app of yours.", 404


class ApprovalNotFound(DomainError):
    code, detail, status = "not_found", "No app you approved has this client id.", 404


@dataclass(frozen=True)
class Registered:
    app: Application
    client_secret: str | None  # confidential apps only; never shown again (stored hashed)


# The redirect URIs an app may register, as the schema states them: http or https, a plain
# host name (at most 253 characters, RFC 1034), a port, a path and query in printable ASCII,
# no fragment. DOT's validator takes odd ones besides (a `*` in the host, white space past
# the host); it still judges these too.
REDIRECT_URI_PATTERN = (
    r"^https?://[A-Za-z0-9][A-Za-z0-9.-]{0,252}(:[0-9]{1,5})?([/?][\x21\x22\x24-\x7E]*)?$"
)
_REDIRECT_URI = re.compile(REDIRECT_URI_PATTERN)


@transaction.atomic
def app_register(
    *, user: User, name: str, redirect_uris: list[str], confidential: bool
) -> Registered:
    """Register an app for the authorization-code grant (with PKCE, settings.OAUTH2_PROVIDER).

    Raises TooManyApps past OAUTH_APPS_PER_PLAYER, and ValidationError (`redirect_uris`) for
    a redirect URI outside REDIRECT_URI_PATTERN or one DOT refuses."""
    plain = [uri for uri in redirect_uris if _REDIRECT_URI.fullmatch(uri)]
    if len(plain) < len(redirect_uris):
        odd = next(uri for uri in redirect_uris if uri not in plain)
        raise ValidationError(
            {"redirect_uris": [f"Not an http(s) URL with a plain host name and no fragment: {odd}"]}
        )
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one count at a time
    if Application.objects.filter(user=user).count() >= settings.OAUTH_APPS_PER_PLAYER:
        raise TooManyApps()
    secret = generate_client_secret() if confidential else ""
    app = Application(
        user=user,
        name=name,
        redirect_uris=" ".join(redirect_uris),
        client_type=Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        client_secret=secret,
        hash_client_secret=confidential,  # a public app has no secret at all
        skip_authorization=False,
    )
    app.full_clean(exclude=["client_secret"])
    app.save()  # DOT hashes the secret on save
    return Registered(app=app, client_secret=secret or None)


@transaction.atomic
def app_delete(*, user: User, client_id: str) -> None:
    """Delete one of the player's apps with its grants and tokens (each token's deletion
    drops it from the token caches: base.oauth)."""
    app = Application.objects.filter(user=user, client_id=client_id).first()
    if app is None:
        raise AppNotFound()
    app.delete()


@transaction.atomic
def approval_revoke(*, user: User, client_id: str) -> None:
    """End what the app ``client_id`` may do for ``user``, at once: its refresh tokens are
    revoked (kept, marked, so a replay of one is still recognised), its access tokens and
    unexchanged codes deleted (each deletion drops the token from this process's cache,
    base.oauth; the others within TOKEN_CACHE_SECONDS). ApprovalNotFound when the app
    holds no live token of the player's (another player's approval is never theirs)."""
    if not selectors.live_tokens_of(user=user).filter(application__client_id=client_id).exists():
        raise ApprovalNotFound()
    mine = {"user": user, "application__client_id": client_id}
    now = timezone.now()
    RefreshToken.objects.filter(**mine, revoked__isnull=True).update(
        revoked=now, updated=now, access_token=None
    )
    for token in AccessToken.objects.filter(**mine):
        token.delete()  # one by one: each deletion reaches the token cache (signals)
    get_grant_model().objects.filter(**mine).delete()


def apps_delete_all(*, user: User) -> int:
    """Delete every app ``user`` registered (their account is being deleted), with their
    grants and tokens; the number deleted. Inside the caller's transaction."""
    apps = list(Application.objects.filter(user=user))
    for app in apps:
        app.delete()  # one by one: each token's deletion reaches the token cache (signals)
    return len(apps)


def oauth_prune(*, now: datetime | None = None) -> dict[str, int]:
    """Delete the authorization codes past their expiry and the records of codes that can no
    longer matter (oauth.models.IssuedCode). Tokens are left to expire where they are: a
    revoked refresh token is what recognises its family's replay."""
    now = now or timezone.now()
    codes, _ = get_grant_model().objects.filter(expires__lt=now).delete()
    records, _ = IssuedCode.objects.filter(expires__lt=now).delete()
    return {"codes": codes, "records": records}
