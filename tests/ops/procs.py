"""Real processes for the failure tests: a private PostgreSQL cluster, private Redis servers,
scratch databases, gunicorn, Celery workers and beat. Every helper is a context manager (or
has a ``stop``) that the tests call from ``finally``; nothing here touches the shared
PostgreSQL server's data or the shared Redis, except creating and dropping scratch databases.

Each process runs in its own session (process group), so stopping it stops its children
(gunicorn's and Celery's workers) too.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from deploy.topology import wait_for  # noqa: F401  (the failure tests' waiting, one helper)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# The shared server, where scratch databases are created (and dropped).
SHARED_PG = ("127.0.0.1", int(os.environ.get("FAULTS_PG_PORT", "5432")))


def say(message: str) -> None:
    """What the test did or checked, for the `make faults` log."""
    print(f"[faults] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- processes ------------------------------------------------------------------------------
class Proc:
    """A child process in its own process group, its output in a log file."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], logdir: Path) -> None:
        self.name = name
        self.log_path = logdir / f"{name}.log"
        self._log = open(self.log_path, "ab")  # noqa: SIM115  (closed in stop)
        self.popen = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def children(self) -> list[int]:
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.pid)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]

    def kill_group(self, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)

    def stop(self, timeout: float = 20) -> None:
        if self.alive():
            self.kill_group(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill_group(signal.SIGKILL)
                self.popen.wait(10)
        self.kill_group(signal.SIGKILL)  # stragglers in the group (forked children)
        self._log.close()

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")


class Processes:
    """Starts processes and stops every one of them, last first, in ``stop_all``."""

    def __init__(self, logdir: Path) -> None:
        self.logdir = logdir
        self.started: list[Proc] = []

    def start(self, name: str, cmd: list[str], env: dict[str, str]) -> Proc:
        proc = Proc(name, cmd, env, self.logdir)
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in reversed(self.started):
            with contextlib.suppress(Exception):
                proc.stop()


@contextlib.contextmanager
def processes(prefix: str) -> Iterator[Processes]:
    logdir = Path(tempfile.mkdtemp(prefix=f"spider-{prefix}-"))
    procs = Processes(logdir)
    try:
        yield procs
    finally:
        procs.stop_all()
        say(f"process logs kept in {logdir}")


def app_env(database_url: str, redis_url: str | None, **extra: str) -> dict[str, str]:
    """The environment of a production-like process (DEBUG off) on these services."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "SPIDER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="spider_api.settings",
        DEBUG="0",
        SECRET_KEY="faults-only",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=redis_url or "",
        CELERY_TASK_ALWAYS_EAGER="0" if redis_url else "1",
        CACHE_URL=redis_url.rsplit("/", 1)[0] + "/1" if redis_url else "",
        THROTTLE_RATE_AUTH="100000/min",
        THROTTLE_RATE_GAME_CREATE="100000/min",
        THROTTLE_RATE_ACTIONS="100000/min",
        LOG_LEVEL="INFO",
        # The daily par's search keeps a worker busy for a minute: not what these tests time.
        DAILY_PAR_MAX_NODES="0",
        PATH=f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 300) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def start_web(procs: Processes, env: dict[str, str], workers: int = 2, threads: int = 2) -> str:
    """gunicorn with the project's gunicorn.conf.py on a free port; returns its base URL."""
    port = free_port()
    web_env = {
        **env,
        "PORT": str(port),
        "GUNICORN_BIND": f"127.0.0.1:{port}",  # loopback only: a test's server is nobody else's
        "WEB_CONCURRENCY": str(workers),
        "GUNICORN_THREADS": str(threads),
    }
    gunicorn = [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "spider_api.wsgi"]
    procs.start("web", gunicorn, web_env)
    base = f"http://127.0.0.1:{port}"
    wait_for("gunicorn", lambda: httpx.get(f"{base}/health/live", timeout=2).status_code == 200, 60)
    return base


def celery_cmd(*args: str) -> list[str]:
    return [str(BIN / "celery"), "-A", "spider_api", *args]


def start_worker(procs: Processes, env: dict[str, str], name: str = "worker") -> Proc:
    worker = procs.start(
        name,
        celery_cmd(
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"{name}-{uuid.uuid4().hex[:6]}@%h",
        ),
        env,
    )
    wait_for(f"{name} ready", lambda: "ready." in worker.output(), 60)
    return worker


def start_beat(procs: Processes, env: dict[str, str]) -> Proc:
    schedule = procs.logdir / "celerybeat-schedule"
    return procs.start("beat", celery_cmd("beat", "--loglevel", "INFO", "-s", str(schedule)), env)


# -- Redis ----------------------------------------------------------------------------------
class PrivateRedis:
    """A redis-server of our own on a free port, stopped and started at will."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--logfile",
                str(self.workdir / f"redis-{self.port}.log"),
            ],
            start_new_session=True,
        )
        wait_for("redis", self.ping, 15)

    def ping(self) -> bool:
        result = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
        )
        return result.stdout.strip() == "PONG"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], check=False)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    workdir = Path(tempfile.mkdtemp(prefix="spider-redis-"))
    redis = PrivateRedis(workdir)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# -- PostgreSQL -----------------------------------------------------------------------------
def _psql(host: str, port: int, sql: str, db: str = "postgres") -> str:
    return subprocess.run(
        ["psql", "-h", host, "-p", str(port), "-U", "postgres", "-d", db, "-tAc", sql],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@contextlib.contextmanager
def scratch_database(prefix: str = "spider_faults") -> Iterator[str]:
    """A fresh database on the shared PostgreSQL server, dropped afterwards; yields its URL."""
    host, port = SHARED_PG
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    _psql(host, port, f"CREATE DATABASE {name}")
    try:
        yield f"postgres://postgres@{host}:{port}/{name}"
    finally:
        _psql(host, port, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if versions:
        return str(versions[-1])
    raise AssertionError(f"{name} not found: install PostgreSQL's server binaries")


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (initdb in a temp dir, its own port): restarting it
    under load never disturbs the shared server."""

    def __init__(self, datadir: Path) -> None:
        self.datadir = datadir
        self.port = free_port()
        self._as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _ctl(self, *args: str) -> None:
        # The server's output goes to its log file (-l), never to a pipe of ours: a server
        # holding our pipe open would keep this call waiting for ever.
        with open(self.datadir / "pg_ctl.log", "ab") as out:
            subprocess.run(
                [
                    *self._as_postgres,
                    _pg_bin("pg_ctl"),
                    "-D",
                    str(self.datadir / "data"),
                    "-l",
                    str(self.datadir / "postgres.log"),
                    *args,
                ],
                check=True,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=120,
            )

    def init(self) -> None:
        if self._as_postgres:
            shutil.chown(self.datadir, "postgres", "postgres")
        subprocess.run(
            [
                *self._as_postgres,
                _pg_bin("initdb"),
                "-D",
                str(self.datadir / "data"),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.datadir} "
            "-c fsync=off -c max_connections=60"
        )
        self._ctl("-o", options, "-w", "start")

    def halt(self) -> None:
        """A fast shutdown, started again by ``start``."""
        self._ctl("-m", "fast", "-w", "stop")

    def restart(self, down_for: float = 2.0) -> None:
        """A fast shutdown (every connection cut, transactions in flight rolled back), then
        ``down_for`` seconds with nothing listening, then a start."""
        self.halt()
        time.sleep(down_for)
        self.start()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._ctl("-m", "immediate", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/spider"


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    datadir = Path(tempfile.mkdtemp(prefix="spider-pg-"))
    pg = PrivatePostgres(datadir)
    try:
        pg.init()
        pg.start()
        _psql("127.0.0.1", pg.port, "CREATE DATABASE spider")
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(datadir, ignore_errors=True)


# -- checking a database from outside -------------------------------------------------------
def verify_games(env: dict[str, str], accepted: list[dict[str, Any]] | None = None) -> dict:
    """Run tests/ops/verify.py against the database in ``env``: every game's snapshot equals
    the replay of its log, the logs are gap-free, and each ``accepted`` action is in its log."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.ops.verify"],
        cwd=ROOT,
        env={**env, "LOG_LEVEL": "WARNING"},
        input=json.dumps(accepted or []),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise AssertionError(f"verify failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# -- data ------------------------------------------------------------------------------------
_STOCK = """
import json, secrets, sys
import django
django.setup()
from games.engine import DEAL_VERSION
from games.models import Deal
from games.pool import vet_seed
counts, vetted_seeds = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for suits, n in counts.items():
    deals = []
    for _ in range(n):
        deal = Deal(suits=int(suits), deal_version=DEAL_VERSION, source=Deal.Source.POOL,
                    state=Deal.State.POOLED, vetted=True)
        deal.seed = secrets.randbits(63)
        deals.append(deal)
    Deal.objects.bulk_create(deals)
for suits, seeds in vetted_seeds.items():
    for seed in seeds:
        deal = vet_seed(suits=int(suits), seed=seed)
        assert deal is not None and deal.state == Deal.State.POOLED, (suits, seed)
"""


def stock_pool(
    env: dict[str, str],
    unvetted: dict[int, int] | None = None,
    vetted_seeds: dict[int, list[int]] | None = None,
) -> None:
    """Put deals in the pool of the database in ``env``: ``unvetted`` {suits: n} random seeds
    marked pooled without running the solver (the games tests need deals, not proofs), and
    ``vetted_seeds`` {suits: [seed, ...]} vetted for real."""
    subprocess.run(
        [sys.executable, "-c", _STOCK, json.dumps(unvetted or {}), json.dumps(vetted_seeds or {})],
        cwd=ROOT,
        env={**env, "LOG_LEVEL": "WARNING"},
        check=True,
        timeout=300,
    )


def publish(env: dict[str, str], task: str, *args: Any) -> str:
    """Queue ``task(*args)`` on the broker in ``env``; returns the task id."""
    code = (
        "import json, sys, django; django.setup(); from spider_api import celery_app; "
        "print(celery_app.send_task(sys.argv[1], args=json.loads(sys.argv[2])).id)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, task, json.dumps(list(args))],
        cwd=ROOT,
        env={**env, "LOG_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout.strip().splitlines()[-1]


def pool_levels(base: str) -> dict[str, int]:
    """The pool levels /health reports (any status code)."""
    pool = httpx.get(f"{base}/health", timeout=10).json()["checks"]["pool"]
    return {mode: v["level"] for mode, v in pool.get("modes", {}).items()}
