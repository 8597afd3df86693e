"""The settings' part of a player's export and of deleting an account (receivers of
``base.account_signals``, connected in ``PreferencesConfig.ready``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from preferences.models import PlayerSettings

if TYPE_CHECKING:
    from accounts.models import User


def export_settings(*, user: User, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """One ``settings`` line if the player ever changed one (else the defaults apply)."""
    for row in PlayerSettings.objects.filter(player=user):
        yield {
            "type": "settings",
            "four_colours": row.four_colours,
            "look": row.look,
            "one_tap": row.one_tap,
            "sound": row.sound,
            "deal_over_gap": row.deal_over_gap,
            "updated_at": row.updated_at.isoformat().replace("+00:00", "Z"),
        }


def erase_settings(*, user: User, **kwargs: Any) -> None:
    PlayerSettings.objects.filter(player=user).delete()
