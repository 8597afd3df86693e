"""Replay: rebuild a game from its deal and its log. This is how anyone checks a game.

>>> board = replay(deal_layout(1, 42), [])
>>> board.actions
0
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Action
from .board import Board
from .deal import deal_layout  # noqa: F401  (used in the doctest)
from .layout import Layout


def replay(start: Layout, log: Iterable[Action]) -> Board:
    """Apply every logged action to ``start`` through the checked path.

    Raises IllegalAction if the log holds an action the rules refuse: a log that does not
    replay is evidence of tampering or of a bug, never something to skip.
    """
    board = Board(start)
    for action in log:
        apply_action(board, action)
    return board


def apply_action(board: Board, action: Action) -> None:
    if action.kind == "undo":
        board.undo()
    elif action.kind == "hint":
        board.note_hint()
    else:
        board.play(action.as_move)
