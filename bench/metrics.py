"""What the metrics cost: the same players with metrics on and off, alternately, against real
gunicorn (gunicorn.conf.py, several workers, production's settings), and what one scrape of
a web host costs.

Each round starts gunicorn twice on one scratch database, once with METRICS_TOKEN (metrics
on: every worker writes its figures into the server's multiprocess directory) and once
without (off: nothing measured), in alternating order, and plays the same game for
``--seconds`` with ``--players`` players (bench/api.py's: registered first, then real moves,
undos and deals with `version`, every answer read). While metrics are on, /metrics is
scraped every ``--scrape-interval`` seconds as Prometheus would (its CPU is the web's too);
after the window, ``--scrapes`` scrapes one after the other time one scrape of the host
with every worker's series.

    .venv/bin/python bench/metrics.py --players 16 --seconds 20 --workers 4 --rounds 4

On a busy machine the rounds' CPU per action moves by more than what is measured, so the
bench also times, in CPU alone, what one action's figures cost the web
(``record_us_per_action``: the middleware's and the game's writes into the multiprocess
files, in a loop) and what one scrape costs the worker answering it (``scrape_cpu_ms``).

Last line: one JSON object: ``action_cpu_ratio`` (the web's CPU per action, on over off: the
medians of the rounds), ``scrape_ms`` (p99 of one scrape, wall), ``scrape_ms_p50``,
``scrape_cpu_ms``, ``record_us_per_action``, ``scrape_bytes``, ``series``, the per-round
``cpu_ms_per_action`` on and off, the rounds' ``pair_ratios``, ``actions_per_s`` on and
off (medians), ``errors`` and ``loadavg_1m``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

try:  # imported as bench.<module> (the suite does)
    from bench.api import Player, cpu_seconds, percentile
    from bench.servers import database_afresh, free_port, server_env, wait_live
except ImportError:  # run as a script: bench/ itself is on sys.path
    from api import Player, cpu_seconds, percentile  # type: ignore[import-not-found,no-redef]
    from servers import (  # type: ignore[import-not-found,no-redef]
        database_afresh,
        free_port,
        server_env,
        wait_live,
    )

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TOKEN = "bench-metrics-token-0123456789"

# Deals in the pool: their seeds only (the players need deals, not the solver's proofs).
_STOCK = """
import secrets, sys
import django
django.setup()
from games.engine import DEAL_VERSION
from games.models import Deal
deals = []
for _ in range(int(sys.argv[1])):
    deal = Deal(suits=1, deal_version=DEAL_VERSION, source=Deal.Source.POOL,
                state=Deal.State.POOLED, vetted=True)
    deal.seed = secrets.randbits(63)
    deals.append(deal)
Deal.objects.bulk_create(deals)
"""


def prepare(db: str, env: dict[str, str], deals: int) -> None:
    database_afresh(db)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], env=env, cwd=ROOT, check=True)
    settings = {**env, "DJANGO_SETTINGS_MODULE": "spider_api.settings"}
    subprocess.run([sys.executable, "-c", _STOCK, str(deals)], env=settings, cwd=ROOT, check=True)


def start(env: dict[str, str], port: int, workers: int, threads: int, wait: float) -> Any:
    """gunicorn as production runs it (gunicorn.conf.py: metrics on when METRICS_TOKEN is)."""
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "spider_api.wsgi"],
        env={
            **env,
            "PORT": str(port),
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_THREADS": str(threads),
        },
        cwd=ROOT,
    )
    return wait_live(server, port, wait)


class Scraper:
    """GET /metrics with the token, as Prometheus does: one client kept (a new httpx client
    per request would time its own set-up, an SSL context, not the server)."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.client.headers["Authorization"] = f"Bearer {TOKEN}"

    def __call__(self) -> tuple[float, bytes]:
        started = time.perf_counter()
        response = self.client.get("/metrics")
        response.raise_for_status()
        return (time.perf_counter() - started) * 1000, response.content


def play(args: argparse.Namespace, env: dict[str, str], on: bool, seed: int) -> dict[str, Any]:
    """One window: gunicorn started (metrics ``on`` or off), the players' game played."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    served = env if on else {**env, "METRICS_TOKEN": ""}
    server = start(served, port, args.workers, args.threads, args.start_seconds)
    try:
        players = [Player(base, n, 0.0, seed, "first-party") for n in range(args.players)]
        for p in players:  # the same moves (the seed), new accounts
            p.name_ += "_on" if on else "_off"
        signing = [threading.Thread(target=p.sign_up) for p in players]
        for t in signing:
            t.start()
        for t in signing:
            t.join()
        stop = threading.Event()
        scrape = Scraper(base)

        def scraper() -> None:  # as Prometheus would, at its interval
            while not stop.wait(args.scrape_interval):
                scrape()

        for p in players:
            p.stop_at = time.monotonic() + args.seconds
        cpu_before = cpu_seconds(("gunicorn",), server.pid)
        started = time.monotonic()
        watcher = threading.Thread(target=scraper, daemon=True)
        if on:
            watcher.start()
        for p in players:
            p.start()
        for p in players:
            p.join()
        wall = time.monotonic() - started
        stop.set()
        cpu = cpu_seconds(("gunicorn",), server.pid) - cpu_before
        actions = sum(len(p.latencies) for p in players)
        result: dict[str, Any] = {
            "cpu_ms_per_action": cpu * 1000 / max(1, actions),
            "actions_per_s": actions / wall,
            "errors": sum(len(p.errors) for p in players),
        }
        if on:
            watcher.join(args.scrape_interval + 30)
            timed, body = [], b""
            idle = cpu_seconds(("gunicorn",), server.pid)
            for _ in range(args.scrapes):
                ms, body = scrape()
                timed.append(ms)
            scrape_cpu = cpu_seconds(("gunicorn",), server.pid) - idle
            result["scrape_cpu_ms"] = scrape_cpu * 1000 / max(1, args.scrapes)
            lines = [line for line in body.decode().splitlines() if line and line[0] != "#"]
            result |= {"scrapes_ms": timed, "scrape_bytes": len(body), "series": len(lines)}
        return result
    finally:
        server.terminate()
        server.wait(timeout=60)


# One action's figures as the web records them (the middleware's, the game's), in
# multiprocess mode, timed in CPU alone: what no load on the machine blurs.
_RECORD = """
import os, sys, tempfile, time
os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(dir="/dev/shm")
import django
django.setup()
from games.metrics import ACTIONS
from base.metrics.http import DURATION, IN_FLIGHT, REQUESTS
route, n = "/api/v1/games/<uuid:game_id>/actions", int(sys.argv[1])
started = time.process_time()
for _ in range(n):
    IN_FLIGHT.inc()
    IN_FLIGHT.dec()
    DURATION.labels(route, "POST").observe(0.004)
    REQUESTS.labels(route, "POST", "200").inc()
    ACTIONS.labels("1", "applied").inc()
print((time.process_time() - started) / n * 1e6)
"""


def record_us(env: dict[str, str], n: int = 50_000) -> float:
    settings = {**env, "DJANGO_SETTINGS_MODULE": "spider_api.settings"}
    out = subprocess.run(
        [sys.executable, "-c", _RECORD, str(n)],
        env=settings,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=4, help="each: one window on, one off")
    parser.add_argument("--scrapes", type=int, default=100, help="timed after each window on")
    parser.add_argument("--scrape-interval", type=float, default=15)
    parser.add_argument("--start-seconds", type=float, default=60)
    parser.add_argument("--db", default="spider_bench_metrics")
    args = parser.parse_args()

    db_url = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    env = server_env(db_url, METRICS_TOKEN=TOKEN, LOG_LEVEL="WARNING")
    # Each window: a game per player at its start, and a new one for each game finished.
    prepare(args.db, env, deals=args.players * 6 * 2 * args.rounds)
    windows: dict[str, list[dict[str, Any]]] = {"on": [], "off": []}
    for r in range(args.rounds):
        order = ("off", "on") if r % 2 == 0 else ("on", "off")
        seed = int(time.time())
        for mode in order:  # the same players (same seed) both ways
            windows[mode].append(play(args, env, mode == "on", seed + r))
            shown = {k: v for k, v in windows[mode][-1].items() if k != "scrapes_ms"}
            print(mode, json.dumps(shown), file=sys.stderr)

    on = [w["cpu_ms_per_action"] for w in windows["on"]]
    off = [w["cpu_ms_per_action"] for w in windows["off"]]
    scrapes = [ms for w in windows["on"] for ms in w["scrapes_ms"]]
    print(
        json.dumps(
            {
                "players": args.players,
                "workers": args.workers,
                "threads": args.threads,
                "seconds": args.seconds,
                "rounds": args.rounds,
                "cpu_ms_per_action": {
                    "on": [round(x, 3) for x in on],
                    "off": [round(x, 3) for x in off],
                },
                "pair_ratios": [round(a / b, 3) for a, b in zip(on, off, strict=True)],
                "actions_per_s": {
                    "on": round(statistics.median(w["actions_per_s"] for w in windows["on"]), 1),
                    "off": round(statistics.median(w["actions_per_s"] for w in windows["off"]), 1),
                },
                "record_us_per_action": round(record_us(env), 2),
                "scrape_cpu_ms": round(
                    statistics.median(w["scrape_cpu_ms"] for w in windows["on"]), 2
                ),
                "scrape_ms_p50": round(statistics.median(scrapes), 2),
                "scrape_bytes": windows["on"][-1]["scrape_bytes"],
                "series": windows["on"][-1]["series"],
                "errors": sum(w["errors"] for ws in windows.values() for w in ws),
                "loadavg_1m": round(os.getloadavg()[0], 2),
                "action_cpu_ratio": round(statistics.median(on) / statistics.median(off), 3),
                "scrape_ms": round(percentile(scrapes, 0.99), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
