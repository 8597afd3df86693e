"""The daily's reads for a player, over HTTP as the web client makes them: ``GET /daily`` once
their ranked attempt has ended (where it stands among the day's, its share text, the streaks)
and ``GET /players/{name}/daily`` (their calendar of the month).

1. Fill a database of its own (``--db``, PostgreSQL, dropped and made again; or ``--sqlite``,
   a file in a temp dir) with ``--attempts`` ended ranked attempts on today's challenge, one
   player each (won or lost, scores spread as real days are), and the bench player's own
   attempts on the ``--days`` days before, each of those days with as many score rows as
   today. The days' results, counts and streaks are built by the code the migration backfills
   with (leaderboard.daily_verify.rebuild): what the games say.
2. Serve the API with gunicorn (DEBUG off; the normal settings) and time GETs from
   ``--threads`` client threads, the bench player's token on each.
3. The same reads in-process (the selectors alone), to show where a request's time goes.

    .venv/bin/python bench/daily.py --db spider_daily                 # 100,000 attempts
    .venv/bin/python bench/daily.py --sqlite --attempts 50 --requests 5   # a tiny run

The LAST line is one JSON object: attempts, fill_s, standing_p50_ms, standing_p99_ms,
calendar_p50_ms, calendar_p99_ms (HTTP), floor_p50_ms and floor_p99_ms (``/health/live`` the same
way: what any request pays on this machine at this load) and the in-process medians.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent

from bench.servers import (  # noqa: E402
    PG_SERVER,
    database_afresh,
    django_in_process,
    free_port,
    server_env,
    wait_live,
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def fill(attempts: int, days: int, rnd: random.Random) -> tuple[str, str]:
    """The rows; returns the bench player's username and a token of theirs."""
    from accounts.models import User
    from accounts.services import device_token_issue
    from games.engine import DEAL_VERSION
    from games.models import Deal, Game, seed_to_db
    from leaderboard.daily_verify import rebuild
    from leaderboard.models import DailyChallenge, DailyResult, DailyStreak, DayScoreCount

    today = datetime.now(UTC).date()
    deals = Deal.objects.bulk_create(
        Deal(
            suits=2,
            seed_db=seed_to_db(1_000_000 + n),
            deal_version=DEAL_VERSION,
            source=Deal.Source.POOL,
            state=Deal.State.DEALT,
            vetted=True,
        )
        for n in range(days + 1)
    )
    DailyChallenge.objects.bulk_create(
        DailyChallenge(date=today - timedelta(days=n), deal=deal, nonce="0" * 32, commitment="0")
        for n, deal in enumerate(deals)
    )
    players = User.objects.bulk_create(
        (User(username=f"daily{n}", password="!") for n in range(attempts)), batch_size=5000
    )
    me = players[0]
    now = datetime.now(UTC)

    def game(player: Any, day_n: int) -> Game:
        won = rnd.random() < 0.4
        actions = rnd.randint(180, 420) if won else rnd.randint(10, 500)
        runs = 8 if won else rnd.randint(0, 7)
        return Game(
            player_id=player.pk,
            deal=deals[day_n],
            suits=2,
            kind=Game.Kind.DAILY,
            ranked=True,
            status=Game.Status.WON if won else Game.Status.LOST,
            end_reason="won" if won else "resigned",
            daily_date=today - timedelta(days=day_n),
            snapshot={},
            actions=actions,
            runs_removed=runs,
            score=max(0, 500 - actions + 100 * runs),
            started_at=now - timedelta(days=day_n, minutes=20),
            finished_at=now - timedelta(days=day_n),
            elapsed_ms=rnd.randint(300_000, 1_800_000),
        )

    Game.objects.bulk_create((game(p, 0) for p in players), batch_size=5000)
    Game.objects.bulk_create(game(me, n) for n in range(1, days + 1))
    rebuild(
        game_model=Game,
        result_model=DailyResult,
        count_model=DayScoreCount,
        streak_model=DailyStreak,
    )
    # The past days as full as today (the calendar's places read each day's score rows).
    rows = list(DayScoreCount.objects.filter(date=today))
    DayScoreCount.objects.exclude(date=today).delete()
    DayScoreCount.objects.bulk_create(
        DayScoreCount(date=today - timedelta(days=n), won=r.won, score=r.score, players=r.players)
        for n in range(1, days + 1)
        for r in rows
    )
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    return me.username, device_token_issue(user=me, device="bench").secret


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def hammer(url: str, token: str, requests: int, threads: int) -> list[float]:
    times: list[float] = []
    lock = threading.Lock()
    per = max(1, requests // threads)

    def client() -> None:
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
            for _ in range(3):  # warm-up: the connection, the worker's imports
                http.get(url)
            for _ in range(per):
                start = time.perf_counter()
                response = http.get(url)
                took = (time.perf_counter() - start) * 1000
                assert response.status_code == 200, response.text
                with lock:
                    times.append(took)

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return times


def in_process(username: str, requests: int) -> dict[str, float]:
    from accounts.models import User
    from leaderboard.player_daily import attempt_summary, calendar
    from leaderboard.standing import day_counts

    me = User.objects.get(username=username)
    today = datetime.now(UTC).date()
    runs: dict[str, list[float]] = {"standing": [], "calendar": []}
    for _ in range(requests):
        start = time.perf_counter()
        counts = day_counts(today)
        assert attempt_summary(
            player=me, day=today, suits=2, closed=False, counts=counts, streak=None
        )
        runs["standing"].append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        calendar(player=me, month=today, viewer=me, today=today)
        runs["calendar"].append((time.perf_counter() - start) * 1000)
    return {f"{k}_inprocess_p50_ms": round(statistics.median(v), 2) for k, v in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", help="a PostgreSQL database of its own: dropped and made again")
    where.add_argument("--sqlite", action="store_true", help="a SQLite file in a temp dir")
    parser.add_argument("--attempts", type=int, default=100_000, help="today's ended attempts")
    parser.add_argument("--days", type=int, default=30, help="the bench player's past days")
    parser.add_argument("--requests", type=int, default=600, help="per endpoint")
    parser.add_argument("--threads", type=int, default=3, help="client threads")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        if args.db:
            database_afresh(args.db)
            db_url = f"{PG_SERVER}/{args.db}"
        else:
            db_url = f"sqlite:///{tmp}/daily.sqlite3"
        django_in_process(db_url)
        start = time.perf_counter()
        username, token = fill(args.attempts, args.days, random.Random(7))
        fill_s = round(time.perf_counter() - start, 1)
        log(f"filled {args.attempts} attempts in {fill_s} s")
        figures: dict[str, Any] = {"attempts": args.attempts, "days": args.days, "fill_s": fill_s}
        figures.update(in_process(username, max(5, args.requests // 10)))

        port = free_port()
        cmd = [str(BIN / "gunicorn"), "spider_api.wsgi", "-b", f"127.0.0.1:{port}"]
        cmd += ["-w", str(args.workers), "--log-level", "warning"]
        env = server_env(db_url, POOL_AUTOFILL="0")
        server = wait_live(subprocess.Popen(cmd, env=env, cwd=ROOT), port, 60)
        try:
            base = f"http://127.0.0.1:{port}/api/v1"
            month = datetime.now(UTC).strftime("%Y-%m")
            for name, url in (
                # The floor: gunicorn and Django answering with no query at all.
                ("floor", f"http://127.0.0.1:{port}/health/live"),
                ("standing", f"{base}/daily"),
                ("calendar", f"{base}/players/{username}/daily?month={month}"),
            ):
                times = hammer(url, token, args.requests, args.threads)
                figures[f"{name}_p50_ms"] = pct(times, 0.5)
                figures[f"{name}_p99_ms"] = pct(times, 0.99)
                figures[f"{name}_requests"] = len(times)
        finally:
            server.terminate()
            server.wait(timeout=30)
        figures["load"] = os.getloadavg()[0]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
