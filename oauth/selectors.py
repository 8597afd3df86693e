"""Reads of third-party apps: a player's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet
from oauth2_provider.models import Application

if TYPE_CHECKING:
    from accounts.models import User


def apps_of(*, user: User) -> QuerySet[Application]:
    """The player's apps, newest first."""
    return Application.objects.filter(user=user).order_by("-created", "-id")


def app_by_client_id(*, client_id: str) -> Application:
    """The app of a client id that the authorization request's validation found (with its
    owner, whom the authorization page names)."""
    return Application.objects.select_related("user").get(client_id=client_id)
