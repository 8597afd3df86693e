"""The leaderboard's part of a player's export and of deleting an account (receivers of
``base.account_signals``, connected in ``LeaderboardConfig.ready``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from games.presenters import iso
from leaderboard.freshness import boards_changed
from leaderboard.models import LeaderboardEntry
from leaderboard.selectors import daily_rank

if TYPE_CHECKING:
    from accounts.models import User

CHUNK = 500


def export_entries(*, user: User, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """Every ranked win of the player, with its place on its day's board if it is a daily
    attempt (the other boards' places move every day: ``GET /leaderboard/games/{id}``)."""
    last = 0
    while True:
        chunk = list(
            LeaderboardEntry.objects.filter(player=user, id__gt=last).order_by("id")[:CHUNK]
        )
        if not chunk:
            return
        for entry in chunk:
            daily = None
            if entry.daily_date is not None:
                daily = {"date": entry.daily_date.isoformat(), "rank": daily_rank(entry=entry)}
            yield {
                "type": "leaderboard",
                "game": str(entry.game_id),
                "suits": entry.suits,
                "score": entry.score,
                "actions": entry.actions,
                "elapsed_ms": entry.elapsed_ms,
                "hints": entry.hints,
                "perfect": entry.perfect,
                "finished_at": iso(entry.finished_at),
                "daily": daily,
            }
        last = chunk[-1].id


def erase_username(*, user: User, tombstone: str, **kwargs: Any) -> None:
    """The entries stay (docs/rules.md#deleting-an-account), under the tombstone; every cached
    board is stale at once (a queryset update sends no signal)."""
    if LeaderboardEntry.objects.filter(player=user).update(username=tombstone):
        boards_changed()
