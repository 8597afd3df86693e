from tests.games.api.conftest import (  # noqa: F401  (fixtures, found by name)
    player,
    player_client,
    staff,
    staff_client,
)
from tests.games.conftest import _no_autofill, stock_pool  # noqa: F401
