"""Reads of a player's settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from preferences.models import PlayerSettings

if TYPE_CHECKING:
    from accounts.models import User

FIELDS = ("four_colours", "look", "one_tap", "sound", "deal_over_gap")


def settings_json(row: PlayerSettings) -> dict[str, Any]:
    return {name: getattr(row, name) for name in FIELDS}


def player_settings(*, player: User) -> dict[str, Any]:
    """The player's settings; the defaults where none was ever saved (no row written)."""
    row = PlayerSettings.objects.filter(player=player).first()
    return settings_json(row or PlayerSettings(player=player))
