"""Which finished games enter a leaderboard, written in the transaction that wins the game.

Only won games on vetted deals under the standard rules rank (``Game.ranked`` is decided when
the game is created: never staff-made, never a replay of a deal the player has seen). A daily
attempt also ranks on its day's board if it was won before that day closed.

The games app knows nothing of leaderboards: ``on_game_won`` is connected to its
``game_won`` signal (games/signals.py) in ``LeaderboardConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from games.daily import day_closes_at
from games.models import Game
from leaderboard.models import LeaderboardEntry


def on_game_won(*, game: Game, **kwargs: Any) -> None:
    """Receiver of ``games.signals.game_won``: enter the game if it ranks."""
    entry_record(game)


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
        deal_over_gap=game.deal_over_gap,
    )
