"""Completed runs, the win and the stuck state (docs/rules.md#completed-runs, #win, #stuck)."""

from __future__ import annotations

import pytest

from games.engine import DEAL, Board, format_card, public_view
from tests.engine.conftest import board_of, refused, state

RUN = "KsQsJsTs9s8s7s6s5s4s3s2sAs"
RUN_H = RUN.replace("s", "h")


def cards(board: Board, i: int) -> str:
    return "".join(format_card(c) for c in board.cols[i])


def test_a_move_completing_a_run_removes_it_and_turns_the_card_beneath() -> None:
    board = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"})
    outcome = board.play((1, 0, 1))
    assert cards(board, 0) == "9h5h"
    assert board.down[0] == 1  # 5h turned face up
    assert board.runs_removed == 1 and board.removed == [0]
    assert outcome.runs_removed == [(0, 0)]
    assert (0, board.cols[0][1]) in outcome.turned
    assert (1, board.cols[1][0]) in outcome.turned  # the source turned its 8h too
    assert outcome.score_change == 100 - 1


def test_a_run_moved_onto_a_king_completes_too() -> None:
    # Lifting the 9-to-Ace part and placing it on K-Q-J-T completes the run in column 1.
    board = board_of(1, {0: "Qs|" + RUN[8:], 1: "3s|" + RUN[:8]})
    outcome = board.play((0, 1, 9))
    assert cards(board, 1) == "3s" and cards(board, 0) == "Qs"
    assert board.down == [0] * 10  # both cards beneath turned face up
    assert outcome.runs_removed == [(1, 0)]
    assert sorted(c for c, _ in outcome.turned) == [0, 1]


def test_a_run_on_face_up_cards_leaves_them_as_they_are() -> None:
    board = board_of(2, {0: "Qh|9h" + RUN[:-2], 1: "As"})
    outcome = board.play((1, 0, 1))
    assert cards(board, 0) == "Qh9h" and board.down[0] == 1
    assert outcome.turned == []
    assert board.cols[1] == []


def test_a_run_emptying_a_column_turns_nothing() -> None:
    board = board_of(1, {0: RUN[:-2], 1: "5s|As"})
    outcome = board.play((1, 0, 1))
    assert board.cols[0] == []
    assert outcome.runs_removed == [(0, 0)]
    assert outcome.turned == [(1, board.cols[1][0])]


@pytest.mark.parametrize(
    ("column", "why"),
    [
        ("Ks|" + RUN[2:], "the King is face down"),
        (RUN[:-4] + "2hAs", "one card is off suit"),
        (RUN_H[:-2] + "As", "the Ace is off suit"),
        (RUN[:8] + RUN[10:], "a rank is missing"),
    ],
)
def test_thirteen_cards_that_are_not_a_face_up_suited_run_stay(column: str, why: str) -> None:
    board = board_of(4, {0: column})
    assert board.runs_removed == 0, why
    assert len(board.cols[0]) == len(column.replace("|", "")) // 2


def test_a_completed_run_in_a_given_layout_is_removed_at_once() -> None:
    board = board_of(2, {0: "5h7h|" + RUN, 3: RUN_H, 4: "Qs"})
    assert board.runs_removed == 2
    assert board.removed == [0, 1]
    assert cards(board, 0) == "5h7h" and board.down[0] == 1  # 7h turned face up
    assert board.cols[3] == []
    assert board.score == 500 + 200
    assert board.actions == 0 and not board.can_undo


def test_two_runs_stacked_in_a_layout_both_leave() -> None:
    board = board_of(2, {0: "Qs|" + RUN + RUN_H})
    assert board.removed == [1, 0]  # the top run first
    assert cards(board, 0) == "Qs" and board.down[0] == 0


def test_a_run_buried_in_a_layout_leaves_when_it_is_uncovered() -> None:
    board = board_of(2, {0: "5h|" + RUN + "9h", 1: "Th"})
    assert board.runs_removed == 0
    outcome = board.play((0, 1, 1))
    assert board.runs_removed == 1
    assert outcome.runs_removed == [(0, 0)]
    assert cards(board, 0) == "5h" and board.down[0] == 0
    assert outcome.turned == [(0, board.cols[0][0])]
    board.pop()
    assert cards(board, 0) == "5h" + RUN + "9h" and board.down[0] == 1
    assert board.runs_removed == 0


def test_win_on_a_partial_layout_when_every_card_has_left_the_table() -> None:
    board = board_of(1, {0: RUN[:-2], 1: "As"})
    assert not board.won
    outcome = board.play((1, 0, 1))
    assert board.won and board.perfect
    assert not board.is_stuck()
    assert outcome.runs_removed == [(0, 0)]
    assert board.score == 500 - 1 + 100
    view = public_view(board)
    assert view["won"] and view["perfect"] and not view["stuck"]
    before = state(board)
    for action in (lambda: board.play((0, 1, 1)), lambda: board.play(DEAL), board.undo):
        assert refused(action).code == "game_over"
    assert state(board) == before


def test_a_partial_layout_is_not_won_while_stock_is_left() -> None:
    # The table clears, but ten cards wait in the stock and an empty column blocks the deal:
    # literally "no legal move and no legal deal", so stuck (unreachable in a 104-card game).
    board = board_of(2, {0: RUN[:-2], 1: "As"}, stock="2h3h4h5h6h7h8h9hThJh")
    board.play((1, 0, 1))
    assert not any(board.cols)
    assert not board.won
    assert board.is_stuck()


def test_eight_runs_win_a_full_game() -> None:
    board = board_of(1, {0: RUN[:-2], 5: "As"}, removed="sssssss")
    assert board.layout().total_cards() == 104
    board.play((5, 0, 1))
    assert board.won and board.runs_removed == 8
    assert board.score == 500 - 1 + 800


def test_stuck_when_no_move_and_no_deal() -> None:
    # Aces take nothing and go nowhere; the Kings have no empty column to go to.
    cols = ["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac", "Ks", "Kh"]
    board = board_of(4, cols)
    assert board.legal_moves() == [] and not board.can_deal()
    assert board.is_stuck()
    assert public_view(board)["stuck"] is True
    assert board.legal_actions() == []


def test_not_stuck_while_the_stock_can_be_dealt() -> None:
    cols = ["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac", "Ks", "Kh"]
    board = board_of(4, cols, stock="5s5s5h5h5d5d5c5c9s9s")
    assert board.legal_moves() == [] and board.can_deal()
    assert not board.is_stuck()
    board.play(DEAL)  # eight 5s and two 9s on top: nothing fits anywhere
    assert board.is_stuck()


def test_not_stuck_with_an_empty_column() -> None:
    cols = {i: c for i, c in enumerate(["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac", "Ks"])}
    board = board_of(4, cols)
    assert not board.is_stuck()


def test_stuck_after_a_move_and_undo_gets_out() -> None:
    cols = ["As", "As", "Ah", "Ah", "Ad", "Ad", "Ac", "Ac", "Kd|5c", "7h|6d"]
    board = board_of(4, cols)
    assert board.legal_moves() == [(8, 9, 1)]
    board.play((8, 9, 1))  # 5c onto 6d turns the Kd, which has nowhere to go
    assert board.legal_moves() == [] and board.is_stuck()
    assert board.can_undo  # undo is possible but does not count against "stuck"
    board.undo()
    assert not board.is_stuck()
    assert board.legal_moves() == [(8, 9, 1)]


def test_a_win_after_an_undo_is_not_perfect() -> None:
    board = board_of(1, {0: RUN[:-2], 1: "As"})
    board.play((1, 2, 1))
    board.undo()
    board.play((1, 0, 1))
    assert board.won and not board.perfect
    assert board.score == 500 - 3 + 100
