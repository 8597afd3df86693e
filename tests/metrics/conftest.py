from tests.games.api.conftest import (  # noqa: F401  (fixtures, found by name)
    player,
    player_client,
    staff,
    staff_client,
)
from tests.games.conftest import _no_vetting_on_request, stock_pool  # noqa: F401
