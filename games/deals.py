"""Where a new game's deal comes from.

``deal_for_new_game`` is the one function the solver-vetted pool replaces: every casual
game takes its deal here.
"""

from __future__ import annotations

import secrets

from games.engine import DEAL_VERSION, Layout
from games.models import Deal, seed_to_db


def deal_for_new_game(*, suits: int) -> Deal:
    """A fresh deal for a casual game (for now a random seed, not yet solver-vetted)."""
    return _seeded(suits, secrets.randbits(64), Deal.Source.RANDOM)


def deal_from_seed(*, suits: int, seed: int) -> Deal:
    """A staff-chosen seed: any seed, vetted or not. Reuses the row if it exists."""
    return _seeded(suits, seed, Deal.Source.STAFF_SEED)


def deal_from_layout(*, layout: Layout) -> Deal:
    return Deal.objects.create(
        suits=layout.suits,
        deal_version=DEAL_VERSION,
        layout_notation=layout.notation(),
        source=Deal.Source.STAFF_LAYOUT,
        state=Deal.State.DEALT,
    )


def _seeded(suits: int, seed: int, source: str) -> Deal:
    deal, _ = Deal.objects.get_or_create(
        suits=suits,
        seed_db=seed_to_db(seed),
        deal_version=DEAL_VERSION,
        defaults={"source": source, "state": Deal.State.DEALT},
    )
    return deal
