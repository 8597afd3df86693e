"""The deal action (docs/rules.md#deal): one face-up card onto each column, in order 0..9."""

from __future__ import annotations

import pytest

from games.engine import DEAL, Board, deal_layout, format_card
from tests.engine.conftest import board_of, refused, state

RUN_TO_2 = "KsQsJsTs9s8s7s6s5s4s3s2s"  # a spade run missing only its Ace
STOCK = "AsAs3h4h5h6h7h8h9hTh"
FILLER = ["5h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "4h"]


def full_columns(**extra: str) -> dict[int, str]:
    """Ten one-card columns of hearts (a 2-suit game), with some replaced: c0="..." etc."""
    cols = dict(enumerate(FILLER))
    cols.update({int(k[1:]): v for k, v in extra.items()})
    return cols


def test_a_deal_puts_the_next_ten_stock_cards_on_columns_0_to_9() -> None:
    board = Board(deal_layout(4, 8))
    stock = board.stock[:]
    before = [list(c) for c in board.cols]
    down = board.down[:]
    outcome = board.play(DEAL)
    assert [c[-1] for c in board.cols] == stock[:10]
    assert [c[:-1] for c in board.cols] == before
    assert board.down == down  # the dealt cards are face up; nothing else turns
    assert board.deals_left == 4
    assert board.actions == 1
    assert outcome.turned == [] and outcome.runs_removed == []
    board.play(DEAL)
    assert [c[-1] for c in board.cols] == stock[10:20]


def test_a_deal_places_cards_whatever_they_land_on() -> None:
    board = board_of(2, full_columns(c0="As"), stock="Ks" * 4 + "Qs" * 4 + "2s2s")
    board.play(DEAL)
    assert board.notation().split()[1].startswith("|AsKs/|6hKs/")  # a King onto an Ace
    assert board.tail_run(0) == 1


def test_five_deals_then_the_stock_is_empty() -> None:
    board = Board(deal_layout(2, 21))
    for left in (4, 3, 2, 1, 0):
        board.play(DEAL)
        assert board.deals_left == left
    assert sum(map(len, board.cols)) == 104
    assert not board.can_deal()
    before = state(board)
    error = refused(lambda: board.play(DEAL))
    assert error.code == "stock_empty"
    assert state(board) == before


@pytest.mark.parametrize("empty", [0, 4, 9])
def test_an_empty_column_blocks_the_deal(empty: int) -> None:
    cols = full_columns()
    del cols[empty]
    src = (empty + 1) % 10
    cols[src] = "Qs" + cols[src]
    board = board_of(2, cols, stock=STOCK)
    assert not board.can_deal()
    assert DEAL not in board.legal_actions()
    before = state(board)
    error = refused(lambda: board.play(DEAL))
    assert error.code == "empty_column_blocks_deal"
    assert f"column {empty + 1} is empty" in error.detail
    assert state(board) == before
    # Fill the gap and the deal goes through.
    board.play((src, empty, 1))
    assert board.can_deal()
    board.play(DEAL)
    assert board.deals_left == 0


def test_an_empty_stock_is_reported_before_an_empty_column() -> None:
    board = board_of(2, {0: "Ks"})
    assert refused(lambda: board.play(DEAL)).code == "stock_empty"


def test_one_deal_completes_runs_in_two_columns() -> None:
    # Column 0 has a face-down Qs under a run missing its Ace; column 1 is such a run alone.
    cols = full_columns(c0="Qs|" + RUN_TO_2, c1=RUN_TO_2)
    board = board_of(2, cols, stock=STOCK)
    outcome = board.play(DEAL)
    assert board.runs_removed == 2
    assert outcome.runs_removed == [(0, 0), (1, 0)]
    assert [format_card(c) for c in board.cols[0]] == ["Qs"]
    assert board.down[0] == 0  # the card beneath turned face up
    assert outcome.turned == [(0, board.cols[0][0])]
    assert board.cols[1] == []  # the whole column left the table
    assert outcome.score_change == 2 * 100 - 1
    assert board.score == 500 - 1 + 200
    assert outcome.to_json()["runs_removed"] == [
        {"column": 0, "suit": "s"},
        {"column": 1, "suit": "s"},
    ]
    # The rest of the deal landed as usual.
    assert [format_card(c[-1]) for c in board.cols[2:]] == [f"{r}h" for r in "3456789T"]


def test_a_deal_that_completes_no_run_leaves_near_runs_alone() -> None:
    cols = full_columns(c0=RUN_TO_2)
    board = board_of(2, cols, stock="2s" + STOCK[4:] + "As")
    board.play(DEAL)
    assert board.runs_removed == 0
    assert len(board.cols[0]) == 13
    assert board.tail_run(0) == 1  # 2s on 2s does not join
