"""The one-tap destination: where a card goes when the player names no destination.

docs/rules.md#one-tap-destination: a same-suit placement beats an off-suit one; a move that
turns over a hidden card or empties its column ranks higher; breaking an already joined
same-suit run ranks lower; moving a whole column into an empty column is never chosen;
ties go to the lowest column index; and ("treat an empty column as an asset") between
otherwise equal candidates, placing on a card beats dropping into an empty column.

Scores: reveal-or-empty +2, same suit +1, breaking a joined run -2. The order of the
criteria is (score, onto a card, lowest column).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Move
from .layout import COLUMNS

if TYPE_CHECKING:
    from .board import Board

REVEAL_OR_EMPTY = 2
SAME_SUIT = 1
BREAKS_RUN = -2


def candidate_moves(board: Board, src: int, count: int | None = None) -> list[Move]:
    """Legal moves from ``src`` a one-tap may choose: with ``count`` given, that count to
    every column it fits; otherwise the longest fitting count for each column."""
    moves: list[Move] = []
    column = board.cols[src]
    whole_column = board.down[src] == 0
    for dst in range(COLUMNS):
        if dst == src:
            continue
        fit = board.fitting_count(src, dst)
        if fit is None or (count is not None and board.cols[dst] and fit != count):
            continue
        n = fit if count is None else count  # the caller has checked that count lifts
        if not board.cols[dst] and whole_column and n == len(column):
            continue  # never chosen: it changes nothing but the column's index
        moves.append((src, dst, n))
    return moves


def move_score(board: Board, move: Move) -> tuple[int, int, int]:
    """The sort key of a candidate (higher is better)."""
    src, dst, n = move
    column = board.cols[src]
    first = column[-n]
    score = 0
    if n == len(column) - board.down[src]:  # every face-up card leaves: a flip or an empty column
        score += REVEAL_OR_EMPTY
    target = board.cols[dst]
    if target and target[-1] >> 4 == first >> 4:
        score += SAME_SUIT
    if n < len(column) - board.down[src] and column[-n - 1] == first + 1:
        score += BREAKS_RUN
    return (score, 1 if target else 0, -dst)


def choose_destination(board: Board, src: int, count: int | None = None) -> Move | None:
    """The best one-tap move from ``src`` (with ``count`` cards if given), or None."""
    moves = candidate_moves(board, src, count)
    if not moves:
        return None
    return max(moves, key=lambda m: move_score(board, m))
