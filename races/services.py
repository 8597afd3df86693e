"""The only code that changes race tables. Each public function is one transaction.

Locking: the Table row is the lock of everything at a table (its seats, its races, its event
sequence). A racer's action comes through the game service, which locks the Game row first
and then (races.policy) the Table row; so the order is always Game -> Table, and no code here
waits for a Game row while it holds a Table row. That is why a race's end does not close the
racers' Game rows in its own transaction: ``race_settle`` does it just after the commit (and
the sweep, ``races_tick``, again if that was lost), while the Table row already says the race
is over and refuses every further action.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.deals import (
    deal_choice_check,
    deal_for_new_game,
    deal_from_layout,
    deal_from_seed,
    deal_layout_parse,
)
from games.engine import Board, load
from games.models import Deal, Game, seed_from_db, seed_to_db
from games.presenters import iso
from games.services import game_conclude, game_start
from races import presenters, rows
from races.errors import (
    AlreadySeated,
    BadTicket,
    NoRace,
    NotOpener,
    NotRacing,
    NotReady,
    NotSeated,
    RaceNotStarted,
    RaceOver,
    TableBusy,
    TableFull,
    TableNotFound,
)
from races.events import EventKind, Statement, event_emit, event_statements
from races.models import (
    Presence,
    Race,
    Racer,
    RaceStats,
    Seat,
    StreamTicket,
    Table,
    TableEvent,
)
from spider_api.errors import DomainError

log = logging.getLogger(__name__)

SEATS = 4
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed
CODE_LENGTH = 8
RUNNING = (Race.Status.COUNTDOWN, Race.Status.RACING)


# -- tables and seats -----------------------------------------------------------------------
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
    event_emit(table=table, kind=EventKind.SEATED, data=_seat_data(0, player), now=now)
    return table


@transaction.atomic
def seat_sit(*, player: User, code: str, seat: int | None = None) -> Table:
    table = _locked(code)
    _refuse_while_racing(table)
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
        table=table, kind=EventKind.SEATED, data=_seat_data(number, player), now=timezone.now()
    )
    return table


@transaction.atomic
def seat_stand(*, player: User, code: str) -> Table:
    table = _locked(code)
    _refuse_while_racing(table)
    seat = _own_seat(table, player)
    seat.delete()  # the match score goes with the seat: it is kept for those who stay
    event_emit(
        table=table, kind=EventKind.STOOD, data=_seat_data(seat.seat, player), now=timezone.now()
    )
    return table


@transaction.atomic
def seat_ready(*, player: User, code: str, ready: bool) -> Table:
    table = _locked(code)
    _refuse_while_racing(table)
    seat = _own_seat(table, player)
    if seat.ready != ready:
        seat.ready = ready
        seat.save(update_fields=["ready"])
        data = {**_seat_data(seat.seat, player), "ready": ready}
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
    table = _locked(code)
    _refuse_while_racing(table)
    _opener_only(table, player)
    table.suits, table.time_limit_s, table.status = suits, time_limit_s, Table.Status.OPEN
    table.deal_over_gap = deal_over_gap
    table.save(update_fields=["suits", "time_limit_s", "deal_over_gap", "status"])
    Seat.objects.filter(table=table).update(ready=False)
    data = {"suits": suits, "time_limit_s": time_limit_s, "deal_over_gap": deal_over_gap}
    event_emit(table=table, kind=EventKind.SETTINGS, data=data, now=timezone.now())
    return table


# -- racing ---------------------------------------------------------------------------------
@transaction.atomic
def race_start(*, player: User, code: str) -> Table:
    """The opener starts: at least one other seated player and all of them ready. Deals one
    vetted deal to everyone seated; the cards turn over after the countdown."""
    table = _locked(code)
    _opener_only(table, player)
    if table.status != Table.Status.OPEN:
        raise TableBusy(detail="The table is not open: a race is on, or use `again` after a race.")
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    others = [s for s in seats if s.player_id != table.opener_id]
    if len(seats) < 2 or not others or not all(s.ready for s in others):
        raise NotReady()
    _deal_race(table, seats, timezone.now())
    return table


@transaction.atomic
def table_again(*, player: User, code: str) -> Table:
    """Play again at once, same settings, same players: seats rotate by one (0 -> 1, ...,
    the last -> 0); the match score stays with each player."""
    table = _locked(code)
    _opener_only(table, player)
    if table.status != Table.Status.FINISHED:
        raise TableBusy(detail="`again` follows a finished race.")
    # The players who raced and are still seated (docs/rules.md#play-again): a newcomer
    # cannot sit down after a race, and would not be dealt in if they had.
    last = Race.objects.filter(table=table).order_by("-number").first()
    raced = Racer.objects.filter(race=last).values("player_id")
    seats = list(
        Seat.objects.filter(table=table, player_id__in=raced)
        .select_related("player")
        .order_by("seat")
    )
    if len(seats) < 2:
        raise NotReady(detail="Playing again needs at least two seated players who raced.")
    numbers = [s.seat for s in seats]
    for s in seats:  # two steps: the (table, seat) constraint holds after each statement
        Seat.objects.filter(pk=s.pk).update(seat=s.seat + 10)
    for i, s in enumerate(seats):
        s.seat = numbers[(i + 1) % len(seats)]
        Seat.objects.filter(pk=s.pk).update(seat=s.seat)
    now = timezone.now()
    seats.sort(key=lambda s: s.seat)
    data = {"seats": [_seat_data(s.seat, s.player) for s in seats]}
    event_emit(table=table, kind=EventKind.AGAIN, data=data, now=now)
    _deal_race(table, seats, now)
    return table


def _deal_race(table: Table, seats: list[Seat], now: datetime) -> Race:
    deal = _race_deal(table)
    starts_at = now + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    ends_at = starts_at + timedelta(seconds=table.time_limit_s) if table.time_limit_s else None
    last = Race.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    race = Race.objects.create(
        table=table,
        number=(last.first() or 0) + 1,
        deal=deal,
        suits=deal.suits,
        time_limit_s=table.time_limit_s,
        deal_over_gap=table.deal_over_gap,
        starts_at=starts_at,
        ends_at=ends_at,
    )
    racers = []
    for seat in sorted(seats, key=lambda s: s.seat):
        game = game_start(
            player=seat.player,
            deal=deal,
            kind=Game.Kind.RACE,
            rankable=False,
            deal_over_gap=race.deal_over_gap,
        )
        # The race's clock: it starts when the cards turn over (and before then the game
        # shows no card and takes no action).
        Game.objects.filter(pk=game.pk).update(started_at=starts_at)
        hidden = sum(Board(deal.layout()).down)
        racers.append(
            Racer.objects.create(
                race=race, player=seat.player, seat=seat.seat, game=game, hidden_at_start=hidden
            )
        )
    Seat.objects.filter(table=table).update(ready=False)
    table.status = Table.Status.COUNTDOWN
    table.save(update_fields=["status"])
    data = {
        "race": race.number,
        "suits": race.suits,
        "time_limit_s": race.time_limit_s,
        "deal_over_gap": race.deal_over_gap,
        "starts_at": iso(starts_at),
        "ends_at": iso(ends_at),
        "racers": [
            {"seat": r.seat, "player": r.player.username, "game": str(r.game_id)} for r in racers
        ],
    }
    event_emit(table=table, kind=EventKind.COUNTDOWN, data=data, now=now)
    return race


def _race_deal(table: Table) -> Deal:
    if table.staff_layout is not None:
        return deal_from_layout(
            layout=deal_layout_parse(suits=table.suits, layout=table.staff_layout)
        )
    if table.staff_seed is not None:
        return deal_from_seed(suits=table.suits, seed=seed_from_db(table.staff_seed))
    return deal_for_new_game(suits=table.suits)  # a vetted deal from the pool (or 503)


@transaction.atomic
def race_resign(*, player: User, code: str) -> Table:
    """The racer is out and loses, and their game ends at once (lost, resigned); the others
    race on. The last one left racing wins."""
    # The racer's Game row first, then the Table (the one lock order, as for an action).
    game_id = (
        Racer.objects.filter(
            race__table__code=code.upper(), race__status__in=RUNNING, player=player
        )
        .values_list("game_id", flat=True)
        .first()
    )
    if game_id is not None:
        Game.objects.select_for_update().filter(pk=game_id).exists()
    table = _locked(code)
    race = _running_race(table)
    now = timezone.now()
    _due(table, race, now)  # the cards turned over, or the time is up, first
    if race.status == Race.Status.FINISHED:
        raise NoRace()
    if race.status == Race.Status.COUNTDOWN:
        raise RaceNotStarted()  # docs/rules.md#countdown: as on POST /games/{id}/resign
    racer = _racing(race, player)
    _racer_out(table, race, racer, Racer.OutReason.RESIGNED, now)
    game_conclude(game_id=racer.game_id, won=False, reason=Game.EndReason.RESIGNED, now=now)
    return table


@transaction.atomic
def race_draw(*, player: User, code: str, accept: bool) -> Table:
    """Offer or accept (``accept``) a draw, or decline one. A draw needs every racer still
    racing; declining it, or any action by a racer, turns it down."""
    table = _locked(code)
    race = _running_race(table)
    now = timezone.now()
    _due(table, race, now)
    if race.status != Race.Status.RACING:
        raise NoRace(detail="A draw may be offered once the race has started.")
    racer = _racing(race, player)
    if accept:
        if player.pk not in race.draw_accepted:
            race.draw_accepted = [*race.draw_accepted, player.pk]
            race.save(update_fields=["draw_accepted"])
            event_emit(
                table=table, kind=EventKind.DRAW_OFFERED, data=_draw_data(race, racer), now=now
            )
        _maybe_agreed(table, race, now)
    else:
        if not race.draw_accepted:
            raise DomainError("no_draw_offer", "No draw is on offer.", 409)
        _decline_draw(table, race, racer, "declined", now)
    return table


def _draw_data(race: Race, racer: Racer) -> dict[str, Any]:
    names = dict(Racer.objects.filter(race=race).values_list("player_id", "player__username"))
    return {
        **_seat_data(racer.seat, racer.player),
        "accepted": [names[p] for p in race.draw_accepted if p in names],
    }


def _decline_draw(table: Table, race: Race, racer: Racer, reason: str, now: datetime) -> None:
    race.draw_accepted = []
    race.save(update_fields=["draw_accepted"])
    data = {**_seat_data(racer.seat, racer.player), "reason": reason}
    event_emit(table=table, kind=EventKind.DRAW_DECLINED, data=data, now=now)


def _maybe_agreed(table: Table, race: Race, now: datetime) -> None:
    racing = list(race.racers.filter(state=Racer.State.RACING))
    if race.draw_accepted and racing and {r.player_id for r in racing} <= set(race.draw_accepted):
        _finish(table, race, now, draw=racing, reason=Race.EndReason.DRAW)


def _racer_out(table: Table, race: Race, racer: Racer, reason: str, now: datetime) -> None:
    racer.state, racer.out_reason = Racer.State.OUT, reason
    racer.save(update_fields=["state", "out_reason"])
    data = {**_seat_data(racer.seat, racer.player), "reason": reason}
    event_emit(table=table, kind=EventKind.OUT, data=data, now=now)
    if racer.player_id in race.draw_accepted:
        race.draw_accepted = [p for p in race.draw_accepted if p != racer.player_id]
        race.save(update_fields=["draw_accepted"])
    left = list(race.racers.filter(state=Racer.State.RACING))
    if len(left) == 1:
        _finish(table, race, now, winners=left, reason=Race.EndReason.LAST_LEFT)
    elif not left:
        _finish(table, race, now, reason=Race.EndReason.LAST_LEFT)
    else:
        _maybe_agreed(table, race, now)


def _finish(
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


# -- called by the game service for race games (races.policy), Game row locked ---------------
def racer_check_act(
    *, game: Game, now: datetime, read: tuple[Table, Race, Racer] | None = None
) -> tuple[Table, Race, Racer]:
    # Every action of every racer comes here: the table row locked, with the racer and the
    # race as committed once the lock is held (races/rows.py), in one round trip, or none
    # when they were ``read`` with the game row (game_for_act).
    found = read if read is not None else rows.racer_for_act(game_id=game.pk)
    if found is None:  # a race game is always created with its racer
        raise RaceOver()
    table, race, racer = found
    _due(table, race, now)
    if race.status == Race.Status.FINISHED:
        raise RaceOver()
    if race.ends_at is not None and now >= race.ends_at:
        raise RaceOver(detail="The time is up: the race is over.")
    if racer.state != Racer.State.RACING:
        raise NotRacing(detail="You are out of this race: the others race on.")
    return table, race, racer


def racer_acting(
    *, table: Table, race: Race, racer: Racer, board: Board, now: datetime
) -> list[Statement]:
    """Just before the action is written: a draw on offer is turned down (its event first),
    and the ``progress`` event is returned to be written in the action's own statement."""
    if race.draw_accepted:  # any action turns a draw on offer down
        _decline_draw(table, race, racer, "action", now)
    return event_statements(
        table=table, kind=EventKind.PROGRESS, data=presenters.progress_json(racer, board), now=now
    )


def racer_acted(*, table: Table, race: Race, racer: Racer, game: Game, now: datetime) -> None:
    if game.status == Game.Status.WON:  # the first win committed ends the race
        _finish(table, race, now, winners=[racer], reason=Race.EndReason.WON)


def racer_resign_game(*, game: Game, now: datetime) -> None:
    table, race, racer = racer_check_act(game=game, now=now)
    if race.status == Race.Status.COUNTDOWN:
        raise RaceNotStarted()  # docs/rules.md#countdown: as on POST /races/{code}/resign
    _racer_out(table, race, racer, Racer.OutReason.RESIGNED, now)


# -- timers: the countdown, the time limit, the 60 s to come back ----------------------------
def _due(table: Table, race: Race, now: datetime) -> None:
    """Whatever is due at ``now`` for this race (the table lock is held)."""
    if race.status == Race.Status.COUNTDOWN and now >= race.starts_at:
        race.status = Race.Status.RACING
        race.save(update_fields=["status"])
        table.status = Table.Status.RACING
        table.save(update_fields=["status"])
        data = {"race": race.number, "started_at": iso(race.starts_at)}
        event_emit(table=table, kind=EventKind.STARTED, data=data, now=now)
    if race.status == Race.Status.RACING and race.ends_at is not None and now >= race.ends_at:
        _finish_on_time(table, race)


def _finish_on_time(table: Table, race: Race) -> None:
    """The clock ran out: most runs removed wins, then most cards turned, then fewest
    actions; racers equal on all three share a draw. (No action is taken after ends_at, so
    the state now is the state at ends_at, whenever this runs.)"""
    racing = list(race.racers.filter(state=Racer.State.RACING).select_related("game", "player"))
    assert race.ends_at is not None

    def rank(r: Racer) -> tuple[int, int, int]:
        c = presenters.counts(load(r.game.snapshot), r)
        return (c["runs_removed"], c["turned"], -c["actions"])

    best = max((rank(r) for r in racing), default=None)
    top = [r for r in racing if rank(r) == best]
    if len(top) == 1:
        _finish(table, race, race.ends_at, winners=top, reason=Race.EndReason.TIME)
    else:
        _finish(table, race, race.ends_at, draw=top, reason=Race.EndReason.TIME)


def table_tick(*, table_id: int, now: datetime | None = None) -> None:
    """Everything due at one table: the cards turning over, the time limit, racers gone for
    too long. Idempotent: every check is against the rows, under the table lock."""
    now = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        race = Race.objects.filter(table=table).order_by("-number").first()
        if race is None or race.status not in RUNNING:
            return
        _due(table, race, now)
        if race.status != Race.Status.RACING:
            return
        for racer in _gone(race, now):
            if race.status != Race.Status.RACING:
                break
            racer.refresh_from_db(fields=["state"])
            if racer.state == Racer.State.RACING:
                _racer_out(table, race, racer, Racer.OutReason.GONE, now)


def _gone(race: Race, now: datetime) -> list[Racer]:
    """Racers with neither an open stream nor an action for RACE_RECONNECT_SECONDS."""
    cutoff = now - timedelta(seconds=settings.RACE_RECONNECT_SECONDS)
    if race.starts_at > cutoff:
        return []
    candidates = list(
        race.racers.filter(state=Racer.State.RACING)
        .filter(Q(game__last_action_at__isnull=True) | Q(game__last_action_at__lt=cutoff))
        .select_related("player")
    )
    presences = {
        p.player_id: p
        for p in Presence.objects.filter(
            table_id=race.table_id, player_id__in=[r.player_id for r in candidates]
        )
    }
    gone = []
    for racer in candidates:
        p = presences.get(racer.player_id)
        if p is not None and (presenters.connected(p, now) or p.seen_at >= cutoff):
            continue
        gone.append(racer)
    return gone


def races_tick(*, now: datetime | None = None) -> int:
    """The sweep (Celery beat, and every stream process once a second): runs every timer
    that is due, and closes the games of finished races. Returns the tables looked at.
    The queries find only what is due, so an idle sweep costs three index reads."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.RACE_RECONNECT_SECONDS)
    due = set(
        Race.objects.filter(
            Q(status=Race.Status.COUNTDOWN, starts_at__lte=now)
            | Q(status=Race.Status.RACING, ends_at__lte=now)
        ).values_list("table_id", flat=True)
    )
    seen = Presence.objects.filter(
        table_id=OuterRef("race__table_id"), player_id=OuterRef("player_id"), seen_at__gte=cutoff
    )
    due.update(
        Racer.objects.filter(
            state=Racer.State.RACING,
            race__status=Race.Status.RACING,
            race__starts_at__lte=cutoff,
        )
        .filter(Q(game__last_action_at__isnull=True) | Q(game__last_action_at__lt=cutoff))
        .exclude(Exists(seen))
        .values_list("race__table_id", flat=True)
    )
    for table_id in due:
        table_tick(table_id=table_id, now=now)
    for race_id in Race.objects.filter(status=Race.Status.FINISHED, settled=False).values_list(
        "pk", flat=True
    ):
        race_settle(race_id=race_id)
    return len(due)


# -- presence and stream tickets ------------------------------------------------------------
# Presence changes are debounced: a seated player's `gone` is written by ``presence_sweep``
# only once they have been away for RACE_GONE_GRACE_SECONDS (a reload, a dropped connection
# that comes back at once, writes nothing), and a `back` only when the log shows them away
# (after a `gone`, or before it ever showed them connected). ``Presence.log_present`` is what
# the log shows.
@transaction.atomic
def presence_open(*, table_id: int, player: User, now: datetime | None = None) -> int:
    """A stream of ``player`` opened: connected (``back`` for a seated player the log shows
    away)."""
    now = now or timezone.now()
    table = Table.objects.select_for_update().get(pk=table_id)
    presence, _ = Presence.objects.get_or_create(
        table=table, player=player, defaults={"seen_at": now}
    )
    live = presenters.streaming(presence, now)
    presence.streams = (presence.streams if live else 0) + 1  # stale counts: a dead process
    presence.seen_at = now
    seat = _seat_number(table, player)
    if seat is not None and not presence.log_present:
        presence.log_present = True
        event_emit(table=table, kind=EventKind.BACK, data=_seat_data(seat, player), now=now)
    presence.save(update_fields=["streams", "seen_at", "log_present"])
    return presence.pk


@transaction.atomic
def presence_close(*, presence_id: int, now: datetime | None = None) -> None:
    """A stream closed. No event now: ``presence_sweep`` writes the `gone` if the player is
    still away once the grace is over."""
    now = now or timezone.now()
    presence = Presence.objects.select_related("player").filter(pk=presence_id).first()
    if presence is None:
        return
    table = Table.objects.select_for_update().get(pk=presence.table_id)
    presence = Presence.objects.select_related("player").get(pk=presence_id)
    live = presenters.streaming(presence, now)
    presence.streams = max(0, presence.streams - 1)
    presence.seen_at = now
    if live and presence.streams == 0 and _seat_number(table, presence.player) is not None:
        # Seated and shown connected (a watcher who sat down holding the stream, too): the
        # log owes a `gone` if they stay away.
        presence.log_present = True
    presence.save(update_fields=["streams", "seen_at", "log_present"])


def presence_sweep(*, now: datetime | None = None) -> int:
    """Write the `gone` of every seated player the log shows connected who has been away
    for the grace (their last stream closed RACE_GONE_GRACE_SECONDS ago, or its process
    stopped refreshing it). Idempotent; each table in its own short transaction. Returns
    the `gone` events written."""
    fixed = now is not None
    now = now or timezone.now()
    grace = now - timedelta(seconds=settings.RACE_GONE_GRACE_SECONDS)
    stale = now - timedelta(seconds=settings.RACE_PRESENCE_STALE_SECONDS)
    owed = Presence.objects.filter(log_present=True).filter(
        Q(streams__lte=0, seen_at__lt=grace) | Q(streams__gt=0, seen_at__lt=stale)
    )
    written = 0
    for presence_id, table_id in owed.values_list("pk", "table_id"):
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=table_id)
            # Each event stamped when it is written: a pass over many tables takes a while,
            # and a table's events must not go back in time (a progress event written
            # meanwhile is stamped later than the pass's start).
            at = now if fixed else timezone.now()
            presence = Presence.objects.select_related("player").get(pk=presence_id)
            if not presence.log_present or presenters.connected(presence, at):
                continue  # back meanwhile, or written by another sweep
            presence.log_present = False
            presence.save(update_fields=["log_present"])
            seat = _seat_number(table, presence.player)
            if seat is not None:
                data = _seat_data(seat, presence.player)
                event_emit(table=table, kind=EventKind.GONE, data=data, now=at)
                written += 1
    return written


def presence_heartbeat(*, presence_ids: list[int], now: datetime | None = None) -> None:
    """The stream process says its streams are still open (a dead one stops saying it)."""
    if presence_ids:
        Presence.objects.filter(pk__in=presence_ids).update(seen_at=now or timezone.now())


@transaction.atomic
def ticket_issue(*, player: User, code: str) -> StreamTicket:
    table = Table.objects.filter(code=code.upper()).first()
    if table is None:
        raise TableNotFound()
    return StreamTicket.objects.create(
        key=secrets.token_urlsafe(32),
        player=player,
        table=table,
        expires_at=timezone.now() + timedelta(seconds=settings.RACE_TICKET_SECONDS),
    )


def ticket_redeem(*, key: str, code: str) -> Any:
    """The ticket's player, once: a second use, another table or a late one is refused."""
    now = timezone.now()
    ticket = (
        StreamTicket.objects.filter(key=key, table__code=code.upper()).select_related("player")
    ).first()
    if ticket is None:
        raise BadTicket()
    used = StreamTicket.objects.filter(pk=ticket.pk, used_at__isnull=True, expires_at__gt=now)
    if used.update(used_at=now) != 1:  # the compare-and-set makes it single-use
        raise BadTicket()
    return ticket.player


# -- pruning: what would otherwise grow for ever ---------------------------------------------
def tickets_prune(*, now: datetime | None = None) -> int:
    """Delete the stream tickets that can never be used again: used, or expired."""
    now = now or timezone.now()
    used_or_expired = Q(used_at__isnull=False) | Q(expires_at__lte=now)
    deleted, _ = StreamTicket.objects.filter(used_or_expired).delete()
    return deleted


def _abandoned(cutoff: datetime) -> Any:
    """Open tables never raced at, made before ``cutoff``, with no event and nobody's
    stream since."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, created_at__lt=cutoff)
        .exclude(Exists(Race.objects.filter(table=OuterRef("pk"))))
        .exclude(Exists(TableEvent.objects.filter(table=OuterRef("pk"), created_at__gte=cutoff)))
        .exclude(Exists(Presence.objects.filter(table=OuterRef("pk"), seen_at__gte=cutoff)))
    )


def tables_prune(*, now: datetime | None = None, batch: int = 500) -> int:
    """Delete up to ``batch`` abandoned tables (open, never raced at, unused for
    RACE_TABLE_IDLE_SECONDS) with their seats, events, presences and tickets. Each under its
    own row lock, checked again there, so a player sitting down at that moment keeps it."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.RACE_TABLE_IDLE_SECONDS)
    deleted = 0
    for table_id in list(_abandoned(cutoff).values_list("pk", flat=True)[:batch]):
        with transaction.atomic():
            locked = Table.objects.select_for_update(skip_locked=True).filter(pk=table_id)
            if locked.first() is None or not _abandoned(cutoff).filter(pk=table_id).exists():
                continue
            Table.objects.filter(pk=table_id).delete()
            deleted += 1
    return deleted


def races_prune(*, now: datetime | None = None) -> dict[str, int]:
    """The pruning (beat's prune_races; without a broker, spider_api.sweeps.sweep_due)."""
    return {"tickets": tickets_prune(now=now), "tables": tables_prune(now=now)}


# -- shared steps ---------------------------------------------------------------------------
def _locked(code: str) -> Table:
    table = Table.objects.select_for_update().filter(code=code.upper()).first()
    if table is None:
        raise TableNotFound()
    return table


def _running_race(table: Table) -> Race:
    race = Race.objects.filter(table=table).order_by("-number").first()
    if race is None or race.status not in RUNNING:
        raise NoRace()
    return race


def _racing(race: Race, player: User) -> Racer:
    racer = race.racers.select_related("player").filter(player=player).first()
    if racer is None or racer.state != Racer.State.RACING:
        raise NotRacing()
    return racer


def _refuse_while_racing(table: Table) -> None:
    if table.status in (Table.Status.COUNTDOWN, Table.Status.RACING):
        raise TableBusy()


def _opener_only(table: Table, player: User) -> None:
    if table.opener_id != player.pk:
        raise NotOpener()


def _own_seat(table: Table, player: User) -> Seat:
    seat = Seat.objects.filter(table=table, player=player).first()
    if seat is None:
        raise NotSeated()
    return seat


def _seat_number(table: Table, player: User) -> int | None:
    return Seat.objects.filter(table=table, player=player).values_list("seat", flat=True).first()


def _seat_data(seat: int, player: User) -> dict[str, Any]:
    return {"seat": seat, "player": player.username}


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code
