"""Where a new game's deal comes from.

``deal_for_new_game`` is the one door: every casual game takes its deal here, and it is
always a solver-vetted deal from the pool (games/pool.py).
"""

from __future__ import annotations

from games.engine import DEAL_VERSION, Layout
from games.models import Deal, seed_to_db
from games.pool import pool_take, pool_vet_if_empty


def deal_for_new_game(*, suits: int) -> Deal:
    """A solver-vetted deal no one has been dealt (PoolEmpty, a 503, if none can be had).
    Quick: call ``deal_vet_ahead`` first, outside the transaction."""
    return pool_take(suits=suits)


def deal_vet_ahead(*, suits: int) -> None:
    """With the pool of ``suits`` empty, vet a deal now: seconds of solving, so before the new
    game's transaction and its locks."""
    pool_vet_if_empty(suits=suits)


def deal_from_seed(*, suits: int, seed: int) -> Deal:
    """A staff-chosen seed: any seed, vetted or not. Reuses the row if it exists; a pooled
    deal staff have looked at leaves the pool, so no player is dealt it."""
    deal = _seeded(suits, seed, Deal.Source.STAFF_SEED)
    if deal.state == Deal.State.POOLED:
        Deal.objects.filter(pk=deal.pk).update(state=Deal.State.DEALT)
        deal.state = Deal.State.DEALT
    return deal


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
