"""Which finished games enter a leaderboard, written in the transaction that ends the game.

Only won games on vetted deals under the standard rules rank (``Game.ranked`` is decided when
the game is created: never staff-made, never a replay of a deal the player has seen). A daily
attempt also ranks on its day's board if it was won before that day closed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.utils import timezone

from games.models import Game
from leaderboard.models import LeaderboardEntry


def day_closes_at(day: date) -> datetime:
    """The end of a UTC day: the instant its daily challenge closes."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def daily_closed(day: date | None, now: datetime | None = None) -> bool:
    """Whether the daily challenge of ``day`` has closed (its seed may then be revealed)."""
    return day is not None and (now or timezone.now()) >= day_closes_at(day)


def entry_record(game: Game) -> LeaderboardEntry | None:
    """Enter a just-won ranked game; returns the entry, or None if it does not rank."""
    if game.status != Game.Status.WON or not game.ranked or game.staff_made:
        return None
    assert game.finished_at is not None and game.elapsed_ms is not None
    daily = (
        game.daily_date
        if game.kind == Game.Kind.DAILY
        and game.daily_date is not None
        and game.finished_at < day_closes_at(game.daily_date)
        else None
    )
    return LeaderboardEntry.objects.create(
        game=game,
        player_id=game.player_id,
        username=game.player.username,
        suits=game.suits,
        score=game.score,
        actions=game.actions,
        elapsed_ms=game.elapsed_ms,
        finished_at=game.finished_at,
        perfect=game.perfect,
        hints=game.hints,
        daily_date=daily,
    )
