"""With the pool empty, a new game's deal is vetted on the spot (seconds of solving) before the
player's row is locked: the player's other requests that lock it (an Idempotency-Key, another
new game, the daily game) are not held up by a solver."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction
from rest_framework.test import APIClient

from accounts.models import User
from games import pool
from games.models import Game
from tests.conftest import token_of
from tests.games.api.helpers import GAMES_URL
from tests.games.conftest import QUICK_SEEDS

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _player_row_is_free(player_id: int) -> bool:
    """Try to lock the player's row without waiting (this thread's own connection)."""
    try:
        with transaction.atomic():
            User.objects.select_for_update(nowait=True).filter(pk=player_id).first()
        return True
    except OperationalError:  # "could not obtain lock on row"
        return False


@pytest.mark.parametrize("key", [None, "new-game-1"])
def test_vetting_for_a_new_game_holds_no_lock_on_the_player(
    settings, monkeypatch, player, key
) -> None:
    settings.POOL_SYNC_VET_SECONDS = 60
    monkeypatch.setattr(pool, "random_seeds", lambda: iter(QUICK_SEEDS[1]))
    vetting, looked = threading.Event(), threading.Event()
    real_solve = pool.solve
    seen: dict[str, Any] = {}

    def solve_while_watched(*args: Any, **kwargs: Any) -> Any:
        # The real solver runs; the test only looks at the player's row while it is about to.
        vetting.set()
        looked.wait(timeout=20)
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(pool, "solve", solve_while_watched)

    def create() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(player)}")
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        try:
            seen["response"] = client.post(GAMES_URL, {"suits": 1}, format="json", **headers)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=create)
    thread.start()
    try:
        assert vetting.wait(timeout=20), "the request never started vetting"
        seen["free"] = _player_row_is_free(player.pk)
    finally:
        looked.set()
        thread.join(timeout=60)

    assert seen["free"], "the player's row was locked while the deal was being vetted"
    response = seen["response"]
    assert response.status_code == 201, response.json()
    game = Game.objects.select_related("deal").get(pk=response.json()["id"])
    assert (game.deal.seed, game.deal.vetted) == (QUICK_SEEDS[1][0], True)
