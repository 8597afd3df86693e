"""Fixtures for the game service: vetted deals in the pool, games ready to play.

Solving deals is the slow part, so each (suits, seed) is solved once per test session and
its verified line is kept; every test that needs pooled deals gets fresh rows built from it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from games.engine import DEAL_VERSION, deal_layout
from games.models import Deal
from games.solver import SolveResult, solve

# Seeds the solver wins quickly in each mode (a few seconds at most for 4 suits).
QUICK_SEEDS = {1: [11, 12, 13, 14, 15, 16], 2: [11, 13, 14, 15, 16], 4: [11, 13]}


@cache
def solved(suits: int, seed: int) -> SolveResult:
    result = solve(deal_layout(suits, seed), max_nodes=3_000_000, max_seconds=60)
    assert result.won, f"{suits}-suit seed {seed} should be a quick win"
    return result


def pooled_deal(suits: int, seed: int) -> Deal:
    result = solved(suits, seed)
    deal = Deal(
        suits=suits,
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.POOLED,
        vetted=True,
        solver_line=[a.to_json() for a in result.line],
        par=result.par,
        solver_nodes=result.nodes,
        solver_ms=int(result.seconds * 1000),
    )
    deal.seed = seed
    deal.save()
    return deal


@pytest.fixture(autouse=True)
def _no_vetting_on_request(settings) -> None:
    """Tests fill the pool themselves (and no background filler races them: POOL_AUTOFILL is
    off in every test, tests/conftest.py)."""
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.fixture
def stock_pool(db) -> Callable[..., list[Deal]]:
    """``stock_pool(suits, n)`` puts n solver-vetted deals of ``suits`` into the pool."""

    def stock(suits: int = 1, n: int = 1) -> list[Deal]:
        seeds = QUICK_SEEDS[suits]
        assert n <= len(seeds), f"only {len(seeds)} quick {suits}-suit seeds are listed"
        taken = set(Deal.objects.filter(suits=suits).values_list("seed_db", flat=True))
        fresh = [s for s in seeds if s not in taken][:n]
        assert len(fresh) == n, "the quick seeds are used up in this test"
        return [pooled_deal(suits, s) for s in fresh]

    return stock
