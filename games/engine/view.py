"""The public view of a Board: all a player may see, and nothing more.

Face-down cards appear only as a count per column (``hidden``), the stock only as the
number of deals left. This is the one function that decides what leaves the server about a
running game, so the API, the hints and the tests all go through it.
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .cards import SUITS, format_card


def public_view(board: Board) -> dict[str, Any]:
    return {
        "suits": board.suits,
        "deal_over_gap": board.deal_over_gap,  # the table rule: the hints must know it
        "columns": [
            {"hidden": board.down[i], "cards": [format_card(card) for card in c[board.down[i] :]]}
            for i, c in enumerate(board.cols)
        ],
        "deals_left": board.deals_left,
        "runs_removed": board.runs_removed,
        "removed_suits": [SUITS[s] for s in board.removed],
        "score": board.score,
        "actions": board.actions,
        "undos": board.undos,
        "hints": board.hints,
        "won": board.won,
        "stuck": board.is_stuck(),
        "perfect": board.perfect,
        "can_undo": board.can_undo,
    }
