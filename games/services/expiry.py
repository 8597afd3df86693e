"""Games ended by the clock: a daily attempt past its day's close (``game_close_day``, and
the sweep at the close), a game idle too long (the idle sweep). Each batch of a sweep is
its own short transaction, SKIP LOCKED: safe next to live play and from two workers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services.endings import game_finish
from games.services.lookups import day_closed_on


@transaction.atomic
def game_close_day(*, game_id: Any, now: datetime | None = None) -> bool:
    """End a daily attempt whose day has closed: lost, nothing earned, no leaderboard
    (docs/rules.md#daily-challenge). Safe to call twice; True if it ended it."""
    now = now or timezone.now()
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or not day_closed_on(game, now):
        return False
    game_finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    return True


def games_close_past_days(*, now: datetime | None = None, batch: int = 500) -> int:
    """The sweep at the daily close: end every daily attempt still in progress whose UTC day
    has closed. Each batch its own short transaction, SKIP LOCKED (an action in flight ends
    it itself), safe to run twice or from two workers at once. Returns how many ended."""
    now = now or timezone.now()
    today = now.astimezone(UTC).date()
    ended = 0
    while True:
        with transaction.atomic():
            due = list(
                Game.objects.select_for_update(skip_locked=True)
                .filter(kind=Game.Kind.DAILY, status=Game.Status.IN_PROGRESS)
                .filter(daily_date__lt=today)
                .order_by("created_at")[:batch]
            )
            for game in due:
                game_finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
            ended += len(due)
        if len(due) < batch:
            return ended


def games_expire_idle(*, idle: timedelta, now: datetime | None = None, batch: int = 500) -> int:
    """End every game idle for longer than ``idle``: lost if it had an action, discarded if
    not. Each game is its own short transaction, so this is safe next to live play and to
    run twice or from two workers at once (SKIP LOCKED). Returns how many games ended."""
    now = now or timezone.now()
    cutoff = now - idle
    ended = 0
    while True:
        with transaction.atomic():
            stale = list(
                Game.objects.select_for_update(skip_locked=True)
                .filter(status=Game.Status.IN_PROGRESS, created_at__lt=cutoff)
                .exclude(last_action_at__gte=cutoff)
                .exclude(kind=Game.Kind.RACE)  # a race ends its games itself
                .order_by("created_at")[:batch]
            )
            for game in stale:
                if game.actions == 0:
                    game.delete()
                else:
                    game_finish(game, Game.Status.LOST, Game.EndReason.EXPIRED, now)
            ended += len(stale)
        if len(stale) < batch:
            return ended
