"""Undo (docs/rules.md#undo): the player's undo, and push/pop, the search's exact reversal."""

from __future__ import annotations

import random

from games.engine import DEAL, Board, deal_layout, format_card
from tests.engine.conftest import board_of, refused, state

RUN = "KsQsJsTs9s8s7s6s5s4s3s2sAs"


def cards(board: Board, i: int) -> str:
    return "".join(format_card(c) for c in board.cols[i])


def test_nothing_to_undo_at_the_start() -> None:
    board = Board(deal_layout(2, 4))
    assert not board.can_undo and board.last_move is None
    before = state(board)
    error = refused(board.undo)
    assert error.code == "nothing_to_undo"
    assert state(board) == before


def test_undo_reverses_a_move_and_costs_an_action() -> None:
    board = board_of(4, {0: "Qc|9h5h", 1: "6s"})
    board.play((0, 1, 1))
    assert board.last_move == (0, 1, 1)
    outcome = board.undo()
    assert cards(board, 0) == "Qc9h5h" and cards(board, 1) == "6s"
    assert board.down[0] == 1
    assert board.actions == 2 and board.undos == 1
    assert board.score == 498
    assert outcome.score_change == -1
    assert outcome.turned == [] and outcome.runs_restored == [] and outcome.runs_removed == []
    assert not board.can_undo


def position_of(board: Board) -> tuple[object, ...]:
    snap = state(board)
    return (snap["cols"], snap["dealt"], snap["removed"])


def test_undo_goes_back_one_action_at_a_time() -> None:
    fillers = ["Kd", "2c", "3c", "4c", "8c", "Jd", "Qd"]
    cols = ["Qc|9h5s", "6s", "7d", *fillers]
    board = board_of(4, cols, stock="AsAhAdAc2s2h2d2c3s3h")
    history = [position_of(board)]
    for move in [DEAL, (0, 5, 1), (1, 4, 1), (0, 1, 1)]:  # As on 2h, Ah on 2s, 5s on 6s
        board.play(move)
        history.append(position_of(board))
    history.pop()
    while history:
        board.undo()
        assert position_of(board) == history.pop()
    assert refused(board.undo).code == "nothing_to_undo"
    assert board.actions == 8 and board.undos == 4
    assert board.score == 492


def test_undo_keeps_revealed_cards_face_up() -> None:
    board = board_of(4, {0: "Qc3d|5h", 1: "6s"})
    board.play((0, 1, 1))  # turns the 3d
    board.undo()
    assert cards(board, 0) == "Qc3d5h"
    assert board.down[0] == 1  # the 3d stays face up under the 5h
    assert board.face_up(0) == [board.cols[0][1], board.cols[0][2]]
    # Playing the same move again turns nothing new.
    outcome = board.play((0, 1, 1))
    assert outcome.turned == []
    assert board.down[0] == 1


def test_undo_of_a_deal_returns_its_ten_cards_to_the_stock() -> None:
    board = Board(deal_layout(1, 9))
    cols = state(board)["cols"]
    next_ten = board.stock[:10]
    board.play(DEAL)
    assert board.deals_left == 4
    board.undo()
    assert board.deals_left == 5
    assert state(board)["cols"] == cols
    board.play(DEAL)
    assert [c[-1] for c in board.cols] == next_ten  # the same ten cards come again


def test_undo_of_a_run_completing_move_restores_the_run_and_its_points() -> None:
    board = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"})
    board.play((1, 0, 1))
    assert board.runs_removed == 1 and board.score == 599
    outcome = board.undo()
    assert board.runs_removed == 0 and board.removed == []
    assert cards(board, 0) == "9h5h" + RUN[:-2] and cards(board, 1) == "8hAs"
    assert outcome.runs_restored == [(0, 0)]
    assert outcome.score_change == -100 - 1
    assert board.score == 500 - 2
    # Both cards turned by the move stay face up.
    assert board.down[0] == 1 and board.down[1] == 0
    assert outcome.to_json()["runs_restored"] == [{"column": 0, "suit": "s"}]


def test_undo_of_a_deal_that_completed_two_runs_restores_both() -> None:
    run_to_2 = RUN[:-2]
    cols = ["Qs|" + run_to_2, run_to_2] + [f"{r}h" for r in "3456789T"]
    board = board_of(2, cols, stock="AsAs2h3h4h5h6h7h8h9h")
    board.play(DEAL)
    assert board.runs_removed == 2
    outcome = board.undo()
    assert board.runs_removed == 0
    assert cards(board, 0) == "Qs" + run_to_2 and cards(board, 1) == run_to_2
    assert board.down[0] == 0  # the Qs stays face up
    assert sorted(outcome.runs_restored) == [(0, 0), (1, 0)]
    assert board.deals_left == 1
    assert outcome.score_change == -200 - 1


def test_a_run_completed_by_the_undo_itself_leaves_and_clears_the_history() -> None:
    # Column 0: a face-down Ks under Q..A of spades. Moving the Q..A away turns the Ks;
    # undoing puts Q..A back on a face-up Ks: a completed run, which leaves at once.
    board = board_of(2, {0: "5hKs|" + RUN[2:], 1: "Kh", 2: "Qh"})
    board.play((2, 3, 1))  # an earlier move, which the clearing makes un-undoable
    board.play((0, 4, 12))
    assert board.down[0] == 1 and cards(board, 0) == "5hKs"
    outcome = board.undo()
    assert board.runs_removed == 1
    assert cards(board, 0) == "5h" and board.down[0] == 0  # 5h turned too
    assert outcome.runs_removed == [(0, 0)]
    assert outcome.turned == [(0, board.cols[0][0])]
    assert outcome.score_change == 100 - 1
    assert board.score == 500 - 3 + 100
    assert not board.can_undo
    before = state(board)
    assert refused(board.undo).code == "nothing_to_undo"
    assert state(board) == before


def test_pop_reverses_push_exactly_face_down_cards_included() -> None:
    board = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"})
    before = board.copy()
    board.push((1, 0, 1))
    assert board.down[:2] == [1, 0]
    assert board.pop() == (1, 0, 1)
    assert board == before
    assert board.down[:2] == [2, 1]


def test_push_pop_is_exact_over_random_play() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        board = Board(deal_layout((1, 2, 4)[seed % 3], seed))
        history = []
        for _ in range(120):
            actions = board.legal_actions()
            if not actions:
                break
            history.append(board.copy())
            board.push(rng.choice(actions))
        while history:
            board.pop()
            assert board == history.pop()


def test_undo_after_push_pop_sees_the_right_record() -> None:
    board = board_of(4, {0: "Qc|9h5h", 1: "6s", 2: "6d"})
    board.play((0, 1, 1))
    board.push((1, 2, 1))
    board.pop()
    assert board.last_move == (0, 1, 1)
    board.undo()
    assert cards(board, 0) == "Qc9h5h"
