"""API load benchmark: N simulated players play legal actions against the real HTTP server.

Starts gunicorn (DEBUG off) on a scratch PostgreSQL database, fills the vetted pool, then
runs N player threads for a fixed time. Each player registers, starts a 1-suit game and
plays legal actions chosen from the state the server returned (what a real client sees:
face-up cards only), with ``version`` set, some undos and deals; a finished or stuck game
is replaced by a new one. At the end every game's log is read back: an accepted action
(2xx) missing from the log counts as ``lost``.

    .venv/bin/python bench/api.py --players 16 --seconds 30
    .venv/bin/python bench/api.py --players 16 --seconds 30 --auth oauth

``--auth oauth``: each player plays as a third-party app would, with an OAuth2 access token
(scope game:play) got through the whole flow before the timed window (an app registered,
the authorization approved, the code exchanged with its PKCE verifier), in place of the
first-party token that registering hands out.

Last line: one JSON object with actions_per_s, p50_ms, p99_ms, errors, lost.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

try:  # imported as bench.<module> (the fault tests do)
    from bench.client import choose as pick
    from bench.servers import database_afresh, server_env, wait_live
except ImportError:  # run as a script: bench/ itself is on sys.path
    from client import choose as pick  # type: ignore[import-not-found,no-redef]
    from servers import (  # type: ignore[import-not-found,no-redef]
        database_afresh,
        server_env,
        wait_live,
    )

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CPU_GROUPS = {"web": ("gunicorn",), "postgres": ("postgres",)}
OWN = {"web"}  # groups counted in the bench's own process tree (the server it started)


def prepare_database(db: str, env: dict[str, str], deals: int) -> None:
    database_afresh(db)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    if deals:
        subprocess.run(
            [*manage, "fill_pool", "--suits", "1", "--count", str(deals)],
            env=env,
            check=True,
            cwd=ROOT,
        )


def start_server(
    env: dict[str, str], port: int, workers: int, threads: int, wait: float = 30
) -> subprocess.Popen:
    cmd = [
        str(BIN / "gunicorn"),
        "spider_api.wsgi",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "--log-level",
        "warning",
    ]
    return wait_live(subprocess.Popen(cmd, env=env, cwd=ROOT), port, wait)


# -- a client that sees only what the server shows ------------------------------------------
def choose(state: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    return pick(state, rnd, undo_rate=0.08, undo_when_stuck=True)


REDIRECT = "https://bench.example/callback"


def oauth_token(client: httpx.Client, first_party: str) -> str:
    """An access token for game:play, as a public app gets one (the flow: register the app,
    approve its PKCE authorization request as the player, exchange the code)."""
    player = {"Authorization": f"Bearer {first_party}"}
    app = client.post(
        "/api/v1/apps", json={"name": "bench", "redirect_uris": [REDIRECT]}, headers=player
    ).json()
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    query = urlencode(
        {
            "response_type": "code",
            "client_id": app["client_id"],
            "redirect_uri": REDIRECT,
            "scope": "game:play",
            "code_challenge": challenge.rstrip(b"=").decode(),
            "code_challenge_method": "S256",
        }
    )
    back = client.post(
        f"/api/v1/oauth/authorization?{query}", json={"allow": True}, headers=player
    ).json()["redirect_to"]
    code = parse_qs(urlsplit(back).query)["code"][0]
    tokens = client.post(
        "/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": app["client_id"],
            "code_verifier": verifier,
        },
    )
    if tokens.status_code != 200:
        raise RuntimeError(f"token: {tokens.status_code} {tokens.text[:200]}")
    return str(tokens.json()["access_token"])


class Player(threading.Thread):
    def __init__(self, base: str, n: int, stop_at: float, seed: int, auth: str) -> None:
        super().__init__(daemon=True)
        self.auth = auth
        self.client = httpx.Client(base_url=base, timeout=30)
        self.name_ = f"bench{seed}_{n}"
        self.stop_at = stop_at
        self.state: dict[str, Any] = {}
        self.rnd = random.Random(seed * 1000 + n)
        self.latencies: list[float] = []
        self.accepted: dict[str, int] = {}
        self.errors: list[str] = []

    def new_game(self) -> dict[str, Any]:
        r = self.client.post("/api/v1/games", json={"suits": 1})
        if r.status_code != 201:
            raise RuntimeError(f"new game: {r.status_code} {r.text[:200]}")
        state = r.json()
        self.accepted[state["id"]] = 0
        return state

    def sign_up(self) -> None:
        """Register and start a first game: before the timed window, which measures play
        (a registration hashes a password: 16 of them took a third of a 20 s window's CPU)."""
        r = self.client.post(
            "/api/v1/auth/register", json={"username": self.name_, "password": "bench password 1"}
        )
        token = r.json()["token"]
        if self.auth == "oauth":
            token = oauth_token(self.client, token)
        self.client.headers["Authorization"] = f"Bearer {token}"
        self.state = self.new_game()

    def run(self) -> None:
        state = self.state
        while time.monotonic() < self.stop_at:
            action = choose(state, self.rnd)
            if action is None or state["status"] != "in_progress" or state["actions"] > 400:
                state = self.new_game()
                continue
            action["version"] = state["version"]
            t0 = time.perf_counter()
            r = self.client.post(f"/api/v1/games/{state['id']}/actions", json=action)
            self.latencies.append((time.perf_counter() - t0) * 1000)
            if r.status_code == 200:
                state = r.json()
                self.accepted[state["id"]] += 1
            else:
                self.errors.append(f"{r.status_code} {r.text[:120]} for {action}")
                state = self.client.get(f"/api/v1/games/{state['id']}").json()

    def lost(self) -> int:
        missing = 0
        for game_id, accepted in self.accepted.items():
            log = self.client.get(f"/api/v1/games/{game_id}/actions").json()["actions"]
            missing += max(0, accepted - len(log))
        return missing


def cpu_seconds(names: tuple[str, ...], root: int | None = None) -> float:
    """User + system CPU seconds of every process whose command name starts with one of
    ``names`` (Linux /proc), to split a run's CPU between server, database and client.
    Children that have exited count through their parent (cutime, cstime): gunicorn
    replaces a worker after GUNICORN_MAX_REQUESTS, and its CPU must not vanish with it.
    With ``root``, only that process and its children: the bench's own gunicorn, not another
    one running on a shared machine."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if root is not None and root not in (int(entry.name), int(fields[1])):  # pid, ppid
            continue
        if comm.startswith(names):
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--auth",
        choices=("first-party", "oauth"),
        default="first-party",
        help="the players' tokens: the first-party one from registering, or an OAuth2 "
        "access token got through the authorization-code flow with PKCE",
    )
    parser.add_argument("--db", default="spider_bench_api")
    parser.add_argument(
        "--start-seconds",
        type=float,
        default=30,
        help="how long gunicorn may take to answer (a loaded machine imports slowly)",
    )
    parser.add_argument(
        "--deals",
        type=int,
        help="vetted deals to pool first (default 8 per player: one per new game, so the web "
        "workers never vet a deal inline, which is the no-broker fallback, not the action path)",
    )
    args = parser.parse_args()

    db_url = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    env = server_env(db_url)
    prepare_database(args.db, env, deals=args.deals or args.players * 8)
    server = start_server(env, args.port, args.workers, args.threads, args.start_seconds)
    try:
        players = [
            Player(f"http://127.0.0.1:{args.port}", n, 0.0, int(time.time()), args.auth)
            for n in range(args.players)
        ]
        signing_up = [threading.Thread(target=p.sign_up) for p in players]
        for t in signing_up:
            t.start()
        for t in signing_up:
            t.join()
        for p in players:
            p.stop_at = time.monotonic() + args.seconds
        roots = {k: server.pid if k in OWN else None for k in CPU_GROUPS}
        cpu_before = {k: cpu_seconds(v, roots[k]) for k, v in CPU_GROUPS.items()}
        client_before = time.process_time()
        started = time.monotonic()
        for p in players:
            p.start()
        for p in players:
            p.join()
        wall = time.monotonic() - started
        cpu = {k: cpu_seconds(v, roots[k]) - cpu_before[k] for k, v in CPU_GROUPS.items()}
        cpu["client"] = time.process_time() - client_before
        lost = sum(p.lost() for p in players)
    finally:
        server.terminate()
        server.wait(timeout=30)

    latencies = [x for p in players for x in p.latencies]
    errors = [e for p in players for e in p.errors]
    for e in errors[:5]:
        print("error:", e)
    figures = {
        "players": args.players,
        "auth": args.auth,
        "workers": args.workers,
        "threads": args.threads,
        "seconds": round(wall, 1),
        "actions": len(latencies),
        "games": sum(len(p.accepted) for p in players),
        "actions_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "errors": len(errors),
        "lost": lost,
        # Where the CPU went, per action: web workers, PostgreSQL, this load generator.
        "cpu_ms_per_action": {
            k: round(v * 1000 / max(1, len(latencies)), 2) for k, v in cpu.items()
        },
        "loadavg_1m": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
