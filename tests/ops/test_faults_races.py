"""A race's time limit ends it with nobody acting, even though the Celery worker holding the
pending sweep was killed with SIGKILL: the deadline lives in the database, and the next beat
sweep, on a fresh worker, ends the race on time with the right winner. No stream process
runs here (it sweeps too), so only Celery can fire the timer. (`make faults`)

Real processes: gunicorn on a scratch database, a private Redis, a worker killed whole
(parent and pool child), then beat and a second worker.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from typing import Any

import httpx
import pytest

from tests.ops.procs import (
    ROOT,
    app_env,
    manage,
    private_redis,
    processes,
    say,
    scratch_database,
    start_beat,
    start_web,
    start_worker,
    wait_for,
)
from tests.races.test_timers import SLOW

pytestmark = [pytest.mark.faults, pytest.mark.slow]

PLAYERS = """
import json
from accounts.models import User
from accounts.services import device_token_issue
out = []
for i, name in enumerate(["alice", "bob", "carol"]):
    user = User.objects.create_user(name, password="not used here 123", is_staff=(i == 0))
    out.append(device_token_issue(user=user).secret)
print(json.dumps(out))
"""


def psql(env: dict[str, str], sql: str) -> str:
    out = subprocess.run(
        ["psql", env["DATABASE_URL"], "-tAc", sql], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def send_later(env: dict[str, str], task: str, countdown: float) -> str:
    """Queue ``task`` to run in ``countdown`` seconds (a worker holds it, unacknowledged)."""
    code = (
        "import sys, django; django.setup(); from spider_api import celery_app; "
        "print(celery_app.send_task(sys.argv[1], countdown=float(sys.argv[2])).id)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, task, str(countdown)],
        cwd=ROOT,
        env={**env, "LOG_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout.strip().splitlines()[-1]


def test_the_time_limit_ends_a_race_after_the_worker_holding_the_sweep_is_killed():
    with (
        scratch_database("spider_faults_race") as db,
        private_redis() as redis,
        processes("race-timer") as procs,
    ):
        env = app_env(
            db,
            redis.url,
            POOL_AUTOFILL="0",
            RACE_COUNTDOWN_SECONDS="0",
            RACE_SWEEP_SECONDS="1",
            CELERY_VISIBILITY_TIMEOUT="3600",  # the killed worker's task never comes back
        )
        manage(env, "migrate", "--noinput", "-v0")
        tokens = json.loads(manage(env, "shell", "-c", PLAYERS).strip().splitlines()[-1])
        base = start_web(procs, env)
        a, b, c = (
            httpx.Client(base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {t}"})
            for t in tokens
        )

        def ok(response: httpx.Response) -> dict[str, Any]:
            assert response.status_code in (200, 201), response.text
            body: dict[str, Any] = response.json()
            return body

        table = ok(a.post("/races", json={"suits": 1, "layout": SLOW, "time_limit_s": 60}))
        code = table["code"]
        for client in (b, c):
            ok(client.post(f"/races/{code}/sit"))
            ok(client.post(f"/races/{code}/ready"))
        body = ok(a.post(f"/races/{code}/start"))
        games = {r["player"]: r["game"] for r in body["race"]["racers"]}

        def move(client: httpx.Client, player: str, version: int, src: int) -> None:
            url = f"/games/{games[player]}/actions"
            ok(client.post(url, json={"type": "move", "from": src, "to": 0, "version": version}))

        move(b, "bob", 0, 2)  # Bob turns two cards over, Alice one, Carol none
        move(b, "bob", 1, 1)
        move(a, "alice", 0, 2)

        # The clock runs out in a few seconds (the time limit is at least a minute: the
        # deadline is brought forward in the row, which is all any timer reads).
        psql(env, "UPDATE races_race SET ends_at = now() + interval '4 seconds'")
        ends_at = psql(env, "SELECT ends_at FROM races_race")

        worker = start_worker(procs, env, "worker1")
        task_id = send_later(env, "races.tasks.sweep_races", 6)
        wait_for("worker1 holds the sweep", lambda: task_id in worker.output(), 30)
        worker.kill_group(signal.SIGKILL)  # parent and child: nobody acknowledges it
        worker.popen.wait(10)
        say(f"worker1 killed holding sweep {task_id}; the race ends at {ends_at}")
        assert psql(env, "SELECT status FROM races_race") == "racing"

        # Nobody acts and no stream is open: beat's sweep on a new worker ends the race.
        start_worker(procs, env, "worker2")
        start_beat(procs, env)
        wait_for(
            "the race to end on time",
            lambda: psql(env, "SELECT status FROM races_race") == "finished",
            90,
            0.5,
        )
        assert f"sweep_races[{task_id}] succeeded" not in worker.output()
        race = ok(c.get(f"/races/{code}"))["race"]
        assert (race["result"], race["end_reason"], race["winner"]) == ("won", "time", "bob")
        states = {r["player"]: r["state"] for r in race["racers"]}
        assert states == {"alice": "lost", "bob": "won", "carol": "lost"}
        assert psql(env, "SELECT finished_at = ends_at FROM races_race") == "t"
        assert psql(env, "SELECT count(*) FROM races_tableevent WHERE kind = 'finished'") == "1"
        # Every racer's game is closed after the race (the same sweep settles it).
        wait_for(
            "the games closed",
            lambda: (
                psql(env, "SELECT count(*) FROM games_game WHERE status = 'in_progress'") == "0"
            ),
            30,
            0.5,
        )
        for client in (a, b, c):
            client.close()
