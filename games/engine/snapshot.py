"""A compact, versioned, JSON-ready serialisation of a whole Board, and its inverse.

Unlike the public view this holds everything — face-down cards, the stock order and the
undo stack — so it is for storage only (the Game row's snapshot), never for a client.
``load(dump(board)) == board`` for every reachable board (a property test holds it to that).

Shape (version 2)::

    {"v": 2, "suits": 2, "cols": ["9h8s|KsQs", ...10], "stock": "AhAs...", "dealt": 10,
     "removed": "sh", "actions": 12, "undos": 1, "hints": 0, "stack": "372:^ D4s^ 01",
     "seen": "41ee83e9b335..."}

``stack`` is the undo records oldest first, in their text form (``records.py``), joined by
spaces. It is one string, not a list, because a game's history grows with every action
while an action reads at most its newest record: ``load`` leaves the records unparsed (the
board parses one when an undo reaches it) and ``dump`` joins the stored ones back unchanged,
so a long game costs an action little more than a short one. Version 1 (``stack`` as lists,
``[[3, 7, 2, "^", ""], [-1, -1, 0, [[4, "s^"]], ""]]``) still loads; ``dump`` writes version 2.

``deal_over_gap: true`` is the game's table rule (docs/rules.md#deal-over-a-gap), written
only when it is on: a snapshot without it is a game under the standard rules.

``seen`` is the visible keys of the positions since a card was last turned face up
(``Board.seen_keys``, ``seen.py``), 12 hex digits each, joined. A snapshot written before it
existed loads with only the position itself as seen.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .board import Board
from .cards import SUITS, format_cards, parse_cards
from .errors import LayoutError
from .layout import COLUMNS
from .records import STACK_CHARS, Record, parse_record, record_text
from .seen import KEY_CHARS

SNAPSHOT_VERSION: Final = 2
_HEX: Final = re.compile("[0-9a-f]*")


def dump(board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {
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
        "stack": " ".join(
            [board._shelved, *map(record_text, board._stack)]
            if board._shelved
            else map(record_text, board._stack)
        ),
        "seen": board._seen,
    }
    if board.deal_over_gap:
        data["deal_over_gap"] = True
    return data


def load(data: dict[str, Any]) -> Board:
    """Rebuild a Board from ``dump``'s output; raises LayoutError on anything else (on an
    undo record that is not one, when an undo or ``Board.history`` reaches it)."""
    version = data.get("v") if isinstance(data, dict) else None
    if version not in (1, SNAPSHOT_VERSION):
        raise LayoutError("bad_snapshot", f"not a version 1 or {SNAPSHOT_VERSION} snapshot")
    try:
        board = Board.__new__(Board)
        board.suits = int(data["suits"])
        rule = data.get("deal_over_gap", False)
        if not isinstance(rule, bool):
            raise TypeError("deal_over_gap is true or false")
        board.deal_over_gap = rule
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
        stack = data["stack"]
        if version == 1:
            board._stack = [_load_v1_record(r) for r in stack]
            board._shelved = ""
        else:
            if not isinstance(stack, str):
                raise TypeError("the stack is a string")
            # Parsed (and so checked) only when an undo reaches them: a full check here
            # would cost every action in proportion to the game's length.
            if not STACK_CHARS.fullmatch(stack):
                raise ValueError("the stack holds something other than undo records")
            board._stack = []
            board._shelved = stack
        seen = data.get("seen")
        if seen is None:
            board._seen = board.visible_key()
        elif not isinstance(seen, str) or len(seen) % KEY_CHARS or not _HEX.fullmatch(seen):
            raise ValueError("seen is not a string of visible keys")
        else:
            board._seen = seen
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise LayoutError("bad_snapshot", f"malformed snapshot: {exc}") from None
    return board


def _load_v1_record(item: list[Any]) -> Record:
    src, dst, n, a, b = item
    if src < 0:  # a deal: [-1, -1, 0, [[column, settled], ...], ""]
        return parse_record("D" + ",".join(f"{int(i)}{t}" for i, t in a))
    return parse_record(f"{int(src)}{int(dst)}{int(n)}:{a}:{b}")
