"""GET /games/{id}/positions/{n}: the position after n log entries of a finished game, for
replays. Never for a game that runs (it would show what its log leads to before the end), and
never a face-down card: the same public view the player had at that step."""

from __future__ import annotations

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from games.engine import Action, Board, deal_layout, public_view
from tests.games.api.helpers import (
    CARD_TOKEN,
    act,
    game_url,
    new_game,
    ok,
    refused,
    resign_url,
)
from tests.games.api.test_schema_conformance import check
from tests.leaderboard.helpers import line_of, play_api

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    """The OpenAPI document as JSON, as the schema conformance tests read it."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


def position_url(game_id: str, step: int) -> str:
    return f"{game_url(game_id)}/positions/{step}"


def test_every_step_of_a_won_game_is_the_public_view_of_its_replay(
    api_client, player_client, stock_pool
):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    line = line_of(game_id)
    # An undo and a hint in the log too, so every kind of entry is stepped through.
    first = line[0]
    ok(act(player_client, game_id, "move", from_=first["from"], to=first["to"]))
    ok(act(player_client, game_id, "undo"))
    ok(player_client.post(f"{game_url(game_id)}/hint", {}, format="json"))
    play_api(player_client, game_id, line)
    state = api_client.get(game_url(game_id)).json()
    log = api_client.get(f"{game_url(game_id)}/actions").json()["actions"]
    assert state["status"] == "won"

    board = Board(deal_layout(1, int(state["deal"]["seed"])))
    for step in range(len(log) + 1):
        if step:
            entry = log[step - 1]
            action = Action(entry["type"], entry.get("from"), entry.get("to"), entry.get("count"))
            if action.kind == "undo":
                board.undo()
            elif action.kind == "hint":
                board.note_hint()
            else:
                board.play(action.as_move)
        body = ok(api_client.get(position_url(game_id, step)))  # no token: the game is public
        view = public_view(board)
        assert body["step"] == step and body["steps"] == len(log)
        assert body["action"] == (log[step - 1] if step else None)
        assert body["columns"] == view["columns"]
        assert (body["score"], body["deals_left"], body["runs_removed"]) == (
            view["score"],
            view["deals_left"],
            view["runs_removed"],
        )
    assert body["won"] is True and body["score"] == state["score"]


def test_a_step_past_the_log_is_404(api_client, player_client, stock_pool):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    ok(player_client.post(resign_url(game_id)))

    assert ok(api_client.get(position_url(game_id, 0)))["steps"] == 0
    refused(api_client.get(position_url(game_id, 1)), 404, "no_such_step")


def test_a_running_game_serves_no_position_to_anyone(
    api_client, player_client, other_client, stock_pool
):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    play_api(player_client, game_id, line_of(game_id)[:3])

    # Its owner: refused with a reason; others: as if it did not exist.
    for step in (0, 1, 3):
        body = refused(player_client.get(position_url(game_id, step)), 409, "game_in_progress")
        assert not CARD_TOKEN.search(body["detail"])
        refused(api_client.get(position_url(game_id, step)), 404, "not_found")
        refused(other_client.get(position_url(game_id, step)), 404, "not_found")


def test_a_position_shows_no_face_down_card(api_client, player_client, stock_pool):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    ok(player_client.post(resign_url(game_id)))

    body = ok(api_client.get(position_url(game_id, 0)))
    face_up = sum(len(c["cards"]) for c in body["columns"])
    assert face_up == 10 and sum(c["hidden"] for c in body["columns"]) == 44
    # The only card tokens are the face-up ones.
    text = str({k: v for k, v in body.items() if k != "columns"})
    assert not CARD_TOKEN.search(text)


def test_positions_and_their_errors_match_the_schema(schema, api_client, player_client, stock_pool):
    stock_pool(1, 1)
    game_id = new_game(player_client, 1)["id"]
    path = "/api/v1/games/{game_id}/positions/{step}"
    ok(act(player_client, game_id, "deal"))
    check(schema, path, "get", player_client.get(position_url(game_id, 0)))  # 409: running
    ok(player_client.post(resign_url(game_id)))

    check(schema, path, "get", api_client.get(position_url(game_id, 0)))
    check(schema, path, "get", api_client.get(position_url(game_id, 1)))  # the deal
    check(schema, path, "get", api_client.get(position_url(game_id, 9)))  # 404
