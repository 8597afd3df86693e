"""Reading games: one game, the caller's list, the action log, who may read what, and the
server-measured clock."""

import pytest

from games.models import Game
from tests.games.api.helpers import (
    GAMES_URL,
    NEAR_WIN,
    act,
    actions_url,
    game_url,
    layout_json,
    new_game,
    ok,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db

UNKNOWN = "7b1bf82d-5478-45f8-8c84-a942b4e150af"


# -- one game ---------------------------------------------------------------------------------
def test_your_running_game_reads_as_it_was_answered(stock_pool, player_client):
    stock_pool(1, 1)
    created = new_game(player_client, 1)
    acted = ok(act(player_client, created["id"], "deal"))

    body = ok(player_client.get(game_url(created["id"])))

    acted.pop("outcome")
    assert acted.pop("coins") is None  # only the winning action's answer carries coins
    acted.pop("elapsed_ms")
    assert body.pop("elapsed_ms") >= 0
    assert body == acted


def test_someone_elses_running_game_is_404_like_an_unknown_one(
    stock_pool, player_client, other_client, api_client
):
    stock_pool(1, 1)
    theirs = new_game(other_client, 1)

    for client in (player_client, api_client):
        refused(client.get(game_url(theirs["id"])), 404, "not_found")
        refused(client.get(actions_url(theirs["id"])), 404, "not_found")
        refused(client.get(game_url(UNKNOWN)), 404, "not_found")
        refused(client.get(actions_url(UNKNOWN)), 404, "not_found")


def test_a_path_that_is_not_a_game_id_is_a_json_404(player_client):
    refused(player_client.get(f"{GAMES_URL}/12345"), 404, "not_found")


def test_a_finished_game_and_its_log_are_public_with_the_seed(
    stock_pool, player_client, other_client, api_client
):
    (deal,) = stock_pool(1, 1)
    game = new_game(player_client, 1)
    ok(act(player_client, game["id"], "deal"))
    over = ok(player_client.post(resign_url(game["id"])))

    for client in (other_client, api_client):
        body = ok(client.get(game_url(game["id"])))
        assert body == over
        assert body["deal"] == {
            "suits": 1,
            "seed": str(deal.seed),
            "deal_version": deal.deal_version,
            "vetted": True,
            "layout": None,
        }
        log = ok(client.get(actions_url(game["id"])))
        assert log["game"] == game["id"]
        assert log["deal"] == body["deal"]
        assert [(e["seq"], e["type"]) for e in log["actions"]] == [(1, "deal")]


def test_your_running_games_log_is_yours_without_the_deal(stock_pool, player_client):
    stock_pool(1, 1)
    game = new_game(player_client, 1)
    ok(act(player_client, game["id"], "deal"))

    log = ok(player_client.get(actions_url(game["id"])))

    assert log["deal"] is None
    assert len(log["actions"]) == 1


def test_the_log_holds_every_action_resolved_in_order(staff_client):
    # Column 0: 5s; column 1: 6s; column 2: 7h; column 3: empty.
    columns = ["Ts|5s", "|6s", "|7h", "|", "|Ks", "|Qs", "|Qs", "|Qs", "|Qs", "|Js"]
    layout = layout_json(columns, stock="9s" * 4 + "9h" * 4 + "Jh" * 2)
    game = new_game(staff_client, 2, layout=layout)
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=0))  # one-tap: 5s onto 6s (column 1)
    ok(act(staff_client, gid, "move", from_=1, to=2))  # count omitted: 6s5s onto 7h
    ok(act(staff_client, gid, "undo"))
    ok(act(staff_client, gid, "move", from_=2, to=3, count=1))  # the 7h into the empty column
    refused(act(staff_client, gid, "deal"), 422, "empty_column_blocks_deal")  # not logged

    log = ok(staff_client.get(actions_url(gid)))

    entries = log["actions"]
    assert [{k: v for k, v in e.items() if k != "at"} for e in entries] == [
        {"seq": 1, "type": "move", "from": 0, "to": 1, "count": 1},
        {"seq": 2, "type": "move", "from": 1, "to": 2, "count": 2},
        {"seq": 3, "type": "undo"},
        {"seq": 4, "type": "move", "from": 2, "to": 3, "count": 1},
    ]
    stamps = [e["at"] for e in entries]
    assert all(s.endswith("Z") for s in stamps)
    assert stamps == sorted(stamps)


# -- the list ---------------------------------------------------------------------------------
def _finished_games(client, n):
    """One pooled game, then n-1 replays of it, each resigned: n finished games."""
    first = new_game(client, 1)
    ok(client.post(resign_url(first["id"])))
    ids = [first["id"]]
    for _ in range(n - 1):
        body = ok(client.post(GAMES_URL, {"replay_of": first["id"]}, format="json"), 201)
        ok(client.post(resign_url(body["id"])))
        ids.append(body["id"])
    return ids


def test_the_list_holds_only_your_games_newest_first(stock_pool, player_client, other_client):
    stock_pool(1, 3)
    theirs = new_game(other_client, 1)
    finished = _finished_games(player_client, 3)
    running = new_game(player_client, 1)

    body = ok(player_client.get(GAMES_URL))

    assert (body["page"], body["page_size"], body["has_next"]) == (1, 20, False)
    assert [g["id"] for g in body["results"]] == [running["id"], *reversed(finished)]
    assert theirs["id"] not in {g["id"] for g in body["results"]}
    summary = body["results"][0]
    assert summary == {
        "id": running["id"],
        "suits": 1,
        "kind": "casual",
        "status": "in_progress",
        "end_reason": None,
        "score": 500,
        "actions": 0,
        "runs_removed": 0,
        "perfect": False,
        "created_at": running["created_at"],
        "finished_at": None,
        "elapsed_ms": 0,
        "deal_over_gap": False,
    }
    assert "columns" not in body["results"][1]


@pytest.mark.parametrize(
    ("status", "expected"), [("in_progress", 1), ("lost", 2), ("won", 1), (None, 4)]
)
def test_the_list_filters_by_status(stock_pool, staff_client, status, expected):
    stock_pool(1, 2)
    won = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    ok(act(staff_client, won["id"], "move", from_=1, to=0))
    _finished_games(staff_client, 2)
    new_game(staff_client, 1)

    query = {"status": status} if status else {}
    body = ok(staff_client.get(GAMES_URL, query))

    assert len(body["results"]) == expected
    if status:
        assert {g["status"] for g in body["results"]} == {status}


def test_an_unknown_status_filter_is_400(player_client):
    body = refused(player_client.get(GAMES_URL, {"status": "abandoned"}), 400, "invalid")
    assert "status" in body["errors"]


def test_the_list_is_paged_like_every_list(stock_pool, player_client):
    stock_pool(1, 1)
    ids = list(reversed(_finished_games(player_client, 5)))

    page1 = ok(player_client.get(GAMES_URL, {"page_size": 2}))
    page3 = ok(player_client.get(GAMES_URL, {"page_size": 2, "page": 3}))
    page4 = ok(player_client.get(GAMES_URL, {"page_size": 2, "page": 4}))

    assert page1 == {"page": 1, "page_size": 2, "has_next": True, "results": page1["results"]}
    assert [g["id"] for g in page1["results"]] == ids[:2]
    assert [g["id"] for g in page3["results"]] == ids[4:]
    assert page3["has_next"] is False
    assert page4 == {"page": 4, "page_size": 2, "has_next": False, "results": []}


@pytest.mark.parametrize("query", [{"page": "0"}, {"page_size": "101"}, {"page_size": "x"}])
def test_a_page_out_of_range_is_400(player_client, query):
    body = refused(player_client.get(GAMES_URL, query), 400, "invalid")
    assert set(body["errors"]) == set(query)


def test_the_list_needs_a_token(api_client):
    refused(api_client.get(GAMES_URL), 401, "not_authenticated")


# -- the clock --------------------------------------------------------------------------------
def test_the_clock_starts_at_the_first_action_and_stops_at_the_end(
    stock_pool, player_client, clock
):
    stock_pool(1, 1)
    game = new_game(player_client, 1)
    gid = game["id"]
    clock.advance(seconds=30)  # thinking before the first action is free

    assert ok(player_client.get(game_url(gid)))["elapsed_ms"] == 0
    assert ok(player_client.get(game_url(gid)))["started_at"] is None
    first = ok(act(player_client, gid, "deal"))
    assert first["elapsed_ms"] == 0
    assert first["started_at"] == clock.now.isoformat().replace("+00:00", "Z")

    clock.advance(ms=2500)
    assert ok(player_client.get(game_url(gid)))["elapsed_ms"] == 2500
    assert ok(player_client.get(GAMES_URL))["results"][0]["elapsed_ms"] == 2500
    assert ok(act(player_client, gid, "undo"))["elapsed_ms"] == 2500

    clock.advance(seconds=7)
    over = ok(player_client.post(resign_url(gid)))
    assert over["elapsed_ms"] == 9500
    assert over["finished_at"] == clock.now.isoformat().replace("+00:00", "Z")

    clock.advance(seconds=3600)  # a finished game's time no longer runs
    assert ok(player_client.get(game_url(gid)))["elapsed_ms"] == 9500
    assert ok(player_client.get(GAMES_URL))["results"][0]["elapsed_ms"] == 9500
    assert Game.objects.get(pk=gid).elapsed_ms == 9500


def test_a_won_game_keeps_its_time(staff_client, clock):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    clock.advance(seconds=5)
    ok(act(staff_client, game["id"], "move", from_=1, to=2))  # the Ace to an empty column
    clock.advance(ms=1234)

    won = ok(act(staff_client, game["id"], "move", from_=2, to=0))

    assert (won["status"], won["elapsed_ms"]) == ("won", 1234)
    clock.advance(seconds=60)
    assert ok(staff_client.get(game_url(game["id"])))["elapsed_ms"] == 1234


def test_resigning_before_any_action_takes_no_time(stock_pool, player_client, clock):
    stock_pool(1, 1)
    game = new_game(player_client, 1)
    clock.advance(seconds=100)

    over = ok(player_client.post(resign_url(game["id"])))

    assert (over["elapsed_ms"], over["started_at"]) == (0, None)
