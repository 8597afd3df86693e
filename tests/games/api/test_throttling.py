"""The `actions` and `game_create` throttle scopes answer 429 with Retry-After, per player, and
a throttled request changes nothing."""

import pytest

from games.models import Deal, Game
from tests.games.api.helpers import (
    GAMES_URL,
    act,
    game_record,
    game_url,
    new_game,
    ok,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db


def _throttled(response):
    body = refused(response, 429, "throttled")
    assert 0 < body["retry_after"] <= 60
    assert response["Retry-After"] == str(body["retry_after"])


def test_actions_are_throttled_per_player(
    stock_pool, set_throttle_rate, player_client, other_client
):
    stock_pool(1, 2)
    mine = new_game(player_client, 1)
    theirs = new_game(other_client, 1)
    set_throttle_rate("actions", "3/min")
    ok(act(player_client, mine["id"], "deal"))
    refused(act(player_client, mine["id"], "move", from_=0, to=0), 422, "bad_column")  # counts
    ok(act(player_client, mine["id"], "undo"))
    before = game_record(mine["id"])

    _throttled(act(player_client, mine["id"], "deal"))
    _throttled(player_client.post(resign_url(mine["id"])))  # resigning is an action too

    assert game_record(mine["id"]) == before
    ok(player_client.get(game_url(mine["id"])))  # reading is not an action
    ok(act(other_client, theirs["id"], "deal"))  # another player has their own allowance


def test_game_creation_is_throttled_per_player(
    stock_pool, set_throttle_rate, player, player_client, other_client
):
    stock_pool(1, 4)
    set_throttle_rate("game_create", "2/min")
    new_game(player_client, 1)
    refused(player_client.post(GAMES_URL, {"suits": 3}, format="json"), 400, "invalid")  # counts
    pooled = Deal.objects.filter(state=Deal.State.POOLED).count()
    running = Game.objects.get(player=player)

    _throttled(player_client.post(GAMES_URL, {"suits": 1}, format="json"))

    assert Deal.objects.filter(state=Deal.State.POOLED).count() == pooled  # no deal taken
    assert list(Game.objects.filter(player=player)) == [running]  # nothing discarded
    ok(player_client.get(GAMES_URL))  # listing is not creating
    new_game(other_client, 1)


def test_the_scopes_are_separate(stock_pool, set_throttle_rate, player_client):
    stock_pool(1, 1)
    set_throttle_rate("game_create", "1/min")
    game = new_game(player_client, 1)

    for _ in range(5):
        ok(act(player_client, game["id"], "deal"))
