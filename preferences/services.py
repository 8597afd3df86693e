"""Writes of a player's settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction

from preferences.models import PlayerSettings
from preferences.selectors import FIELDS, settings_json

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def player_settings_update(*, player: User, changes: dict[str, Any]) -> dict[str, Any]:
    """Change the settings named in ``changes`` (validated: known keys, right types), leave
    the others; answers all of them. Two changes at once each keep their own keys (the row is
    locked, created on the first change)."""
    row, _ = PlayerSettings.objects.select_for_update().get_or_create(player=player)
    unknown = set(changes) - set(FIELDS)
    if unknown:  # the input serializer refuses these first; a caller of the service too
        raise ValueError(f"unknown settings: {sorted(unknown)}")
    if changes:
        for name, value in changes.items():
            setattr(row, name, value)
        row.save(update_fields=[*changes, "updated_at"])
    return settings_json(row)
