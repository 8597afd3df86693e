"""The engine's typed errors. Each carries a stable machine ``code`` and a human ``detail``.

The codes are part of the public API (docs/rules.md#refused-actions): passed on unchanged.
"""

from __future__ import annotations

from typing import Final

# Codes for actions the rules refuse (HTTP 422 at the API).
NOT_A_RUN: Final = "not_a_run"
FACE_DOWN: Final = "face_down"
RANK_MISMATCH: Final = "rank_mismatch"
EMPTY_COLUMN_BLOCKS_DEAL: Final = "empty_column_blocks_deal"
STOCK_EMPTY: Final = "stock_empty"
NOTHING_TO_UNDO: Final = "nothing_to_undo"
GAME_OVER: Final = "game_over"
NO_DESTINATION: Final = "no_destination"
# Codes for out-of-range input (a column or count that cannot exist).
BAD_COLUMN: Final = "bad_column"
BAD_COUNT: Final = "bad_count"


class EngineError(Exception):
    """Base of the engine's errors: ``code`` is stable, ``detail`` is for people."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class IllegalAction(EngineError):
    """A well-formed action that the rules refuse. The state is left exactly as it was."""


class LayoutError(EngineError):
    """A layout, card, notation or snapshot that cannot describe a legal game."""
