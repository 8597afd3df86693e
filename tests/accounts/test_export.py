"""GET /me/export: the player's whole data as NDJSON, streamed, matching the database, and
showing nothing of a game in progress that GET /games/{id} would not."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

from coins.models import CoinEntry
from games.models import Action, Game
from leaderboard.models import LeaderboardEntry
from races.models import Racer
from tests.conftest import token_of
from tests.games.api.helpers import act, new_game, ok, refused

EXPORT = "/api/v1/me/export"


def lines_of(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200
    assert response.streaming  # never read whole into one answer
    body = b"".join(response.streaming_content)
    assert body.endswith(b"\n")
    return [json.loads(line) for line in body.decode().splitlines()]  # each line valid JSON


@pytest.mark.django_db
def test_the_export_is_an_ndjson_attachment_matching_the_database(history):
    response = history.client.get(EXPORT)

    assert response["Content-Type"] == "application/x-ndjson"
    assert response["Content-Disposition"].startswith('attachment; filename="spider-alice-')
    assert response["Cache-Control"] == "no-store"
    lines = lines_of(response)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        by_type.setdefault(line["type"], []).append(line)
    assert [line["type"] for line in lines[:2]] == ["export", "profile"]
    assert set(by_type) == {"export", "profile", "game", "coins", "leaderboard", "race"}

    profile = by_type["profile"][0]
    assert profile["username"] == "alice" and profile["is_guest"] is False
    assert profile["coins"]["balance"] == sum(
        e.amount for e in CoinEntry.objects.filter(player=history.player)
    )

    player = history.player
    games = Game.objects.filter(player=player).order_by("created_at", "id")
    assert [g["id"] for g in by_type["game"]] == [str(g.id) for g in games]
    assert len(games) == 4  # daily, casual win, race, in progress
    for line, game in zip(by_type["game"], games, strict=True):
        log = list(Action.objects.filter(game=game).order_by("seq"))
        assert [(a["seq"], a["type"]) for a in line["log"]] == [(a.seq, a.kind) for a in log]
        assert [a.get("from") for a in line["log"]] == [
            a.src if a.kind == "move" else None for a in log
        ]
        assert (line["status"], line["score"], line["version"]) == (
            game.status,
            game.score,
            game.version,
        )
        assert "snapshot" not in line

    coins = CoinEntry.objects.filter(player=player).order_by("id")
    assert [(c["game"], c["amount"]) for c in by_type["coins"]] == [
        (str(c.game_id), c.amount) for c in coins
    ]
    assert {c["kind"] for c in by_type["coins"]} == {"daily", "casual", "race"}

    entries = LeaderboardEntry.objects.filter(player=player).order_by("id")
    assert [e["game"] for e in by_type["leaderboard"]] == [str(e.game_id) for e in entries]
    daily = next(e for e in by_type["leaderboard"] if e["game"] == history.daily_game)
    assert daily["daily"]["rank"] == 1

    (race,) = by_type["race"]
    racer = Racer.objects.get(player=player)
    assert (race["table"], race["game"], race["state"], race["result"]) == (
        history.race_code,
        str(racer.game_id),
        "won",
        "won",
    )
    assert {r["player"] for r in race["racers"]} == {"alice", "bob"}


@pytest.mark.django_db
def test_a_game_in_progress_shows_no_face_down_card_nor_seed(history):
    lines = lines_of(history.client.get(EXPORT))
    running = next(g for g in lines if g["type"] == "game" and g["id"] == history.in_progress)
    state = history.client.get(f"/api/v1/games/{history.in_progress}").json()

    assert running["status"] == "in_progress" and running["deal"] is None
    assert running["columns"] == state["columns"]  # the face-up cards and the counts only
    assert any(c["hidden"] for c in running["columns"])  # there are face-down cards to keep
    shown = {k: v for k, v in running.items() if k not in ("type", "log", "elapsed_ms")}
    assert shown == {k: v for k, v in state.items() if k != "elapsed_ms"}  # nothing more

    def keys(value: Any) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert not keys(running) & {"seed", "snapshot", "stock", "layout", "down", "nonce"}
    # The daily game is won, but its deal stays secret until the day closes.
    daily = next(g for g in lines if g["type"] == "game" and g["id"] == history.daily_game)
    assert daily["status"] == "won" and daily["deal"] is None


@pytest.mark.django_db
def test_the_settings_are_exported_once_changed(user, auth_client):
    from preferences.models import PlayerSettings

    client = auth_client(user)
    assert not [line for line in lines_of(client.get(EXPORT)) if line["type"] == "settings"]
    PlayerSettings.objects.create(player=user, four_colours=True, look="classic")
    (line,) = [line for line in lines_of(client.get(EXPORT)) if line["type"] == "settings"]
    assert (line["four_colours"], line["look"], line["one_tap"]) == (True, "classic", True)


@pytest.mark.django_db
def test_the_export_holds_nobody_elses_games(history):
    lines = lines_of(history.rival_client.get(EXPORT))
    ids = {g["id"] for g in lines if g["type"] == "game"}
    assert ids == {str(g.id) for g in Game.objects.filter(player=history.rival)}
    assert history.casual_win not in ids


@pytest.mark.django_db
def test_many_games_are_read_in_pages_and_all_exported(
    make_user, auth_client, stock_pool, monkeypatch
):
    from accounts import export

    monkeypatch.setattr(export, "GAMES_CHUNK", 2)  # pages of two: the keyset must not skip
    monkeypatch.setattr(export, "BYTES_CHUNK", 200)  # and the download comes in many writes
    user = make_user()
    client = auth_client(user)
    for _ in range(5):
        stock_pool(1, 1)
        ok(act(client, new_game(client, 1)["id"], "deal"))  # the next game ends this one
    assert Game.objects.filter(player=user).count() == 5
    response = client.get(EXPORT)
    chunks = list(response.streaming_content)
    assert len(chunks) > 1
    lines = [json.loads(line) for line in b"".join(chunks).decode().splitlines()]
    games = [g["id"] for g in lines if g["type"] == "game"]
    assert games == [
        str(g.id) for g in Game.objects.filter(player=user).order_by("created_at", "id")
    ]


@pytest.mark.django_db
def test_the_export_is_throttled_in_its_own_scope(user, auth_client, set_throttle_rate):
    set_throttle_rate("export", "1/hour")
    client = auth_client(user)
    assert client.get(EXPORT).status_code == 200
    body = refused(client.get(EXPORT), 429, "throttled")
    assert body["retry_after"] > 0


@pytest.mark.django_db
def test_the_export_needs_a_token(api_client):
    refused(api_client.get(EXPORT), 401, "not_authenticated")


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_export_streams_from_an_async_iterator(make_user):
    # Django reads a sync iterator whole before an ASGI server sends it: under ASGI (make
    # run's uvicorn) the view hands over an async one instead, read a chunk at a time.
    user = make_user()
    token = token_of(user)

    async def download() -> tuple[Any, bytes]:
        response: Any = await AsyncClient().get(
            EXPORT, headers={"Authorization": f"Bearer {token}"}
        )
        body = b"".join([chunk async for chunk in response.streaming_content])
        # The test client keeps the view thread's connection open (Django's test handlers
        # do); it is the one thread-sensitive thread outside a request context: close it.
        await sync_to_async(connections.close_all)()
        return response, body

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # a thread with no running loop
        response, body = pool.submit(asyncio.run, download()).result()
    assert response.status_code == 200 and response.is_async
    lines = [json.loads(line) for line in body.decode().splitlines()]
    assert [line["type"] for line in lines] == ["export", "profile"]
    assert lines[1]["username"] == user.username


@pytest.mark.django_db
def test_a_client_that_knows_no_ndjson_may_ask_for_plain_bytes(user, auth_client):
    client = auth_client(user)
    ndjson = client.get(EXPORT, HTTP_ACCEPT="application/x-ndjson")
    octets = client.get(EXPORT, HTTP_ACCEPT="application/octet-stream")
    assert ndjson["Content-Type"] == "application/x-ndjson"
    assert octets["Content-Type"] == "application/octet-stream"
    first = [json.loads(line)["type"] for line in b"".join(octets.streaming_content).splitlines()]
    assert first == ["export", "profile"]
