"""A Celery worker killed with SIGKILL in the middle of vetting: the fill_pool task is
delivered again (acks_late), no deal is stored twice or half-written, and the pool refills.
A private Redis, a scratch database on the shared PostgreSQL. (`make faults`)

Two kills: the pool process running the task (the worker's parent sees it die and, with
``reject_on_worker_lost``, requeues the task at once), and the whole worker, parent and child
(nobody is left to requeue it: Redis hands the unacknowledged task out again once its
visibility timeout has passed, here 5 s, to the next worker that starts).
"""

from __future__ import annotations

import re
import signal
import subprocess
import time

import pytest

from tests.ops.procs import (
    app_env,
    manage,
    private_redis,
    processes,
    publish,
    say,
    scratch_database,
    start_worker,
    verify_games,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]

VISIBILITY_TIMEOUT = 5
POOLED_SQL = "SELECT count(*) FROM games_deal WHERE suits = 1 AND state = 'pooled'"


def pooled(env: dict[str, str]) -> int:
    """1-suit deals in the pool (psql: quicker than starting Django)."""
    out = subprocess.run(
        ["psql", env["DATABASE_URL"], "-tAc", POOLED_SQL],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(out.strip())


def vetted_lines(log: str) -> int:
    return len(re.findall(r"vetted 1-suit seed", log))


def test_a_worker_killed_mid_vet_redelivers_and_the_pool_refills():
    with (
        scratch_database() as db,
        private_redis() as redis,
        processes("worker-kill") as procs,
    ):
        base_env = app_env(
            db,
            redis.url,
            POOL_AUTOFILL="0",
            CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
            POOL_FILL_MAX_SECONDS="120",
            # Each deal's par searched too (about 0.2 s of CPU a 1-suit deal): with the
            # solver's native core vetting alone takes about 10 ms a deal, and a fill of 15
            # was over before the kill landed.
            POOL_PAR_MAX_NODES="2000000",
        )
        manage(base_env, "migrate", "--noinput", "-v0")

        # 1. Kill the pool process that runs the task.
        env = {**base_env, "POOL_TARGET": "15"}
        worker = start_worker(procs, env, "worker1")
        task_id = publish(env, "games.tasks.fill_pool", 1)
        say(f"queued fill_pool(1) {task_id}, target 15, on worker1 (pid {worker.pid})")
        wait_for("the first vetted deal", lambda: vetted_lines(worker.output()) >= 1, 120, 0.05)
        [child] = worker.children()
        subprocess.run(["kill", "-KILL", str(child)], check=True)
        level = pooled(env)
        assert f"fill_pool[{task_id}] succeeded" not in worker.output(), "killed too late"
        say(f"SIGKILLed the pool process {child} mid-vet, the pool at {level}/15")

        wait_for("the pool at 15", lambda: pooled(env) >= 15, 180, interval=1)
        log = worker.output()
        received = log.count(f"fill_pool[{task_id}] received")
        say(f"worker1: task {task_id} received {received} times; WorkerLostError logged")
        assert "WorkerLostError" in log or "exited by signal SIGKILL" in log
        assert received == 2, "the task was not delivered again after its process died"
        assert f"fill_pool[{task_id}] succeeded" in log
        worker.stop()

        # 2. Kill the whole worker, parent and child.
        env = {**base_env, "POOL_TARGET": "35"}
        worker2 = start_worker(procs, env, "worker2")
        task_id = publish(env, "games.tasks.fill_pool", 1)
        say(f"queued fill_pool(1) {task_id}, target 35, on worker2 (pid {worker2.pid})")
        wait_for("a vetted deal", lambda: vetted_lines(worker2.output()) >= 1, 120, 0.05)
        worker2.kill_group(signal.SIGKILL)
        killed_at = time.monotonic()
        level = pooled(env)
        assert f"fill_pool[{task_id}] succeeded" not in worker2.output(), "killed too late"
        say(f"SIGKILLed worker2's whole process group mid-vet, the pool at {level}/35")
        unacked = subprocess.run(
            ["redis-cli", "-p", str(redis.port), "hlen", "unacked"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        say(f"Redis holds {unacked} unacknowledged task(s)")
        assert unacked == "1"

        time.sleep(max(0.0, VISIBILITY_TIMEOUT + 1 - (time.monotonic() - killed_at)))
        worker3 = start_worker(procs, env, "worker3")
        wait_for("the pool at 35", lambda: pooled(env) >= 35, 240, interval=1)
        log3 = worker3.output()
        say(f"worker3 received {task_id} again after the visibility timeout and finished it")
        assert f"fill_pool[{task_id}] received" in log3
        assert f"fill_pool[{task_id}] succeeded" in log3

        report = verify_games(env)
        say(
            f"deals {report['deals']}, bad (no verified winning line) {report['bad_deals']}, "
            f"seeds stored twice {report['duplicate_seeds']}"
        )
        assert report["bad_deals"] == [] and report["duplicate_seeds"] == 0
        assert report["deals"].get("pooled", 0) >= 35
        say("checked: redelivered both times, no duplicate or half-written deal, pool refilled")
