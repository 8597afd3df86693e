"""How a race ends, with the table lock held: a racer out (resigned, gone), a draw offered
and declined or agreed, the race finished (results, match score, stats, the ``finished``
event); then, after the commit, the racers' Game rows closed (``race_settle``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game
from games.services import game_conclude
from races import presenters
from races.events import EventKind, event_emit
from races.models import Presence, Race, Racer, RaceStats, Seat, Table
from races.services.lookups import seat_data


def racer_out(table: Table, race: Race, racer: Racer, reason: str, now: datetime) -> None:
    """The racer is out (``reason``); the last one left racing wins, and a draw every racer
    left has accepted is agreed."""
    racer.state, racer.out_reason = Racer.State.OUT, reason
    racer.save(update_fields=["state", "out_reason"])
    data = {**seat_data(racer.seat, racer.player), "reason": reason}
    event_emit(table=table, kind=EventKind.OUT, data=data, now=now)
    if racer.player_id in race.draw_accepted:
        race.draw_accepted = [p for p in race.draw_accepted if p != racer.player_id]
        race.save(update_fields=["draw_accepted"])
    left = list(race.racers.filter(state=Racer.State.RACING))
    if len(left) == 1:
        race_finish(table, race, now, winners=left, reason=Race.EndReason.LAST_LEFT)
    elif not left:
        race_finish(table, race, now, reason=Race.EndReason.LAST_LEFT)
    else:
        draw_if_agreed(table, race, now)


def draw_decline(table: Table, race: Race, racer: Racer, reason: str, now: datetime) -> None:
    """The draw on offer is turned down by ``racer`` (``reason``: declined, or an action)."""
    race.draw_accepted = []
    race.save(update_fields=["draw_accepted"])
    data = {**seat_data(racer.seat, racer.player), "reason": reason}
    event_emit(table=table, kind=EventKind.DRAW_DECLINED, data=data, now=now)


def draw_if_agreed(table: Table, race: Race, now: datetime) -> None:
    """Every racer still racing has accepted the draw: the race ends drawn."""
    racing = list(race.racers.filter(state=Racer.State.RACING))
    if race.draw_accepted and racing and {r.player_id for r in racing} <= set(race.draw_accepted):
        race_finish(table, race, now, draw=racing, reason=Race.EndReason.DRAW)


def race_finish(
    table: Table,
    race: Race,
    now: datetime,
    *,
    reason: str,
    winners: list[Racer] | tuple[Racer, ...] = (),
    draw: list[Racer] | tuple[Racer, ...] = (),
) -> None:
    """End the race (the table lock is held): results, match score, stats, the `finished`
    event with every table laid open. The Game rows are closed after the commit."""
    win_ids = {r.pk for r in winners}
    draw_ids = {r.pk for r in draw}
    racers = list(race.racers.select_related("player", "game").order_by("seat"))
    for r in racers:
        if r.pk in win_ids:
            r.state = Racer.State.WON
        elif r.pk in draw_ids:
            r.state = Racer.State.DRAW
        elif r.state != Racer.State.OUT:
            r.state = Racer.State.LOST
        r.save(update_fields=["state"])
        _record_stats(r, race.suits)
    seats = {s.player_id: s for s in Seat.objects.filter(table=table)}
    for r in racers:
        seat = seats.get(r.player_id)
        if seat is not None and r.state in (Racer.State.WON, Racer.State.DRAW):
            field = "wins" if r.state == Racer.State.WON else "draws"
            setattr(seat, field, getattr(seat, field) + 1)
            seat.save(update_fields=[field])
    race.status = Race.Status.FINISHED
    race.finished_at = now
    race.result = Race.Result.WON if winners else Race.Result.DRAW
    race.end_reason = reason
    race.draw_accepted = []
    race.save(update_fields=["status", "finished_at", "result", "end_reason", "draw_accepted"])
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    presences = {p.player_id: p for p in Presence.objects.filter(table=table)}
    body = presenters.race_json(race, racers, presences, now)
    data = {
        key: body[key]
        for key in ("number", "result", "end_reason", "winner", "finished_at", "racers")
    }
    data["laid_open"] = body["laid_open"]
    event_emit(table=table, kind=EventKind.FINISHED, data=data, now=now)
    race_id = race.pk
    transaction.on_commit(lambda: race_settle(race_id=race_id))


_STATS_COLUMN: dict[str, str] = {
    Racer.State.WON: "wins",
    Racer.State.DRAW: "draws",
}  # anything else: losses


def _record_stats(racer: Racer, suits: int) -> None:
    """Count the race for the racer: one UPDATE adding in the database, so two races that end
    at once for the same player both count (no read-modify-write)."""
    column = _STATS_COLUMN.get(racer.state, "losses")
    RaceStats.objects.get_or_create(player_id=racer.player_id, suits=suits)
    RaceStats.objects.filter(player_id=racer.player_id, suits=suits).update(
        played=F("played") + 1, **{column: F(column) + 1}
    )


def race_settle(*, race_id: int) -> None:
    """Close every racer's Game of a finished race (each its own short transaction; safe to
    run twice). A game won on the board was closed by its winning action already."""
    race = Race.objects.filter(pk=race_id, status=Race.Status.FINISHED).first()
    if race is None or race.settled:
        return
    now = race.finished_at or timezone.now()
    for racer in race.racers.all():
        # A race win is a win of the racer's game, however it came (the last one left, the
        # most runs at the time): history and the race reward (docs/rules.md#race-results).
        won = racer.state == Racer.State.WON
        if won:
            reason = Game.EndReason.RACE_WON
        elif racer.out_reason == Racer.OutReason.RESIGNED:
            reason = Game.EndReason.RESIGNED
        else:
            reason = Game.EndReason.RACE_OVER
        game_conclude(game_id=racer.game_id, won=won, reason=reason, now=now)
    Race.objects.filter(pk=race_id).update(settled=True)
