"""Simultaneous requests, on PostgreSQL, from real threads (each its own client and its own
database connection), lined up with a barrier so they really arrive together."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import DEAL, Board, Layout, dump, replay
from games.models import Deal, Game, IdempotentRequest, PlayerStats
from games.services import games_expire_idle
from tests.conftest import token_of
from tests.games.api.helpers import (
    GAMES_URL,
    act,
    board_of,
    layout_json,
    log_rows,
    new_game,
    ok,
    public_columns,
    resign_url,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RANKS = "A23456789TJQK"
# Ten one-card columns and eight deals of spades: no column can ever complete a run, and no
# column is ever empty, so every deal is legal until the stock runs out.
DEALS_LAYOUT = layout_json(
    [f"|{RANKS[i % 13]}s" for i in range(10)],
    stock="".join(f"{RANKS[(i * 5 + 3) % 13]}s" for i in range(80)),
)


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
    client.raise_request_exception = False  # a crash is a 500 to assert on, not a thread error
    return client


def together(n: int, call: Callable[[int], Any]) -> list[Any]:
    """Run ``call(i)`` in n threads released at once; returns their results in order."""
    barrier = threading.Barrier(n, timeout=30)
    results: list[Any] = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = call(i)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a request hung"
    assert not errors, errors
    return results


def answer(response) -> tuple[int, dict[str, Any], str | None]:
    return response.status_code, response.json(), response.headers.get("Idempotent-Replayed")


def check_log(game_id: str, version: int) -> None:
    """The row, its log and its snapshot agree: seq 1..version, and replaying the log from
    the deal gives the stored snapshot."""
    game = Game.objects.select_related("deal").get(pk=game_id)
    rows = log_rows(game_id)
    assert game.version == version
    assert [r.seq for r in rows] == list(range(1, version + 1))
    replayed = replay(game.deal.layout(), [r.engine_action() for r in rows])
    assert dump(replayed) == game.snapshot


def test_two_actions_at_the_same_version_apply_once(staff):
    game = new_game(client_for(staff), 1, layout=DEALS_LAYOUT)
    clients = [client_for(staff) for _ in range(2)]

    for version in range(3):
        results = together(
            2, lambda i, v=version: answer(act(clients[i], game["id"], "deal", version=v))
        )

        statuses = sorted(status for status, _, _ in results)
        assert statuses == [200, 409]
        (applied,) = [body for status, body, _ in results if status == 200]
        (conflict,) = [body for status, body, _ in results if status == 409]
        assert applied["version"] == version + 1
        assert conflict["code"] == "version_conflict"
        assert conflict["game"]["version"] == version + 1
        assert conflict["game"]["columns"] == applied["columns"]
        check_log(game["id"], version + 1)


def test_actions_without_version_all_apply_one_after_the_other(staff):
    gid = new_game(client_for(staff), 1, layout=DEALS_LAYOUT)["id"]
    setup = client_for(staff)
    for _ in range(4):
        ok(act(setup, gid, "deal"))
    clients = [client_for(staff) for _ in range(8)]
    kinds = ["deal", "undo"] * 4  # legal in every order: an undo always finds a deal to undo

    results = together(8, lambda i: answer(act(clients[i], gid, kinds[i])))

    assert [status for status, _, _ in results] == [200] * 8, results
    assert sorted(body["version"] for _, body, _ in results) == list(range(5, 13))
    check_log(gid, 12)
    game = Game.objects.get(pk=gid)
    assert (game.actions, game.undos) == (12, 4)
    # Each undo took back a deal: four deals stand, whatever the order was.
    expected = Board(Layout.from_json(1, DEALS_LAYOUT))
    for _ in range(4):
        expected.play(DEAL)
    assert public_columns(board_of(gid)) == public_columns(expected)
    assert board_of(gid).deals_left == 4
    assert Counter(r.kind for r in log_rows(gid)) == {"deal": 8, "undo": 4}


def test_one_idempotency_key_from_many_threads_applies_once(stock_pool, player):
    stock_pool(1, 1)
    gid = new_game(client_for(player), 1)["id"]
    clients = [client_for(player) for _ in range(16)]

    results = together(16, lambda i: answer(act(clients[i], gid, "deal", key="the-one")))

    assert {status for status, _, _ in results} == {200}
    bodies = {json.dumps(body, sort_keys=True) for _, body, _ in results}
    assert len(bodies) == 1
    assert sorted(str(replayed) for _, _, replayed in results) == ["None"] + ["true"] * 15
    check_log(gid, 1)
    assert IdempotentRequest.objects.filter(key="the-one").count() == 1


def test_two_game_creations_at_once_leave_one_casual_game(stock_pool, player):
    stock_pool(1, 3)
    first = client_for(player)
    old = new_game(first, 1)
    ok(act(first, old["id"], "deal"))
    clients = [client_for(player) for _ in range(2)]

    results = together(2, lambda i: answer(clients[i].post(GAMES_URL, {"suits": 1}, format="json")))

    assert [status for status, _, _ in results] == [201, 201], results
    running = list(Game.objects.filter(player=player, status="in_progress"))
    assert len(running) == 1
    assert str(running[0].id) in {body["id"] for _, body, _ in results}
    # The played game was abandoned once; the unplayed one in between was discarded.
    assert Game.objects.filter(player=player).count() == 2
    assert Game.objects.get(pk=old["id"]).end_reason == "abandoned"
    assert PlayerStats.objects.get(player=player, suits=1).played == 1
    assert not Deal.objects.filter(state=Deal.State.POOLED).exists()


@pytest.mark.parametrize(("players", "pooled"), [(2, 1), (8, 4)])
def test_players_racing_for_the_pool_never_share_a_deal(
    stock_pool, make_user, settings, players, pooled
):
    settings.POOL_SYNC_VET_SECONDS = 0
    deals = stock_pool(1, pooled)
    clients = [client_for(make_user()) for _ in range(players)]

    results = together(
        players, lambda i: answer(clients[i].post(GAMES_URL, {"suits": 1}, format="json"))
    )

    statuses = Counter(status for status, _, _ in results)
    assert statuses == {201: pooled, 503: players - pooled}
    assert all(body["code"] == "pool_empty" for status, body, _ in results if status == 503)
    dealt = [
        Game.objects.get(pk=body["id"]).deal_id for status, body, _ in results if status == 201
    ]
    assert sorted(dealt) == sorted(d.pk for d in deals)  # each deal exactly once
    assert set(Deal.objects.values_list("state", flat=True)) == {Deal.State.DEALT}


def test_two_resignations_at_once_end_the_game_once(stock_pool, player):
    stock_pool(1, 1)
    gid = new_game(client_for(player), 1)["id"]
    clients = [client_for(player) for _ in range(2)]

    results = together(2, lambda i: answer(clients[i].post(resign_url(gid))))

    assert sorted(status for status, _, _ in results) == [200, 422]
    assert {body.get("code") for status, body, _ in results if status == 422} == {"game_over"}
    assert PlayerStats.objects.get(player=player, suits=1).played == 1


def test_an_action_racing_a_new_game_is_either_in_the_game_or_refused(stock_pool, player):
    stock_pool(1, 2)
    gid = new_game(client_for(player), 1)["id"]
    ok(act(client_for(player), gid, "deal"))
    clients = [client_for(player) for _ in range(2)]
    calls = [
        lambda: answer(act(clients[0], gid, "deal")),
        lambda: answer(clients[1].post(GAMES_URL, {"suits": 1}, format="json")),
    ]

    (acted, created) = together(2, lambda i: calls[i]())

    assert created[0] == 201
    assert (acted[0], acted[1].get("code")) in ((200, None), (422, "game_over"))
    game = Game.objects.get(pk=gid)
    assert (game.status, game.end_reason) == ("lost", "abandoned")
    check_log(gid, 2 if acted[0] == 200 else 1)
    assert PlayerStats.objects.get(player=player, suits=1).played == 1


def test_expiry_racing_an_action_never_half_applies(stock_pool, player):
    stock_pool(1, 1)
    gid = new_game(client_for(player), 1)["id"]
    ok(act(client_for(player), gid, "deal"))
    long_ago = timezone.now() - timedelta(hours=3)
    Game.objects.filter(pk=gid).update(created_at=long_ago, last_action_at=long_ago)
    client = client_for(player)
    calls = [
        lambda: games_expire_idle(idle=timedelta(hours=1)),
        lambda: answer(act(client, gid, "deal")),
    ]

    (expired, acted) = together(2, lambda i: calls[i]())

    game = Game.objects.get(pk=gid)
    if expired:
        assert (game.status, game.end_reason) == ("lost", "expired")
        assert (acted[0], acted[1]["code"]) == (422, "game_over")
        check_log(gid, 1)
    else:
        assert game.status == "in_progress"
        assert acted[0] == 200
        check_log(gid, 2)
