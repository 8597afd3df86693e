"""Whole games played through the API, every response scanned: a running game never shows a
face-down card, the stock order or the seed; a finished one shows its seed and its whole log,
from which anyone can re-derive it.

``check_public`` (helpers.py) compares each state's ``columns`` with the stored snapshot and
finds no card token anywhere else in the body.
"""

import json
import random

import pytest

from games.engine import DEAL, Action, apply_action, choose_destination, deal_layout, dump, replay
from tests.games.api.helpers import (
    CARD_TOKEN,
    GAMES_URL,
    NEAR_WIN,
    actions_url,
    board_of,
    cards_named,
    check_public,
    game_url,
    layout_json,
    ok,
    player_url,
    pooled_seed_deal,
    public_columns,
    resign_url,
    snapshot_of,
)

pytestmark = pytest.mark.django_db

# Twenty digits, above 2**63 (stored as a negative bigint): no id, time or count contains it.
SEED = 0xF3A5_C0FF_EE12_3456


def _choose(board, rng):
    """A random legal request on ``board``: undo now and then, else a random legal action,
    sometimes with the count or the destination left to the server. Returns the request
    body and the action the server must apply for it."""
    choices = board.legal_actions()
    if board.can_undo and (not choices or rng.random() < 0.12):
        return {"type": "undo"}, {"type": "undo"}
    move = rng.choice(choices)
    if move == DEAL:
        return {"type": "deal"}, {"type": "deal"}
    src, dst, count = move
    body = {"type": "move", "from": src, "to": dst, "count": count}
    roll = rng.random()
    if roll < 0.15:
        del body["count"]  # the longest run that fits
        count = board.fitting_count(src, dst)
    elif roll < 0.3 and choose_destination(board, src) is not None:
        del body["to"], body["count"]  # one-tap
        src, dst, count = choose_destination(board, src)
    return body, {"type": "move", "from": src, "to": dst, "count": count}


def test_random_play_never_reveals_a_hidden_card_the_stock_or_the_seed(player_client, api_client):
    pooled_seed_deal(2, SEED)
    rng = random.Random(20260601)
    created = player_client.post(GAMES_URL, {"suits": 2}, format="json")
    assert created.status_code == 201
    gid = created.json()["id"]
    check_public(created, gid, seed=SEED)
    mirror = board_of(gid)  # sees everything; follows each applied action on its own
    applied, kinds = [], []

    for step in range(1, 171):
        board = board_of(gid)
        body, expected = _choose(board, rng)
        response = player_client.post(actions_url(gid), body, format="json")
        assert response.status_code == 200, (body, response.content)
        state = check_public(response, gid, seed=SEED)

        assert state["outcome"]["action"] == expected
        apply_action(mirror, Action.from_json(expected))
        assert dump(mirror) == snapshot_of(gid)
        assert (state["version"], state["actions"]) == (step, step)
        assert state["stuck"] == mirror.is_stuck()
        assert state["deals_left"] == mirror.deals_left
        applied.append(expected)
        kinds.append(expected["type"])
        if step % 10 == 0:
            for url in (game_url(gid), actions_url(gid), GAMES_URL):
                check_public(player_client.get(url), gid, seed=SEED)

    assert {"move", "deal", "undo"} <= set(kinds)
    assert kinds.count("undo") >= 5

    # Over: the seed and the whole log are public, and re-derive the final position.
    over = ok(player_client.post(resign_url(gid)))
    assert over["deal"]["seed"] == str(SEED)
    log = ok(api_client.get(actions_url(gid)))
    assert log["deal"]["seed"] == str(SEED)
    entries = [{k: v for k, v in e.items() if k != "at"} for e in log["actions"]]
    assert entries == [{"seq": n, **a} for n, a in enumerate(applied, start=1)]
    rebuilt = replay(
        deal_layout(2, int(log["deal"]["seed"])), [Action.from_json(e) for e in log["actions"]]
    )
    assert public_columns(rebuilt) == over["columns"]
    assert rebuilt.score == over["score"]


@pytest.mark.parametrize("suits", [1, 4])
def test_a_vetted_deal_played_to_a_win_through_its_solver_line(
    stock_pool, player, player_client, api_client, suits
):
    (deal,) = stock_pool(suits, 1)
    created = player_client.post(GAMES_URL, {"suits": suits}, format="json")
    gid = created.json()["id"]
    check_public(created, gid)

    for n, action in enumerate(deal.solver_line, start=1):
        response = player_client.post(actions_url(gid), action, format="json")
        assert response.status_code == 200, (n, action, response.content)
        state = response.json()
        if state["status"] == "in_progress":
            check_public(response, gid)
            assert state["deal"] is None

    assert n == deal.par == len(deal.solver_line)
    assert (state["status"], state["end_reason"], state["perfect"]) == ("won", "won", True)
    assert (state["runs_removed"], state["removed_suits"].count("s")) == (8, 8 // suits)
    assert state["score"] == 500 - deal.par + 800
    assert state["columns"] == [{"hidden": 0, "cards": []}] * 10
    assert state["deal"] == {
        "suits": suits,
        "seed": str(deal.seed),
        "deal_version": deal.deal_version,
        "vetted": True,
        "layout": None,
    }
    log = ok(api_client.get(actions_url(gid)))
    assert [
        {k: v for k, v in e.items() if k not in ("seq", "at")} for e in log["actions"]
    ] == deal.solver_line
    assert replay(deal_layout(suits, deal.seed), map(Action.from_json, log["actions"])).won
    stats = ok(api_client.get(player_url(player.username)))["stats"]
    mode = next(s for s in stats if s["suits"] == suits)
    assert (mode["played"], mode["wins"], mode["fewest_actions_win"]) == (1, 1, deal.par)
    assert mode["best_score"] == state["score"]


def test_a_staff_layout_game_shows_its_cards_only_when_over(staff_client, api_client):
    layout = layout_json(["Kh|" + NEAR_WIN[0][1:], "9d|As", "|Qd"])
    created = staff_client.post(GAMES_URL, {"suits": 4, "layout": layout}, format="json")
    gid = created.json()["id"]
    check_public(created, gid)
    tokens = CARD_TOKEN.findall(created.content.decode())
    assert "Kh" not in tokens and "9d" not in tokens
    response = staff_client.post(actions_url(gid), {"type": "move", "from": 1, "to": 0})
    check_public(response, gid)
    turned = response.json()["outcome"]["turned"]
    assert sorted((t["column"], t["card"]) for t in turned) == [(0, "Kh"), (1, "9d")]

    over = ok(staff_client.post(resign_url(gid)))

    assert "Kh" in over["deal"]["layout"]  # the whole starting layout, public once over
    assert ok(api_client.get(game_url(gid)))["deal"] == over["deal"]


def test_a_refusal_names_only_cards_the_player_can_see(stock_pool, player_client):
    stock_pool(4, 1)
    gid = player_client.post(GAMES_URL, {"suits": 4}, format="json").json()["id"]
    ok(player_client.post(actions_url(gid), {"type": "deal"}, format="json"))
    visible = {card for col in public_columns(board_of(gid)) for card in col["cards"]}
    named = set()

    for src in range(10):
        for dst in range(10):
            for count in (None, 1, 2):
                body = {"type": "move", "from": src, "to": dst}
                if count:
                    body["count"] = count
                response = player_client.post(actions_url(gid), body, format="json")
                if response.status_code == 200:
                    ok(player_client.post(actions_url(gid), {"type": "undo"}, format="json"))
                    continue
                assert response.status_code == 422
                named |= cards_named(json.dumps(response.json()))

    assert named  # rank_mismatch names the two cards
    assert named <= visible
