"""POST /api/v1/games/{id}/actions (move, deal, undo), resign, and how a game is won."""

import pytest

from games.engine import deal_layout, format_card
from games.models import Action, Game
from tests.games.api.helpers import (
    NEAR_WIN,
    act,
    game_record,
    game_url,
    layout_json,
    log_rows,
    new_game,
    ok,
    refused,
    resign_url,
)

pytestmark = pytest.mark.django_db

# A 2-suit position: 9s on a hidden Ah; Ts, Th, the run 8s7s, 9h; five more columns.
PLAY = ["Ah|9s", "|Ts", "|Th", "|8s7s", "|9h", "|Kh", "|Kh", "|Qh", "|Qh", "|Jh"]
PLAY_STOCK = "2s3s4s5s6s2h3h4h5h6h"


@pytest.fixture
def play_game(staff_client):
    return new_game(staff_client, 2, layout=layout_json(PLAY, stock=PLAY_STOCK))


def test_a_move_applies_and_says_what_happened(staff_client, play_game):
    gid = play_game["id"]

    body = ok(act(staff_client, gid, "move", from_=0, to=1, count=1))

    assert body["outcome"] == {
        "action": {"type": "move", "from": 0, "to": 1, "count": 1},
        "turned": [{"column": 0, "card": "Ah"}],
        "runs_removed": [],
        "runs_restored": [],
        "score_change": -1,
    }
    assert body["columns"][0] == {"hidden": 0, "cards": ["Ah"]}
    assert body["columns"][1] == {"hidden": 0, "cards": ["Ts", "9s"]}
    assert body["columns"][2:] == play_game["columns"][2:]
    assert (body["version"], body["actions"], body["score"]) == (1, 1, 499)
    assert (body["can_undo"], body["status"]) == (True, "in_progress")
    assert body["started_at"] is not None
    (row,) = log_rows(gid)
    assert (row.seq, row.kind, row.src, row.dst, row.count) == (1, "move", 0, 1, 1)
    game = Game.objects.get(pk=gid)
    assert (game.version, game.actions, game.score) == (1, 1, 499)


@pytest.mark.parametrize("to", [{}, {"to": None}], ids=["omitted", "null"])
def test_a_move_without_destination_goes_where_the_server_picks(staff_client, play_game, to):
    # 9s fits on Ts (same suit) and on Th: the same-suit placement wins.
    body = ok(act(staff_client, play_game["id"], "move", from_=0, **to))

    assert body["outcome"]["action"] == {"type": "move", "from": 0, "to": 1, "count": 1}
    assert body["columns"][1]["cards"] == ["Ts", "9s"]


def test_a_move_without_count_moves_the_longest_run_that_fits(staff_client, play_game):
    body = ok(act(staff_client, play_game["id"], "move", from_=3, to=4))

    assert body["outcome"]["action"] == {"type": "move", "from": 3, "to": 4, "count": 2}
    assert body["columns"][3] == {"hidden": 0, "cards": []}
    assert body["columns"][4]["cards"] == ["9h", "8s", "7s"]


def test_a_deal_puts_one_stock_card_on_each_column(stock_pool, player_client):
    (deal,) = stock_pool(1, 1)
    game = new_game(player_client, 1)
    stock = [format_card(c) for c in deal_layout(1, deal.seed).stock]

    body = ok(act(player_client, game["id"], "deal"))

    assert [c["cards"] for c in body["columns"]] == [
        [*before["cards"], card] for before, card in zip(game["columns"], stock[:10], strict=True)
    ]
    assert [c["hidden"] for c in body["columns"]] == [c["hidden"] for c in game["columns"]]
    assert body["deals_left"] == 4
    assert body["outcome"]["action"] == {"type": "deal"}
    assert body["outcome"]["score_change"] == -1


def test_undo_takes_the_move_back_but_not_the_turned_card(staff_client, play_game):
    gid = play_game["id"]
    ok(act(staff_client, gid, "move", from_=0, to=1, count=1))

    body = ok(act(staff_client, gid, "undo"))

    assert body["outcome"] == {
        "action": {"type": "undo"},
        "turned": [],
        "runs_removed": [],
        "runs_restored": [],
        "score_change": -1,
    }
    # The Ah stays face up: undo is for mistakes, not for peeking.
    assert body["columns"][0] == {"hidden": 0, "cards": ["Ah", "9s"]}
    assert body["columns"][1:] == play_game["columns"][1:]
    assert (body["version"], body["actions"], body["undos"], body["score"]) == (2, 2, 1, 498)
    assert body["can_undo"] is False
    refused(act(staff_client, gid, "undo"), 422, "nothing_to_undo")


def test_undo_of_a_deal_returns_its_cards_to_the_stock(staff_client, play_game):
    gid = play_game["id"]
    dealt = ok(act(staff_client, gid, "deal"))
    assert dealt["deals_left"] == 0

    body = ok(act(staff_client, gid, "undo"))

    assert body["deals_left"] == 1
    assert body["columns"] == play_game["columns"]
    again = ok(act(staff_client, gid, "deal"))
    assert again["columns"] == dealt["columns"]  # the same ten cards, in the same order


def test_completing_a_run_removes_it_and_undo_puts_it_back(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(["5s" + NEAR_WIN[0], "|As", "|Ks"]))
    gid = game["id"]

    done = ok(act(staff_client, gid, "move", from_=1, to=0))

    assert done["outcome"] == {
        "action": {"type": "move", "from": 1, "to": 0, "count": 1},
        "turned": [{"column": 0, "card": "5s"}],
        "runs_removed": [{"column": 0, "suit": "s"}],
        "runs_restored": [],
        "score_change": 99,
    }
    assert (done["runs_removed"], done["removed_suits"], done["score"]) == (1, ["s"], 599)
    assert done["columns"][:3] == [
        {"hidden": 0, "cards": ["5s"]},
        {"hidden": 0, "cards": []},
        {"hidden": 0, "cards": ["Ks"]},
    ]
    assert done["status"] == "in_progress"  # the Ks and the 5s are still on the table

    undone = ok(act(staff_client, gid, "undo"))

    assert undone["outcome"]["runs_restored"] == [{"column": 0, "suit": "s"}]
    assert undone["outcome"]["score_change"] == -101
    assert (undone["runs_removed"], undone["removed_suits"], undone["score"]) == (0, [], 498)
    assert undone["columns"][0]["cards"] == ["5s", *game["columns"][0]["cards"]]
    assert undone["columns"][1]["cards"] == ["As"]


def test_stuck_says_when_no_move_and_no_deal_is_left(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(["|As"] + ["|Ks"] * 8 + ["|3s"]))
    assert game["stuck"] is True

    over = ok(staff_client.post(resign_url(game["id"])))

    assert over["stuck"] is False  # a finished game is not stuck, it is over


# -- version ----------------------------------------------------------------------------------
def test_an_action_at_the_current_version_applies(staff_client, play_game):
    gid = play_game["id"]
    assert ok(act(staff_client, gid, "deal", version=0))["version"] == 1
    assert ok(act(staff_client, gid, "undo", version=1))["version"] == 2
    assert ok(act(staff_client, gid, "move", from_=0, to=1, version=2))["version"] == 3


@pytest.mark.parametrize("version", [0, 2, 99])
def test_an_action_at_another_version_is_409_with_the_current_state(
    staff_client, play_game, version
):
    gid = play_game["id"]
    ok(act(staff_client, gid, "deal"))
    before = game_record(gid)
    current = ok(staff_client.get(game_url(gid)))

    body = refused(act(staff_client, gid, "undo", version=version), 409, "version_conflict")

    assert body["game"] == {**current, "elapsed_ms": body["game"]["elapsed_ms"]}
    assert body["game"]["version"] == 1
    assert game_record(gid) == before


# -- resign and win ---------------------------------------------------------------------------
def test_resigning_loses_the_game_and_reveals_the_deal(stock_pool, player_client):
    (deal,) = stock_pool(1, 1)
    game = new_game(player_client, 1)
    ok(act(player_client, game["id"], "deal"))

    body = ok(player_client.post(resign_url(game["id"])))

    assert (body["status"], body["end_reason"]) == ("lost", "resigned")
    assert body["finished_at"] is not None
    assert body["deal"]["seed"] == str(deal.seed)
    assert (body["can_undo"], body["version"], body["actions"]) == (False, 1, 1)
    assert Action.objects.filter(game_id=game["id"]).count() == 1  # resigning is not logged


def test_a_game_is_won_when_every_card_has_left_the_table(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))

    body = ok(act(staff_client, game["id"], "move", from_=1, to=0))

    assert (body["status"], body["end_reason"]) == ("won", "won")
    assert body["outcome"]["runs_removed"] == [{"column": 0, "suit": "s"}]
    assert body["columns"] == [{"hidden": 0, "cards": []}] * 10
    assert (body["score"], body["runs_removed"], body["perfect"]) == (599, 1, True)
    assert (body["can_undo"], body["stuck"]) == (False, False)
    assert body["finished_at"] is not None
    assert body["deal"]["layout"] == Game.objects.get(pk=game["id"]).deal.layout_notation
    refused(act(staff_client, game["id"], "undo"), 422, "game_over")


def test_a_win_after_an_undo_is_not_perfect(staff_client):
    game = new_game(staff_client, 1, layout=layout_json(NEAR_WIN))
    gid = game["id"]
    ok(act(staff_client, gid, "move", from_=1, to=2))
    ok(act(staff_client, gid, "undo"))

    body = ok(act(staff_client, gid, "move", from_=1, to=0))

    assert (body["status"], body["perfect"], body["undos"], body["score"]) == ("won", False, 1, 597)
