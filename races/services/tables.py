"""Tables and seats between races: open a table, sit, stand, say ready, change the settings.
Each function is one transaction under the table lock (lookups.locked_table)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from base.errors import DomainError
from games.deals import deal_choice_check, deal_layout_parse
from games.models import seed_to_db
from races.errors import AlreadySeated, TableBusy, TableFull
from races.events import EventKind, event_emit
from races.models import Seat, Table
from races.services.lookups import (
    locked_table,
    opener_only,
    own_seat,
    refuse_while_racing,
    seat_data,
)

SEATS = 4
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed
CODE_LENGTH = 8


@transaction.atomic
def table_open(
    *,
    player: User,
    suits: int,
    time_limit_s: int | None = None,
    seed: int | None = None,
    layout: dict[str, Any] | None = None,
    deal_over_gap: bool = False,
) -> Table:
    """Open a table; the opener sits at seat 0. Staff may fix the deal (seed or layout).
    ``deal_over_gap``: the table rule its races are dealt under."""
    deal_choice_check(player=player, seed=seed, layout=layout)
    if layout is not None:
        deal_layout_parse(suits=suits, layout=layout)  # refused now, not at the start
    table = Table.objects.create(
        code=_new_code(),
        opener=player,
        suits=suits,
        time_limit_s=time_limit_s,
        deal_over_gap=deal_over_gap,
        staff_seed=seed_to_db(seed) if seed is not None else None,
        staff_layout=layout,
    )
    now = timezone.now()
    Seat.objects.create(table=table, player=player, seat=0)
    event_emit(table=table, kind=EventKind.SEATED, data=seat_data(0, player), now=now)
    return table


@transaction.atomic
def seat_sit(*, player: User, code: str, seat: int | None = None) -> Table:
    table = locked_table(code)
    refuse_while_racing(table)
    if table.status == Table.Status.FINISHED:
        # Play again is for the players who raced (docs/rules.md#play-again).
        raise TableBusy(
            detail="The race is over: newcomers sit down once the opener changes the settings."
        )
    seats = {s.seat: s.player_id for s in Seat.objects.filter(table=table)}
    if player.pk in seats.values():
        raise AlreadySeated()
    free = [n for n in range(SEATS) if n not in seats]
    if not free:
        raise TableFull()
    if seat is not None and seat not in free:
        raise DomainError("seat_taken", f"Seat {seat} is taken; free: {free}.", 409)
    number = free[0] if seat is None else seat
    Seat.objects.create(table=table, player=player, seat=number)
    event_emit(
        table=table, kind=EventKind.SEATED, data=seat_data(number, player), now=timezone.now()
    )
    return table


@transaction.atomic
def seat_stand(*, player: User, code: str) -> Table:
    table = locked_table(code)
    refuse_while_racing(table)
    seat = own_seat(table, player)
    seat.delete()  # the match score goes with the seat: it is kept for those who stay
    event_emit(
        table=table, kind=EventKind.STOOD, data=seat_data(seat.seat, player), now=timezone.now()
    )
    return table


@transaction.atomic
def seat_ready(*, player: User, code: str, ready: bool) -> Table:
    table = locked_table(code)
    refuse_while_racing(table)
    seat = own_seat(table, player)
    if seat.ready != ready:
        seat.ready = ready
        seat.save(update_fields=["ready"])
        data = {**seat_data(seat.seat, player), "ready": ready}
        event_emit(table=table, kind=EventKind.READY, data=data, now=timezone.now())
    return table


@transaction.atomic
def table_settings(
    *,
    player: User,
    code: str,
    suits: int,
    time_limit_s: int | None = None,
    deal_over_gap: bool = False,
) -> Table:
    """The opener changes the settings before a race (or after one instead of playing again
    at once): the table opens, players may stand and new ones sit; every Ready is cleared."""
    table = locked_table(code)
    refuse_while_racing(table)
    opener_only(table, player)
    table.suits, table.time_limit_s, table.status = suits, time_limit_s, Table.Status.OPEN
    table.deal_over_gap = deal_over_gap
    table.save(update_fields=["suits", "time_limit_s", "deal_over_gap", "status"])
    Seat.objects.filter(table=table).update(ready=False)
    data = {"suits": suits, "time_limit_s": time_limit_s, "deal_over_gap": deal_over_gap}
    event_emit(table=table, kind=EventKind.SETTINGS, data=data, now=timezone.now())
    return table


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code
