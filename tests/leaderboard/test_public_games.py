"""Every leaderboard entry links to its game: once the game is over, its state, log and seed
are public, so anyone can replay it and check the score."""

from __future__ import annotations

from games.engine import Action, deal_layout, replay
from tests.leaderboard.helpers import BOARD, GAMES, line_of, play_api, win_api


def test_a_leaderboard_game_is_public_and_replays_to_its_score(
    api_client, auth_client, user, stock_pool
):
    stock_pool(1, 1)
    client = auth_client(user)
    game_id = client.post(GAMES, {"suits": 1}, format="json").json()["id"]
    win_api(client, game_id)

    row = api_client.get(BOARD, {"suits": 1}).json()["results"][0]
    assert row["game"] == game_id
    state = api_client.get(f"{GAMES}/{row['game']}")  # no token
    log = api_client.get(f"{GAMES}/{row['game']}/actions")

    assert state.status_code == 200 and log.status_code == 200
    deal = state.json()["deal"]
    assert deal["seed"] is not None and deal["suits"] == 1 and deal["vetted"] is True
    assert log.json()["deal"] == deal
    entries = log.json()["actions"]
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert len(entries) == len(line_of(game_id)) == state.json()["actions"]

    board = replay(
        deal_layout(deal["suits"], int(deal["seed"])),
        [Action(e["type"], e.get("from"), e.get("to"), e.get("count")) for e in entries],
    )

    assert board.won
    assert board.score == row["score"] == state.json()["score"]
    assert board.actions == row["actions"]
    assert board.perfect == row["perfect"] == state.json()["perfect"]


def test_a_game_in_progress_is_not_public(api_client, auth_client, user, stock_pool):
    stock_pool(1, 1)
    client = auth_client(user)
    game_id = client.post(GAMES, {"suits": 1}, format="json").json()["id"]
    play_api(client, game_id, line_of(game_id)[:2])

    assert api_client.get(f"{GAMES}/{game_id}").status_code == 404
    assert api_client.get(f"{GAMES}/{game_id}/actions").status_code == 404
    assert client.get(f"{GAMES}/{game_id}").json()["deal"] is None
