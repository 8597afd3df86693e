"""Deals: from (suit mode, 64-bit seed) to a permutation of the 104 cards, and its layout.

The procedure is part of the public contract, so that anyone can re-derive a finished game
from its revealed seed. It is versioned by ``DEAL_VERSION``; any change to it must bump it.

DEAL_VERSION 1, precisely:

1. PRNG: SplitMix64 (Steele, Lea, Flood 2014). All arithmetic is modulo 2**64::

       state = seed
       next():
           state = state + 0x9E3779B97F4A7C15
           z = state
           z = (z XOR (z >> 30)) * 0xBF58476D1CE4E5B9
           z = (z XOR (z >> 27)) * 0x94D049BB133111EB
           return z XOR (z >> 31)

2. Unbiased bounded integer in [0, n): ``limit = 2**64 - (2**64 mod n)``; draw ``x = next()``
   until ``x < limit``; return ``x mod n``.
3. Deck: ``cards.full_deck(suits)`` — eight sets, set k of suit ``k mod suits`` (spades,
   hearts, diamonds, clubs in that order), each Ace..King.
4. Fisher–Yates: for i from 103 down to 1: ``j = bounded(i + 1)``; swap deck[i], deck[j].
5. Layout: shuffled card i (i < 54) goes onto column ``i mod 10``; the last card of each
   column is face up, the rest face down. Cards 54..103 are the stock in dealing order: the
   next deal puts stock[0..9] onto columns 0..9.

>>> from games.engine.cards import format_card
>>> [format_card(c) for c in shuffled_deck(1, 0)[:3]]  # seed 0's first three cards, for ever
['3s', '8s', 'Js']
"""

from __future__ import annotations

from typing import Final

from .cards import Card, full_deck, mode_suits
from .errors import LayoutError
from .layout import COLUMNS, Layout

DEAL_VERSION: Final = 1
SEED_BITS: Final = 64
MAX_SEED: Final = (1 << SEED_BITS) - 1
TABLEAU_CARDS: Final = 54

_MASK64: Final = MAX_SEED
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB


class SplitMix64:
    """The SplitMix64 generator; see the module docstring for the exact definition."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n) by rejection sampling."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise LayoutError("bad_seed", f"seed must be an integer in 0..2**64-1, not {seed!r}")
    return seed


def shuffled_deck(suits: int, seed: int) -> list[Card]:
    """The deck of ``suits`` shuffled by seed ``seed`` (DEAL_VERSION 1)."""
    mode_suits(suits)
    deck = full_deck(suits)
    rng = SplitMix64(check_seed(seed))
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_layout(suits: int, seed: int) -> Layout:
    """The starting layout of deal (suits, seed): 6/6/6/6/5/5/5/5/5/5 columns, 50-card stock."""
    deck = shuffled_deck(suits, seed)
    piles: list[list[Card]] = [[] for _ in range(COLUMNS)]
    for i in range(TABLEAU_CARDS):
        piles[i % COLUMNS].append(deck[i])
    return Layout(
        suits=suits,
        columns=tuple((tuple(p[:-1]), (p[-1],)) for p in piles),
        stock=tuple(deck[TABLEAU_CARDS:]),
    )
