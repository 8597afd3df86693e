"""One-tap moves (docs/rules.md#one-tap-destination) and partly named moves.

The criteria, each tested on its own below: a same-suit placement beats an off-suit one; a
move that turns over a hidden card or empties a column ranks higher; breaking an already
joined same-suit run ranks lower; moving a whole column into an empty column is never
chosen; ties go to the lowest column index. The refinement documented in onetap.py: between
otherwise equal candidates, placing on a card beats dropping into an empty column.
"""

from __future__ import annotations

import pytest

from games.engine import choose_destination
from games.engine.onetap import candidate_moves, move_score
from tests.engine.conftest import board_of, refused, state

# Eight cards that take nothing from the sources below: to fill columns 2..9.
FULL = dict(zip(range(2, 10), ["Kd", "Kc", "Qh", "Qd", "Qc", "Jh", "Jd", "Jc"], strict=True))

# (id, columns of a 4-suit position, source, count or None, expected move or error code)
ONE_TAP = [
    # -- same suit beats off suit ---------------------------------------------------------
    ("same suit beats off suit", {0: "9c|Qd5h", 1: "6s", 2: "6h"}, 0, None, (0, 2, 1)),
    ("off suit when it is all there is", {0: "9c|Qd5h", 1: "6s"}, 0, None, (0, 1, 1)),
    # -- turning a hidden card over, or emptying a column, ranks higher -------------------
    ("reveal beats same suit", {0: "9c|6s5s", 1: "6s", 2: "7h"}, 0, None, (0, 2, 2)),
    ("reveal into an empty column beats same suit", {0: "9c|6s5s", 1: "6s"}, 0, None, (0, 2, 2)),
    ("emptying beats breaking", {0: "6s5s", 1: "6d", 2: "7h"}, 0, None, (0, 2, 2)),
    # -- breaking a joined same-suit run ranks lower --------------------------------------
    ("breaking ranks below off suit", {0: "Kh7s6s5s", 1: "6s", 2: "8h"}, 0, None, (0, 2, 3)),
    ("breaking off suit ranks lowest", {0: "Kh7s6s5s", 1: "6d", 2: "8h"}, 0, None, (0, 2, 3)),
    ("an empty column beats breaking", {0: "Kh7s6s5s", 1: "6d"}, 0, None, (0, 2, 3)),
    ("breaking when nothing else fits", {0: "Kh7s6s5s", 1: "6d"} | FULL, 0, None, (0, 1, 1)),
    # -- a whole column into an empty column is never chosen ------------------------------
    ("whole column: never into an empty one", {0: "7s6s5s"}, 0, None, "no_destination"),
    ("whole column: onto a card instead", {0: "7s6s5s", 6: "8h"}, 0, None, (0, 6, 3)),
    ("whole column: even a run-breaking card", {0: "7s6s5s", 6: "6d"}, 0, None, (0, 6, 1)),
    ("a one-card column: never into an empty one", {0: "5h"}, 0, None, "no_destination"),
    ("not a whole column over face-down cards", {0: "9c|5h"}, 0, None, (0, 1, 1)),
    ("not a whole column under other face-up cards", {0: "9h8s7s"}, 0, None, (0, 1, 2)),
    # -- refinement: onto a card beats an empty column ------------------------------------
    ("onto a card beats an empty column", {0: "Kh7s6s5s", 5: "8h"}, 0, None, (0, 5, 3)),
    # -- ties go to the lowest column -----------------------------------------------------
    ("ties: lowest column", {0: "9c|Qd5s", 3: "6h", 7: "6d", 8: "6h"}, 0, None, (0, 3, 1)),
    ("ties: lowest empty column", {0: "9c|Qd5s"}, 0, None, (0, 1, 1)),
    ("ties: the source is skipped", {4: "9c|Qd5s"}, 4, None, (4, 0, 1)),
    ("ties: same suit still wins", {0: "9c|Qd5s", 3: "6h", 7: "6s"}, 0, None, (0, 7, 1)),
    # -- a count named, the destination not -----------------------------------------------
    ("count 1 fits a card", {0: "9c|7s6s5s", 1: "6h", 2: "8d"}, 0, 1, (0, 1, 1)),
    ("count 3 fits the other", {0: "9c|7s6s5s", 1: "6h", 2: "8d"}, 0, 3, (0, 2, 3)),
    ("count 2 fits only an empty column", {0: "9c|7s6s5s", 1: "6h", 2: "8d"}, 0, 2, (0, 3, 2)),
    ("count 2 with no empty column", {0: "9c|7s6s5s", 1: "6h"} | FULL, 0, 2, "no_destination"),
    ("count past the face-up cards", {0: "9c|7s6s5s", 1: "6h"}, 0, 4, "face_down"),
    ("count past the run", {0: "9c|Qd7s6s5s", 1: "6h"}, 0, 4, "not_a_run"),
    # -- refusals -------------------------------------------------------------------------
    (
        "nothing fits",
        {0: "5s", 1: "Kh", 2: "Kd", 3: "Kc", 4: "Qh", 5: "Qd", 6: "Qc", 7: "Jh", 8: "Jd", 9: "Jc"},
        0,
        None,
        "no_destination",
    ),
    ("source out of range", {0: "5s"}, 10, None, "bad_column"),
    ("count zero", {0: "5s"}, 0, 0, "bad_count"),
]


@pytest.mark.parametrize(
    ("cols", "src", "count", "expected"),
    [row[1:] for row in ONE_TAP],
    ids=[row[0] for row in ONE_TAP],
)
def test_one_tap(cols: dict[int, str], src: int, count: int | None, expected: object) -> None:
    board = board_of(4, cols)
    before = state(board)
    if isinstance(expected, tuple):
        move = board.resolve_move(src, None, count)
        assert move == expected
        assert move in board.legal_moves()
        assert state(board) == before  # resolving changes nothing
        board.play(move)
    else:
        assert refused(lambda: board.resolve_move(src, None, count)).code == expected
        assert state(board) == before


def test_choose_destination_returns_none_when_nothing_fits() -> None:
    board = board_of(4, {0: "5h"})
    assert candidate_moves(board, 0) == []
    assert choose_destination(board, 0) is None


@pytest.mark.parametrize(
    ("cols", "move", "score"),
    [
        ({0: "9c|Qd5h", 1: "6d"}, (0, 1, 1), 0),  # plain off-suit placement
        ({0: "9c|Qd5h", 1: "6h"}, (0, 1, 1), 1),  # same suit
        ({0: "9c|5h", 1: "6d"}, (0, 1, 1), 2),  # turns the 9c over
        ({0: "5h", 1: "6d"}, (0, 1, 1), 2),  # empties column 0
        ({0: "9c|5h", 1: "6h"}, (0, 1, 1), 3),  # both
        ({0: "Qd6h5h", 1: "6d"}, (0, 1, 1), -2),  # breaks 6h5h
        ({0: "Qd6h5h", 1: "6h"}, (0, 1, 1), -1),  # breaks, but same suit
        ({0: "Qd6s5h", 1: "6h"}, (0, 1, 1), 1),  # 6s5h was not joined: nothing broken
        ({0: "Qd6h5h", 1: "7d"}, (0, 1, 2), 0),
    ],
)
def test_move_score_components(cols: dict[int, str], move: tuple, score: int) -> None:
    board = board_of(4, cols)
    assert move_score(board, move)[0] == score
    assert move_score(board, move)[1:] == (1, -move[1])  # onto a card; lower column is better


def test_move_score_into_an_empty_column() -> None:
    board = board_of(4, {0: "9c|Qd5h"})
    assert move_score(board, (0, 4, 1)) == (0, 0, -4)


# -- a destination named, the count not: "the longest movable run that fits" -------------
LONGEST = [
    ("the whole run onto a card", 9, 4),
    ("part of the run", 2, 2),
    ("one card", 3, 1),
    ("the whole run into an empty column", 5, 4),
]


@pytest.mark.parametrize(("dst", "count"), [r[1:] for r in LONGEST], ids=[r[0] for r in LONGEST])
def test_count_omitted_is_the_longest_run_that_fits(dst: int, count: int) -> None:
    board = board_of(4, {0: "9c|Kh8s7s6s5s", 9: "9h", 2: "7d", 3: "6d", 4: "5d"})
    assert board.fitting_count(0, dst) == count
    assert board.resolve_move(0, dst) == (0, dst, count)


@pytest.mark.parametrize(
    ("src", "dst", "code"),
    [
        (0, 4, "rank_mismatch"),  # 5d: nothing of 8s..5s fits
        (0, 0, "bad_column"),  # onto its own column
        (0, 10, "bad_column"),
        (1, 9, "bad_count"),  # an empty source: nothing to move
        (-1, 9, "bad_column"),
    ],
)
def test_count_omitted_refusals(src: int, dst: int, code: str) -> None:
    board = board_of(4, {0: "9c|Kh8s7s6s5s", 9: "9h", 4: "5d"})
    before = state(board)
    assert refused(lambda: board.resolve_move(src, dst)).code == code
    assert state(board) == before


def test_both_named_is_checked_as_given() -> None:
    board = board_of(4, {0: "9c|Kh8s7s6s5s", 9: "9h", 2: "7d"})
    assert board.resolve_move(0, 2, 2) == (0, 2, 2)
    assert refused(lambda: board.resolve_move(0, 2, 3)).code == "rank_mismatch"
    assert refused(lambda: board.resolve_move(0, 9, 5)).code == "not_a_run"


def test_one_tap_from_an_empty_column_is_refused() -> None:
    board = board_of(4, {0: "5h", 1: "6d"})
    before = state(board)
    assert refused(lambda: board.resolve_move(2)).code == "bad_count"
    assert state(board) == before


def test_one_tap_on_a_won_game_is_game_over() -> None:
    board = board_of(1, {0: "KsQsJsTs9s8s7s6s5s4s3s2s", 1: "As"})
    board.play(board.resolve_move(1))
    assert board.won
    assert refused(lambda: board.resolve_move(0)).code == "game_over"
