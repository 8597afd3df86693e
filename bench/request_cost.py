"""Request-cost bench: the server CPU one request costs, for the requests that could cost the
most, measured from outside as a client drives a real server.

Starts gunicorn (ONE sync worker, so every request's CPU is that one process's) and uvicorn
(the race streams, one process) on a scratch PostgreSQL database (``REQUEST_COST_DB``,
default spider_bench_cost, dropped and made afresh), DEBUG off, production's settings but
throttling lifted; then, one request at a time (nothing else runs on the servers), reads the
serving process's CPU time (/proc/<pid>/task/*/schedstat: nanoseconds, user + system) before
and after each request:

* ``register``: sign-up (password hashing, PBKDF2) and ``token`` (log-in: the same hash);
* ``game_create_empty_pool``: ``POST /games {"suits": 4}`` with the pool empty, production's
  settings (vetting on a request off: a 503 ``pool_empty``); and ``..._inline_vet``: the same
  on a server configured as ``make run`` (no worker: vetting on, POOL_SYNC_VET_SECONDS,
  POOL_SYNC_VET_CONCURRENCY 1), the most one request may cost there;
* ``stream_open``: a ticket (API), then the stream opened with it, its first event read and
  the stream closed (the stream process's CPU, including the presence written and closed);
* ``hint``: ``POST /games/{id}/hint`` at every position of games played as a client does
  (each hint's action sent back), with the stock dealt out first (where the stuck
  fallbacks run, the costly hints), 1, 2 and 4 suits on staff-chosen seeds;
* ``action``: the moves of those games, for scale.

    .venv/bin/python bench/request_cost.py
    .venv/bin/python bench/request_cost.py --games 4 --steps 60 --streams 30

Last line: one JSON object: per request kind ``{n, p50_ms, p99_ms, max_ms}`` of server CPU,
``over_150ms`` (kinds whose max passed 150 ms), and ``load`` (the load average before).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx

try:  # imported as bench.<module>
    from bench.client import choose
    from bench.servers import database_afresh, free_port, server_env
except ImportError:  # run as a script: bench/ itself is on sys.path
    from client import choose  # type: ignore[import-not-found,no-redef]
    from servers import (  # type: ignore[import-not-found,no-redef]
        database_afresh,
        free_port,
        server_env,
    )

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DB = os.environ.get("REQUEST_COST_DB", "spider_bench_cost")
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB}"
API = "/api/v1"
UNLIMITED = "1000000/min"


def log(message: str) -> None:
    print(f"[request_cost] {message}", file=sys.stderr, flush=True)


def cpu_ns(pid: int) -> int:
    """CPU time (ns) of every thread of ``pid`` so far."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # a thread just ended
            total += int((task / "schedstat").read_text().split()[0])
    return total


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def env(**extra: str) -> dict[str, str]:
    settings = {
        "THROTTLE_RATE_POOL": UNLIMITED,
        "THROTTLE_RATE_STREAMS": UNLIMITED,
        "THROTTLE_RATE_HINTS": UNLIMITED,
        "RACE_STREAMS_PER_PLAYER": "1000",
        "RACE_GONE_GRACE_SECONDS": "0",
        "POOL_SYNC_VET_SECONDS": "0",  # production's default (a broker, a worker refilling)
    }
    return server_env(DB_URL, **{**settings, **extra})


@contextmanager
def server(kind: str, **extra: str) -> Iterator[tuple[str, int]]:
    """(base URL, pid of the process that serves the requests)."""
    port = free_port()
    if kind == "gunicorn":
        cmd = [
            str(BIN / "gunicorn"),
            "-c",
            str(ROOT / "gunicorn.conf.py"),
            "spider_api.wsgi",
            "--workers=1",
            f"--bind=127.0.0.1:{port}",
        ]
    else:
        cmd = [
            str(BIN / "uvicorn"),
            "spider_api.asgi:application",
            "--host=127.0.0.1",
            f"--port={port}",
            "--lifespan=off",
            "--no-access-log",
            "--timeout-graceful-shutdown=2",
        ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env(**extra), stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health/live", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{kind} did not start")
            time.sleep(0.2)
        pid = proc.pid
        if kind == "gunicorn":
            (pid,) = children(proc.pid)  # the one worker
        yield base, pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # a stream still open holds uvicorn: no orphan left
            proc.kill()
            proc.wait()


def measured(pid: int, call: Callable[[], httpx.Response], into: list[float]) -> httpx.Response:
    before = cpu_ns(pid)
    response = call()
    time.sleep(0.002)  # the worker finishes its request (logging) after the answer
    into.append((cpu_ns(pid) - before) / 1e6)
    return response


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered), 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def fresh_database() -> None:
    database_afresh(DB)
    manage = [str(BIN / "python"), "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput"],
        cwd=ROOT,
        env=env(),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    make_staff = (
        "from accounts.models import User; from accounts.services import device_token_issue; "
        "u = User.objects.create_user('staff', password='bench-password-1', is_staff=True); "
        "print(device_token_issue(user=u).secret)"
    )
    out = subprocess.run(
        [*manage, "shell", "-c", make_staff],
        cwd=ROOT,
        env=env(),
        check=True,
        capture_output=True,
        text=True,
    )
    os.environ["REQUEST_COST_STAFF_TOKEN"] = out.stdout.strip().splitlines()[-1]


def bench_api(base: str, pid: int, args: argparse.Namespace, out: dict[str, list[float]]) -> None:
    http = httpx.Client(base_url=base + API, timeout=60)
    for i in range(args.registers):
        body = {"username": f"cost{i}", "password": "correct horse battery staple"}
        r = measured(pid, partial(http.post, "/auth/register", json=body), out["register"])
        assert r.status_code == 201, r.text
        r = measured(pid, partial(http.post, "/auth/token", json=body), out["token"])
        assert r.status_code == 200, r.text
    player = {"Authorization": f"Bearer {r.json()['token']}"}
    app = http.post(
        "/apps",
        json={"name": "cost", "redirect_uris": ["https://app.example/cb"], "confidential": True},
        headers=player,
    ).json()
    wrong = {"grant_type": "refresh_token", "refresh_token": "spr_x", "client_id": app["client_id"]}
    for _ in range(args.oauth):  # a confidential client's wrong secret: the hash is checked
        r = measured(
            pid,
            partial(
                httpx.post,
                base + "/oauth/token",
                data=wrong,
                auth=(app["client_id"], "not-the-secret"),
            ),
            out["oauth_token_wrong_secret"],
        )
        assert r.status_code == 401, r.text
    for _ in range(args.creates):
        r = measured(
            pid,
            lambda: http.post("/games", json={"suits": 4}, headers=player),
            out["game_create_empty_pool"],
        )
        assert r.status_code == 503 and r.json()["code"] == "pool_empty", r.text
    staff = {"Authorization": f"Bearer {os.environ['REQUEST_COST_STAFF_TOKEN']}"}
    rnd = random.Random(1)
    for suits in (1, 2, 4):
        for g in range(args.games):
            r = http.post("/games", json={"suits": suits, "seed": str(1000 + g)}, headers=staff)
            assert r.status_code == 201, r.text
            state = r.json()
            gid = state["id"]
            while state["deals_left"] and all(c["cards"] for c in state["columns"]):
                state = http.post(
                    f"/games/{gid}/actions", json={"type": "deal"}, headers=staff
                ).json()
            for _step in range(args.steps):
                r = measured(
                    pid,
                    partial(http.post, f"/games/{gid}/hint", json={"n": 0}, headers=staff),
                    out[f"hint_{suits}"],
                )
                assert r.status_code == 200, r.text
                action = r.json()["action"]
                if action is None:
                    action = choose(state, rnd, undo_rate=0.0, undo_when_stuck=False)
                    if action is None:
                        break
                    action = {**action, "version": r.json()["version"]}
                r = measured(
                    pid,
                    partial(http.post, f"/games/{gid}/actions", json=action, headers=staff),
                    out["action"],
                )
                if r.status_code != 200:
                    break
                state = r.json()
                if state["status"] != "in_progress":
                    break


def bench_streams(api: str, stream: str, pid: int, n: int, out: dict[str, list[float]]) -> None:
    http = httpx.Client(base_url=api + API, timeout=30)
    body = {"username": "streamer", "password": "correct horse battery staple"}
    token = http.post("/auth/register", json=body).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    code = http.post("/races", json={"suits": 1}, headers=auth).json()["code"]
    with httpx.Client(base_url=stream, timeout=30) as client:
        for _ in range(n):
            ticket = http.post(f"/races/{code}/ticket", headers=auth).json()
            before = cpu_ns(pid)
            headers = {"Accept": "application/x-ndjson"}
            with client.stream("GET", ticket["events_url"], headers=headers) as response:
                assert response.status_code == 200
                for line in response.iter_lines():
                    if line.strip():
                        break  # the table
            time.sleep(0.5)  # the stream process notices the close and closes the presence
            out["stream_open"].append((cpu_ns(pid) - before) / 1e6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--registers", type=int, default=5)
    parser.add_argument("--creates", type=int, default=20)
    parser.add_argument("--inline-creates", type=int, default=2)
    parser.add_argument("--streams", type=int, default=20)
    parser.add_argument("--oauth", type=int, default=10, help="token requests, wrong secret")
    parser.add_argument("--games", type=int, default=3, help="games per suit mode")
    parser.add_argument("--steps", type=int, default=40, help="hints per game at most")
    args = parser.parse_args()
    load = os.getloadavg()
    fresh_database()
    out: dict[str, list[float]] = {
        k: []
        for k in (
            "register",
            "token",
            "oauth_token_wrong_secret",
            "game_create_empty_pool",
            "game_create_empty_pool_inline_vet",
            "stream_open",
            "hint_1",
            "hint_2",
            "hint_4",
            "action",
        )
    }
    with server("gunicorn") as (api, api_pid):
        log("API requests")
        bench_api(api, api_pid, args, out)
        with server("uvicorn") as (stream, stream_pid):
            log("streams")
            bench_streams(api, stream, stream_pid, args.streams, out)
    with server("gunicorn", POOL_SYNC_VET_SECONDS="10") as (api, api_pid):  # `make run`'s
        log("game creation with inline vetting on")
        http = httpx.Client(base_url=api + API, timeout=60)
        token = http.post(
            "/auth/register", json={"username": "vetter", "password": "correct horse 12"}
        ).json()["token"]
        for _ in range(args.inline_creates):
            subprocess.run(  # empty the 4-suit pool again if the last request filled it
                [
                    "psql",
                    "-h",
                    "127.0.0.1",
                    "-U",
                    "postgres",
                    "-d",
                    DB,
                    "-qc",
                    "UPDATE games_deal SET state = 'rejected' WHERE state = 'pooled'",
                ],
                check=True,
            )
            measured(
                api_pid,
                lambda: http.post(
                    "/games", json={"suits": 4}, headers={"Authorization": f"Bearer {token}"}
                ),
                out["game_create_empty_pool_inline_vet"],
            )
    result: dict[str, Any] = {kind: summary(values) for kind, values in out.items()}
    hints = out["hint_1"] + out["hint_2"] + out["hint_4"]
    result["hint"] = summary(hints)
    result["over_150ms"] = sorted(
        k for k, v in result.items() if isinstance(v, dict) and v.get("max_ms", 0) > 150
    )
    result["load"] = [round(x, 2) for x in load]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
