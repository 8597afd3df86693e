"""The races' part of a player's export and of deleting an account (receivers of
``base.account_signals``, connected in ``RacesConfig.ready``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from django.db.models import TextField
from django.db.models.functions import Cast

from base.errors import DomainError
from games.presenters import iso
from races.models import Racer, Seat, StreamTicket, TableEvent
from races.services import RUNNING, race_resign, seat_stand

if TYPE_CHECKING:
    from accounts.models import User

CHUNK = 200


def export_races(*, user: User, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """Every race the player was dealt into, with its result and their place in it."""
    last = 0
    racers = Racer.objects.filter(player=user).select_related("race__table").order_by("id")
    while True:
        chunk = list(racers.filter(id__gt=last)[:CHUNK])
        if not chunk:
            return
        others: dict[int, list[dict[str, Any]]] = {r.race_id: [] for r in chunk}
        for other in (
            Racer.objects.filter(race_id__in=others.keys())
            .select_related("player")
            .order_by("race_id", "seat")
        ):
            others[other.race_id].append(
                {"seat": other.seat, "player": other.player.username, "state": other.state}
            )
        for racer in chunk:
            race = racer.race
            yield {
                "type": "race",
                "table": race.table.code,
                "number": race.number,
                "suits": race.suits,
                "status": race.status,
                "result": race.result or None,
                "end_reason": race.end_reason or None,
                "starts_at": iso(race.starts_at),
                "finished_at": iso(race.finished_at),
                "seat": racer.seat,
                "state": racer.state,
                "out_reason": racer.out_reason or None,
                "game": str(racer.game_id),
                "racers": others[race.id],
            }
        last = chunk[-1].id


def erase_player(*, user: User, old_username: str, tombstone: str, **kwargs: Any) -> None:
    """Resign every race the player is racing (one in its countdown goes on: they drop out
    as any racer who is gone), stand up from every table not racing, drop stream tickets,
    and rename the player in the tables' event logs (the results stay, under the tombstone)."""
    running = Racer.objects.filter(player=user, race__status__in=RUNNING, state=Racer.State.RACING)
    for code in running.values_list("race__table__code", flat=True):
        with contextlib.suppress(DomainError):  # in the countdown: not yet
            race_resign(player=user, code=code)
    for code in Seat.objects.filter(player=user).values_list("table__code", flat=True):
        with contextlib.suppress(DomainError):  # racing: the seat stays, under the tombstone
            seat_stand(player=user, code=code)
    StreamTicket.objects.filter(player=user).delete()
    # Events name players by username (a JSON string; usernames need no escaping).
    ids = list(
        TableEvent.objects.annotate(text=Cast("data", TextField()))
        .filter(text__contains=f'"{old_username}"')
        .values_list("id", flat=True)
    )
    for start in range(0, len(ids), CHUNK):
        events = list(TableEvent.objects.filter(id__in=ids[start : start + CHUNK]))
        for event in events:
            event.data = _renamed(event.data, old_username, tombstone)
        TableEvent.objects.bulk_update(events, ["data"])


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    return value
