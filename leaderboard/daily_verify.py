"""The daily results, counts and streaks rebuilt from the games themselves, and compared with
what was kept as attempts ended (``manage.py verify_daily``). The rebuild takes the model
classes, so the migration that introduced them backfills with the same code."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict
from datetime import date
from typing import Any

from games.daily import day_closes_at
from leaderboard.streaks import Streaks, streaks_of

# What a DailyResult holds besides its game: (player, date, won, score, actions, elapsed, runs).
Result = tuple[int, date, bool, int, int, int, int]


def expected_results(game_model: Any) -> dict[Any, Result]:
    """Every ended ranked daily attempt (leaderboard.daily_results.counts_as_attempt), by game."""
    games = (
        game_model.objects.filter(kind="daily", ranked=True, staff_made=False)
        .exclude(daily_date=None)
        .exclude(status="in_progress")
        .values_list(
            "id",
            "player_id",
            "daily_date",
            "status",
            "finished_at",
            "score",
            "actions",
            "elapsed_ms",
            "runs_removed",
        )
    )
    return {
        game_id: (
            player,
            day,
            status == "won" and finished < day_closes_at(day),
            score,
            actions,
            elapsed or 0,
            runs,
        )
        for game_id, player, day, status, finished, score, actions, elapsed, runs in games
    }


def expected_counts(results: dict[Any, Result]) -> Counter[tuple[date, bool, int]]:
    return Counter((day, won, score) for _, day, won, score, *_ in results.values())


def expected_streaks(results: dict[Any, Result]) -> dict[int, Streaks]:
    days: dict[int, list[tuple[date, bool]]] = defaultdict(list)
    for player, day, won, *_ in results.values():
        days[player].append((day, won))
    return {player: streaks_of(player_days) for player, player_days in days.items()}


def rebuild(*, game_model: Any, result_model: Any, count_model: Any, streak_model: Any) -> int:
    """Write every result, count and streak from the games (the tables empty). Returns how
    many results."""
    results = expected_results(game_model)
    result_model.objects.bulk_create(
        result_model(
            game_id=game_id,
            player_id=player,
            date=day,
            won=won,
            score=score,
            actions=actions,
            elapsed_ms=elapsed,
            runs=runs,
        )
        for game_id, (player, day, won, score, actions, elapsed, runs) in results.items()
    )
    count_model.objects.bulk_create(
        count_model(date=day, won=won, score=score, players=n)
        for (day, won, score), n in expected_counts(results).items()
    )
    streak_model.objects.bulk_create(
        streak_model(player_id=player, **asdict(streaks))
        for player, streaks in expected_streaks(results).items()
    )
    return len(results)


def verify_daily() -> Iterator[str]:
    """Each difference between what was kept and what the games say, in words."""
    from games.models import Game
    from leaderboard.models import DailyResult, DailyStreak, DayScoreCount

    results = expected_results(Game)
    kept = {
        row[0]: tuple(row[1:])
        for row in DailyResult.objects.values_list(
            "game_id", "player_id", "date", "won", "score", "actions", "elapsed_ms", "runs"
        ).iterator()
    }
    for game_id in sorted(set(results) | set(kept), key=str):
        if results.get(game_id) != kept.get(game_id):
            yield f"game {game_id}: kept {kept.get(game_id)}, the game says {results.get(game_id)}"
    counts = expected_counts(results)
    kept_counts = Counter(
        {
            (day, won, score): n
            for day, won, score, n in DayScoreCount.objects.values_list(
                "date", "won", "score", "players"
            )
        }
    )
    for key in sorted(set(counts) | set(kept_counts)):
        if counts[key] != kept_counts[key]:
            day, won, score = key
            yield (
                f"day {day} won={won} score={score}: {kept_counts[key]} counted, "
                f"the games say {counts[key]}"
            )
    streaks = expected_streaks(results)
    kept_streaks = {
        row.player_id: Streaks(**{n: getattr(row, n) for n in Streaks.__dataclass_fields__})
        for row in DailyStreak.objects.iterator()
    }
    for player in sorted(set(streaks) | set(kept_streaks)):
        expected = streaks.get(player, Streaks())
        if kept_streaks.get(player, Streaks()) != expected:
            yield f"player {player}: streaks kept {kept_streaks.get(player)}, games say {expected}"
