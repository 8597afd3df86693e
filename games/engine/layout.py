"""Layouts: a position described card by card, and its one-line notation.

A ``Layout`` is what a test, a tutorial or a puzzle hands the engine: ten columns, each a
tuple of face-down cards and a tuple of face-up cards (both bottom to top), the stock in
dealing order (its first ten cards are the next deal, onto columns 0..9), the suits of
the runs already removed, and the table rule the game is played under: ``deal_over_gap``
(docs/rules.md#deal-over-a-gap), off by default. A layout may hold fewer than 104 cards;
such a game is won when every card has left the table.

The one-line notation (like chess's FEN) is ``<suits> <col>/<col>/…/<col> <stock> <removed>``:
each column is ``DOWN|UP`` (two-character cards, bottom to top; ``|`` alone is an empty
column), the stock is its cards in dealing order or ``-``, and removed runs are their suit
letters or ``-``; a fifth field, ``deal_over_gap``, says the game is played under that
table rule (omitted under the standard rules)::

    2 9h8s|KsQs/|/…(ten columns)… AhAs…(stock) -

>>> Layout.parse("1 " + "/".join(["|As"] * 8 + ["|"] * 2) + " - -").total_cards()
8
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Final

from .cards import (
    RUN_LENGTH,
    SUITS,
    Card,
    copies_allowed,
    format_card,
    format_cards,
    make_card,
    mode_suits,
    parse_card,
    parse_cards,
)
from .errors import LayoutError
from .words import say_card, say_column

COLUMNS: Final = 10
DEAL_SIZE: Final = COLUMNS  # one card onto each column
BAD_LAYOUT: Final = "bad_layout"
# The table rule ``deal_over_gap`` as the notation's fifth field names it.
DEAL_OVER_GAP: Final = "deal_over_gap"

Column = tuple[tuple[Card, ...], tuple[Card, ...]]


def run_cards(suit: int) -> list[Card]:
    """The 13 cards of a completed run of ``suit``, King first."""
    return [make_card(suit, rank) for rank in range(RUN_LENGTH, 0, -1)]


@dataclass(frozen=True, slots=True)
class Layout:
    suits: int
    columns: tuple[Column, ...]
    stock: tuple[Card, ...] = ()
    removed: tuple[int, ...] = ()
    # The table rule deal_over_gap (docs/rules.md#deal-over-a-gap): fixed when the game is
    # dealt, so it rides with the game's start into every Board, replay and solver search.
    deal_over_gap: bool = False

    def __post_init__(self) -> None:
        self.validate()

    # -- validation ---------------------------------------------------------------------
    def validate(self) -> None:
        """Raise LayoutError unless this layout can be played under the rules."""
        mode = mode_suits(self.suits)
        if len(self.columns) != COLUMNS:
            raise LayoutError(
                BAD_LAYOUT, f"a layout has exactly {COLUMNS} columns, not {len(self.columns)}"
            )
        for i, (down, up) in enumerate(self.columns):
            if down and not up:
                raise LayoutError(
                    BAD_LAYOUT,
                    f"{say_column(i)} has face-down cards but no face-up card on top",
                )
        if len(self.stock) % DEAL_SIZE:
            raise LayoutError(
                BAD_LAYOUT,
                f"the stock must be a multiple of {DEAL_SIZE} cards long, not {len(self.stock)}",
            )
        for suit in self.removed:
            if suit not in mode:
                raise LayoutError(
                    BAD_LAYOUT, f"a removed run of suit {suit} is not in a {self.suits}-suit game"
                )
        used = Counter(self.all_cards())
        allowed = copies_allowed(self.suits)
        for card, n in used.items():
            most = allowed.get(card, 0)
            if n > most:
                raise LayoutError(
                    BAD_LAYOUT,
                    f"{say_card(card)} appears {n} times; a {self.suits}-suit game has {most}",
                )

    def all_cards(self) -> list[Card]:
        cards: list[Card] = []
        for down, up in self.columns:
            cards.extend(down)
            cards.extend(up)
        cards.extend(self.stock)
        for suit in self.removed:
            cards.extend(run_cards(suit))
        return cards

    def total_cards(self) -> int:
        return len(self.all_cards())

    def under_rules(self, *, deal_over_gap: bool) -> Layout:
        """This position played under the given table rule."""
        if deal_over_gap == self.deal_over_gap:
            return self
        return replace(self, deal_over_gap=deal_over_gap)

    # -- notation -----------------------------------------------------------------------
    def notation(self) -> str:
        cols = "/".join(f"{format_cards(d)}|{format_cards(u)}" for d, u in self.columns)
        stock = format_cards(self.stock) or "-"
        removed = "".join(SUITS[s] for s in self.removed) or "-"
        rule = f" {DEAL_OVER_GAP}" if self.deal_over_gap else ""
        return f"{self.suits} {cols} {stock} {removed}{rule}"

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Parse the one-line notation; raises LayoutError on anything malformed."""
        fields = text.split()
        rule = len(fields) == 5 and fields[4] == DEAL_OVER_GAP
        if len(fields) != 4 and not rule:
            raise LayoutError(
                BAD_LAYOUT,
                "notation is '<suits> <ten columns joined by /> <stock or -> <removed or ->' "
                f"and, under that table rule, '{DEAL_OVER_GAP}'",
            )
        suits_text, cols_text, stock_text, removed_text = fields[:4]
        if suits_text not in ("1", "2", "4"):
            raise LayoutError("bad_suits", f"suits must be 1, 2 or 4, not {suits_text!r}")
        columns = []
        for col in cols_text.split("/"):
            down, bar, up = col.partition("|")
            if not bar:
                raise LayoutError(
                    BAD_LAYOUT, f"column {col!r} needs a '|' between face-down and face-up cards"
                )
            columns.append((tuple(parse_cards(down)), tuple(parse_cards(up))))
        stock = () if stock_text == "-" else tuple(parse_cards(stock_text))
        removed = () if removed_text == "-" else tuple(_parse_suit(ch) for ch in removed_text)
        return cls(int(suits_text), tuple(columns), stock, removed, rule)

    # -- the JSON shape of the staff ``layout`` input -------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "columns": [
                {"down": [format_card(c) for c in d], "up": [format_card(c) for c in u]}
                for d, u in self.columns
            ],
            "stock": [format_card(c) for c in self.stock],
        }

    @classmethod
    def from_json(cls, suits: int, data: Any) -> Layout:
        """Build from ``{"columns": [{"down": [...], "up": [...]}, ...10], "stock": [...]}``."""
        if not isinstance(data, dict) or not isinstance(data.get("columns"), list):
            raise LayoutError(BAD_LAYOUT, "layout must be an object with a 'columns' list")
        columns = []
        for i, col in enumerate(data["columns"]):
            if not isinstance(col, dict):
                raise LayoutError(
                    BAD_LAYOUT, f"columns[{i}] must be an object with 'down' and 'up' lists"
                )
            columns.append(
                (
                    # the body's own path: columns[0] is the first entry of its list
                    _card_list(col.get("down", []), f"columns[{i}].down"),
                    _card_list(col.get("up", []), f"columns[{i}].up"),
                )
            )
        stock = _card_list(data.get("stock", []), "stock")
        return cls(suits, tuple(columns), stock)


def _parse_suit(ch: str) -> int:
    if ch not in SUITS:
        raise LayoutError(BAD_LAYOUT, f"{ch!r} is not a suit letter (s, h, d, c)")
    return SUITS.index(ch)


def _card_list(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise LayoutError(BAD_LAYOUT, f"{where} must be a list of cards")
    return tuple(parse_card(v) for v in value)
