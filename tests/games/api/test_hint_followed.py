"""A client that only ever plays hint n=0 makes progress (it once went round in circles); a
position's hints are searched once (the cache); hints have a throttle scope of their own."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.engine import load
from games.models import Game
from games.services import hints
from tests.redis_server import REDIS_URL, redis_up
from tests.solver.test_hint_seen import cycle_layout_json

from .helpers import act, actions_url, game_url, new_game, ok, refused

pytestmark = pytest.mark.django_db


def hint_url(game_id: str) -> str:
    return f"{game_url(game_id)}/hint"


def ask(client, game_id: str, n: int = 0):
    return client.post(hint_url(game_id), {"n": n}, format="json")


def cycle_game(client) -> dict:
    return new_game(client, 1, layout=cycle_layout_json())


def visible_key(game_id: str) -> str:
    return load(Game.objects.get(pk=game_id).snapshot).visible_key()


def test_a_client_playing_hint_0_never_goes_round_in_circles(staff_client):
    """Every card face up, two deals left: the hints used to lead round the same five moves
    for ever. Followed blindly now, they lead to new positions, the deals, and the win."""
    game = cycle_game(staff_client)
    visited = {visible_key(game["id"])}
    state = game
    for _ in range(200):
        hint = ok(ask(staff_client, game["id"]))
        if hint["action"] is None:
            break  # told it is stuck: acceptable, but this deal is won
        state = ok(staff_client.post(actions_url(game["id"]), hint["action"], format="json"))
        key = visible_key(game["id"])
        if hint["action"]["type"] == "move":
            assert key not in visited, "a hint led back to a position already seen"
        visited.add(key)
        if state["status"] == "won":
            break
    assert state["status"] == "won"
    assert state["deals_left"] == 0


def test_a_position_is_searched_once_whatever_is_asked_about_it(staff_client, monkeypatch):
    searches = []
    search = hints.board_hints

    def counted(board, **kwargs):
        searches.append(board.actions)
        return search(board, **kwargs)

    monkeypatch.setattr(hints, "board_hints", counted)
    game = cycle_game(staff_client)

    first = ok(ask(staff_client, game["id"], 0))
    again = ok(ask(staff_client, game["id"], 0))  # the same (game, version, n)
    assert again == first and len(searches) == 1
    second = ok(ask(staff_client, game["id"], 1))  # the same position at the next version
    assert second["action"] != first["action"] and len(searches) == 1
    latest = ok(ask(staff_client, game["id"], 0))
    assert len(searches) == 1 and latest["action"]["version"] == second["version"] + 1

    ok(staff_client.post(actions_url(game["id"]), latest["action"], format="json"))
    moved = ok(ask(staff_client, game["id"], 0))  # a new position: a new search
    assert len(searches) == 2
    assert moved["action"] != first["action"]


def test_a_cached_hint_is_the_hint_a_search_gives(staff_client):
    game = cycle_game(staff_client)
    cached = ok(ask(staff_client, game["id"], 1))
    cache.clear()
    searched = ok(ask(staff_client, game["id"], 1))  # counted once: same n in a row
    assert searched == cached


class _StillClock:
    """The throttle's clock, stopped at the start of a window: the requests of a slow test
    cannot straddle two windows (where the sliding count admits a few percent more)."""

    def __call__(self) -> float:
        return 6_000_000.0


def test_hints_have_a_throttle_scope_of_their_own(staff_client, set_throttle_rate, monkeypatch):
    from base.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "timer", _StillClock())
    game = cycle_game(staff_client)
    set_throttle_rate("hints", "2/min")
    ok(ask(staff_client, game["id"], 0))
    ok(ask(staff_client, game["id"], 0))
    before = Game.objects.get(pk=game["id"])

    response = ask(staff_client, game["id"], 1)

    body = refused(response, 429, "throttled")
    assert 0 < body["retry_after"] <= 60
    assert response["Retry-After"] == str(body["retry_after"])
    after = Game.objects.get(pk=game["id"])
    assert (after.version, after.hints) == (before.version, before.hints)
    ok(act(staff_client, game["id"], "deal"))  # actions are counted apart


def test_hints_do_not_use_up_the_actions_allowance(staff_client, set_throttle_rate):
    game = cycle_game(staff_client)
    set_throttle_rate("actions", "1/min")
    for n in range(3):
        ok(ask(staff_client, game["id"], n))
    ok(act(staff_client, game["id"], "deal"))


@pytest.mark.skipif(not redis_up(), reason="needs Redis: set CELERY_BROKER_URL")
def test_the_hint_cache_works_through_the_production_cache(staff_client, monkeypatch):
    """Production's cache (FailSoftRedisCache on Redis, CACHE_URL): what one web process
    searched, another finds."""
    from base.cache import FailSoftRedisCache

    redis_cache = FailSoftRedisCache(REDIS_URL, {})
    searches = []
    search = hints.board_hints
    monkeypatch.setattr(hints, "board_hints", lambda b, **kw: searches.append(1) or search(b))
    monkeypatch.setattr(hints, "cache", redis_cache)
    game = cycle_game(staff_client)
    try:
        first = ok(ask(staff_client, game["id"], 1))
        cache.clear()  # nothing in this process's own cache
        again = ok(ask(staff_client, game["id"], 1))

        assert again == first and searches == [1]
    finally:
        client = redis_cache._cache.get_client(None, write=True)
        for key in client.keys(f"*{game['id']}*"):
            client.delete(key)
