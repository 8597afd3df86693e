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
