"""Every bench runs in the suite at its smallest size, so none can stop running unseen: each
tiny run exits cleanly and its last line is one JSON object holding the keys its docstring
documents. The figures of a tiny run mean nothing; only that they come out.

The runs start together when the first of these tests asks (as many at once as there are
cores) and each test checks its own. A bench on a scratch PostgreSQL database runs where
the suite does (``postgres``: on the server the suite's database is on), each on a database
of its own copied from one migrated once for all (bench/servers.py, BENCH_TEMPLATE_DB), all
named after this process (two suites at once on one server never share one) and all
dropped afterwards, whatever failed; one that needs Redis as well is skipped without it, as
the other Redis tests are. A new bench/*.py needs a tiny run here, or a test module of its
own named in ELSEWHERE."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg import sql

from bench.servers import PG_SERVER, TEMPLATE_VAR, database_afresh, free_port, server_env
from tests.conftest import ROOT
from tests.redis_server import REDIS_URL, redis_up

pytestmark = pytest.mark.slow

# Benches with a tiny run in a module of their own (test_<name>_bench.py), and the benches'
# shared helpers; every other bench has one or more runs here.
ELSEWHERE = {"analysis", "leaderboard", "solver", "web"}
HELPERS = {"client", "servers"}
# This process's scratch databases: spider_tiny_<pid>_<run> (and _template), so two suites
# running at once on one PostgreSQL server never drop or copy each other's.
SCRATCH_PREFIX = f"spider_tiny_{os.getpid()}_"
TEMPLATE = f"{SCRATCH_PREFIX}template"


@dataclass(frozen=True)
class Run:
    bench: str
    args: tuple[str, ...]
    postgres: bool = False  # on a scratch database (passed as --db, or in db_var)
    db_var: str = ""  # the environment variable the bench reads its database from
    redis: bool = False
    env: dict[str, str] = field(default_factory=dict)


def _db(name: str) -> str:
    return f"{SCRATCH_PREFIX}{name}"


# Each test_<name> below checks RUNS[name]; the heaviest first, so they overlap the most.
RUNS: dict[str, Run] = {
    "load": Run(
        "load",
        # A player ends a game after 120 to 180 actions; at this machine's 100+ actions a
        # second, two seconds play three games: four deals, so the pool never runs dry.
        # With --idempotent: every action keyed (the rehearsal's players send them so).
        ("--users", "1", "--seconds", "2", "--ramp", "0", "--deals", "4", "--idempotent")
        + ("--db", _db("load")),
        postgres=True,
        redis=True,
        env={"WEB_CONCURRENCY": "1"},
    ),
    "race": Run(
        "race",
        ("--races", "1", "--seconds", "2", "--pace", "0.5", "--web-workers", "1")
        + ("--redis", REDIS_URL),
        postgres=True,
        db_var="RACE_BENCH_DB",
        redis=True,
    ),
    "request_cost": Run(
        "request_cost",
        ("--registers", "1", "--creates", "1", "--inline-creates", "0", "--streams", "1")
        + ("--oauth", "1", "--games", "1", "--steps", "1"),
        postgres=True,
        db_var="REQUEST_COST_DB",
    ),
    "api": Run(
        "api",
        ("--players", "1", "--seconds", "1", "--workers", "1", "--deals", "2")
        + ("--start-seconds", "120", "--db", _db("api")),
        postgres=True,
    ),
    "coins": Run("coins", ("--wins", "2", "--db", _db("coins")), postgres=True),
    "metrics": Run(
        "metrics",
        ("--players", "1", "--seconds", "1", "--workers", "2", "--rounds", "1")
        + ("--scrapes", "3", "--scrape-interval", "0.5", "--start-seconds", "120")
        + ("--db", _db("metrics")),
        postgres=True,
    ),
    "action": Run(
        "action",
        ("--games", "1", "--actions", "12", "--kind", "casual,race", "--db", _db("action")),
        postgres=True,
    ),
    "token_lookup": Run(
        "token_lookup",
        ("--calls", "3", "--rounds", "1", "--db", _db("token_lookup")),
        postgres=True,
    ),
    "hint_deals": Run(
        "hint_deals",
        ("--suits", "1", "--seeds", "1", "--max-actions", "12", "--depth", "2", "--nodes", "200"),
    ),
    # One game on seed 1, cut at a few actions, and one position of each random kind.
    "hint": Run(
        "hint",
        ("--suits", "1", "--sets", "1", "--seeds", "1", "--max-actions", "4")
        + ("--random", "1", "--stock-out", "1", "--quiet"),
    ),
    # The racers' loop and its accounting against a stand-in server: no database.
    "race_stand_in": Run(
        "race", ("--stand-in-ms", "1", "--races", "1", "--seconds", "1", "--pace", "0.2")
    ),
    "engine": Run("engine", ("--seeds", "1", "--repeats", "1", "--batch-seconds", "0.01")),
}


def _runnable(run: Run) -> bool:
    return (not run.postgres or connection.vendor == "postgresql") and (not run.redis or redis_up())


def _execute(name: str, run: Run) -> tuple[int, str, str]:
    """Run it; its exit status, stdout and stderr. Written to files, not pipes, and the run in
    a session of its own, killed whole after it: a server it leaves behind can neither hold
    this up nor outlive it."""
    env = {**os.environ, **run.env}
    args = list(run.args)
    if run.postgres:
        env[TEMPLATE_VAR] = TEMPLATE
        if run.db_var:
            env[run.db_var] = _db(name)
    if run.bench == "api":  # a port free now, not when this module was imported
        args += ["--port", str(free_port())]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [sys.executable, f"bench/{run.bench}.py", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=err,
            text=True,
            start_new_session=True,
        )
        try:
            code = proc.wait(timeout=600)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        out.seek(0)
        err.seek(0)
        return code, out.read(), err.read()


@pytest.fixture(scope="module")
def tiny_runs(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[Any]]]:
    """The runs of the tests selected here, started: their futures by name."""
    here = [item for item in request.session.items if item.path == request.path]
    wanted = {item.name.removeprefix("test_") for item in here}
    chosen = {n: r for n, r in RUNS.items() if n in wanted and _runnable(r)}
    futures: dict[str, Future[Any]] = {}
    try:
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            for name, run in chosen.items():
                if not run.postgres:
                    futures[name] = pool.submit(_execute, name, run)
            if any(run.postgres for run in chosen.values()):
                url = f"{PG_SERVER}/{TEMPLATE}"
                database_afresh(TEMPLATE)
                subprocess.run(
                    [sys.executable, "manage.py", "migrate", "-v0"],
                    cwd=ROOT,
                    env=server_env(url),
                    check=True,
                )
                for name, run in chosen.items():
                    if run.postgres:
                        futures[name] = pool.submit(_execute, name, run)
            try:
                yield futures
            finally:
                for future in futures.values():
                    future.cancel()
    finally:  # the runs are over (the pool waited for them): nothing uses the databases
        if connection.vendor == "postgresql":
            _drop_scratch_databases()


def _drop_scratch_databases() -> None:
    """Drop this process's scratch databases (a run's, the template), all there are."""
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        names = conn.execute(
            "SELECT datname FROM pg_database WHERE starts_with(datname, %s)", [SCRATCH_PREFIX]
        ).fetchall()
        for (name,) in names:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            conn.execute(drop)


def figures_of(tiny_runs: dict[str, Future[Any]], name: str) -> dict[str, Any]:
    """The last line of run ``name``, which must be one JSON object."""
    code, out, err = tiny_runs[name].result()
    assert code == 0, out[-2000:] + err[-3000:]
    figures = json.loads(out.strip().splitlines()[-1])
    assert isinstance(figures, dict), figures
    return figures


def test_every_bench_has_a_tiny_run() -> None:
    benches = {path.stem for path in (ROOT / "bench").glob("*.py")}
    covered = {run.bench for run in RUNS.values()}
    assert benches == covered | ELSEWHERE | HELPERS, benches ^ (covered | ELSEWHERE | HELPERS)
    for name in RUNS:
        assert callable(globals().get(f"test_{name}")), name
    for name in ELSEWHERE:
        assert (ROOT / "tests" / "bench" / f"test_{name}_bench.py").exists(), name


def test_the_scratch_databases_are_this_processs() -> None:
    names = [TEMPLATE] + [_db(name) for name, run in RUNS.items() if run.postgres]
    assert all(n.startswith(f"spider_tiny_{os.getpid()}_") for n in names)
    assert len(set(names)) == len(names) and max(map(len, names)) <= 63  # PostgreSQL's limit


postgres = pytest.mark.postgres
redis = pytest.mark.skipif(not redis_up(), reason="needs Redis: set CELERY_BROKER_URL")


# -- no database of its own -------------------------------------------------------------------
def test_engine(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "engine")
    assert figures.keys() >= {
        "apply_undo_per_s",
        "legal_moves_per_s",
        "key_per_s",
        "canonical_key_per_s",
        "replay_actions_per_s",
        "dump_per_s",
        "load_per_s",
    }
    assert figures["repeats"] == 1 and figures["key_per_s"] > 0


def test_hint(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "hint")
    assert figures.keys() >= {"p50_ms", "p99_ms", "worst_cpu_ms", "win_rate_1", "sets"}
    assert figures["games"] == 1 and figures["hints_timed"] >= 2


def test_hint_deals(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "hint_deals")
    assert figures.keys() >= {
        "games",
        "won",
        "deals",
        "deals_with_a_gain",
        "median_since_last_deal",
        "median_hidden_at_deal",
    }
    assert figures["games"] == 1


def test_race_stand_in(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "race_stand_in")
    assert figures.keys() >= {"actions_per_s", "offered_actions_per_s"}
    assert figures["offered_actions_per_s"] > 0


# -- a scratch PostgreSQL database -----------------------------------------------------------
@postgres
def test_action(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "action")
    assert figures.keys() >= {
        "cpu_us_per_action",
        "actions",
        "growth_last_vs_first",
        "kinds",
        "race_casual_cpu_ratio",
    }
    for kind in ("casual", "race"):  # the race's own path ran too
        assert figures["kinds"][kind]["actions"] == 12
        assert figures["kinds"][kind].keys() >= {"cpu_us_median", "statements_per_action"}


@postgres
def test_token_lookup(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "token_lookup")
    assert figures.keys() >= {"hit_us", "miss_us", "orm_us", "miss_orm_ratio", "rounds", "calls"}
    assert figures["rounds"] == 1 and figures["calls"] == 3


@postgres
def test_coins(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "coins")
    assert figures.keys() >= {
        "wins_each_way",
        "win_ms_p50_with_coins",
        "win_ms_p50_without_coins",
        "added_ms_p50",
        "queries_with_coins",
        "queries_without_coins",
    }
    assert figures["wins_each_way"] == 2
    assert figures["queries_with_coins"] > figures["queries_without_coins"]  # the reward's


@postgres
def test_api(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "api")
    assert figures.keys() >= {"actions_per_s", "p50_ms", "p99_ms", "errors", "lost"}
    assert figures["actions"] > 0 and figures["errors"] == 0 and figures["lost"] == 0


@postgres
def test_metrics(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "metrics")
    assert figures.keys() >= {"action_cpu_ratio", "scrape_ms", "cpu_ms_per_action", "series"}
    assert figures["action_cpu_ratio"] > 0 and figures["errors"] == 0
    assert figures["series"] > 50  # every worker's figures, read by one scrape


@postgres
def test_request_cost(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "request_cost")
    assert figures.keys() >= {"register", "token", "stream_open", "hint", "over_150ms", "load"}
    assert figures["register"]["n"] == 1 and figures["stream_open"]["n"] == 1


@postgres
@redis
def test_race(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "race")
    assert figures.keys() >= {
        "event_p50_ms",
        "event_p99_ms",
        "lost",
        "stream_kib",
        "actions_per_s",
        "offered_actions_per_s",
    }
    assert figures["lost"] == 0


@postgres
@redis
def test_load(tiny_runs) -> None:
    figures = figures_of(tiny_runs, "load")
    assert figures.keys() >= {
        "users",
        "requests_per_s",
        "actions_per_s",
        "p50_ms",
        "p99_ms",
        "errors",
        "retries",
        "lost",
    }
    assert figures["users"] == 1 and figures["errors"] == 0 and figures["lost"] == 0
