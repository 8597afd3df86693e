"""How the API's human sentences name columns and cards: the one place for it.

The API's numbers count columns from 0 (``"from": 0``); people count them 1-10 and write
cards as ``10♠`` or ``Q♥``, never the wire notation ``Ts``. Every ``detail`` and hint
``reason`` goes through these two helpers (docs/rules.md#how-sentences-name-things).

>>> say_column(0), say_card(10), say_card(0x1C)
('column 1', '10♠', 'Q♥')
"""

from __future__ import annotations

from typing import Final

from .cards import RANK_MASK, Card

_RANK_WORDS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_SIGNS: Final = "♠♥♦♣"  # by suit index: spades, hearts, diamonds, clubs


def say_column(index: int) -> str:
    """``column N`` with N = the 0-based API index + 1."""
    return f"column {index + 1}"


def say_card(card: Card) -> str:
    """A card as people write it: ``10♠``, ``Q♥``, ``A♣``."""
    return _RANK_WORDS[(card & RANK_MASK) - 1] + _SUIT_SIGNS[card >> 4]
