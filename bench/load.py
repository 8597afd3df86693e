"""Load bench: simulated players make the requests real players make, against `make serve`.

Each user registers, reads its profile, then plays game after game: a new 1-suit game, about
150 actions chosen from what the server shows (face-up cards only) with ``version`` set, some
undos and deals, a hint now and then (when the API has a hint endpoint), and reads the
leaderboard and its game every so often. A finished or stuck game is replaced by a new one.
At the end every accepted action (2xx) is looked up in its game's log: one missing, or
different, counts as ``lost``.

With ``--idempotent`` a player sends every new game and action with an ``Idempotency-Key``
and, when the answer does not come (the connection dropped, a 502, 503 or 504), sends it
again with the same key until it does: what a client must do to ride through a failover
(the rehearsal's players, tests/ops/test_rehearsal.py, play so).

By default the bench starts `make serve` itself (gunicorn + Celery worker + beat, DEBUG off,
via honcho) on a scratch database ``spider_bench_load`` of the local PostgreSQL and the local
Redis, with the pool filled first and throttling relaxed, and stops it at the end; ``--url``
aims it at a server already running (mind its throttle rates).

    .venv/bin/python bench/load.py --users 8 --seconds 30
    .venv/bin/python bench/load.py --users 1,2,4,8,16,32 --seconds 20     # a sweep

Last line: one JSON object: ``users``, ``requests_per_s``, ``actions_per_s``, ``p50_ms``,
``p99_ms`` (over every request of the mix), ``errors``, ``retries`` (requests sent again
with ``--idempotent``), ``lost``; a sweep adds ``sweep`` (one
entry per concurrency) and ``p99_over_200ms_at_users`` (the first concurrency whose p99
crossed 200 ms, or null).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

try:  # imported as bench.<module> (the fault tests do)
    from bench.client import choose as pick
    from bench.servers import database_afresh
except ImportError:  # run as a script: bench/ itself is on sys.path
    from client import choose as pick  # type: ignore[import-not-found,no-redef]
    from servers import database_afresh  # type: ignore[import-not-found,no-redef]

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
P99_LIMIT_MS = 200.0


# -- a client that sees only what the server shows ------------------------------------------
def choose(state: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    return pick(state, rnd, undo_rate=0.06, undo_when_stuck=False)


# -- one simulated user ---------------------------------------------------------------------
class Stats:
    """Latencies and outcomes, shared by the users of one stage."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.action_latencies: list[float] = []
        self.by_kind: dict[str, list[float]] = {}
        self.by_route: dict[int, list[float]] = {}  # actions' latencies per base URL
        self.kinds: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []
        self.error_times: list[float] = []  # time.monotonic() of each
        self.retries = 0

    def record(self, kind: str, ms: float, status: int, route: int = 0) -> None:
        with self.lock:
            self.latencies.append(ms)
            if kind == "action":
                self.action_latencies.append(ms)
                self.by_route.setdefault(route, []).append(ms)
            self.by_kind.setdefault(kind, []).append(ms)
            self.kinds[kind] += 1
            self.statuses[status] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)
            self.error_times.append(time.monotonic())


class User(threading.Thread):
    """Registers, then plays until ``stop_at`` (or ``stop`` is set); ``accepted`` holds every
    2xx action, ``accepted_at`` when each was answered. With several ``bases`` its requests
    take turns between them (the same player, the same games, measured on each path)."""

    EXPECTED = {200, 201, 304}
    RETRIED = {502, 503, 504}  # no answer from the app: the same request again, same key
    RETRY_FOR_SECONDS = 90.0

    def __init__(
        self,
        base: str,
        stats: Stats,
        stop_at: float,
        seed: int,
        *,
        hints: bool,
        think: float,
        delay: float = 0.0,
        idempotent: bool = False,
        stop: threading.Event | None = None,
        bases: list[str] | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.delay = delay  # users arrive over the ramp, not all in the same instant
        self.clients = [httpx.Client(base_url=b, timeout=30) for b in (bases or [base])]
        self.client = self.clients[0]
        self.route = 0
        self.stats = stats
        self.stop_at = stop_at
        self.stop = stop
        self.rnd = random.Random(seed)
        self.hints = hints
        self.think = think
        self.idempotent = idempotent
        self.username = f"load_{uuid.uuid4().hex[:12]}"
        self.password = "load bench password 1"
        self.accepted: list[dict[str, Any]] = []
        self.accepted_at: list[float] = []
        self.unanswered: list[str] = []  # requests that never had the app's answer
        self.games: set[str] = set()

    def running(self) -> bool:
        return time.monotonic() < self.stop_at and not (self.stop and self.stop.is_set())

    def call(self, kind: str, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
        """One request; with ``idempotent`` a POST carries a key, and any request that got
        no answer from the app is sent again (the same key) for up to RETRY_FOR_SECONDS."""
        if len(self.clients) > 1:  # the next base URL in turn (its retries stay on it)
            self.route = (self.route + 1) % len(self.clients)
            self.client = self.clients[self.route]
        if self.idempotent and method == "POST" and kind in ("action", "new_game", "hint"):
            kwargs["headers"] = {**kwargs.get("headers", {}), "Idempotency-Key": uuid.uuid4().hex}
        give_up = time.monotonic() + self.RETRY_FOR_SECONDS
        while True:
            response = self._once(kind, method, url, **kwargs)
            lost = response is None or response.status_code in self.RETRIED
            if not (self.idempotent and lost) or time.monotonic() > give_up:
                if lost:
                    self.unanswered.append(f"{kind} {method} {url}")
                return response
            with self.stats.lock:
                self.stats.retries += 1
            time.sleep(0.2)

    def _once(self, kind: str, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = self.client.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            self.stats.error(f"{kind}: {type(exc).__name__}: {exc}")
            return None
        ms = (time.perf_counter() - started) * 1000
        self.stats.record(kind, ms, response.status_code, self.route)
        if response.status_code not in self.EXPECTED:
            self.stats.error(f"{kind}: {response.status_code} {response.text[:160]}")
        return response

    def pause(self) -> None:
        if self.think:
            time.sleep(self.rnd.expovariate(1 / self.think))

    def register(self) -> bool:
        body = {"username": self.username, "password": self.password}
        r = self.call("register", "POST", "/api/v1/auth/register", json=body)
        if r is not None and r.status_code != 201 and self.idempotent:
            # The account may have been made by an attempt whose answer was lost.
            r = self.call("sign_in", "POST", "/api/v1/auth/token", json=body)
        if r is None or r.status_code not in (200, 201):
            return False
        for client in self.clients:
            client.headers["Authorization"] = f"Bearer {r.json()['token']}"
        self.call("me", "GET", "/api/v1/me")
        return True

    def new_game(self) -> dict[str, Any] | None:
        while self.running():
            r = self.call("new_game", "POST", "/api/v1/games", json={"suits": 1})
            if r is not None and r.status_code == 201:
                state = r.json()
                self.games.add(state["id"])
                return state
            time.sleep(1)  # pool empty (503) or an error: counted; try again shortly
        return None

    def run(self) -> None:
        time.sleep(self.delay)
        try:
            if not self.register():
                return
            state = self.new_game()
            budget = self.rnd.randint(120, 180)
            while state is not None and self.running():
                if state["status"] != "in_progress" or state["actions"] >= budget:
                    state, budget = self.new_game(), self.rnd.randint(120, 180)
                    continue
                state = self.step(state)
                self.pause()
        finally:
            for client in self.clients:
                client.close()

    def step(self, state: dict[str, Any]) -> dict[str, Any] | None:
        game = state["id"]
        roll = self.rnd.random()
        suggested = None
        if roll < 0.03:
            self.call("leaderboard", "GET", "/api/v1/leaderboard", params={"suits": 1})
        elif roll < 0.05:
            self.call("game", "GET", f"/api/v1/games/{game}")
        elif roll < 0.08 and self.hints:
            r = self.call("hint", "POST", f"/api/v1/games/{game}/hint", json={"n": 0})
            if r is not None and r.status_code == 200:
                hint = r.json()
                state = {**state, "version": hint["version"]}  # a hint is logged: version + 1
                if hint.get("action") and self.rnd.random() < 0.5:
                    suggested = dict(hint["action"])  # half the time, the player follows it
        action = suggested or choose(state, self.rnd)
        if action is None:
            return self.new_game()
        action["version"] = state["version"]
        body = self.act(game, action)
        if body is not None:
            return body
        fresh = self.call("game", "GET", f"/api/v1/games/{game}")
        return fresh.json() if fresh is not None and fresh.status_code == 200 else None

    def act(self, game: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """Send one action; the game's new state if it was accepted (and it is recorded)."""
        r = self.call("action", "POST", f"/api/v1/games/{game}/actions", json=action)
        if r is None or r.status_code != 200:
            return None
        body: dict[str, Any] = r.json()
        done = body["outcome"]["action"]
        self.accepted.append({"game": game, "version": body["version"], **done})
        self.accepted_at.append(time.monotonic())
        return body

    def lost(self) -> int:
        """Accepted actions missing from (or different in) their game's log."""
        client = httpx.Client(base_url=str(self.clients[0].base_url), timeout=60)
        client.headers.update(self.client.headers)
        logs: dict[str, dict[int, dict[str, Any]]] = {}
        missing = 0
        try:
            for entry in self.accepted:
                if entry["game"] not in logs:
                    log = client.get(f"/api/v1/games/{entry['game']}/actions").json()["actions"]
                    logs[entry["game"]] = {a["seq"]: a for a in log}
                row = logs[entry["game"]].get(entry["version"])
                fields = ("type", "from", "to", "count")
                if row is None or any(row.get(f) != entry.get(f) for f in fields):
                    missing += 1
        finally:
            client.close()
        return missing


# -- a stage: N users for S seconds -----------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_stage(
    base: str,
    users: int,
    seconds: float,
    *,
    hints: bool,
    think: float,
    ramp: float,
    idempotent: bool = False,
) -> dict:
    stats = Stats()
    stop_at = time.monotonic() + seconds
    crowd = [
        User(
            base,
            stats,
            stop_at,
            random.randrange(2**32),
            hints=hints,
            think=think,
            delay=ramp * n / users,
            idempotent=idempotent,
        )
        for n in range(users)
    ]
    started = time.monotonic()
    for user in crowd:
        user.start()
    for user in crowd:
        user.join()
    wall = time.monotonic() - started
    lost = sum(user.lost() for user in crowd)
    for error in stats.errors[:5]:
        print(f"  error: {error}", file=sys.stderr)
    return {
        "users": users,
        "seconds": round(wall, 1),
        "requests": len(stats.latencies),
        "requests_per_s": round(len(stats.latencies) / wall, 1),
        "actions": len(stats.action_latencies),
        "actions_per_s": round(len(stats.action_latencies) / wall, 1),
        "p50_ms": round(statistics.median(stats.latencies), 1) if stats.latencies else None,
        "p99_ms": round(percentile(stats.latencies, 0.99), 1),
        "action_p99_ms": round(percentile(stats.action_latencies, 0.99), 1),
        "mix": dict(stats.kinds),
        "p99_ms_by_kind": {k: round(percentile(v, 0.99), 1) for k, v in stats.by_kind.items()},
        "errors": len(stats.errors),
        "retries": stats.retries,
        "lost": lost,
    }


# -- the server: `make serve` on a scratch database -------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_env(db: str, port: int, deals: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db}",
        # Redis databases of its own: another make serve on this machine uses 0 and 1, and
        # two workers on one queue would take each other's tasks.
        CELERY_BROKER_URL="redis://127.0.0.1:6379/14",
        CACHE_URL="redis://127.0.0.1:6379/15",
        PORT=str(port),
        STREAM_PORT=str(free_port()),  # make serve's race stream: never a fixed port here
        THROTTLE_RATE_AUTH="1000000/min",
        THROTTLE_RATE_GAME_CREATE="1000000/min",
        THROTTLE_RATE_ACTIONS="1000000/min",
        # The 1-suit pool is filled before the run and no fill is queued during it: the
        # solver would take a core from the web processes (in production workers have cores
        # of their own), and the 2- and 4-suit pools, empty here, would keep it busy.
        POOL_TARGET=str(deals),
        POOL_LOW_WATER="0",
    )
    return env


def start_serve(env: dict[str, str], db: str, deals: int, log: Path) -> subprocess.Popen:
    database_afresh(db)
    manage = [sys.executable, str(ROOT / "manage.py")]
    fill_env = {**env, "SECRET_KEY": "bench", "LOG_LEVEL": "WARNING"}
    subprocess.run([*manage, "migrate", "-v0"], env=fill_env, cwd=ROOT, check=True)
    print(f"filling the 1-suit pool with {deals} vetted deals...", file=sys.stderr)
    subprocess.run(
        [*manage, "fill_pool", "--suits", "1", "--count", str(deals)],
        env=fill_env,
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    server = subprocess.Popen(
        ["make", "serve"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole in `stop_serve`
    )
    base = f"http://127.0.0.1:{env['PORT']}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/health/live", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.5)
    stop_serve(server)
    raise RuntimeError(f"make serve did not come up; see {log}")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (honcho starts each of its processes in a session of its
    own, so they are not in make's process group)."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        child, parent = (int(x) for x in line.split())
        children.setdefault(parent, []).append(child)
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def stop_serve(server: subprocess.Popen) -> None:
    """Stop make serve and everything under it: TERM, 30 s to finish, then KILL by pid."""
    tree = descendants(server.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)  # make and honcho; honcho stops its processes
    for pid in tree:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(alive(pid) for pid in tree | {server.pid}):
        server.poll()
        time.sleep(0.2)
    for pid in tree:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(10)


def has_hint_endpoint(base: str) -> bool:
    paths = httpx.get(f"{base}/api/schema/?format=json", timeout=30).json()["paths"]
    return any(p.rstrip("/").endswith("/hint") for p in paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", default="8", help="A number, or a comma-separated sweep.")
    parser.add_argument("--seconds", type=float, default=30, help="Per stage.")
    parser.add_argument("--think-ms", type=float, default=0, help="Mean pause between actions.")
    parser.add_argument("--ramp", type=float, default=5, help="Seconds over which users arrive.")
    parser.add_argument("--url", help="An already running server (default: start make serve).")
    parser.add_argument("--db", default="spider_bench_load")
    parser.add_argument("--deals", type=int, default=0, help="Pool size (default: from users).")
    parser.add_argument(
        "--idempotent",
        action="store_true",
        help="An Idempotency-Key on every new game and action, resent until answered.",
    )
    args = parser.parse_args()
    levels = [int(n) for n in args.users.split(",")]

    server = None
    base = args.url
    log = Path(os.environ.get("TMPDIR", "/tmp")) / "spider-bench-load-serve.log"
    try:
        if base is None:
            deals = args.deals or max(40, 3 * max(levels))
            port = free_port()
            server = start_serve(serve_env(args.db, port, deals), args.db, deals, log)
            base = f"http://127.0.0.1:{port}"
            print(f"make serve is up at {base} (log: {log})", file=sys.stderr)
        hints = has_hint_endpoint(base)
        results = []
        for users in levels:
            result = run_stage(
                base,
                users,
                args.seconds,
                hints=hints,
                think=args.think_ms / 1000,
                ramp=args.ramp,
                idempotent=args.idempotent,
            )
            results.append(result)
            print(json.dumps(result), file=sys.stderr if len(levels) > 1 else sys.stdout)
    finally:
        if server is not None:
            stop_serve(server)

    if len(levels) > 1:
        summary = dict(results[-1])
        crossing = next((r["users"] for r in results if r["p99_ms"] > P99_LIMIT_MS), None)
        summary["sweep"] = [
            {k: r[k] for k in ("users", "requests_per_s", "actions_per_s", "p50_ms", "p99_ms")}
            for r in results
        ]
        summary["p99_over_200ms_at_users"] = crossing
        summary["errors"] = sum(r["errors"] for r in results)
        summary["lost"] = sum(r["lost"] for r in results)
        summary["hints"] = hints
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
