"""POST /games/{id}/hint: the n-th best suggestion, from what the player can see.

Asking is a POST because it changes the game (counted, logged, the version moves on); its
answer's `action` is the body of POST /games/{id}/actions as it is."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Action as EngineAction
from games.engine import Board, Layout, deal_layout, dump, format_card, replay
from games.models import Action, Game
from games.solver.hint import CHANCE_MIN_WORLDS

from .helpers import (
    act,
    actions_url,
    board_of,
    cards_named,
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

# Column 1's 5h goes onto column 0's 6h (in suit) and turns over the 9s beneath it.
TEACHING = ["|Kc6h", "9s|5h", "|Qd", "|Jc", "|8d", "|3c", "|Kd", "|Kh", "|Qc", "|Td"]
# Eight Kings and two fives, no empty column, no stock: nothing can move at all.
STUCK = ["|Ks", "|Ks", "|Kh", "|Kh", "|Kd", "|Kd", "|Kc", "|Kc", "|5s", "|5h"]


def hint_url(game_id: str) -> str:
    return f"{game_url(game_id)}/hint"


def ask(client, game_id: str, n: int | None = None, **body):
    """POST a hint request; ``n`` omitted: the best."""
    return client.post(hint_url(game_id), {**body, **({} if n is None else {"n": n})})


def submit(client, game_id: str, action: dict):
    """Send a hint's action back unchanged."""
    return client.post(actions_url(game_id), action, format="json")


def staff_game(client, columns, stock: str = "", suits: int = 4) -> dict:
    return new_game(client, suits, layout=layout_json(columns, stock))


def test_the_best_hint_is_playable_as_is_and_counts_on_the_game(staff_client):
    game = staff_game(staff_client, TEACHING)

    hint = ok(ask(staff_client, game["id"]))

    assert hint["action"] == {"type": "move", "from": 1, "to": 0, "count": 1, "version": 1}
    assert "hidden card" in hint["reason"] and "column 2" in hint["reason"]
    assert hint["n"] == 0 and hint["alternatives"] >= 1
    assert hint["hints"] == 1 and hint["version"] == 1
    state = ok(staff_client.get(game_url(game["id"])))
    assert state["hints"] == 1 and state["version"] == 1 and state["actions"] == 0
    assert state["started_at"] is None  # a hint is not an action: the clock waits
    [entry] = log_rows(game["id"])
    assert (entry.seq, entry.kind, entry.count) == (1, Action.Kind.HINT, 0)
    # A client submits the suggestion unchanged.
    played = ok(submit(staff_client, game["id"], hint["action"]))
    assert played["columns"][1] == {"hidden": 0, "cards": ["9s"]} and played["version"] == 2


def test_a_hint_for_a_position_left_behind_is_not_played(staff_client):
    game = staff_game(staff_client, TEACHING)
    hint = ok(ask(staff_client, game["id"]))
    ok(act(staff_client, game["id"], "move", from_=3, to=2))  # Jc onto Qd: the game moves on
    before = game_record(game["id"])

    conflict = refused(submit(staff_client, game["id"], hint["action"]), 409, "version_conflict")

    assert conflict["game"]["version"] == 2
    assert game_record(game["id"]) == before


def test_asking_is_a_post_and_a_get_changes_nothing(staff_client):
    game = staff_game(staff_client, TEACHING)
    before = game_record(game["id"])

    response = staff_client.get(hint_url(game["id"]))

    refused(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]
    assert game_record(game["id"]) == before


def test_asking_with_a_version_the_game_has_left_is_409(staff_client):
    game = staff_game(staff_client, TEACHING)
    ok(act(staff_client, game["id"], "move", from_=3, to=2))
    before = game_record(game["id"])

    conflict = refused(ask(staff_client, game["id"], version=0), 409, "version_conflict")

    assert conflict["game"]["version"] == 1
    assert game_record(game["id"]) == before
    assert ok(ask(staff_client, game["id"], version=1))["version"] == 2


def test_asking_the_same_n_again_is_counted_once_and_n_plus_one_is_the_next(staff_client):
    game = staff_game(staff_client, TEACHING)
    first = ok(ask(staff_client, game["id"], 0))
    again = ok(ask(staff_client, game["id"], 0))
    assert again == first and again["hints"] == 1

    if first["alternatives"] > 1:
        second = ok(ask(staff_client, game["id"], 1))
        assert second["action"] != first["action"]
        assert second["hints"] == 2 and second["version"] == 2


def test_beyond_the_last_alternative_nothing_is_suggested_or_counted(staff_client):
    game = staff_game(staff_client, TEACHING)
    total = ok(ask(staff_client, game["id"]))["alternatives"]
    before = game_record(game["id"])

    beyond = ok(ask(staff_client, game["id"], total))

    assert beyond["action"] is None and "no further suggestion" in beyond["reason"]
    assert game_record(game["id"]) == before


def test_when_nothing_can_move_the_hint_says_so_and_counts_nothing(staff_client):
    game = staff_game(staff_client, STUCK)
    assert game["stuck"] is True

    hint = ok(ask(staff_client, game["id"]))

    assert hint["action"] is None
    assert hint["reason"] == "no move left: start a new game"
    assert hint["hints"] == 0 and Game.objects.get(pk=game["id"]).hints == 0


def test_hidden_cards_cannot_change_the_hint(staff_client, make_user, auth_client):
    """Two games that look the same but hide different cards get the same hints."""
    second_staff = auth_client(make_user(is_staff=True))  # one casual game per player
    a = staff_game(staff_client, TEACHING)
    b = staff_game(second_staff, [c.replace("9s|", "2d|") for c in TEACHING])
    for n in range(3):
        hint_a = ok(ask(staff_client, a["id"], n))
        hint_b = ok(ask(second_staff, b["id"], n))
        assert (hint_a["action"], hint_a["reason"]) == (hint_b["action"], hint_b["reason"])


def test_a_hint_costs_the_perfect_flag_and_replays_from_the_log(staff_client):
    game = staff_game(staff_client, ["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"], suits=1)
    hint = ok(ask(staff_client, game["id"]))
    assert hint["action"] == {"type": "move", "from": 1, "to": 0, "count": 1, "version": 1}
    won = ok(submit(staff_client, game["id"], hint["action"]))
    assert won["status"] == "won" and won["perfect"] is False and won["hints"] == 1
    row = Game.objects.get(pk=game["id"])
    log = [EngineAction(a.kind, a.src, a.dst, a.count) for a in log_rows(game["id"])]
    assert dump(replay(row.deal.layout(), log)) == row.snapshot


def test_refusals(staff_client, other_client):
    game = staff_game(staff_client, TEACHING)
    refused(ask(other_client, game["id"]), 404, "not_found")
    for bad in (-1, "x", "1", 1.5, True, 101):
        refused(ask(staff_client, game["id"], bad), 400, "invalid")
    refused(ask(staff_client, game["id"], version=-1), 400, "invalid")
    ok(staff_client.post(resign_url(game["id"])))
    refused(ask(staff_client, game["id"]), 422, "game_over")


def test_hint_answers_name_only_face_up_cards(staff_client):
    """Following hints through a real deal, no answer names a card the player cannot see."""
    game = new_game(staff_client, 2, seed=20261130)
    for _ in range(40):
        hint = ok(ask(staff_client, game["id"]))
        board = board_of(game["id"])
        visible = {format_card(c) for i, col in enumerate(board.cols) for c in col[board.down[i] :]}
        named = cards_named(json.dumps(hint))
        assert named <= visible, (named - visible, hint)
        if hint["action"] is None:
            break
        ok(submit(staff_client, game["id"], hint["action"]))


def test_a_hint_in_a_dealt_game_says_its_chance_to_win(staff_client, settings):
    """At the rollout level (HINT_LEVEL) the best hints of a real deal carry how often their
    playouts won, with the sample and a sentence."""
    settings.HINT_LEVEL = "rollout"
    game = new_game(staff_client, 4, seed=20261204)
    hint = ok(ask(staff_client, game["id"]))
    chance = hint["chance"]
    assert chance is not None, hint
    assert 0.0 <= chance["wins"] <= 1.0 and chance["sample"] >= CHANCE_MIN_WORLDS
    assert "ways the hidden cards may lie" in chance["sentence"]
    again = ok(ask(staff_client, game["id"]))  # from the cache: the same answer
    assert again["chance"] == chance and again["action"] == hint["action"]


def test_the_look_ahead_level_says_no_chance(staff_client):
    """The default level (HINT_LEVEL unset): the look-ahead alone, no chance said."""
    game = new_game(staff_client, 4, seed=20261204)
    assert ok(ask(staff_client, game["id"]))["chance"] is None


def test_hidden_cards_cannot_change_the_chance(staff_client, make_user, auth_client, settings):
    """Two dealt games that look the same but hide different cards get the same hints and
    the same chances (the worlds are drawn from what is in view alone)."""
    settings.HINT_LEVEL = "rollout"
    second_staff = auth_client(make_user(is_staff=True))
    board = Board(deal_layout(2, 31))
    layout = board.layout()
    unseen = [c for down, _ in layout.columns for c in down] + list(layout.stock)
    random.Random(5).shuffle(unseen)
    it = iter(unseen)
    cols = tuple((tuple(next(it) for _ in down), up) for down, up in layout.columns)
    other = Layout(layout.suits, cols, tuple(it), layout.removed)
    assert other != layout
    a = new_game(staff_client, 2, layout=layout.to_json())
    b = new_game(second_staff, 2, layout=other.to_json())
    for n in range(3):
        hint_a = ok(ask(staff_client, a["id"], n))
        hint_b = ok(ask(second_staff, b["id"], n))
        assert hint_a["chance"] is not None or n > 0
        strip = ("version", "hints")
        assert {k: v for k, v in hint_a.items() if k not in strip} == {
            k: v for k, v in hint_b.items() if k not in strip
        }
