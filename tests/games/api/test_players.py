"""GET /api/v1/players/{username}: anyone may read a player's statistics per suit mode."""

from typing import Any

import pytest

from tests.games.api.helpers import act, new_game, ok, player_url, refused, resign_url

pytestmark = pytest.mark.django_db

EMPTY: dict[str, Any] = {
    "played": 0,
    "wins": 0,
    "win_rate": 0.0,
    "current_win_streak": 0,
    "best_win_streak": 0,
    "current_loss_streak": 0,
    "worst_loss_streak": 0,
    "fastest_win_ms": None,
    "fewest_actions_win": None,
    "best_score": None,
    "best_wins": [],
}


def test_a_new_player_has_empty_statistics_for_each_suit_mode(api_client, make_user):
    make_user("newcomer")

    body = ok(api_client.get(player_url("newcomer")))

    assert body == {
        "username": "newcomer",
        "stats": [{"suits": suits, **EMPTY} for suits in (1, 2, 4)],
        "coins": {"balance": 0, "earned_today": 0, "left_today": 200, "daily_limit": 200},
    }


def test_statistics_are_public(stock_pool, api_client, other_client, player, player_client):
    stock_pool(4, 1)
    game = new_game(player_client, 4)
    ok(act(player_client, game["id"], "deal"))
    ok(player_client.post(resign_url(game["id"])))

    for client in (api_client, other_client, player_client):
        stats = ok(client.get(player_url(player.username)))["stats"]
        assert [s["played"] for s in stats] == [0, 0, 1]
        assert stats[2]["current_loss_streak"] == 1


def test_usernames_are_found_in_any_letter_case(api_client, make_user):
    make_user("MixedCase")

    assert ok(api_client.get(player_url("mixedcase")))["username"] == "MixedCase"


@pytest.mark.parametrize("name", ["nobody", "ghost"])
def test_an_unknown_or_inactive_player_is_404(api_client, make_user, name):
    make_user("ghost", is_active=False)

    refused(api_client.get(player_url(name)), 404, "not_found")
