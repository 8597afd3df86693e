"""Every refused action raises one typed error with a documented code and changes nothing.

One case per code. Each starts from a position with some history (so an undo record, the
counters and face-up flags all have something to lose), takes a snapshot with ``dump``,
makes the refused call, and compares: the board must be exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.engine import DEAL, Board, EngineError, IllegalAction, dump
from games.engine import errors as E
from tests.engine.conftest import board_of, refused, state

RUN_TO_2 = "KsQsJsTs9s8s7s6s5s4s3s2s"

# Codes docs/rules.md#refused-actions lists (undo_not_allowed is the service's: races),
# plus the two for out-of-range input.
DESIGN_CODES = {
    "not_a_run",
    "face_down",
    "rank_mismatch",
    "empty_column_blocks_deal",
    "stock_empty",
    "nothing_to_undo",
    "game_over",
    "no_destination",
    "bad_column",
    "bad_count",
}


def _played(board: Board, *moves: tuple[int, int, int]) -> Board:
    for move in moves:
        board.play(move)
    board.note_hint()
    return board


def mid_game() -> Board:
    """Columns 0..9 all in use, stock left, two moves played (one turned a card), a hint.

    Then: 0 (Qc) 9h8s7s | 1 (7d) 3d | 2 6s5h4c | 3 (Jd) 9d | 4 Td | 5 (Kh) 5d | 6 2c | 7 3c |
    8 Kd | 9 Ah, with the next deal AsAhAdAc2s2h2d2c3s3h.
    """
    cols = ["Qc|9h8s7s", "7d3d|5h", "6s", "Jd|9d", "Td", "Kh|5d", "2c", "3c", "Kd4c", "Ah"]
    return _played(board_of(4, cols, stock="AsAhAdAc2s2h2d2c3s3h"), (1, 2, 1), (8, 2, 1))


def won() -> Board:
    return _played(board_of(1, {0: RUN_TO_2, 1: "As"}), (1, 0, 1))


def fresh_undoable_nothing() -> Board:
    board = board_of(4, {0: "9c|5h", 1: "6s"})
    board.note_hint()
    return board


CASES: list[tuple[str, Callable[[], Board], Callable[[Board], object]]] = [
    ("not_a_run", mid_game, lambda b: b.play((0, 3, 3))),  # 9h8s7s: mixed suits
    ("face_down", mid_game, lambda b: b.play((5, 2, 2))),  # Kh is face down
    ("rank_mismatch", mid_game, lambda b: b.play((6, 9, 1))),  # 2c onto Ah
    ("empty_column_blocks_deal", lambda: _played(mid_game(), (6, 7, 1)), lambda b: b.play(DEAL)),
    ("stock_empty", lambda: _played(mid_game(), DEAL), lambda b: b.play(DEAL)),
    ("nothing_to_undo", fresh_undoable_nothing, lambda b: b.undo()),
    ("game_over", won, lambda b: b.undo()),
    ("no_destination", mid_game, lambda b: b.resolve_move(5)),  # 5d: no 6 on top anywhere
    ("bad_column", mid_game, lambda b: b.play((0, 10, 1))),
    ("bad_count", mid_game, lambda b: b.play((6, 7, 2))),  # column 6 holds one card
]


@pytest.mark.parametrize(("code", "start", "action"), CASES, ids=[c[0] for c in CASES])
def test_each_refusal_has_its_code_and_changes_nothing(
    code: str, start: Callable[[], Board], action: Callable[[Board], object]
) -> None:
    board = start()
    before = state(board)
    twin = board.copy()
    error = refused(lambda: action(board))
    assert type(error) is IllegalAction
    assert error.code == code
    assert error.detail and str(error) == f"{code}: {error.detail}"
    assert dump(board) == before
    assert board == twin


def test_every_code_has_a_case() -> None:
    assert {c[0] for c in CASES} == DESIGN_CODES
    constants = {
        E.NOT_A_RUN,
        E.FACE_DOWN,
        E.RANK_MISMATCH,
        E.EMPTY_COLUMN_BLOCKS_DEAL,
        E.STOCK_EMPTY,
        E.NOTHING_TO_UNDO,
        E.GAME_OVER,
        E.NO_DESTINATION,
        E.BAD_COLUMN,
        E.BAD_COUNT,
    }
    assert constants == DESIGN_CODES


@pytest.mark.parametrize(
    "action",
    [
        lambda b: b.play((0, 1, 1)),
        lambda b: b.play(DEAL),
        lambda b: b.undo(),
        lambda b: b.resolve_move(0),
        lambda b: b.resolve_move(0, 1),
        lambda b: b.check_move(5, 6, 1),
        lambda b: b.check_deal(),
    ],
    ids=["move", "deal", "undo", "one-tap", "count omitted", "check_move", "check_deal"],
)
def test_every_action_on_a_won_game_is_game_over(action: Callable[[Board], object]) -> None:
    board = won()
    before = state(board)
    assert refused(lambda: action(board)).code == "game_over"
    assert state(board) == before


def test_a_deal_move_tuple_with_a_negative_source_is_not_a_deal() -> None:
    """Only DEAL itself deals; (-1, 3, 2) is a move from a column that does not exist."""
    board = mid_game()
    before = state(board)
    assert refused(lambda: board.play((-1, 3, 2))).code == "bad_column"
    assert refused(lambda: board.play((-1, -1, 1))).code == "bad_column"
    assert state(board) == before


def test_errors_are_typed() -> None:
    assert issubclass(IllegalAction, EngineError)
    assert issubclass(EngineError, Exception)
    error = IllegalAction("face_down", "column 3 has only 1 face-up card")
    assert (error.code, error.detail) == ("face_down", "column 3 has only 1 face-up card")
