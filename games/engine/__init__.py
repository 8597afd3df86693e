"""The rules of Spider Solitaire, in pure Python: the one place the rules live.

Nothing here imports Django (an import-linter contract enforces it). Start from a deal or a
layout, then play::

    >>> from games.engine import Board, deal_layout, DEAL
    >>> board = Board(deal_layout(suits=2, seed=7))
    >>> outcome = board.play(DEAL)
    >>> board.deals_left, board.actions
    (4, 1)
"""

from .actions import DEAL, Action, Move
from .board import Board, Outcome
from .cards import SUIT_MODES, Card, format_card, parse_card
from .deal import DEAL_VERSION, MAX_SEED, deal_layout, shuffled_deck
from .errors import EngineError, IllegalAction, LayoutError
from .layout import Layout
from .onetap import choose_destination
from .replay import apply_action, replay
from .snapshot import SNAPSHOT_VERSION, dump, load
from .view import public_view
from .words import say_card, say_column

__all__ = [
    "DEAL",
    "DEAL_VERSION",
    "MAX_SEED",
    "SNAPSHOT_VERSION",
    "SUIT_MODES",
    "Action",
    "Board",
    "Card",
    "EngineError",
    "IllegalAction",
    "Layout",
    "LayoutError",
    "Move",
    "Outcome",
    "apply_action",
    "choose_destination",
    "deal_layout",
    "dump",
    "format_card",
    "load",
    "parse_card",
    "public_view",
    "replay",
    "say_card",
    "say_column",
    "shuffled_deck",
]
