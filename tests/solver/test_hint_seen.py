"""Hints never lead back to a position the game has been in (by what the player sees), and one
hint's search is bounded (``HINT_MAX_NODES``)."""

from __future__ import annotations

import json

import pytest

import games.solver.hint as hint_module
from games.engine import DEAL, Board, Layout, dump, load
from games.solver.hint import (
    DIG_COST,
    HINT_MAX_NODES,
    VisiblePosition,
    board_hints,
    hints,
)

# A 1-suit position with every card face up and two deals left (seed 4 of the 1-suit
# deals, 81 actions in, as the hint-follower met it): followed blindly, the hints used to
# go round the same five moves for ever instead of dealing.
CYCLE_COLUMNS = [
    "|Js",
    "|3s2sAs9s8s7s6s5s4s3s",
    "|6s",
    "|Ts9s8s",
    "|KsQsJs",
    "|3sKsQsJs",
    "|9s8s",
    "|7s6sAs",
    "|QsKs",
    "|TsTs6s",
]
CYCLE_STOCK = "2sAsQsTs5s4s7s2sKs4s2s9sAs5sJs3s7s4s5s8s"


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def cycle_layout_json() -> dict:
    return {
        "columns": [
            {"down": _cards(c.split("|")[0]), "up": _cards(c.split("|")[1])} for c in CYCLE_COLUMNS
        ],
        "stock": _cards(CYCLE_STOCK),
    }


def cycle_board() -> Board:
    return Board(Layout.from_json(1, cycle_layout_json()))


def test_followed_without_the_seen_positions_the_hints_go_round_in_circles() -> None:
    """The behaviour being fixed: top hint after top hint, back where it started in 5."""
    board = cycle_board()
    start = board.visible_key()
    for _ in range(5):
        top = hints(VisiblePosition.from_board(board), last_move=board.last_move)[0]
        board.play(top.move)
    assert board.visible_key() == start and board.deals_left == 2


def test_a_client_playing_hint_0_makes_progress_and_never_comes_back() -> None:
    board = cycle_board()
    visited = [board.visible_key()]
    while not board.won and board.actions < 200:
        found = board_hints(board)
        assert found, "a hint or the deal while the game can go on"
        board = load(json.loads(json.dumps(dump(board))))  # as the server stores it between
        board.play(found[0].move)
        if found[0].move != DEAL:
            assert board.visible_key() not in visited
        visited.append(board.visible_key())
    assert board.won


def test_the_seen_positions_are_those_since_a_card_was_last_turned_over() -> None:
    board = Board(Layout.parse("1 9s|8s/|7s/|As/|2s/|3s/|4s/|5s/|6s/|Ts/|Js - -"))
    first = board.visible_key()
    board.play((1, 0, 1))  # 7s onto 8s: column 1 empties, nothing turned over
    assert board.seen_keys() == {first, board.visible_key()}
    board.play((0, 1, 2))  # 8s7s into the empty column: the 9s turns over
    flipped = board.visible_key()
    assert board.seen_keys() == {flipped}  # nothing before it can ever come back
    board.undo()  # the 9s stays face up: a position never seen before, nothing turned over
    assert board.seen_keys() == {flipped, board.visible_key()}
    assert first not in board.seen_keys()
    assert load(json.loads(json.dumps(dump(board)))).seen_keys() == board.seen_keys()


def test_going_back_and_forth_keeps_each_position_once() -> None:
    board = Board(Layout.parse("1 9s|8s/|7s/|As/|2s/|3s/|4s/|8s/|6s/|Ts/|Js - -"))
    board.play((1, 0, 1))  # the 7s onto column 0's 8s
    for _ in range(50):  # then between the two 8s
        board.play((0, 6, 1))
        board.play((6, 0, 1))
    assert len(board._seen) == 3 * 12 and len(board.seen_keys()) == 3


def test_the_visible_key_ignores_what_is_face_down_and_the_stock_order() -> None:
    stock = "AsAs2s2s3s3s4s4s5s5s"
    a = Board(Layout.parse(f"1 9s|8s/|7s/|As/|2s/|3s/|4s/|5s/|6s/|Ts/|Js {stock} -"))
    b = Board(Layout.parse("1 Ks|8s/|7s/|As/|2s/|3s/|4s/|5s/|6s/|Ts/|Js 5s5s4s4s3s3s2s2sAsAs -"))
    assert a.visible_key() == b.visible_key()
    c = Board(Layout.parse(f"1 9s|8s/|7s/|As/|2s/|3s/|4s/|5s/|6s/|Ts/|Qs {stock} -"))
    assert c.visible_key() != a.visible_key()


def test_a_move_back_to_a_seen_position_is_not_suggested() -> None:
    board = cycle_board()
    visible = VisiblePosition.from_board(board)
    top = hints(visible, last_move=None)[0]
    after = board.copy()
    after.play(top.move)
    again = hints(visible, last_move=None, seen={after.visible_key()})
    assert top.move not in [h.move for h in again]


def test_when_every_useful_move_leads_back_the_hint_is_the_deal() -> None:
    board = cycle_board()
    visible = VisiblePosition.from_board(board)
    children = []
    for m in visible.legal_moves():
        child = board.copy()
        child.play(m)
        children.append(child.visible_key())

    assert [h.action for h in hints(visible, seen=set(children))] == [{"type": "deal"}]
    assert hints(visible, seen=set(children))[0].reason == "deals: no useful move left"


# A 1-suit position of random play with the stock dealt out (the hint bench's stock-out
# positions): the look-ahead sees no gain, so the deep look-ahead and the last resort run.
# Before the budget the three stages generated some 66 000 positions (125 ms of CPU).
STUCK_NOTATION = (
    "1 8s9s6sKsJs|9s7s2sAs/5s6s6s7s2s|9s8sKsQsJsTs9s8s7s/3sKs8s|KsQsJsTs9s8s/JsAs3s5s|"
    "5s4sQsJsTs/6sAsQsAs|6s2sAs/3s3sKs|4s7s3s6s5s4s3s2s2s/8s4s9s5s|2sKsQsJsTs/QsAs2s4s|"
    "6s5s5s4sJsTs9s8s7s/Ts5s9s|4sAsQs3s7sJsTs/KsQs4s3s|KsTs7s8s7s6s2sAs - -"
)


def test_one_hint_generates_at_most_the_budget_of_positions(monkeypatch) -> None:
    searches: dict[int, int] = {}  # each look-ahead's positions (the deep stage goes on one)
    digs: list[int] = []
    run, dig = hint_module._Search.run, hint_module._dig

    def counted_run(self, *args):
        result = run(self, *args)
        searches[id(self)] = self.nodes
        return result

    def counted_dig(cols, hid, barred, budget=hint_module.DIG_BUDGET):
        digs.append(budget)  # the most it may generate (checked per position)
        return dig(cols, hid, barred, budget)

    monkeypatch.setattr(hint_module._Search, "run", counted_run)
    monkeypatch.setattr(hint_module, "_dig", counted_dig)
    board = Board(Layout.parse(STUCK_NOTATION))
    visible = VisiblePosition.from_board(board)

    found = hints(visible, last_move=(2, 1, 1))

    assert found == [] and len(digs) == 1  # nothing to suggest: every stage ran
    slack = 200  # one position's moves past the check, per stage
    assert sum(searches.values()) + DIG_COST * sum(digs) <= HINT_MAX_NODES + 3 * slack


@pytest.mark.parametrize("suits", [1, 4])
def test_the_budget_leaves_the_ordinary_look_ahead_alone(suits: int) -> None:
    """The first stage keeps its own budget: the hints of a fresh deal are unchanged."""
    from games.engine import deal_layout

    board = Board(deal_layout(suits, 3))
    assert board_hints(board) == hints(VisiblePosition.from_board(board))
