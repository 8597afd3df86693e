"""A compact, versioned, JSON-ready serialisation of a whole Board, and its inverse.

Unlike the public view this holds everything — face-down cards, the stock order and the
undo stack — so it is for storage only (the Game row's snapshot), never for a client.
``load(dump(board)) == board`` for every reachable board (a property test holds it to that).

Shape (version 1)::

    {"v": 1, "suits": 2, "cols": ["9h8s|KsQs", ...10], "stock": "AhAs...", "dealt": 10,
     "removed": "sh", "actions": 12, "undos": 1, "hints": 0,
     "stack": [[3, 7, 2, "^", ""], [-1, -1, 0, [[4, "s^"]], ""], ...]}

A settle result is written as the suit letters of the runs removed plus ``^`` if a card
was then turned face up; ``""`` is nothing.
"""

from __future__ import annotations

from typing import Any, Final

from .board import Board, DealRecord, Record, Settled
from .cards import SUITS, format_cards, parse_cards
from .errors import LayoutError
from .layout import COLUMNS

SNAPSHOT_VERSION: Final = 1


def dump(board: Board) -> dict[str, Any]:
    return {
        "v": SNAPSHOT_VERSION,
        "suits": board.suits,
        "cols": [
            f"{format_cards(c[: board.down[i]])}|{format_cards(c[board.down[i] :])}"
            for i, c in enumerate(board.cols)
        ],
        "stock": format_cards(board.stock),
        "dealt": board.dealt,
        "removed": "".join(SUITS[s] for s in board.removed),
        "actions": board.actions,
        "undos": board.undos,
        "hints": board.hints,
        "stack": [_dump_record(r) for r in board._stack],
    }


def load(data: dict[str, Any]) -> Board:
    """Rebuild a Board from ``dump``'s output; raises LayoutError on anything else."""
    if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
        raise LayoutError("bad_snapshot", f"not a version {SNAPSHOT_VERSION} snapshot")
    try:
        board = Board.__new__(Board)
        board.suits = int(data["suits"])
        board.cols = []
        board.down = []
        for text in data["cols"]:
            down, _, up = text.partition("|")
            cards = parse_cards(down) + parse_cards(up)
            board.cols.append(cards)
            board.down.append(len(down) // 2)
        if len(board.cols) != COLUMNS:
            raise LayoutError("bad_snapshot", "a snapshot has ten columns")
        board.stock = parse_cards(data["stock"])
        board.dealt = int(data["dealt"])
        board.removed = [SUITS.index(ch) for ch in data["removed"]]
        board.actions = int(data["actions"])
        board.undos = int(data["undos"])
        board.hints = int(data["hints"])
        board._stack = [_load_record(r) for r in data["stack"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise LayoutError("bad_snapshot", f"malformed snapshot: {exc}") from None
    return board


def _dump_settled(settled: Settled | None) -> str:
    if settled is None:
        return ""
    runs, flipped = settled
    return "".join(SUITS[s] for s in runs) + ("^" if flipped else "")


def _load_settled(text: str) -> Settled | None:
    if not text:
        return None
    flipped = text.endswith("^")
    return (tuple(SUITS.index(ch) for ch in text.rstrip("^")), flipped)


def _dump_record(record: Record) -> list[Any]:
    # The stored shape predates the record types: a deal is [-1, -1, 0, columns, ""].
    if isinstance(record, DealRecord):
        return [-1, -1, 0, [[i, _dump_settled(s)] for i, s in record.settled], ""]
    src, dst, n, settled_src, settled_dst = record
    return [src, dst, n, _dump_settled(settled_src), _dump_settled(settled_dst)]


def _load_record(item: list[Any]) -> Record:
    src, dst, n, a, b = item
    if src < 0:
        return DealRecord(tuple((int(i), _settled(_load_settled(s))) for i, s in a))
    return (int(src), int(dst), int(n), _load_settled(a), _load_settled(b))


def _settled(settled: Settled | None) -> Settled:
    if settled is None:
        raise ValueError("a deal's record lists only the columns where settling did something")
    return settled
