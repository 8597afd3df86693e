"""Leaderboard benchmark: the public boards over real HTTP on a PostgreSQL database of a
million won games.

1. Fill a separate database (``spider_bench``; created and migrated if missing) with ``--rows``
   won, ranked games over 10,000 players, the three suit modes in equal shares, finished
   evenly over the last 60 days, each with its deal and its leaderboard entry; plus today's
   daily challenge with 5,000 entries. Loaded with psycopg COPY (binary), with the
   secondary indexes dropped during the load and rebuilt after, foreign-key triggers off
   for the loading sessions (the rows are consistent by construction), then VACUUM ANALYZE.
   Game rows carry a small constant stub snapshot: the boards never read it.
2. Serve the API with gunicorn (DEBUG off) and time GETs with httpx from a few client
   threads, never sending If-None-Match:
   * ``cold``: a server whose cache is a DummyCache (a settings module generated in a temp
     dir that imports spider_api.settings and replaces CACHES), so every request runs the
     board's queries: what a request pays whenever the 5 s board cache has nothing.
   * ``warm``: the normal settings (per-worker LocMemCache, 5 s): repeated URLs are served
     from the cache except the first request per worker and after each expiry.
   Endpoints: the all-time 4-suit board page 1 and page 100, period=week and period=month
   page 1, the daily board page 1, and a 400 (suits=3) as the floor of gunicorn + Django +
   DRF + HTTP with no query.
3. In-process breakdown (same settings as the cold server): EXPLAIN (ANALYZE, BUFFERS) of the
   exact SQL each board sends, the selector's time (ORM + psycopg + query) and the whole
   Django stack through django.test.Client (no HTTP), to show where a request's time goes.

    .venv/bin/python bench/leaderboard.py                  # 1,000,000 rows
    .venv/bin/python bench/leaderboard.py --rows 100000    # smaller
    .venv/bin/python bench/leaderboard.py --reuse          # keep the rows if already there

The machine is shared: run one benchmark at a time and read the figures as indicative.
The LAST line is one JSON object: rows, fill_s, and per endpoint p50_ms/p99_ms (cold, the
honest figure) with the warm figures and the in-process breakdown alongside.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import logging
import os
import pstats
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
from psycopg.types.json import Jsonb

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leaderboard.commitment import commit, new_nonce  # noqa: E402 (pure Python, no Django)

BIN = Path(sys.executable).parent
PG = "postgres://postgres@127.0.0.1:5432"
DB = "spider_bench"
DB_URL = f"{PG}/{DB}"
PLAYERS = 10_000
DAYS = 60
DAILY_ROWS = 5_000
PAST_DAILY_DAYS = 30
MODES = (1, 2, 4)
SNAPSHOT = Jsonb({"v": 1, "bench": True, "note": "stub: boards never read the snapshot"})
LOADED_TABLES = ("games_deal", "games_game", "leaderboard_leaderboardentry")
NOCACHE_SETTINGS = (
    "from spider_api.settings import *  # noqa: F403\n"
    'CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}\n'
)


def log(message: str) -> None:
    print(message, flush=True)


# -- the database -------------------------------------------------------------------------------
def server_env(settings_dir: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="bench",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=DB_URL,
        DATABASE_CONN_MAX_AGE="60",
        CELERY_BROKER_URL="",
        POOL_AUTOFILL="0",
        LOG_LEVEL="ERROR",  # the baseline 400s would otherwise log a warning each
    )
    env.pop("CACHE_URL", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if settings_dir:
        env["PYTHONPATH"] = os.pathsep.join([settings_dir, str(ROOT)])
        env["DJANGO_SETTINGS_MODULE"] = "bench_nocache_settings"
    return env


def ensure_database() -> None:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB,)).fetchone()
        if not exists:
            conn.execute(f"CREATE DATABASE {DB}")
            log(f"created database {DB}")
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "-v0", "--noinput"],
        env=server_env(),
        cwd=ROOT,
        check=True,
    )


def one_row(conn: psycopg.Connection, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    """The one row an aggregate query answers."""
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row


def stored_rows(conn: psycopg.Connection) -> tuple[int, int]:
    """(entries, daily challenges) in the bench database."""
    entries, daily = one_row(
        conn,
        "SELECT (SELECT count(*) FROM leaderboard_leaderboardentry), "
        "(SELECT count(*) FROM leaderboard_dailychallenge)",
    )
    return entries, daily


def secondary_indexes(conn: psycopg.Connection) -> list[tuple[str, str]]:
    """(name, CREATE statement) of each index on the loaded tables that backs no constraint."""
    return conn.execute(
        """
        SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ANY(%s)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                          WHERE c.conindid = (quote_ident(i.indexname))::regclass)
        ORDER BY i.tablename, i.indexname
        """,
        (list(LOADED_TABLES),),
    ).fetchall()


def loader(autocommit: bool = False) -> psycopg.Connection:
    conn = psycopg.connect(DB_URL, autocommit=autocommit)
    # Foreign-key checks are triggers; "replica" skips them for this session's bulk load.
    conn.execute("SET session_replication_role = replica")
    conn.execute("SET synchronous_commit = off")
    return conn


class Rows:
    """The generated data: deterministic for a given size and start time.

    Entry ids follow finishing order, as they do when wins are recorded live. Besides today's
    daily board (DAILY_ROWS extra games), the 2-suit wins of the first 0.9 day of the day
    PAST_DAILY_DAYS ago are that day's daily games (a past daily board of up to DAILY_ROWS).
    """

    def __init__(self, rows: int, now: datetime) -> None:
        self.rows = rows
        self.now = now.replace(microsecond=0)
        self.start = self.now - timedelta(days=DAYS)
        self.span = (self.now - self.start).total_seconds()
        self.today = self.now.date()
        self.past_day = self.today - timedelta(days=PAST_DAILY_DAYS)
        opened = datetime.combine(self.past_day, datetime.min.time(), tzinfo=UTC)
        self.past_first = int((opened - self.start).total_seconds() / self.span * rows) + 1
        self.past_rows = min(DAILY_ROWS, int(rows / DAYS / 3 * 0.9))
        self.rnd = random.Random(20_260_101)

    def plain(self, past_deal: int) -> Iterator[tuple[Any, ...]]:
        """(deal, game, entry) rows of the ordinary won games, in finishing order."""
        rnd, span = self.rnd, self.span
        mean = {1: 130, 2: 190, 4: 270}
        for i in range(self.rows):
            suits = MODES[i % 3]
            finished = self.start + timedelta(seconds=(i + rnd.random()) * span / self.rows)
            actions = min(1254, max(46, int(rnd.gauss(mean[suits], mean[suits] / 4))))
            n = (i - self.past_first) // 3
            if suits == 2 and 0 <= n < self.past_rows:  # one ranked attempt per player
                yield self._one(i, suits, n, actions, finished, (self.past_day, past_deal))
            else:
                yield self._one(i, suits, rnd.randrange(PLAYERS), actions, finished, None)

    def daily(self, deal_id: int) -> Iterator[tuple[Any, ...]]:
        rnd = self.rnd
        opened = datetime.combine(self.today, datetime.min.time(), tzinfo=UTC)
        seconds = max(60.0, (self.now - opened).total_seconds() - 1)
        for n in range(DAILY_ROWS):  # one ranked attempt per player: players 0..4999
            finished = opened + timedelta(seconds=seconds * (n + rnd.random()) / DAILY_ROWS)
            actions = min(1254, max(46, int(rnd.gauss(190, 45))))
            yield self._one(self.rows + n, 2, n, actions, finished, (self.today, deal_id))

    def _one(
        self,
        i: int,
        suits: int,
        player: int,
        actions: int,
        finished: datetime,
        daily: tuple[date, int] | None,
    ) -> tuple[Any, ...]:
        rnd = self.rnd
        undos = rnd.randrange(0, 20) if rnd.random() < 0.6 else 0
        hints = rnd.randrange(1, 6) if rnd.random() < 0.15 else 0
        perfect = undos == 0 and hints == 0
        score = max(0, 500 - actions + 800)
        elapsed = int(actions * rnd.uniform(1200, 6000))
        started = finished - timedelta(milliseconds=elapsed)
        created = started - timedelta(seconds=rnd.randrange(2, 60))
        game_id = uuid.UUID(int=rnd.getrandbits(128), version=4)
        daily_date, deal_id = daily or (None, i + 1)
        kind = "daily" if daily else "casual"
        deal = (i + 1, suits, i + 1, 1, "", "pool", "dealt", True, actions, created)
        game = (
            game_id, suits, kind, "won", "won", True, False, SNAPSHOT, actions, actions, undos,
            hints, 8, score, perfect, created, started, finished, finished, elapsed, deal_id,
            player + 1, None, daily_date, False,
        )  # fmt: skip
        entry = (
            i + 1, f"player{player:05d}", suits, score, actions, elapsed, finished, perfect,
            hints, daily_date, game_id, player + 1, False,
        )  # fmt: skip
        return deal, game, entry


DEAL_COLS = (
    "id suits seed deal_version layout_notation source state vetted par created_at",
    "int8 int2 int8 int2 text varchar varchar bool int4 timestamptz",
)
GAME_COLS = (
    "id suits kind status end_reason ranked staff_made snapshot version actions undos hints "
    "runs_removed score perfect created_at started_at last_action_at finished_at elapsed_ms "
    "deal_id player_id replay_of_id daily_date deal_over_gap",
    "uuid int2 varchar varchar varchar bool bool jsonb int4 int4 int4 int4 int2 int4 bool "
    "timestamptz timestamptz timestamptz timestamptz int8 int8 int8 uuid date bool",
)
ENTRY_COLS = (
    "id username suits score actions elapsed_ms finished_at perfect hints daily_date game_id "
    "player_id deal_over_gap",
    "int8 varchar int2 int4 int4 int8 timestamptz bool int4 date uuid int8 bool",
)


@contextlib.contextmanager
def copying(conn: psycopg.Connection, table: str, spec: tuple[str, str]) -> Iterator[Any]:
    cols, types = spec
    sql = f"COPY {table} ({', '.join(cols.split())}) FROM STDIN (FORMAT BINARY)"
    with conn.cursor().copy(sql) as copy:
        copy.set_types(types.split())
        yield copy


def fill(rows: int) -> dict[str, float]:
    """Replace the bench data with ``rows`` won games (+ the daily challenge's 5,000)."""
    steps: dict[str, float] = {}
    t = time.perf_counter()
    with psycopg.connect(DB_URL, autocommit=True) as admin:
        admin.execute(
            "TRUNCATE accounts_user, games_deal RESTART IDENTITY CASCADE"
        )  # cascades to games, entries, daily challenges, tokens, stats
        indexes = secondary_indexes(admin)
        for name, _ in indexes:
            admin.execute(f'DROP INDEX "{name}"')
    steps["truncate_s"] = time.perf_counter() - t

    t = time.perf_counter()
    now = datetime.now(UTC)
    data = Rows(rows, now)
    conns = [loader() for _ in range(3)]
    try:
        with copying(
            conns[0],
            "accounts_user",
            (
                "id password is_superuser first_name last_name email is_staff is_active "
                "date_joined username is_guest",
                "int8 varchar bool varchar varchar varchar bool bool timestamptz varchar bool",
            ),
        ) as copy:
            joined = data.start - timedelta(days=30)
            for n in range(PLAYERS):
                copy.write_row(
                    (n + 1, "!", False, "", "", "", False, True, joined, f"player{n:05d}", False)
                )
        conns[0].commit()
        with (
            copying(conns[0], "games_deal", DEAL_COLS) as deals,
            copying(conns[1], "games_game", GAME_COLS) as games,
            copying(conns[2], "leaderboard_leaderboardentry", ENTRY_COLS) as entries,
        ):
            daily_deal, past_deal = rows + 1, rows + 2
            for deal, game, entry in data.plain(past_deal):
                deals.write_row(deal)
                games.write_row(game)
                entries.write_row(entry)
            seeds = {}
            for deal_id in (daily_deal, past_deal):
                seeds[deal_id] = 900_000_000_000 + deal_id
                deals.write_row(
                    (deal_id, 2, seeds[deal_id], 1, "", "pool", "dealt", True, 150, now)
                )
            for _, game, entry in data.daily(daily_deal):
                games.write_row(game)
                entries.write_row(entry)
        for conn in conns:
            conn.commit()
        for day, deal_id in ((data.today, daily_deal), (data.past_day, past_deal)):
            nonce = new_nonce()
            conns[0].execute(
                "INSERT INTO leaderboard_dailychallenge (date, deal_id, nonce, commitment, "
                "created_at) VALUES (%s, %s, %s, %s, %s)",
                (
                    day,
                    deal_id,
                    nonce,
                    commit(day=day, suits=2, deal_version=1, seed=seeds[deal_id], nonce=nonce),
                    now,
                ),
            )
        conns[0].commit()
    finally:
        for conn in conns:
            conn.close()
    steps["copy_s"] = time.perf_counter() - t

    t = time.perf_counter()
    with psycopg.connect(DB_URL, autocommit=True) as admin:
        admin.execute("SET maintenance_work_mem = '256MB'")
        for _, create in indexes:
            admin.execute(create)
        for table, column in (
            ("accounts_user", "id"),
            ("games_deal", "id"),
            ("leaderboard_leaderboardentry", "id"),
            ("leaderboard_dailychallenge", "id"),
        ):
            admin.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"(SELECT max({column}) FROM {table}))"
            )
    steps["index_s"] = time.perf_counter() - t

    t = time.perf_counter()
    with psycopg.connect(DB_URL, autocommit=True) as admin:
        for table in ("accounts_user", *LOADED_TABLES, "leaderboard_dailychallenge"):
            admin.execute(f"VACUUM ANALYZE {table}")
    steps["vacuum_analyze_s"] = time.perf_counter() - t
    return {k: round(v, 1) for k, v in steps.items()}


# -- the server ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(env: dict[str, str], workers: int, logfile: Path) -> Iterator[str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [str(BIN / "gunicorn"), "spider_api.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
    with open(logfile, "ab") as out:
        server = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {server.returncode}: see {logfile}")
            try:
                if httpx.get(f"{base}/api/v1/leaderboard?suits=1", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within 60 s: see {logfile}")
            time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def endpoints(day: date, past: date) -> dict[str, tuple[str, int]]:
    """name -> (path, expected status)."""
    board = "/api/v1/leaderboard?suits=4"
    return {
        "all_p1": (board, 200),
        "all_p100": (board + "&page=100", 200),
        "week_p1": (board + "&period=week", 200),
        "month_p1": (board + "&period=month", 200),
        "daily_p1": (f"/api/v1/daily/{day.isoformat()}/leaderboard", 200),
        "daily_past_p1": (f"/api/v1/daily/{past.isoformat()}/leaderboard", 200),
        "floor_400": ("/api/v1/leaderboard?suits=3", 400),
    }


def requests_for(name: str, requested: int) -> int:
    """The past daily board is slow uncached (see its marker's plan): fewer requests there."""
    return min(requested, 100) if name == "daily_past_p1" else requested


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def hammer(
    bases: dict[str, str], path: str, status: int, requests: int, threads: int
) -> dict[str, dict[str, float]]:
    """``requests`` GETs of ``path`` per server from ``threads`` clients; each client sends
    to the servers in turn (alternating which goes first), so the machine's noise falls on
    all of them alike. Latency percentiles in ms, per server."""
    latencies: dict[str, list[float]] = {mode: [] for mode in bases}
    failures: list[str] = []
    lock = threading.Lock()
    left = iter(range(requests))

    def client() -> None:
        https = {mode: httpx.Client(base_url=base, timeout=30) for mode, base in bases.items()}
        mine: dict[str, list[float]] = {mode: [] for mode in bases}
        order = list(https)
        try:
            for http in https.values():
                for _ in range(3):  # warm this connection and the server's DB connection
                    http.get(path)
            while True:
                with lock:
                    if next(left, None) is None:
                        break
                order.reverse()
                for mode in order:
                    t0 = time.perf_counter()
                    response = https[mode].get(path)
                    mine[mode].append((time.perf_counter() - t0) * 1000)
                    if response.status_code != status:
                        failures.append(f"{mode} {response.status_code} {response.text[:120]}")
        finally:
            for http in https.values():
                http.close()
        with lock:
            for mode, values in mine.items():
                latencies[mode].extend(values)

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if failures:
        raise RuntimeError(f"{path}: {len(failures)} unexpected answers, e.g. {failures[0]}")
    return {
        mode: {
            "p50_ms": pct(v, 0.50),
            "p90_ms": pct(v, 0.90),
            "p99_ms": pct(v, 0.99),
            "max_ms": pct(v, 1.0),
        }
        for mode, v in latencies.items()
    }


# -- where the time goes (in-process, no HTTP) ----------------------------------------------------
def breakdown(day: date, past: date, settings_dir: str, profile: bool) -> dict[str, dict[str, Any]]:
    os.environ.update(server_env(settings_dir))
    sys.path.insert(0, settings_dir)
    import django

    django.setup()
    logging.getLogger("django").setLevel(logging.ERROR)  # the floor's 400s log a warning
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from leaderboard import selectors

    now = timezone.now()
    sunday = now - timedelta(days=(now.weekday() + 1) % 7 or 7) if now.weekday() != 6 else now
    sunday = sunday.replace(hour=23, minute=59)
    calls: dict[str, Callable[[], Any]] = {
        "all_p1": lambda: selectors.leaderboard_page(
            suits=4, period="all", page=1, page_size=20, now=now
        ),
        "all_p100": lambda: selectors.leaderboard_page(
            suits=4, period="all", page=100, page_size=20, now=now
        ),
        "week_p1": lambda: selectors.leaderboard_page(
            suits=4, period="week", page=1, page_size=20, now=now
        ),
        # A Sunday's week: the largest week board (7 days of wins), whatever today is.
        "week_p1_sunday": lambda: selectors.leaderboard_page(
            suits=4, period="week", page=1, page_size=20, now=sunday
        ),
        "month_p1": lambda: selectors.leaderboard_page(
            suits=4, period="month", page=1, page_size=20, now=now
        ),
        "daily_p1": lambda: selectors.daily_leaderboard_page(day=day, page=1, page_size=20),
        "daily_past_p1": lambda: selectors.daily_leaderboard_page(day=past, page=1, page_size=20),
        "marker_4": lambda: selectors.board_marker(suits=4),
        "marker_daily": lambda: selectors.board_marker(day=day),
        "marker_daily_past": lambda: selectors.board_marker(day=past),
    }
    paths = {name: path for name, (path, _) in endpoints(day, past).items()}
    client = Client(SERVER_NAME="127.0.0.1")
    result: dict[str, dict[str, Any]] = {}
    for name, call in calls.items():
        with CaptureQueriesContext(connection) as captured:
            call()
        (sql,) = [q["sql"] for q in captured.captured_queries]
        with connection.cursor() as cursor:
            runs = []
            for _ in range(5):
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
                plan = plan[0] if isinstance(plan, list) else json.loads(plan)[0]
                runs.append(plan["Execution Time"])
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            text = "\n".join(row[0] for row in cursor.fetchall())
        orm = []
        for _ in range(100):
            t0 = time.perf_counter()
            call()
            orm.append((time.perf_counter() - t0) * 1000)
        item: dict[str, Any] = {
            "sql_exec_ms": round(statistics.median(runs), 3),
            "selector_ms": round(statistics.median(orm), 3),
            "index": sorted({w for w in text.split() if w.startswith("lb_")}),
        }
        if name in paths:
            django_ms = []
            for _ in range(100):
                t0 = time.perf_counter()
                response = client.get(paths[name])
                django_ms.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200, response.content[:200]
            item["django_ms"] = round(statistics.median(django_ms), 3)
        result[name] = item
        log(f"--- {name}: {sql}\n{text}")
    floor = []
    for _ in range(200):
        t0 = time.perf_counter()
        client.get(paths["floor_400"])
        floor.append((time.perf_counter() - t0) * 1000)
    result["floor_400"] = {"django_ms": round(statistics.median(floor), 3)}
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(300):
            client.get(paths["all_p1"])
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(40)
        log(f"--- cProfile, 300 x GET {paths['all_p1']} in-process (no cache):\n{out.getvalue()}")
    return result


# -- main ---------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="won games (default 1e6)")
    parser.add_argument("--reuse", action="store_true", help="skip the fill if the rows exist")
    parser.add_argument("--requests", type=int, default=500, help="per endpoint and mode")
    parser.add_argument("--threads", type=int, default=3, help="client threads")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per server")
    parser.add_argument("--profile", action="store_true", help="cProfile the page-1 view")
    args = parser.parse_args()

    ensure_database()
    with psycopg.connect(DB_URL) as conn:
        have = stored_rows(conn)
    fill_s: float | None = None
    steps: dict[str, float] = {}
    want = (args.rows + DAILY_ROWS, 2)  # entries, daily challenges
    if args.reuse and have == want:
        log(f"reusing {have[0]:,} entries and {have[1]} daily challenges in {DB}")
    else:
        if args.reuse:
            log(f"--reuse: {DB} holds (entries, dailies) {have}, not {want}: filling")
        t0 = time.perf_counter()
        steps = fill(args.rows)
        fill_s = round(time.perf_counter() - t0, 1)
        log(f"filled {args.rows:,} + {DAILY_ROWS:,} daily rows in {fill_s} s: {steps}")
    with psycopg.connect(DB_URL) as conn:
        day, past = one_row(conn, "SELECT max(date), min(date) FROM leaderboard_dailychallenge")
        (past_rows,) = one_row(
            conn, "SELECT count(*) FROM leaderboard_leaderboardentry WHERE daily_date = %s", (past,)
        )
        sizes = one_row(
            conn,
            "SELECT pg_size_pretty(pg_total_relation_size('leaderboard_leaderboardentry')), "
            "pg_size_pretty(pg_relation_size('lb_all_time_idx'))",
        )
    log(
        f"leaderboard table+indexes {sizes[0]}, lb_all_time_idx {sizes[1]}; daily boards "
        f"{day} ({DAILY_ROWS:,} entries) and {past} ({past_rows:,} entries)"
    )

    routes = endpoints(day, past)
    figures: dict[str, dict[str, Any]] = {}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as settings_dir:
        Path(settings_dir, "bench_nocache_settings.py").write_text(NOCACHE_SETTINGS)
        logfile = Path(tempfile.gettempdir()) / "bench_leaderboard_gunicorn.log"
        with (
            serving(server_env(settings_dir), args.workers, logfile) as cold,
            serving(server_env(), args.workers, logfile) as warm,
        ):
            log(f"cold (no cache) server {cold}, warm (5 s cache) server {warm}; log {logfile}")
            for name, (path, status) in routes.items():
                n = requests_for(name, args.requests)
                figures[name] = hammer({"cold": cold, "warm": warm}, path, status, n, args.threads)
                log(f"{name:9} {figures[name]}")
        load_during = os.getloadavg()
        inproc = breakdown(day, past, settings_dir, args.profile)

    summary: dict[str, Any] = {
        "rows": args.rows,
        "daily_rows": DAILY_ROWS,
        "past_daily_rows": past_rows,
        "fill_s": fill_s,
        "fill_steps": steps,
        "requests": args.requests,
        "threads": args.threads,
        "workers": args.workers,
        "loadavg_1m": [round(load_before[0], 2), round(load_during[0], 2)],
        "cores": os.cpu_count(),
    }
    for name, modes in figures.items():
        summary[name] = {
            "p50_ms": modes["cold"]["p50_ms"],
            "p99_ms": modes["cold"]["p99_ms"],
            "warm": modes["warm"],
            "requests": requests_for(name, args.requests),
            "inproc": inproc.get(name, {}),
        }
    summary["week_p1_sunday"] = {"inproc": inproc["week_p1_sunday"]}
    summary["markers"] = {
        "suits_4": inproc["marker_4"],
        "daily": inproc["marker_daily"],
        "daily_past": inproc["marker_daily_past"],
    }
    summary["target_p99_30ms_met"] = all(summary[n]["p99_ms"] <= 30 for n in ("all_p1", "all_p100"))
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
