"""Cards, suits and the two-character wire notation (``Ts``, ``Ah``, ``Kd``).

A card is a small int: ``suit << 4 | rank`` with rank 1 (Ace) .. 13 (King) and suit
0..3 for spades, hearts, diamonds, clubs. The packing makes the two questions the rules
ask all the time single integer comparisons:

* ``lower == upper - 1`` — same suit and exactly one rank below (a joined run);
* ``lower & 15 == (upper & 15) - 1`` — one rank below, any suit (a legal placement).

>>> parse_card("Ts"), format_card(parse_card("Ah"))
(10, 'Ah')
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from .errors import LayoutError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")  # in words, by suit index
ACE: Final = 1
KING: Final = 13
RUN_LENGTH: Final = 13  # a completed run is King down to Ace
RANK_MASK: Final = 15

SUIT_MODES: Final = (1, 2, 4)
SETS_PER_GAME: Final = 8  # eight full sets of Ace..King, 104 cards
DECK_SIZE: Final = SETS_PER_GAME * RUN_LENGTH

Card = int


def make_card(suit: int, rank: int) -> Card:
    return suit << 4 | rank


def rank_of(card: Card) -> int:
    return card & RANK_MASK


def suit_of(card: Card) -> int:
    return card >> 4


def format_card(card: Card) -> str:
    return RANKS[(card & RANK_MASK) - 1] + SUITS[card >> 4]


_PARSE: Final = {
    RANKS[r - 1] + SUITS[s]: make_card(s, r) for s in range(4) for r in range(ACE, KING + 1)
}


def parse_card(text: str) -> Card:
    """Parse ``"Ts"``-style notation; raises LayoutError with code ``bad_card``."""
    try:
        return _PARSE[text]
    except (KeyError, TypeError):
        raise LayoutError(
            "bad_card", f"{text!r} is not a card: use rank A23456789TJQK + suit shdc"
        ) from None


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return "".join(format_card(c) for c in cards)


def parse_cards(text: str) -> list[Card]:
    """Parse concatenated two-character cards, e.g. ``"KsQsJs"``."""
    if len(text) % 2:
        raise LayoutError("bad_card", f"{text!r} is not a list of two-character cards")
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def mode_suits(suits: int) -> tuple[int, ...]:
    """The suit indices a suit mode plays with: 1 -> spades; 2 -> spades, hearts; 4 -> all."""
    if suits not in SUIT_MODES:
        raise LayoutError("bad_suits", f"suits must be 1, 2 or 4, not {suits!r}")
    return tuple(range(suits))


def full_deck(suits: int) -> list[Card]:
    """The unshuffled 104-card deck of a suit mode, in its canonical order.

    Set k (0..7) is suit ``mode_suits(suits)[k % suits]``, Ace..King. The shuffle in
    deal.py permutes exactly this list, so this order is part of DEAL_VERSION.
    """
    order = mode_suits(suits)
    return [
        make_card(order[k % len(order)], rank)
        for k in range(SETS_PER_GAME)
        for rank in range(ACE, KING + 1)
    ]


def copies_allowed(suits: int) -> Counter[Card]:
    """How many copies of each card a suit mode has (8, 4 or 2)."""
    return Counter(full_deck(suits))
