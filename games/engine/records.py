"""Undo records: what ``Board.push`` leaves on its stack to reverse a move or a deal, and
their text form, in which a snapshot stores them.

Text form (no spaces, so a stack is its records joined by spaces)::

    "372"        move 3 cards from column 3 to column 7; settling did nothing
    "372:^"      ... and column 3 turned its new last card face up
    "372::s^"    ... and column 7 removed a run of spades, then turned a card up
    "D"          a deal after which no column settled
    "D0s^,1s"    a deal: column 0 removed a run of spades and turned a card, column 1 a run

A settle result is the suit letters of the runs removed plus ``^`` if a card was then
turned face up. Columns are 0-9, so a move's columns are one digit each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .cards import SUITS
from .errors import LayoutError

# What settling a column did: the suits of the runs it removed, and whether it then turned
# the new last card face up. ``None`` means nothing happened (the common case).
Settled = tuple[tuple[int, ...], bool]
FLIPPED: Final[Settled] = ((), True)

# The undo record of a move: (src, dst, cards moved, what settling src did, ... dst did).
# A plain tuple, typed: as a NamedTuple it made push/pop pairs about half as fast
# (bench/NOTES.md). Deals are rare, so their record is a class of its own.
MoveRecord = tuple[int, int, int, Settled | None, Settled | None]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """The undo record of a deal: the columns whose settling did something, in order."""

    settled: tuple[tuple[int, Settled], ...]


Record = MoveRecord | DealRecord


# The characters a stack's text (records joined by spaces) may hold; each record is checked
# in full when it is parsed.
STACK_CHARS: Final = re.compile(rf"[0-9D{SUITS}^:, ]*")


def settled_text(settled: Settled | None) -> str:
    if settled is None:
        return ""
    runs, flipped = settled
    return "".join(SUITS[s] for s in runs) + ("^" if flipped else "")


def parse_settled(text: str) -> Settled | None:
    if not text:
        return None
    flipped = text.endswith("^")
    return (tuple(SUITS.index(ch) for ch in text.rstrip("^")), flipped)


def record_text(record: Record) -> str:
    if isinstance(record, DealRecord):
        return "D" + ",".join(f"{i}{settled_text(s)}" for i, s in record.settled)
    src, dst, n, settled_src, settled_dst = record
    if settled_dst is not None:
        return f"{src}{dst}{n}:{settled_text(settled_src)}:{settled_text(settled_dst)}"
    if settled_src is not None:
        return f"{src}{dst}{n}:{settled_text(settled_src)}"
    return f"{src}{dst}{n}"


def parse_record(text: str) -> Record:
    """The inverse of ``record_text``; raises LayoutError (bad_snapshot) on anything else."""
    try:
        return _parse(text)
    except (ValueError, IndexError):
        raise LayoutError("bad_snapshot", f"not an undo record: {text!r}") from None


def _parse(text: str) -> Record:
    if text[:1] == "D":
        columns = text[1:].split(",") if len(text) > 1 else []
        return DealRecord(tuple((int(c[0]), _some(parse_settled(c[1:]))) for c in columns))
    head, *settled = text.split(":")
    if not 3 <= len(head) <= 4 or len(settled) > 2 or not head.isdigit():
        raise ValueError(f"not an undo record: {text!r}")
    src_text = settled[0] if settled else ""
    dst_text = settled[1] if len(settled) > 1 else ""
    return (
        int(head[0]),
        int(head[1]),
        int(head[2:]),
        parse_settled(src_text),
        parse_settled(dst_text),
    )


def _some(settled: Settled | None) -> Settled:
    if settled is None:
        raise ValueError("a deal's record lists only the columns where settling did something")
    return settled
