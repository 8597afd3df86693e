"""Where a new game's deal comes from.

``deal_for_new_game`` is the one door: every casual game takes its deal here, and it is
always a solver-vetted deal from the pool (games/pool.py). ``deal_improve_line`` spends more
search on a deal whose line is shown (the daily challenge's par).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from base.errors import DomainError
from games.engine import DEAL_VERSION, Action, Board, Layout, LayoutError
from games.errors import StaffOnly, rule_error
from games.models import Deal, seed_to_db
from games.pool import pool_take, pool_vet_if_empty
from games.solver import improve

if TYPE_CHECKING:
    from accounts.models import User


log = logging.getLogger(__name__)


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


def deal_choice_check(*, player: User, seed: int | None, layout: dict[str, Any] | None) -> None:
    """Choosing the deal (a seed or a layout), of a game or of a race table, is for staff."""
    if (seed is not None or layout is not None) and not player.is_staff:
        raise StaffOnly(detail="Only staff may choose a seed or a layout.")


def deal_layout_parse(*, suits: int, layout: dict[str, Any]) -> Layout:
    """A staff layout as the engine reads it: a malformed one is 400 with the engine's code,
    one with nothing left to play 400 `bad_layout`."""
    try:
        start = Layout.from_json(suits, layout)
    except LayoutError as exc:
        raise rule_error(exc, status=400) from None
    if Board(start).won:
        raise DomainError("bad_layout", "This layout leaves nothing to play.", 400)
    return start


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


def deal_improve_line(*, deal: Deal, max_nodes: int, max_seconds: float | None = None) -> bool:
    """Search ``deal``'s winning line again, wider (``games.solver.improve``, ``max_nodes``
    positions), and store a shorter line found as its line and par. Once per deal: one
    searched already (``improved_nodes`` set) or without a line is left alone. Slow (up to
    about a minute): call it outside any transaction. Two workers at once store one result.
    True if the line changed.
    """
    if deal.improved_nodes is not None or not deal.solver_line or deal.par is None:
        return False
    line = [Action.from_json(a) for a in deal.solver_line]
    result = improve(deal.layout(), line, max_nodes=max_nodes, max_seconds=max_seconds)
    shorter = result.par is not None and result.par < deal.par
    new_line = [a.to_json() for a in result.line] if shorter else deal.solver_line
    # One statement, conditional on the deal not searched yet: of two workers at once, the
    # first to write wins and the other's update matches no row.
    fields = {
        "solver_line": new_line,
        "par": result.par if shorter else deal.par,
        "improved_nodes": result.nodes,
    }
    stored = Deal.objects.filter(pk=deal.pk, improved_nodes__isnull=True).update(**fields)
    log.info(
        "searched the line of %s again: %s -> %s actions in %d nodes, %.1f s%s",
        deal,
        deal.par,
        result.par,
        result.nodes,
        result.seconds,
        "" if stored else " (another worker stored first)",
    )
    if stored:  # the caller's instance as stored, without reading the row back
        for name, value in fields.items():
            setattr(deal, name, value)
    return bool(stored) and shorter
