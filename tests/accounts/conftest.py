"""Fixtures for the account tests: the vetted pool (tests/games), and a player with a
history (tests/accounts/history.py)."""

from __future__ import annotations

import pytest

from tests.accounts.history import History, build_history
from tests.games.conftest import stock_pool  # noqa: F401  (a fixture)


@pytest.fixture
def history(make_user, auth_client, stock_pool, settings) -> History:  # noqa: F811
    return build_history(make_user, auth_client, stock_pool, settings)
