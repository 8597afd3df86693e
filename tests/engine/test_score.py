"""The score (docs/rules.md#score): max(0, 500 - actions + 100 * runs_removed)."""

from __future__ import annotations

import pytest

from games.engine import DEAL, Board, deal_layout
from tests.engine.conftest import board_of

RUN = "KsQsJsTs9s8s7s6s5s4s3s2sAs"


def test_a_new_game_scores_500() -> None:
    board = Board(deal_layout(4, 1))
    assert board.score == 500 and board.actions == 0


def test_every_move_deal_and_undo_costs_one_point() -> None:
    board = Board(deal_layout(2, 3))
    board.play(DEAL)
    assert board.score == 499
    move = board.legal_moves()[0]
    outcome = board.play(move)
    assert outcome.score_change == -1 and board.score == 498
    outcome = board.undo()
    assert outcome.score_change == -1 and board.score == 497
    assert board.actions == 3


def test_a_hint_costs_no_point_but_the_perfect_flag() -> None:
    board = board_of(1, {0: RUN[:-2], 1: "As"})
    board.note_hint()
    assert board.score == 500 and board.hints == 1
    board.play((1, 0, 1))
    assert board.won and not board.perfect
    assert board.score == 599


def test_a_completed_run_is_worth_100() -> None:
    board = board_of(1, {0: RUN[:-2], 1: "5s|As"})
    outcome = board.play((1, 0, 1))
    assert outcome.score_change == 99
    assert board.score == 500 - 1 + 100


@pytest.mark.parametrize(
    ("actions", "runs", "score"),
    [
        (0, 0, 500),
        (150, 8, 1150),  # docs/rules.md#score: a 150-action win scores 1,150
        (46, 8, 1254),  # a 46-action win
        (500, 0, 0),
        (501, 0, 0),  # the floor
        (700, 1, 0),
        (650, 2, 50),
    ],
)
def test_the_formula(actions: int, runs: int, score: int) -> None:
    board = board_of(1, {}, removed="s" * runs)
    board.actions = actions
    assert board.score == score


def test_the_score_never_goes_below_zero_in_play() -> None:
    # Shuttle a card between columns: every move costs a point until the floor.
    board = board_of(4, {0: "5h"})
    for i in range(520):
        board.play((i % 2, (i + 1) % 2, 1))
        assert board.score == max(0, 500 - board.actions)
    assert board.actions == 520 and board.score == 0
    # A run after the floor counts from the true total, not from zero.
    board = board_of(1, {0: RUN[:-2], 1: "As"})
    for _ in range(300):
        board.play((1, 2, 1))
        board.play((2, 1, 1))
    assert board.score == 0
    outcome = board.play((1, 0, 1))
    assert board.score == 0 and outcome.score_change == 0  # 500 - 601 + 100 < 0
