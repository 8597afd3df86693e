"""Read-side queries for race tables and their events."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.selectors import player_by_username
from races import presenters
from races.errors import TableNotFound
from races.events import encode_row
from races.models import Race, RaceStats, Table, TableEvent


def table_by_code(*, code: str) -> Table:
    table = Table.objects.select_related("opener").filter(code=code.upper()).first()
    if table is None:
        raise TableNotFound()
    return table


def table_view(*, table_id: int) -> dict[str, Any]:
    """The whole table at one sequence number: read under the table lock, so no change
    lands between the rows read (the event ``seq`` and the state agree)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("opener").get(pk=table_id)
        return presenters.table_json(table, timezone.now())


def events_after(*, table_id: int, seq: int, limit: int = 1000) -> list[tuple[int, str]]:
    """Events after ``seq``, in order, encoded as on the wire."""
    rows = TableEvent.objects.filter(table_id=table_id, seq__gt=seq).order_by("seq")[:limit]
    return [(row.seq, encode_row(row)) for row in rows]


def race_running_for_game(*, game_id: Any) -> bool:
    """Whether the race of this racer's game is still on (its deal is then still secret)."""
    return (
        Race.objects.filter(racers__game_id=game_id).exclude(status=Race.Status.FINISHED).exists()
    )


def race_stats(*, username: str) -> dict[str, Any]:
    player = player_by_username(username=username)
    rows = {r.suits: r for r in RaceStats.objects.filter(player=player)}
    return {
        "username": player.username,
        "races": [
            {
                "suits": suits,
                "played": row.played if row else 0,
                "wins": row.wins if row else 0,
                "draws": row.draws if row else 0,
                "losses": row.losses if row else 0,
            }
            for suits in (1, 2, 4)
            for row in [rows.get(suits)]
        ],
    }
