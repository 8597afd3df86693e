"""Helpers shared by the engine tests: build a position from a compact description.

A position in a test is one readable line of the engine's notation (``Layout.parse``). To
keep the tables short, ``position`` writes that line from a dict naming only the columns
that hold cards::

    position(2, {0: "9h|KsQs", 3: "5h"}, stock="-")
    == "2 9h|KsQs/|/|/|5h/|/|/|/|/| - -"

A column is ``"DOWN|UP"`` (two-character cards, bottom to top) or just ``"UP"`` when no
card is face down; columns not named are empty.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from games.engine import Board, EngineError, Layout, dump

COLUMNS = 10


def position(
    suits: int,
    cols: Mapping[int, str] | Sequence[str] = (),
    stock: str = "-",
    removed: str = "-",
) -> str:
    """The one-line notation of a position described compactly (see the module doc)."""
    columns = ["|"] * COLUMNS
    items = cols.items() if isinstance(cols, Mapping) else enumerate(cols)
    for i, text in items:
        columns[i] = text if "|" in text else f"|{text}"
    return f"{suits} {'/'.join(columns)} {stock or '-'} {removed or '-'}"


def board_of(
    suits: int,
    cols: Mapping[int, str] | Sequence[str] = (),
    stock: str = "-",
    removed: str = "-",
) -> Board:
    """A fresh Board on ``position(...)``."""
    return Board(Layout.parse(position(suits, cols, stock, removed)))


def state(board: Board) -> dict[str, Any]:
    """A deep, comparable picture of everything a Board holds (its snapshot)."""
    return copy.deepcopy(dump(board))


def refused(action: Callable[[], object]) -> EngineError:
    """Run ``action`` and return the EngineError it raises (failing the test if none)."""
    with pytest.raises(EngineError) as info:
        action()
    return info.value


def face_down_cards(board: Board) -> list[int]:
    return [card for i, c in enumerate(board.cols) for card in c[: board.down[i]]]


def face_up_cards(board: Board) -> list[int]:
    return [card for i, c in enumerate(board.cols) for card in c[board.down[i] :]]
