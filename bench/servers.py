"""What the benches that start the service share: a free port, the server's environment, a
scratch database made afresh, and the wait for a started server to answer.

The environment is production's (DEBUG off, no broker, no autofill) with throttling lifted so
the load generator measures the service, not its rate limits. It matches `project_env` in
the naive-endpoint comparison (docs/operations.md), which runs the service the same way.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time

import httpx
import psycopg
from psycopg import sql

# The PostgreSQL the benches make their scratch databases on.
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
# A migrated database to copy instead of making an empty one (the suite's tiny runs migrate
# one for all of them); unset, each bench migrates its own.
TEMPLATE_VAR = "BENCH_TEMPLATE_DB"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(db_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-only",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=db_url,
        DATABASE_CONN_MAX_AGE="60",
        CELERY_BROKER_URL="",
        POOL_AUTOFILL="0",
        THROTTLE_RATE_ACTIONS="1000000/min",
        THROTTLE_RATE_GAME_CREATE="1000000/min",
        THROTTLE_RATE_AUTH="1000000/min",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


def database_afresh(db: str) -> None:
    """Drop ``db`` (its sessions closed) and make it again: empty, or a copy of the migrated
    database BENCH_TEMPLATE_DB names, which leaves the bench's own migrate nothing to do."""
    template = os.environ.get(TEMPLATE_VAR)
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db)))
        create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db))
        if template:
            create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        conn.execute(create)


def wait_live(server: subprocess.Popen, port: int, wait: float) -> subprocess.Popen:
    """``server`` once it answers /health/live on ``port`` (it touches nothing: the schema
    took over 2 s to build on a loaded machine); stopped, and an error, after ``wait`` s."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health/live", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not come up")


def django_in_process(db_url: str) -> None:
    """Django set up in this process on ``db_url`` and migrated: a bench that times the
    service's own functions beside its HTTP figures (no autofill: the pool is the bench's)."""
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ["POOL_AUTOFILL"] = "0"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
