"""The rows a race service starts from, and the refusals they share: a table locked by its
code, its running race, a player's racer or seat; and how a seat is named in an event."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from races.errors import NoRace, NotOpener, NotRacing, NotSeated, TableBusy, TableNotFound
from races.models import Race, Racer, Seat, Table

RUNNING = (Race.Status.COUNTDOWN, Race.Status.RACING)


def locked_table(code: str) -> Table:
    """The table of this invite code, its row locked (the lock of everything at a table)."""
    table = Table.objects.select_for_update().filter(code=code.upper()).first()
    if table is None:
        raise TableNotFound()
    return table


def running_race(table: Table) -> Race:
    race = Race.objects.filter(table=table).order_by("-number").first()
    if race is None or race.status not in RUNNING:
        raise NoRace()
    return race


def racing_racer(race: Race, player: User) -> Racer:
    """The player's racer in ``race``, still racing (with its player)."""
    racer = race.racers.select_related("player").filter(player=player).first()
    if racer is None or racer.state != Racer.State.RACING:
        raise NotRacing()
    return racer


def refuse_while_racing(table: Table) -> None:
    if table.status in (Table.Status.COUNTDOWN, Table.Status.RACING):
        raise TableBusy()


def opener_only(table: Table, player: User) -> None:
    if table.opener_id != player.pk:
        raise NotOpener()


def own_seat(table: Table, player: User) -> Seat:
    seat = Seat.objects.filter(table=table, player=player).first()
    if seat is None:
        raise NotSeated()
    return seat


def seat_number(table: Table, player: User) -> int | None:
    return Seat.objects.filter(table=table, player=player).values_list("seat", flat=True).first()


def seat_data(seat: int, player: User) -> dict[str, Any]:
    """A seat as an event names it."""
    return {"seat": seat, "player": player.username}
