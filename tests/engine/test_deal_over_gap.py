"""The table rule deal_over_gap (docs/rules.md#deal-over-a-gap): with it on, a deal may go
over empty columns while fewer than ten cards are on the table; off, every gap blocks it."""

from __future__ import annotations

import json

import pytest

from games.engine import DEAL, Action, Board, Layout, LayoutError, dump, load, public_view, replay
from tests.engine.conftest import position, refused, state

FILL = ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s"]  # one card a column
STOCK = "Ts9s8s7s6s5s4s3s2sAs"  # ten spades: one deal


def layout(cols: dict[int, str], stock: str = STOCK, *, gap: bool) -> Layout:
    return Layout.parse(position(1, cols, stock)).under_rules(deal_over_gap=gap)


# (case, columns, stock, rule on?, refusal code or None when the deal is legal)
CASES = [
    ("no gap, standard", dict(enumerate(FILL)), STOCK, False, None),
    ("no gap, over gap", dict(enumerate(FILL)), STOCK, True, None),
    ("stock out, standard", {0: "KsQs"}, "-", False, "stock_empty"),
    ("stock out, over gap", {0: "KsQs"}, "-", True, "stock_empty"),
    ("9 cards and a gap, standard", dict(enumerate(FILL[:9])), STOCK, False,
     "empty_column_blocks_deal"),
    ("9 cards and a gap, over gap", dict(enumerate(FILL[:9])), STOCK, True, None),
    ("9 cards in one column, over gap", {3: "5s|KsQsJsTs9s8s7s6s"}, STOCK, True, None),
    ("3 cards, 9 gaps, over gap", {0: "KsQsJs"}, STOCK, True, None),
    ("no card at all, over gap", {}, STOCK, True, None),
    ("no card at all, standard", {}, STOCK, False, "empty_column_blocks_deal"),
    ("10 cards and a gap, over gap", {0: "KsQs", **{i: FILL[i] for i in range(1, 9)}}, STOCK, True,
     "empty_column_blocks_deal"),
    ("10 cards in two columns, over gap", {0: "Ks|QsJsTs9s", 5: "8s7s6s5s4s"}, STOCK, True,
     "empty_column_blocks_deal"),
    ("12 cards and a gap, over gap", {0: "KsQsJsTs", **{i: FILL[i] for i in range(1, 9)}}, STOCK,
     True, "empty_column_blocks_deal"),
]  # fmt: skip


@pytest.mark.parametrize(("cols", "stock", "gap", "code"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_the_deal_is_allowed_or_refused(
    cols: dict[int, str], stock: str, gap: bool, code: str | None
) -> None:
    board = Board(layout(cols, stock, gap=gap))
    assert board.can_deal() is (code is None)
    assert (DEAL in board.legal_actions()) is (code is None)
    if code is None:
        on_table = board.cards_on_table()
        board.play(DEAL)
        assert board.cards_on_table() == on_table + 10
        assert board.deals_left == 0
        return
    before = state(board)
    error = refused(lambda: board.play(DEAL))
    assert error.code == code
    assert state(board) == before  # a refusal changes nothing


def test_a_gap_refused_under_the_rule_says_why() -> None:
    board = Board(layout({0: "KsQs", **{i: FILL[i] for i in range(1, 9)}}, gap=True))
    error = refused(lambda: board.play(DEAL))
    assert error.detail == (
        "column 10 is empty: fill every empty column before you deal "
        "(over a gap only with fewer than 10 cards on the table, not 10)"
    )
    standard = Board(layout({0: "KsQs", **{i: FILL[i] for i in range(1, 9)}}, gap=False))
    assert refused(lambda: standard.play(DEAL)).detail == (
        "column 10 is empty: fill every empty column before you deal"
    )


def won_only_over_a_gap(gap: bool) -> Board:
    """Seven runs gone, K Q J of spades on the table, one deal of T..A left: only a deal
    over the nine gaps brings the last run together."""
    return Board(layout({0: "KsQsJs"}, gap=gap))


WINNING_LINE = [Action("deal")] + [Action.move(i, 0, 1) for i in range(1, 10)]


def test_a_game_won_only_with_the_rule() -> None:
    board = replay(won_only_over_a_gap(True).layout(), WINNING_LINE)
    assert board.won
    assert board.runs_removed == 1
    # Under the standard rules the deal never comes: the three cards cannot fill ten columns.
    standard = won_only_over_a_gap(False)
    assert refused(lambda: replay(standard.layout(), WINNING_LINE)).code == (
        "empty_column_blocks_deal"
    )
    assert not standard.can_deal()


def test_the_rule_changes_whether_the_table_is_stuck() -> None:
    # Nothing on the table and a deal in the stock: stuck, unless the deal may go over gaps.
    assert Board(layout({}, gap=False)).is_stuck()
    assert public_view(Board(layout({}, gap=False)))["stuck"] is True
    over = Board(layout({}, gap=True))
    assert not over.is_stuck()
    assert public_view(over)["stuck"] is False
    assert public_view(over)["deal_over_gap"] is True


def test_undoing_a_deal_over_gaps_empties_them_again() -> None:
    board = won_only_over_a_gap(True)
    before = state(board)
    board.play(DEAL)
    assert all(board.cols)
    board.undo()
    assert board.cols == load(before).cols
    assert board.can_deal()  # still fewer than ten cards: the deal may go again


def test_the_rule_survives_the_snapshot_the_notation_and_a_copy() -> None:
    board = won_only_over_a_gap(True)
    assert dump(board)["deal_over_gap"] is True
    assert "deal_over_gap" not in dump(won_only_over_a_gap(False))  # standard snapshots as before
    again = load(json.loads(json.dumps(dump(board))))
    assert again == board and again.deal_over_gap and again.can_deal()
    assert board.copy().deal_over_gap and board.copy(stack=False).can_deal()
    text = board.notation()
    assert text.endswith(" deal_over_gap")
    assert Layout.parse(text) == board.layout()
    assert Layout.parse(text).deal_over_gap
    assert not won_only_over_a_gap(False).notation().endswith("deal_over_gap")
    assert won_only_over_a_gap(False) != won_only_over_a_gap(True)


@pytest.mark.parametrize("bad", [" gap", " deal_over_gap x", " yes"])
def test_a_fifth_field_other_than_the_rule_is_refused(bad: str) -> None:
    with pytest.raises(LayoutError):
        Layout.parse(position(1, {0: "Ks"}) + bad)


def test_a_snapshot_with_a_bad_rule_is_refused() -> None:
    data = dump(won_only_over_a_gap(True))
    data["deal_over_gap"] = "yes"
    with pytest.raises(LayoutError):
        load(data)
