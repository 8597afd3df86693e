"""The vetted pool from a request: one throttle scope (`pool`) for every endpoint that takes a
deal from it (a new casual game, a race's start and `again`), vetting on a request off where a
worker refills the pool, and at most POOL_SYNC_VET_CONCURRENCY requests of a process solving
at once (real threads)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from games import pool
from tests.conftest import ROOT
from tests.games.api.helpers import GAMES_URL, new_game, ok, refused
from tests.races.conftest import open_table, post


def test_new_games_and_race_starts_share_one_pool_budget(
    set_throttle_rate, stock_pool, racers
) -> None:
    set_throttle_rate("pool", "3/day")  # a day: no window boundary mid-test
    stock_pool(1, 4)
    (_, opener), (_, other) = racers(2)
    new_game(opener, 1)  # 1: a casual game
    table = open_table([opener, other])
    ok(post(opener, table["code"], "start"))  # 2: the race's deal
    ok(post(opener, table["code"], "resign"))  # the race is over (the last one left)
    ok(post(opener, table["code"], "again"))  # 3: the next race's deal

    # The fourth deal taken by the same player, whichever way, is refused before any work.
    body = refused(opener.post(GAMES_URL, {"suits": 1}, format="json"), 429, "throttled")
    assert body["retry_after"] >= 1
    # Another player's budget is their own.
    new_game(other, 1)


def test_the_pool_scope_answers_retry_after_on_a_race_start(
    set_throttle_rate, stock_pool, racers
) -> None:
    set_throttle_rate("pool", "1/day")
    stock_pool(1, 2)
    (_, opener), (_, other) = racers(2)
    new_game(opener, 1)
    table = open_table([opener, other])
    response = post(opener, table["code"], "start")
    refused(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1
    assert ok(opener.get(f"/api/v1/races/{table['code']}"))["status"] == "open"  # no deal


def _settings_value(name: str, **env: str) -> str:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", name)
    }
    environ.update(DEBUG="0", SECRET_KEY="x", DJANGO_SETTINGS_MODULE="spider_api.settings", **env)
    code = f"from django.conf import settings; print(settings.{name})"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_vetting_on_a_request_is_off_by_default_where_a_worker_refills_the_pool() -> None:
    # Production: a broker, so a worker refills the pool; no request solves.
    assert _settings_value("POOL_SYNC_VET_SECONDS", CELERY_BROKER_URL="redis://h:6379/0") == "0"
    # `make run`: no broker, nothing else would vet; on, bounded.
    assert _settings_value("POOL_SYNC_VET_SECONDS", CELERY_BROKER_URL="") == "10"
    assert _settings_value("POOL_SYNC_VET_CONCURRENCY") == "1"


def test_with_vetting_off_an_empty_pool_is_a_quick_503_with_retry_after(
    settings, monkeypatch, racers
) -> None:
    ((_, player_client),) = racers(1)
    settings.POOL_SYNC_VET_SECONDS = 0  # the production default (above)
    settings.POOL_RETRY_AFTER_SECONDS = 17

    def never(*args, **kwargs):
        raise AssertionError("a request ran the solver")

    monkeypatch.setattr(pool, "solve", never)
    response = player_client.post(GAMES_URL, {"suits": 4}, format="json")
    body = refused(response, 503, "pool_empty")
    assert body["retry_after"] == 17 and response["Retry-After"] == "17"


def test_at_most_the_configured_requests_of_a_process_vet_at_once(settings, monkeypatch) -> None:
    """Eight requests find the pool empty at once: one solves, the seven others return at
    once (and answer 503 pool_empty); a worker's vetting is not counted against them."""
    settings.POOL_SYNC_VET_SECONDS = 30
    settings.POOL_SYNC_VET_CONCURRENCY = 1
    release = threading.Event()
    lock = threading.Lock()
    solving = {"now": 0, "most": 0, "calls": 0}

    def slow_vet(**kwargs):
        with lock:
            solving["now"] += 1
            solving["calls"] += 1
            solving["most"] = max(solving["most"], solving["now"])
        release.wait(timeout=20)
        with lock:
            solving["now"] -= 1
        return None

    monkeypatch.setattr(pool, "_pooled", lambda suits: release.is_set())  # pooled at the end
    monkeypatch.setattr(pool, "vet_seed", slow_vet)
    returned: list[float] = []
    start = time.monotonic()

    def request() -> None:
        pool.pool_vet_if_empty(suits=4)
        returned.append(time.monotonic() - start)

    threads = [threading.Thread(target=request) for _ in range(8)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while len(returned) < 7 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(returned) == 7, "the requests that found the solver busy did not return at once"
    assert solving["most"] == 1
    # A worker (its own max_seconds) vets beside the request that holds the slot.
    worker = threading.Thread(target=lambda: pool.pool_vet_if_empty(suits=4, max_seconds=30))
    worker.start()
    deadline = time.monotonic() + 10
    while solving["now"] < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert solving["now"] == 2
    release.set()
    for t in [*threads, worker]:
        t.join(timeout=30)
    assert pool._REQUEST_VETTING.active == 0  # every slot given back
