"""What a racer asks of the table during a race, beside playing (an action is the game
service's, races.policy): resign, and offer, accept or decline a draw."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from base.errors import DomainError
from games.models import Game
from games.services import game_conclude
from races.errors import NoRace, RaceNotStarted
from races.events import EventKind, event_emit
from races.models import Race, Racer, Table
from races.services.endings import draw_decline, draw_if_agreed, racer_out
from races.services.lookups import (
    RUNNING,
    locked_table,
    racing_racer,
    running_race,
    seat_data,
)
from races.services.timers import run_due


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
    table = locked_table(code)
    race = running_race(table)
    now = timezone.now()
    run_due(table, race, now)  # the cards turned over, or the time is up, first
    if race.status == Race.Status.FINISHED:
        raise NoRace()
    if race.status == Race.Status.COUNTDOWN:
        raise RaceNotStarted()  # docs/rules.md#countdown: as on POST /games/{id}/resign
    racer = racing_racer(race, player)
    racer_out(table, race, racer, Racer.OutReason.RESIGNED, now)
    game_conclude(game_id=racer.game_id, won=False, reason=Game.EndReason.RESIGNED, now=now)
    return table


@transaction.atomic
def race_draw(*, player: User, code: str, accept: bool) -> Table:
    """Offer or accept (``accept``) a draw, or decline one. A draw needs every racer still
    racing; declining it, or any action by a racer, turns it down."""
    table = locked_table(code)
    race = running_race(table)
    now = timezone.now()
    run_due(table, race, now)
    if race.status != Race.Status.RACING:
        raise NoRace(detail="A draw may be offered once the race has started.")
    racer = racing_racer(race, player)
    if accept:
        if player.pk not in race.draw_accepted:
            race.draw_accepted = [*race.draw_accepted, player.pk]
            race.save(update_fields=["draw_accepted"])
            event_emit(
                table=table, kind=EventKind.DRAW_OFFERED, data=_draw_data(race, racer), now=now
            )
        draw_if_agreed(table, race, now)
    else:
        if not race.draw_accepted:
            raise DomainError("no_draw_offer", "No draw is on offer.", 409)
        draw_decline(table, race, racer, "declined", now)
    return table


def _draw_data(race: Race, racer: Racer) -> dict[str, Any]:
    names = dict(Racer.objects.filter(race=race).values_list("player_id", "player__username"))
    return {
        **seat_data(racer.seat, racer.player),
        "accepted": [names[p] for p in race.draw_accepted if p in names],
    }
