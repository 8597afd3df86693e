"""GET /api/v1/players/{username}/games: a player's finished games, public, a page at a time;
never a game in play, a daily game before its day closes, or a race's game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from tests.games.api.helpers import act, new_game, ok, refused, resign_url

pytestmark = pytest.mark.django_db


def games_url(username: str) -> str:
    return f"/api/v1/players/{username}/games"


def finished_game(client, suits: int = 1) -> dict:
    game = new_game(client, suits)
    ok(act(client, game["id"], "deal"))
    return ok(client.post(resign_url(game["id"])))


def test_finished_games_are_listed_newest_first_to_anyone(
    stock_pool, api_client, other_client, player, player_client
):
    stock_pool(1, 3)
    first = finished_game(player_client)
    second = finished_game(player_client)
    running = new_game(player_client, 1)  # in play: never listed

    for client in (api_client, other_client, player_client):
        body = ok(client.get(games_url(player.username)))
        assert [g["id"] for g in body["results"]] == [second["id"], first["id"]]
        assert body["has_next"] is False
    row = body["results"][0]
    assert row["status"] == "lost" and row["end_reason"] == "resigned"
    assert set(row) == {
        "id",
        "suits",
        "kind",
        "status",
        "end_reason",
        "score",
        "actions",
        "runs_removed",
        "perfect",
        "created_at",
        "finished_at",
        "elapsed_ms",
        "deal_over_gap",
    }  # a summary: no card, no seed
    assert running["id"] not in {g["id"] for g in body["results"]}
    # Each listed game opens as a replay for anyone.
    assert (
        ok(api_client.get(f"/api/v1/games/{first['id']}/positions/0"))["steps"] == 1
    )  # the deal (resigning is no log entry)


def test_the_list_is_paged(stock_pool, api_client, player, player_client):
    stock_pool(1, 3)
    made = [finished_game(player_client)["id"] for _ in range(3)]

    page1 = ok(api_client.get(games_url(player.username), {"page_size": 2}))
    page2 = ok(api_client.get(games_url(player.username), {"page_size": 2, "page": 2}))

    assert [g["id"] for g in page1["results"]] == made[::-1][:2]
    assert page1["has_next"] is True
    assert [g["id"] for g in page2["results"]] == made[:1]
    assert page2["has_next"] is False


def test_a_daily_game_shows_once_its_day_closed_and_a_race_game_never(
    stock_pool, api_client, player, player_client
):
    stock_pool(1, 3)
    today = timezone.now().date()
    open_day = finished_game(player_client)["id"]
    closed_day = finished_game(player_client)["id"]
    race = finished_game(player_client)["id"]
    Game.objects.filter(pk=open_day).update(kind=Game.Kind.DAILY, daily_date=today)
    Game.objects.filter(pk=closed_day).update(
        kind=Game.Kind.DAILY, daily_date=today - timedelta(days=1)
    )
    Game.objects.filter(pk=race).update(kind=Game.Kind.RACE)

    body = ok(api_client.get(games_url(player.username)))

    assert [g["id"] for g in body["results"]] == [closed_day]


def test_a_player_with_no_finished_game_has_an_empty_list(api_client, player):
    assert ok(api_client.get(games_url(player.username)))["results"] == []


def test_an_unknown_player_is_404_and_a_bad_page_400(api_client, player):
    refused(api_client.get(games_url("nobody")), 404, "not_found")
    refused(api_client.get(games_url(player.username), {"page": "0"}), 400, "invalid")
