"""A ranked win's places (GET /leaderboard/games/{id}) and a player's best places
(GET /players/{username}/places): the same order as the boards themselves."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from tests.games.api.test_schema_conformance import check
from tests.leaderboard.helpers import BOARD, GAMES, entry, win_api

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    """The OpenAPI document as JSON, as the schema conformance tests read it."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


API = "/api/v1"


def places_of(client, game_id):
    return client.get(f"{API}/leaderboard/games/{game_id}")


def test_a_wins_place_is_its_row_on_each_board(api_client, make_user):
    alice, bob = make_user(), make_user()
    now = timezone.now()
    long_ago = now - timedelta(days=60)
    entry(bob, suits=2, score=1200, finished_at=long_ago)  # ahead all time, not this month
    entry(bob, suits=2, score=1100, elapsed_ms=50_000, finished_at=now)  # same score, faster
    mine = entry(alice, suits=2, score=1100, elapsed_ms=60_000, finished_at=now)
    entry(bob, suits=2, score=1000, finished_at=now)  # behind
    entry(bob, suits=4, score=1300, finished_at=now)  # another mode

    body = places_of(api_client, mine.game_id).json()

    assert body["places"] == {"all": 3, "day": 2, "week": 2, "month": 2}
    assert (body["player"], body["suits"], body["score"], body["daily"]) == (
        alice.username,
        2,
        1100,
        None,
    )
    rows = api_client.get(BOARD, {"suits": 2}).json()["results"]
    assert [r["rank"] for r in rows if r["game"] == str(mine.game_id)] == [3]


def test_a_win_before_the_period_has_no_place_in_it(api_client, make_user):
    old = entry(make_user(), suits=1, finished_at=timezone.now() - timedelta(days=40))

    body = places_of(api_client, old.game_id).json()

    assert body["places"] == {"all": 1, "day": None, "week": None, "month": None}


def test_a_daily_win_has_its_place_on_the_days_board(api_client, make_user):
    today = timezone.now().date()
    entry(make_user(), suits=2, score=1250, daily_date=today)
    mine = entry(make_user(), suits=2, score=1240, daily_date=today)

    assert places_of(api_client, mine.game_id).json()["daily"] == {
        "date": today.isoformat(),
        "rank": 2,
    }


def test_a_game_not_on_a_board_is_404(api_client, auth_client, user, stock_pool):
    stock_pool(1, 1)
    game_id = auth_client(user).post(GAMES, {"suits": 1}, format="json").json()["id"]

    response = places_of(api_client, game_id)

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_real_win_reports_its_place(api_client, auth_client, user, stock_pool):
    stock_pool(1, 1)
    client = auth_client(user)
    game_id = client.post(GAMES, {"suits": 1}, format="json").json()["id"]
    win_api(client, game_id)

    assert places_of(api_client, game_id).json()["places"]["all"] == 1


def test_a_players_best_places(api_client, make_user):
    alice, bob = make_user(), make_user()
    today = timezone.now().date()
    entry(bob, suits=1, score=1290)
    best = entry(alice, suits=1, score=1280)
    entry(alice, suits=1, score=900)
    entry(bob, suits=2, score=1250, daily_date=today)
    daily = entry(alice, suits=2, score=1200, daily_date=today)

    body = api_client.get(f"{API}/players/{alice.username.upper()}/places").json()

    assert body["username"] == alice.username
    assert body["modes"] == [
        {"suits": 1, "rank": 2, "game": str(best.game_id), "score": 1280},
        {"suits": 2, "rank": 2, "game": str(daily.game_id), "score": 1200},
        {"suits": 4, "rank": None, "game": None, "score": None},
    ]
    assert body["daily"] == {"date": today.isoformat(), "rank": 2, "game": str(daily.game_id)}


def test_an_unknown_player_has_no_places(api_client):
    response = api_client.get(f"{API}/players/nobody/places")

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_places_match_the_schema(schema, api_client, make_user):
    alice = make_user()
    today = timezone.now().date()
    mine = entry(alice, suits=2, daily_date=today)
    old = entry(alice, suits=1, finished_at=timezone.now() - timedelta(days=40))

    for game_id in (mine.game_id, old.game_id, "3227b444-0b5c-4b63-9b9f-2f3c9e1d2a10"):
        check(schema, "/api/v1/leaderboard/games/{game_id}", "get", places_of(api_client, game_id))
    for name in (alice.username, "nobody"):
        response = api_client.get(f"{API}/players/{name}/places")
        check(schema, "/api/v1/players/{username}/places", "get", response)
