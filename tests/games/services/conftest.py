"""The service tests share the API tests' fixtures (players, staff, the frozen clock)."""

from tests.games.api.conftest import (  # noqa: F401  (fixtures, found by name)
    clock,
    other,
    other_client,
    player,
    player_client,
    staff,
    staff_client,
)
