"""PostgreSQL restarted under load: requests in flight fail cleanly (503
database_unavailable with Retry-After, never a 500), nothing is half-applied, and once it is
back every game's snapshot is the replay of its log and every accepted action is in its log.

The restarted server is a private cluster made for the test (initdb in a temp dir, its own
port): the shared PostgreSQL is never touched. Run for both ways of holding connections:
persistent per thread (DATABASE_CONN_MAX_AGE) and psycopg's pool (DATABASE_POOL).
(`make faults`)
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from typing import Any

import httpx
import pytest

from bench.load import choose
from tests.ops.procs import (
    app_env,
    manage,
    private_postgres,
    processes,
    say,
    start_web,
    stock_pool,
    verify_games,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]

PLAYERS = 6


class Player(threading.Thread):
    """Plays with ``version`` set; on a 503 waits and reads the state again. Records every
    answer, and every accepted action as the server described it."""

    def __init__(self, base: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=base, timeout=30)
        self.stop = stop
        self.rnd = random.Random()
        self.answers: Counter[tuple[int, str]] = Counter()
        self.problems: list[str] = []
        self.accepted: list[dict[str, Any]] = []
        self.accepted_at: list[float] = []

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
        try:
            r = self.client.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            self.problems.append(f"{method} {url}: {type(exc).__name__}: {exc}")
            return None
        try:
            code = r.json().get("code", "") if r.status_code >= 400 else ""
        except ValueError:
            self.problems.append(f"{method} {url}: {r.status_code} not JSON: {r.text[:200]}")
            return r
        self.answers[(r.status_code, code)] += 1
        if r.status_code >= 500 and (
            r.status_code != 503
            or code != "database_unavailable"
            or r.headers.get("Retry-After") != "5"
        ):
            self.problems.append(f"{method} {url}: {r.status_code} {r.text[:200]}")
        if r.status_code == 503:
            time.sleep(0.3)
        return r

    def until_ok(self, method: str, url: str, ok: int, **kwargs: Any) -> dict | None:
        while not self.stop.is_set():
            r = self.request(method, url, **kwargs)
            if r is not None and r.status_code == ok:
                return r.json()
        return None

    def run(self) -> None:
        name = f"pg_{uuid.uuid4().hex[:10]}"
        body = {"username": name, "password": "restart test password 1"}
        registered = self.until_ok("POST", "/api/v1/auth/register", 201, json=body)
        if registered is None:
            return
        self.client.headers["Authorization"] = f"Bearer {registered['token']}"
        state = None
        while not self.stop.is_set():
            if state is None or state["status"] != "in_progress" or state["actions"] > 120:
                state = self.until_ok("POST", "/api/v1/games", 201, json={"suits": 1})
                continue
            action = choose(state, self.rnd)
            if action is None:
                state = None
                continue
            action["version"] = state["version"]
            r = self.request("POST", f"/api/v1/games/{state['id']}/actions", json=action)
            if r is not None and r.status_code == 200:
                state = r.json()
                done = state["outcome"]["action"]
                self.accepted.append({"game": state["id"], "version": state["version"], **done})
                self.accepted_at.append(time.monotonic())
            else:  # refused, or the database is away: read the state again
                state = self.until_ok("GET", f"/api/v1/games/{state['id']}", 200)


@pytest.mark.parametrize("connections", ["persistent", "pool"])
def test_postgresql_restarted_under_load(connections):
    with private_postgres() as pg, processes(f"pg-restart-{connections}") as procs:
        extra = (
            {"DATABASE_CONN_MAX_AGE": "60"}
            if connections == "persistent"
            # A request waits at most 1 s for a pooled connection: the 2 s outage makes some
            # wait longer, and they must answer 503 too (psycopg_pool's PoolTimeout).
            else {"DATABASE_POOL": "1", "DATABASE_POOL_MAX_SIZE": "2", "DATABASE_POOL_TIMEOUT": "1"}
        )
        env = app_env(pg.url, None, POOL_AUTOFILL="0", POOL_SYNC_VET_SECONDS="0", **extra)
        manage(env, "migrate", "--noinput", "-v0")
        stock_pool(env, unvetted={1: 400, 2: 2, 4: 2})
        base = start_web(procs, env, workers=2, threads=2)
        say(f"gunicorn (2 workers x 2 threads, {connections} connections) on a private cluster")

        stop = threading.Event()
        players = [Player(base, stop) for _ in range(PLAYERS)]
        for p in players:
            p.start()
        try:
            time.sleep(4)
            before = sum(len(p.accepted) for p in players)
            say(f"{PLAYERS} players, {before} actions accepted; stopping PostgreSQL (fast)")
            started = time.monotonic()
            pg.restart(down_for=2.0)
            back = time.monotonic()
            say(f"PostgreSQL was down {back - started:.1f} s, restarted")
            wait_for(
                "/health 200",
                lambda: httpx.get(f"{base}/health", timeout=10).status_code == 200,
                60,
            )
            time.sleep(4)
        finally:
            stop.set()
            for p in players:
                p.join(60)

        answers = sum((p.answers for p in players), Counter())
        problems = [x for p in players for x in p.problems]
        accepted = [a for p in players for a in p.accepted]
        after = sum(1 for p in players for t in p.accepted_at if t > back)
        say(f"answers: {dict(sorted(answers.items()))}")
        say(f"accepted actions: {len(accepted)}, {after} of them after the restart")
        web_log = procs.started[0].output()
        outage_lines = web_log.count("database unavailable")
        say(f"web log: {outage_lines} 'database unavailable' lines, no traceback expected")

        assert problems == [], problems[:10]  # no 500, no HTML, no dropped connection
        assert answers[(503, "database_unavailable")] > 0, "no request met the restart"
        assert after > 0, "nothing was accepted after PostgreSQL came back"
        assert "Traceback" not in web_log, web_log[-3000:]

        report = verify_games(env, accepted)
        say(
            f"verified {report['games']} games, {report['actions']} logged actions: "
            f"{len(report['snapshot_mismatches'])} snapshot mismatches, "
            f"{report['missing_accepted_count']} of {report['accepted_checked']} accepted missing"
        )
        assert report["snapshot_mismatches"] == []
        assert report["missing_accepted_count"] == 0
        say("checked: clean 503s only, nothing half-applied, every accepted action logged")
