"""Fixtures for the leaderboard and the daily challenge.

The vetted deals come from tests/games/conftest.py (its helpers are imported, not its
fixtures, so nothing here depends on that module's fixture names): ``stock_pool(suits, n)``
puts n solver-vetted deals into the pool, each with its verified ``solver_line``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache

from games.models import Deal
from tests.games.conftest import QUICK_SEEDS, pooled_deal


@pytest.fixture(autouse=True)
def _no_vetting_on_request(settings) -> None:
    """Tests fill the pool themselves (POOL_AUTOFILL is off in every test, tests/conftest.py),
    and an empty pool answers pool_empty at once instead of vetting for seconds."""
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_board_cache() -> None:
    """Boards are cached for a few seconds: each test starts from an empty cache."""
    cache.clear()


@pytest.fixture
def stock_pool(db) -> Callable[..., list[Deal]]:
    """``stock_pool(suits, n)`` puts n solver-vetted deals of ``suits`` into the pool."""

    def stock(suits: int = 2, n: int = 1) -> list[Deal]:
        seeds = QUICK_SEEDS[suits]
        taken = set(Deal.objects.filter(suits=suits).values_list("seed_db", flat=True))
        fresh = [s for s in seeds if s not in taken][:n]
        assert len(fresh) == n, f"only {len(fresh)} quick {suits}-suit seeds are left"
        return [pooled_deal(suits, s) for s in fresh]

    return stock
