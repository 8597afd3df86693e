"""A ranked daily attempt's result, kept in the transaction that ends the game (``game_finish``:
a player's last action, a resignation, or the sweep at the day's close): the player's
``DailyResult`` of the day, the day's ``DayScoreCount`` and the player's ``DailyStreak``.

Only a ranked daily attempt counts (docs/rules.md#streaks): ``Game.ranked`` is never set for a
guest, a second (unranked) attempt, a replay or a practice game. ``on_game_finished`` is
connected to ``games.signals.game_finished`` in ``LeaderboardConfig.ready``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db import connection

from games.daily import day_closes_at
from games.models import Game
from leaderboard.models import DailyResult, DailyStreak, DayScoreCount
from leaderboard.streaks import Streaks, streaks_after, streaks_of


def counts_as_attempt(game: Game) -> bool:
    """Whether an ended game is a player's ranked attempt at a day's challenge."""
    return (
        game.kind == Game.Kind.DAILY
        and game.ranked
        and not game.staff_made
        and game.daily_date is not None
        and game.status != Game.Status.IN_PROGRESS
    )


def won_in_time(game: Game) -> bool:
    """Won before its day closed (as the day's board has it: leaderboard.ranking)."""
    assert game.daily_date is not None and game.finished_at is not None
    return game.status == Game.Status.WON and game.finished_at < day_closes_at(game.daily_date)


def on_game_finished(*, game: Game, **kwargs: Any) -> None:
    """Receiver of ``games.signals.game_finished``."""
    if counts_as_attempt(game):
        result_record(game)


def result_record(game: Game) -> DailyResult:
    """Keep one ended ranked attempt (the caller's transaction, the game row locked). The
    player's streak row is locked first: two of their attempts ending at once (yesterday's at
    the close, today's by an action) are counted one after the other."""
    assert game.daily_date is not None and game.elapsed_ms is not None
    DailyStreak.objects.get_or_create(player_id=game.player_id)
    row = DailyStreak.objects.select_for_update().get(player_id=game.player_id)
    won = won_in_time(game)
    result = DailyResult.objects.create(
        game=game,
        player_id=game.player_id,
        date=game.daily_date,
        won=won,
        score=game.score,
        actions=game.actions,
        elapsed_ms=game.elapsed_ms,
        runs=game.runs_removed,
    )
    _count(result)
    after = streaks_after(_kept(row), day=result.date, won=won)
    if after is None:  # an earlier day ended after a later one: count every day again
        after = streaks_of(
            DailyResult.objects.filter(player_id=game.player_id).values_list("date", "won")
        )
    for name, value in asdict(after).items():
        setattr(row, name, value)
    row.save()
    return result


def _kept(row: DailyStreak) -> Streaks:
    return Streaks(**{name: getattr(row, name) for name in Streaks.__dataclass_fields__})


def _count(result: DailyResult) -> None:
    """One more attempt with this (won, score) on its day: an upsert, so attempts ending at
    once with different scores never wait for each other."""
    table = connection.ops.quote_name(DayScoreCount._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (date, won, score, players) VALUES (%s, %s, %s, 1) "
            f"ON CONFLICT (date, won, score) DO UPDATE SET players = {table}.players + 1",
            [result.date, result.won, result.score],
        )
