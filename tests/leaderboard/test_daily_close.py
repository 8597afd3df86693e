"""The daily close (docs/rules.md#daily-challenge), with a frozen clock: an attempt must be
finished within its UTC day. At 00:00 UTC the seed is revealed and the day's finished logs go
public, so an attempt still in progress then ends as lost, earns nothing and enters no board;
any action on it is refused, whether or not the sweep has run yet.

The exploit it closes: start at 23:58, read the revealed seed after midnight, solve
it, post the moves: won, ranked, rank 1, 40 coins.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from coins.models import CoinEntry
from games.daily import day_closes_at
from games.models import Game, PlayerStats
from games.services import games_close_past_days
from leaderboard.models import LeaderboardEntry
from tests.games.api import conftest as api_fixtures
from tests.leaderboard.helpers import BOARD, DAILY, DAILY_PLAY, GAMES, line_of, play_api

pytestmark = pytest.mark.django_db
clock = api_fixtures.clock  # the frozen clock (timezone.now), as the game API tests use it


@pytest.fixture
def before_close(clock):
    """The clock at 23:58 UTC; returns the instant the day closes."""
    closes = day_closes_at(clock.now.date())
    clock.now = closes - timedelta(minutes=2)
    return closes


def _attempt(client) -> tuple[str, list]:
    created = client.post(DAILY_PLAY, {}, format="json")
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    line = line_of(game_id)
    play_api(client, game_id, line[:-1])  # all but the winning move, before midnight
    return game_id, line


def _refused(response) -> None:
    assert response.status_code == 422, (response.status_code, response.content)
    assert response.json()["code"] == "game_over"


def _ended_unpaid_unranked(game_id, closes) -> Game:
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.end_reason) == ("lost", "day_closed")
    assert closes <= game.finished_at
    assert not LeaderboardEntry.objects.exists()
    assert not CoinEntry.objects.exists()
    return game


@pytest.mark.parametrize("key", [None, "late-win"])
def test_the_winning_move_after_the_close_is_refused_and_ends_the_attempt(
    auth_client,
    user,
    api_client,
    stock_pool,
    clock,
    before_close,
    key,
):
    stock_pool(2, 1)
    client = auth_client(user)
    game_id, line = _attempt(client)
    clock.now = before_close + timedelta(seconds=5)
    assert api_client.get(DAILY, {"date": (before_close - timedelta(days=1)).date()}).json()[
        "seed"
    ]  # revealed: the exploit's ingredient

    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    _refused(client.post(f"{GAMES}/{game_id}/actions", line[-1], format="json", **extra))

    # Ended by the action itself (no sweep ran), also under an Idempotency-Key.
    game = _ended_unpaid_unranked(game_id, before_close)
    assert game.finished_at == clock.now
    assert api_client.get(BOARD, {"suits": 2}).json()["results"] == []
    # From now on it is a finished game: every action is refused.
    _refused(client.post(f"{GAMES}/{game_id}/actions", line[-1], format="json", **extra))
    _refused(client.post(f"{GAMES}/{game_id}/hint", {}, format="json"))
    _refused(client.post(f"{GAMES}/{game_id}/resign"))
    row = PlayerStats.objects.get(player=user, suits=2)
    assert (row.played, row.wins) == (1, 0)  # a loss


@pytest.mark.parametrize("what", ["hint", "resign"])
def test_a_hint_or_resign_after_the_close_ends_the_attempt_too(
    auth_client,
    user,
    stock_pool,
    clock,
    before_close,
    what,
):
    stock_pool(2, 1)
    client = auth_client(user)
    game_id, _ = _attempt(client)
    clock.now = before_close

    _refused(client.post(f"{GAMES}/{game_id}/{what}", {}, format="json"))
    _ended_unpaid_unranked(game_id, before_close)


def test_just_before_the_close_the_attempt_plays_and_wins(
    auth_client,
    user,
    stock_pool,
    clock,
    before_close,
):
    stock_pool(2, 1)
    client = auth_client(user)
    game_id, line = _attempt(client)
    clock.now = before_close - timedelta(milliseconds=1)
    assert play_api(client, game_id, line[-1:])["status"] == "won"
    assert LeaderboardEntry.objects.get().daily_date == clock.now.date()


def test_the_sweep_ends_attempts_in_progress_at_the_close(
    auth_client,
    make_user,
    user,
    stock_pool,
    clock,
    before_close,
):
    stock_pool(2, 2)
    client = auth_client(user)
    game_id, _ = _attempt(client)
    assert games_close_past_days() == 0  # 23:58: nothing is due
    clock.now = before_close + timedelta(seconds=1)
    # Tomorrow's attempt, just begun, is not touched.
    late = auth_client(make_user())
    tomorrow = late.post(DAILY_PLAY, {}, format="json").json()["id"]

    assert games_close_past_days() == 1
    assert games_close_past_days() == 0  # idempotent

    _ended_unpaid_unranked(game_id, before_close)
    assert Game.objects.get(pk=tomorrow).status == "in_progress"
    _refused(client.post(f"{GAMES}/{game_id}/actions", {"type": "deal"}, format="json"))


def test_the_in_process_loop_and_beat_run_the_daily_close(
    auth_client,
    user,
    stock_pool,
    clock,
    before_close,
    settings,
):
    from spider_api import sweeps

    assert (
        settings.CELERY_BEAT_SCHEDULE["close-past-daily-games"]["task"]
        == "games.tasks.close_past_daily_games"
    )
    stock_pool(2, 1)
    game_id, _ = _attempt(auth_client(user))
    clock.now = before_close + timedelta(seconds=1)
    sweeps._last_daily_close = -sweeps.DAILY_CLOSE_EVERY_SECONDS  # due at once

    sweeps.sweep_due()  # what `make run`'s process runs every RACE_TICK_SECONDS

    _ended_unpaid_unranked(game_id, before_close)
