"""Real responses of the game endpoints match the OpenAPI schema drf-spectacular generates.

Every response of the suite is checked by tests/conftest.py already; these tests make sure
each kind of game answer (states, outcomes, logs, pages, each error) is actually seen.
"""

import pytest

from tests.games.api.helpers import (
    GAMES_URL,
    ME_URL,
    NEAR_WIN,
    act,
    actions_url,
    game_url,
    layout_json,
    new_game,
    ok,
    player_url,
    pooled_layout_deal,
    resign_url,
)
from tests.schema_check import check as check_response
from tests.schema_check import published_schema

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"
GAME = "/api/v1/games/{game_id}"
ACTIONS = "/api/v1/games/{game_id}/actions"
RESIGN = "/api/v1/games/{game_id}/resign"
PLAYER = "/api/v1/players/{username}"
ME = "/api/v1/me"


@pytest.fixture(scope="module")
def openapi():
    return published_schema()


def check(openapi, path: str, method: str, response) -> None:
    """The response is documented for this operation (status, headers, body: strictly)."""
    assert method in openapi["paths"][path]
    assert str(response.status_code) in openapi["paths"][path][method]["responses"]
    request = response.wsgi_request
    check_response(method, request.path, dict(request.GET.lists()), response)


# -- success bodies ---------------------------------------------------------------------------
def test_game_states_match_the_schema(openapi, stock_pool, player_client, api_client):
    stock_pool(2, 1)
    created = player_client.post(GAMES_URL, {"suits": 2}, format="json")
    gid = created.json()["id"]
    check(openapi, GAMES, "post", created)
    check(openapi, GAME, "get", player_client.get(game_url(gid)))
    acted = player_client.post(actions_url(gid), {"type": "move", "from": 0}, format="json")
    if acted.status_code == 422:  # no one-tap for column 0 in this deal: deal instead
        acted = act(player_client, gid, "deal")
    check(openapi, ACTIONS, "post", acted)
    check(openapi, ACTIONS, "post", act(player_client, gid, "undo"))
    check(openapi, RESIGN, "post", player_client.post(resign_url(gid)))
    check(openapi, GAME, "get", api_client.get(game_url(gid)))  # over: with its deal


def test_an_acted_state_with_turned_cards_and_runs_matches_the_schema(openapi, staff_client):
    game = new_game(staff_client, 1, layout=layout_json(["5s" + NEAR_WIN[0], "|As", "|Ks"]))

    done = act(staff_client, game["id"], "move", from_=1, to=0)
    undone = act(staff_client, game["id"], "undo")

    assert done.json()["outcome"]["turned"] and done.json()["outcome"]["runs_removed"]
    assert undone.json()["outcome"]["runs_restored"]
    check(openapi, ACTIONS, "post", done)
    check(openapi, ACTIONS, "post", undone)


def test_the_log_matches_the_schema(openapi, staff_client, api_client):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    ok(act(staff_client, game["id"], "move", from_=1, to=2))
    ok(act(staff_client, game["id"], "undo"))
    check(openapi, ACTIONS, "get", staff_client.get(actions_url(game["id"])))  # running
    ok(act(staff_client, game["id"], "move", from_=1, to=0))

    check(openapi, ACTIONS, "get", api_client.get(actions_url(game["id"])))  # won


def test_a_page_of_games_matches_the_schema(openapi, stock_pool, player_client):
    stock_pool(1, 1)
    game = new_game(player_client, 1)
    ok(player_client.post(resign_url(game["id"])))
    new_game(player_client, None, replay_of=game["id"])

    check(openapi, GAMES, "get", player_client.get(GAMES_URL, {"page_size": 1}))


def test_a_players_statistics_match_the_schema(openapi, player, player_client, api_client):
    pooled_layout_deal(NEAR_WIN)
    game = new_game(player_client, 1)
    ok(act(player_client, game["id"], "move", from_=1, to=0))

    check(openapi, PLAYER, "get", api_client.get(player_url(player.username)))
    check(openapi, ME, "get", player_client.get(ME_URL))


# -- error bodies -----------------------------------------------------------------------------
def test_error_answers_match_the_schema(openapi, staff_client, api_client, set_throttle_rate):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    gid = game["id"]
    check(openapi, ACTIONS, "post", act(staff_client, gid, "move", from_="1"))  # 400
    check(openapi, ACTIONS, "post", act(staff_client, gid, "move", from_=11))  # 422 bad_column
    check(openapi, ACTIONS, "post", act(api_client, gid, "deal"))  # 401
    check(openapi, ACTIONS, "post", act(staff_client, gid, "undo", version=3))  # 409
    check(openapi, ACTIONS, "post", act(staff_client, gid, "undo"))  # 422
    check(openapi, GAME, "get", api_client.get(game_url(gid)))  # 404
    check(openapi, GAMES, "post", staff_client.post(GAMES_URL, {}, format="json"))  # 400
    check(openapi, PLAYER, "get", api_client.get(player_url("nobody")))  # 404
    set_throttle_rate("actions", "1/min")
    ok(act(staff_client, gid, "move", from_=1, to=2))
    check(openapi, ACTIONS, "post", act(staff_client, gid, "undo"))  # 429


def test_an_empty_pool_answer_is_documented(openapi, player_client):
    check(openapi, GAMES, "post", player_client.post(GAMES_URL, {"suits": 1}, format="json"))


def test_a_reused_key_on_game_creation_is_documented(openapi, staff_client):
    staff_client.post(GAMES_URL, {"suits": 1, "seed": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    response = staff_client.post(
        GAMES_URL, {"suits": 1, "seed": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )

    assert response.json()["code"] == "idempotency_key_reused"
    check(openapi, GAMES, "post", response)


def test_a_throttled_resignation_is_documented(openapi, staff_client, set_throttle_rate):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    set_throttle_rate("actions", "1/min")
    ok(act(staff_client, game["id"], "move", from_=1, to=2))

    response = staff_client.post(resign_url(game["id"]))

    assert response.status_code == 429
    check(openapi, RESIGN, "post", response)
