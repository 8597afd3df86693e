"""Fixtures for the leaderboard and the daily challenge.

The vetted deals come from tests/games/conftest.py (its helpers are imported, not its
fixtures, so nothing here depends on that module's fixture names): ``stock_pool(suits, n)``
puts n solver-vetted deals into the pool, each with its verified ``solver_line``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

import pytest
from django.core.cache import cache

from games.models import Deal
from leaderboard import services
from tests.games.api import conftest as api_fixtures
from tests.games.conftest import QUICK_SEEDS, pooled_deal

clock = api_fixtures.clock  # the frozen clock (timezone.now), as the game API tests use it
FIRST_DAY = date(2026, 3, 1)


def day(n: int) -> date:
    """Day n of the ``days`` fixture's calendar."""
    return FIRST_DAY + timedelta(days=n)


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


@pytest.fixture
def days(clock, stock_pool, monkeypatch) -> Callable[[int], date]:
    """``go(n)``: the clock at noon on day n (from FIRST_DAY), its challenge made from the
    pool's quick deals (five at most). Tokens made after the clock moved back are refused:
    make the players first."""
    stock_pool(2, 5)

    def go(n: int) -> date:
        clock.now = clock.now.replace(
            year=FIRST_DAY.year, month=FIRST_DAY.month, day=FIRST_DAY.day, hour=12
        ) + timedelta(days=n)
        return services.daily_ensure(day=day(n)).date

    return go
