"""Coins for wins (docs/rules.md#coins), through the API: the winning action's answer, /me and
/players/{username}, the ledger rows behind them, the daily cap and its reset at midnight UTC.

Each game starts one move from a win (``NEAR_WIN``: K..2 of spades in column 0, the Ace in
column 1) on a vetted pooled deal, so it is an ordinary ranked game of any suit mode.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from coins.models import CoinDay, CoinEntry
from games import services
from games.models import Game
from games.services import endings
from leaderboard.models import DailyChallenge
from tests.games.api.helpers import (
    ME_URL,
    NEAR_WIN,
    act,
    game_url,
    layout_json,
    new_game,
    ok,
    player_url,
    pooled_layout_deal,
)

pytestmark = pytest.mark.django_db

DAILY_PLAY = "/api/v1/daily/play"
WIN = services.ActionRequest(type="move", src=1, dst=0)


def near_win_game(client, suits: int = 1) -> dict[str, Any]:
    pooled_layout_deal(NEAR_WIN, suits=suits)
    return new_game(client, suits)


def win(client, game_id: Any, **extra: Any) -> dict[str, Any]:
    body = ok(act(client, game_id, "move", from_=1, to=0, **extra))
    assert body["status"] == "won", body
    return body


def coins_of(client, username: str) -> dict[str, Any]:
    return ok(client.get(player_url(username)))["coins"]


def award(base: int, bonus: int, earned: int, cut: int, today: int, balance: int) -> dict:
    return {
        "eligible": True,
        "base": base,
        "bonus": bonus,
        "earned": earned,
        "cut": cut,
        "earned_today": today,
        "left_today": 200 - today,
        "daily_limit": 200,
        "balance": balance,
    }


NOTHING = {"eligible": False, "base": 0, "bonus": 0, "earned": 0, "cut": 0}


# -- amounts ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("suits", "base"), [(1, 10), (2, 20), (4, 40)])
def test_a_perfect_win_pays_ten_times_the_mode_plus_the_same_as_bonus(
    player, player_client, suits, base
):
    game = near_win_game(player_client, suits)

    body = win(player_client, game["id"])

    assert body["perfect"] is True
    assert body["coins"] == award(base, base, 2 * base, 0, 2 * base, 2 * base)
    entry = CoinEntry.objects.get(game_id=game["id"])
    assert (entry.player_id, entry.suits, entry.kind) == (player.pk, suits, "casual")
    assert (entry.base, entry.bonus, entry.amount, entry.cut) == (base, base, 2 * base, 0)


@pytest.mark.parametrize(("suits", "base"), [(1, 10), (2, 20), (4, 40)])
def test_a_win_with_an_undo_pays_no_bonus(player_client, suits, base):
    game = near_win_game(player_client, suits)
    ok(act(player_client, game["id"], "move", from_=1, to=2))
    ok(act(player_client, game["id"], "undo"))

    body = win(player_client, game["id"])

    assert body["perfect"] is False
    assert body["coins"] == award(base, 0, base, 0, base, base)


def test_a_win_after_a_hint_pays_no_bonus(player_client):
    game = near_win_game(player_client, 2)
    ok(player_client.post(f"{game_url(game['id'])}/hint", {}, format="json"))

    body = win(player_client, game["id"])

    assert body["hints"] == 1
    assert body["coins"] == award(20, 0, 20, 0, 20, 20)


def test_only_the_winning_action_carries_coins(player_client):
    game = near_win_game(player_client, 1)

    moved = ok(act(player_client, game["id"], "move", from_=1, to=2))

    assert moved["coins"] is None
    assert CoinEntry.objects.count() == 0


def test_a_replay_earns_nothing(player, player_client):
    first = near_win_game(player_client, 4)
    win(player_client, first["id"])
    replay = new_game(player_client, None, replay_of=first["id"])
    assert replay["ranked"] is False

    body = win(player_client, replay["id"])

    assert body["coins"] == {**NOTHING, **_summary(80, 80)}
    assert CoinEntry.objects.filter(game_id=replay["id"]).count() == 0
    assert coins_of(player_client, player.username)["balance"] == 80


def test_a_staff_game_earns_nothing(staff, staff_client):
    game = new_game(staff_client, 4, layout=layout_json(NEAR_WIN))

    body = win(staff_client, game["id"])

    assert body["coins"] == {**NOTHING, **_summary(0, 0)}
    assert CoinEntry.objects.count() == 0
    assert CoinDay.objects.count() == 0


def test_a_ranked_daily_win_pays_and_an_unranked_practice_does_not(player, player_client, clock):
    today = clock.now.astimezone(UTC).date()
    deal = pooled_layout_deal(NEAR_WIN, suits=2)
    DailyChallenge.objects.create(date=today, deal=deal, nonce="0" * 32, commitment="0" * 64)

    ranked = ok(player_client.post(DAILY_PLAY, {}, format="json"), 201)
    first = win(player_client, ranked["id"])
    practice = ok(player_client.post(DAILY_PLAY, {"unranked": True}, format="json"), 201)
    second = win(player_client, practice["id"])

    assert (ranked["kind"], ranked["ranked"], practice["ranked"]) == ("daily", True, False)
    assert first["coins"] == award(20, 20, 40, 0, 40, 40)
    assert second["coins"] == {**NOTHING, **_summary(40, 40)}
    assert list(CoinEntry.objects.values_list("kind", "amount")) == [("daily", 40)]


# -- the daily cap ----------------------------------------------------------------------------
def test_the_cap_cuts_across_wins_of_one_utc_day_and_resets_at_midnight(
    player, player_client, other_client, clock
):
    clock.now = datetime(2026, 3, 14, 23, 0, tzinfo=UTC)
    answers = []
    for _ in range(4):  # 4-suit perfect wins, 80 coins each
        game = near_win_game(player_client, 4)
        clock.advance(seconds=60)
        answers.append(win(player_client, game["id"])["coins"])
        clock.advance(seconds=60)

    assert answers == [
        award(40, 40, 80, 0, 80, 80),
        award(40, 40, 80, 0, 160, 160),
        award(40, 40, 40, 40, 200, 200),  # the cap cuts half of it
        award(40, 40, 0, 80, 200, 200),  # nothing left today: all of it is lost
    ]
    assert coins_of(other_client, player.username) == _summary(200, 200)

    clock.now = datetime(2026, 3, 14, 23, 59, 59, 999999, tzinfo=UTC)
    last_of_day = near_win_game(player_client, 1)
    assert win(player_client, last_of_day["id"])["coins"] == award(10, 10, 0, 20, 200, 200)

    clock.now = datetime(2026, 3, 15, 0, 0, tzinfo=UTC)  # midnight UTC: a new day
    assert coins_of(other_client, player.username) == _summary(200, 0)
    game = near_win_game(player_client, 2)
    assert win(player_client, game["id"])["coins"] == award(20, 20, 40, 0, 40, 240)

    days = dict(CoinDay.objects.values_list("day", "earned"))
    assert days == {date(2026, 3, 14): 200, date(2026, 3, 15): 40}
    assert sorted(CoinEntry.objects.values_list("day", "amount", "cut")) == [
        (date(2026, 3, 14), 0, 20),
        (date(2026, 3, 14), 0, 80),
        (date(2026, 3, 14), 40, 40),
        (date(2026, 3, 14), 80, 0),
        (date(2026, 3, 14), 80, 0),
        (date(2026, 3, 15), 40, 0),
    ]


def test_the_cap_is_per_player(player_client, other, other_client, clock):
    for _ in range(3):
        game = near_win_game(player_client, 4)
        win(player_client, game["id"])

    game = near_win_game(other_client, 4)

    assert win(other_client, game["id"])["coins"] == award(40, 40, 80, 0, 80, 80)


def test_the_day_is_the_utc_day_of_the_winning_action_not_of_the_deal(player_client, clock):
    clock.now = datetime(2026, 6, 1, 23, 59, tzinfo=UTC)
    game = near_win_game(player_client, 1)
    ok(act(player_client, game["id"], "move", from_=1, to=2))  # the clock starts here
    ok(act(player_client, game["id"], "undo"))
    clock.advance(seconds=120)

    win(player_client, game["id"])

    assert CoinEntry.objects.get(game_id=game["id"]).day == date(2026, 6, 2)


# -- profiles ---------------------------------------------------------------------------------
def test_me_and_the_public_page_show_the_balance_and_todays_earnings(
    player, player_client, api_client, clock
):
    clock.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    win(player_client, near_win_game(player_client, 2)["id"])  # 40
    clock.now += timedelta(days=1)
    win(player_client, near_win_game(player_client, 1)["id"])  # 20

    assert ok(player_client.get(ME_URL))["coins"] == _summary(60, 20)
    assert coins_of(api_client, player.username) == _summary(60, 20)


def test_the_balance_is_the_ledgers_sum(player, player_client):
    for suits in (1, 2, 4):
        win(player_client, near_win_game(player_client, suits)["id"])

    amounts = CoinEntry.objects.filter(player=player).values_list("amount", flat=True)
    assert sum(amounts) == 140
    assert ok(player_client.get(ME_URL))["coins"]["balance"] == 140


def _summary(balance: int, today: int) -> dict[str, int]:
    return {
        "balance": balance,
        "earned_today": today,
        "left_today": 200 - today,
        "daily_limit": 200,
    }


# -- retries ----------------------------------------------------------------------------------
def test_a_retried_win_with_the_same_key_is_paid_once_and_answered_the_same(player_client):
    game = near_win_game(player_client, 4)

    first = act(player_client, game["id"], "move", key="win-1", from_=1, to=0)
    again = act(player_client, game["id"], "move", key="win-1", from_=1, to=0)

    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert first.json()["coins"] == award(40, 40, 80, 0, 80, 80)
    assert CoinEntry.objects.count() == 1
    assert ok(player_client.get(ME_URL))["coins"]["balance"] == 80


def test_a_game_already_won_refuses_the_action_and_pays_nothing_more(player_client):
    game = near_win_game(player_client, 1)
    win(player_client, game["id"])

    response = act(player_client, game["id"], "move", from_=1, to=0)

    assert response.status_code == 422 and response.json()["code"] == "game_over"
    assert CoinEntry.objects.count() == 1


def test_the_reward_commits_with_the_win_or_not_at_all(player, player_client, monkeypatch):
    game = near_win_game(player_client, 1)

    def broken(**kwargs):
        raise RuntimeError("the ledger write failed")

    monkeypatch.setattr(endings, "game_reward", broken)
    player_client.raise_request_exception = False
    response = act(player_client, game["id"], "move", from_=1, to=0)

    assert response.status_code == 500
    assert Game.objects.get(pk=game["id"]).status == "in_progress"  # the win rolled back
    assert CoinEntry.objects.count() == 0
