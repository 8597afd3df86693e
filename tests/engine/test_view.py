"""The public view: all a player may see, and nothing more (docs/rules.md#what-a-player-sees)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from games.engine import DEAL, Board, deal_layout, format_card, public_view
from tests.engine.conftest import board_of, face_up_cards

KEYS = {
    "suits",
    "deal_over_gap",
    "columns",
    "deals_left",
    "runs_removed",
    "removed_suits",
    "score",
    "actions",
    "undos",
    "hints",
    "won",
    "stuck",
    "perfect",
    "can_undo",
}
CARD = re.compile(r'"([A2-9TJQK][shdc])"')


def named_cards(view: dict) -> Counter[str]:
    """Every card the view names anywhere, as it would go over the wire."""
    return Counter(CARD.findall(json.dumps(view)))


def test_a_new_deal_shows_ten_cards_and_hidden_counts() -> None:
    board = Board(deal_layout(2, 5))
    view = public_view(board)
    assert set(view) == KEYS
    assert [c["hidden"] for c in view["columns"]] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert [c["cards"] for c in view["columns"]] == [[format_card(c[-1])] for c in board.cols]
    assert view["deals_left"] == 5
    assert view["score"] == 500 and view["actions"] == 0
    assert (view["won"], view["stuck"], view["perfect"], view["can_undo"]) == (
        False,
        False,
        False,
        False,
    )
    assert sum(named_cards(view).values()) == 10


def test_the_view_names_exactly_the_face_up_cards() -> None:
    board = board_of(2, {0: "9h8s|KsQs", 1: "5h"}, stock="AhAs2h2s3h3s4h4s5s6h")
    view = public_view(board)
    assert view["columns"][0] == {"hidden": 2, "cards": ["Ks", "Qs"]}
    assert view["columns"][1] == {"hidden": 0, "cards": ["5h"]}
    assert view["columns"][2] == {"hidden": 0, "cards": []}
    assert named_cards(view) == Counter(["Ks", "Qs", "5h"])
    assert view["deals_left"] == 1


def test_the_view_follows_play() -> None:
    run = "KsQsJsTs9s8s7s6s5s4s3s2s"
    board = board_of(2, {0: "9h5h|" + run, 1: "8h|As"})
    board.play((1, 0, 1))
    view = public_view(board)
    assert view["columns"][0] == {"hidden": 1, "cards": ["5h"]}
    assert view["columns"][1] == {"hidden": 0, "cards": ["8h"]}
    assert view["runs_removed"] == 1 and view["removed_suits"] == ["s"]
    assert view["score"] == 599 and view["can_undo"]
    board.undo()
    view = public_view(board)
    assert view["columns"][0]["hidden"] == 1  # undo does not hide the 5h again
    assert view["columns"][0]["cards"][:2] == ["5h", "Ks"]
    assert view["undos"] == 1 and view["runs_removed"] == 0 and view["removed_suits"] == []


def test_the_view_never_depends_on_hidden_cards() -> None:
    """Shuffle the face-down cards and the undealt stock among themselves: same view."""
    for seed in range(10):
        rng = random.Random(seed)
        board = Board(deal_layout((1, 2, 4)[seed % 3], seed))
        for _ in range(rng.randrange(80)):
            actions = board.legal_actions()
            if not actions:
                break
            board.play(rng.choice(actions))
        other = board.copy()
        hidden = [c for i, col in enumerate(board.cols) for c in col[: board.down[i]]]
        hidden += board.stock[board.dealt :]
        rng.shuffle(hidden)
        for i, col in enumerate(other.cols):
            for j in range(other.down[i]):
                col[j] = hidden.pop()
        other.stock = other.stock[: other.dealt] + hidden
        assert public_view(other) == public_view(board)
        assert named_cards(public_view(board)) == Counter(map(format_card, face_up_cards(board)))


def test_the_view_is_json_and_carries_no_stock_or_seed() -> None:
    board = Board(deal_layout(4, 6))
    board.play(DEAL)
    text = json.dumps(public_view(board))
    assert "stock" not in text and "seed" not in text and "down" not in text
    assert named_cards(public_view(board)) == Counter(map(format_card, face_up_cards(board)))
