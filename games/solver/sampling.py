"""Determinization for hints: guess the face-down cards, look ahead through them, vote.

The hints' look-ahead (``hint._Search``) stops at a card it turns over: the card is
unknown. Here the unseen cards are *sampled* instead: the cards of the suit mode minus the
face-up ones and the removed runs, dealt at random onto the face-down places (the stock
stays opaque: the deal ends a line as before). Each sample is searched with every card
known, so a line may go on through a card it turns over; a move's value is its mean over
the samples ("hindsight optimisation").

Fairness: the samples are drawn from a generator seeded by the visible position only
(``sample_seed``), never from the hidden cards, so two boards with the same public view get
the same samples and the same hints.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import TYPE_CHECKING

from games.engine.cards import full_deck
from games.engine.layout import run_cards

if TYPE_CHECKING:
    from .hint import VisiblePosition

Hidden = tuple[tuple[int, ...], ...]  # per column, the face-down cards (bottom to top)


def sample_seed(visible: VisiblePosition) -> int:
    """A seed from what the player sees (stable across processes and machines)."""
    text = repr(
        (
            visible.suits,
            visible.hidden,
            visible.cards,
            visible.deals_left,
            visible.runs_removed,
            visible.removed,
        )
    )
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def unseen_cards(visible: VisiblePosition) -> list[int] | None:
    """The cards the player cannot see (face down or in the stock), sorted; None when the
    position does not come from a full deck (a hand-made layout) or the removed runs'
    suits are not known."""
    if len(visible.removed) != visible.runs_removed:
        return None
    left = Counter(full_deck(visible.suits))
    for col in visible.cards:
        left.subtract(col)
    for suit in visible.removed:
        left.subtract(run_cards(suit))
    if any(n < 0 for n in left.values()):
        return None
    cards = sorted(left.elements())
    if len(cards) != sum(visible.hidden) + visible.deals_left * len(visible.cards):
        return None
    return cards


def samples(visible: VisiblePosition, count: int) -> list[Hidden]:
    """``count`` guesses of the face-down cards consistent with the visible position."""
    cards = unseen_cards(visible)
    if cards is None or not sum(visible.hidden):
        return []
    rng = random.Random(sample_seed(visible))
    out = []
    for _ in range(count):
        pool = rng.sample(cards, sum(visible.hidden))
        hidden = []
        at = 0
        for h in visible.hidden:
            hidden.append(tuple(pool[at : at + h]))
            at += h
        out.append(tuple(hidden))
    return out
