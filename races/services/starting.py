"""A race begins: the opener starts one (``race_start``) or plays again at once
(``table_again``). Either way every seated player gets a game on the same deal, and the
countdown runs until the cards turn over (``timers``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.deals import deal_for_new_game, deal_from_layout, deal_from_seed, deal_layout_parse
from games.engine import Board
from games.models import Deal, Game, seed_from_db
from games.presenters import iso
from games.services import game_start
from races.errors import NotReady, TableBusy
from races.events import EventKind, event_emit
from races.models import Race, Racer, Seat, Table
from races.services.lookups import locked_table, opener_only, seat_data


@transaction.atomic
def race_start(*, player: User, code: str) -> Table:
    """The opener starts: at least one other seated player and all of them ready. Deals one
    vetted deal to everyone seated; the cards turn over after the countdown."""
    table = locked_table(code)
    opener_only(table, player)
    if table.status != Table.Status.OPEN:
        raise TableBusy(detail="The table is not open: a race is on, or use `again` after a race.")
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    others = [s for s in seats if s.player_id != table.opener_id]
    if len(seats) < 2 or not others or not all(s.ready for s in others):
        raise NotReady()
    _race_create(table, seats, timezone.now())
    return table


@transaction.atomic
def table_again(*, player: User, code: str) -> Table:
    """Play again at once, same settings, same players: seats rotate by one (0 -> 1, ...,
    the last -> 0); the match score stays with each player."""
    table = locked_table(code)
    opener_only(table, player)
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
    data = {"seats": [seat_data(s.seat, s.player) for s in seats]}
    event_emit(table=table, kind=EventKind.AGAIN, data=data, now=now)
    _race_create(table, seats, now)
    return table


def _race_create(table: Table, seats: list[Seat], now: datetime) -> Race:
    """The table's next race, on one deal (``_deal_of``): a Racer and a race Game for each of
    ``seats``, every Ready cleared, the countdown begun and announced."""
    deal = _deal_of(table)
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


def _deal_of(table: Table) -> Deal:
    """The deal of the table's next race: the staff's layout or seed if one was fixed, else a
    vetted deal from the pool (or 503)."""
    if table.staff_layout is not None:
        return deal_from_layout(
            layout=deal_layout_parse(suits=table.suits, layout=table.staff_layout)
        )
    if table.staff_seed is not None:
        return deal_from_seed(suits=table.suits, seed=seed_from_db(table.staff_seed))
    return deal_for_new_game(suits=table.suits)
