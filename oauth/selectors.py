"""Reads of third-party apps: the apps a player registered, and the apps a player approved
(that hold tokens acting for them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application
from oauth2_provider.settings import oauth2_settings

from base.scopes import SCOPES

if TYPE_CHECKING:
    from accounts.models import User


def apps_of(*, user: User) -> QuerySet[Application]:
    """The player's apps, newest first."""
    return Application.objects.filter(user=user).order_by("-created", "-id")


def app_by_client_id(*, client_id: str) -> Application:
    """The app of a client id that the authorization request's validation found (with its
    owner, whom the authorization page names)."""
    return Application.objects.select_related("user").get(client_id=client_id)


@dataclass(frozen=True)
class Approval:
    """An app the player approved and that may still act for them: what it may do (the
    scopes of its live tokens), when first approved and when it last acted."""

    app: Application
    scopes: list[str]
    approved: datetime
    last_used: datetime


def live_tokens_of(*, user: User, now: datetime | None = None) -> QuerySet[AccessToken]:
    """The player's access tokens that still let an app act: unexpired, or with a refresh
    token neither used nor expired (which would hand out a new one)."""
    now = now or timezone.now()
    refresh_from = now - timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)
    refreshable = Q(
        refresh_token__isnull=False,
        refresh_token__revoked__isnull=True,
        refresh_token__created__gt=refresh_from,
    )
    return AccessToken.objects.filter(user=user, application__isnull=False).filter(
        Q(expires__gt=now) | refreshable
    )


def approvals_of(*, user: User) -> list[Approval]:
    """The apps ``user`` approved that hold a live token, most recently used first. ``last
    used``: the latest of their tokens' ``updated`` (written at issue, and on use at most once
    a minute: base.oauth)."""
    by_app: dict[Application, list[AccessToken]] = {}
    for token in live_tokens_of(user=user).select_related("application__user"):
        if token.application is not None:  # always, by the filter: said for the type checker
            by_app.setdefault(token.application, []).append(token)
    approvals = [
        Approval(
            app=app,
            scopes=sorted({s for t in tokens for s in t.scope.split()}, key=_scope_order),
            approved=min(t.created for t in tokens),
            last_used=max(t.updated for t in tokens),
        )
        for app, tokens in by_app.items()
    ]
    return sorted(approvals, key=lambda a: (a.last_used, a.app.pk), reverse=True)


def _scope_order(scope: str) -> tuple[int, str]:
    """The order base.scopes lists them (the approval page's), unknown ones last."""
    order = list(SCOPES)
    return (order.index(scope) if scope in order else len(order), scope)
