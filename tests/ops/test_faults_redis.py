"""Redis down (broker and cache): games are still created from the pool in the database and
played; /health reports the broker down; when Redis returns, the worker and beat reconnect
and the pool tasks resume. A private Redis on a free port (the shared one is never touched),
a scratch database on the shared PostgreSQL. (`make faults`)
"""

from __future__ import annotations

import random
import time
import uuid

import httpx
import pytest

from bench.load import choose
from tests.ops.procs import (
    app_env,
    manage,
    pool_levels,
    private_redis,
    processes,
    say,
    scratch_database,
    start_beat,
    start_web,
    start_worker,
    stock_pool,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]

TARGET, LOW_WATER = 8, 3


def timed(method: str, url: str, **kwargs) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = httpx.request(method, url, timeout=30, **kwargs)
    return response, time.monotonic() - started


def health(base: str) -> dict:
    return httpx.get(f"{base}/health", timeout=10).json()


def test_redis_down_games_go_on_and_the_pool_tasks_resume():
    with (
        scratch_database() as db,
        private_redis() as redis,
        processes("redis-down") as procs,
    ):
        env = app_env(
            db,
            redis.url,
            POOL_TARGET=str(TARGET),
            POOL_LOW_WATER=str(LOW_WATER),
            POOL_SYNC_VET_SECONDS="0",
            POOL_TOP_UP_SECONDS="2",
            BEAT_HEARTBEAT_SECONDS="1",
            BEAT_STALE_SECONDS="6",
        )
        manage(env, "migrate", "--noinput", "-v0")
        stock_pool(env, unvetted={1: TARGET, 2: LOW_WATER, 4: LOW_WATER})
        base = start_web(procs, env, workers=2, threads=2)
        worker = start_worker(procs, env)
        beat = start_beat(procs, env)
        wait_for("/health 200", lambda: health(base)["status"] == "ok", 60)
        say(f"web, worker, beat on Redis :{redis.port}; /health 200, pools {pool_levels(base)}")

        user = f"redis_{uuid.uuid4().hex[:10]}"
        r = httpx.post(
            f"{base}/api/v1/auth/register",
            json={"username": user, "password": "redis test password 1"},
        )
        auth = {"Authorization": f"Bearer {r.json()['token']}"}

        redis.stop()
        say("Redis stopped (shutdown nosave)")
        try:
            response, took = timed("GET", f"{base}/health")
            body = response.json()
            say(
                f"/health: {response.status_code} in {took:.2f} s, down {body['down']}, "
                f"broker {body['checks']['broker']}"
            )
            assert response.status_code == 503 and "broker" in body["down"]
            assert body["checks"]["broker"]["status"] == "down"
            assert took < 3

            created, played, slowest = 0, 0, 0.0
            for _ in range(TARGET - LOW_WATER + 1):  # below the low-water mark
                response, took = timed(
                    "POST", f"{base}/api/v1/games", json={"suits": 1}, headers=auth
                )
                slowest = max(slowest, took)
                assert response.status_code == 201, response.text
                created += 1
                state = response.json()
                for _ in range(5):
                    action = choose(state, random.Random(played))
                    if action is None:
                        break
                    action["version"] = state["version"]
                    response, took = timed(
                        "POST",
                        f"{base}/api/v1/games/{state['id']}/actions",
                        json=action,
                        headers=auth,
                    )
                    slowest = max(slowest, took)
                    assert response.status_code == 200, response.text
                    state = response.json()
                    played += 1
            board, took = timed("GET", f"{base}/api/v1/leaderboard?suits=1")
            assert board.status_code == 200
            levels = pool_levels(base)
            say(
                f"with Redis down: {created} games created (201), {played} actions played "
                f"(200), leaderboard 200; slowest request {slowest:.2f} s; pools {levels}"
            )
            assert slowest < 3
            assert levels["1"] < LOW_WATER
            time.sleep(3)
            assert worker.alive() and beat.alive(), "a Celery process died without Redis"
        finally:
            redis.start()  # the same port, empty
        say("Redis started again (empty)")

        wait_for("/health 200", lambda: health(base)["status"] == "ok", 90, interval=1)
        say(f"/health 200 again: broker ok, beat {health(base)['checks']['beat']['status']}")
        wait_for("the 1-suit pool refilled", lambda: pool_levels(base)["1"] >= TARGET, 180, 1)
        say(f"the pool tasks resumed: pools {pool_levels(base)}")

        web_log = procs.started[0].output()
        assert "could not queue games.tasks.fill_pool(1)" in web_log  # failed soft, logged
        assert "Traceback" not in web_log, web_log[-3000:]
        assert "games.tasks.fill_pool" in worker.output()
        say("checked: games served from the database, broker reported down, tasks resumed")
