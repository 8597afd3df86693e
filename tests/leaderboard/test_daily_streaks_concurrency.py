"""Ranked daily attempts ending at once (PostgreSQL: real transactions and row locks, one
connection per thread): the day's counts lose no attempt, and a player's two days ending
together (yesterday's by the close, today's by its player) make one run of two."""

from __future__ import annotations

import threading

import pytest

from games.models import Game
from games.services import game_close_day, game_resign
from leaderboard.daily_verify import verify_daily
from leaderboard.models import DailyStreak, DayScoreCount
from tests.leaderboard.conftest import day
from tests.leaderboard.helpers import DAILY_PLAY
from tests.leaderboard.test_daily_concurrency import run_threads

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = 6


def test_attempts_ending_at_once_are_all_counted(days, make_user, auth_client):
    players = [make_user() for _ in range(PLAYERS)]  # their tokens before the clock moves
    days(0)
    games = {}
    for player in players:
        games[player.pk] = auth_client(player).post(DAILY_PLAY, {}, format="json").json()["id"]
    queue = iter(players)
    lock = threading.Lock()

    def resign() -> None:
        with lock:
            player = next(queue)
        game_resign(player=player, game_id=games[player.pk])

    _, errors = run_threads(PLAYERS, resign)
    assert not errors, errors
    # Every one lost with the same score: one row of the day's counts, counted six times.
    assert list(DayScoreCount.objects.values_list("won", "score", "players")) == [
        (False, 500, PLAYERS)
    ]
    assert DailyStreak.objects.filter(played_run=1, played_best=1).count() == PLAYERS
    assert list(verify_daily()) == []


@pytest.mark.parametrize("attempt", range(3))
def test_two_days_of_one_player_ending_at_once_make_one_run(
    days, user, auth_client, clock, attempt
):
    client = auth_client(user)
    days(0)
    yesterday = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    days(1)
    today = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    ends = iter(
        [
            lambda: game_close_day(game_id=yesterday, now=clock.now),
            lambda: game_resign(player=user, game_id=today),
        ]
    )
    lock = threading.Lock()

    def end() -> None:
        with lock:
            work = next(ends)
        work()

    _, errors = run_threads(2, end)
    assert not errors, errors
    assert set(Game.objects.values_list("status", flat=True)) == {"lost"}
    row = DailyStreak.objects.get(player=user)
    assert (row.played_run, row.played_last, row.played_best) == (2, day(1), 2)
    assert list(verify_daily()) == []
