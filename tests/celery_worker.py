"""A real Celery worker process for the tests that go through the broker.

It shares the test database (so those tests need PostgreSQL and ``transaction=True``: the
worker sees only committed rows) and takes ``CELERY_BROKER_URL`` (a real Redis). Its queue
is unique to the test, so no other worker on the machine can take the task; the test
process publishes for real while it runs (eager mode off).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.db import connection

from spider_api import celery_app
from tests.conftest import ROOT

BROKER = os.environ.get("CELERY_BROKER_URL", "")
needs_redis = pytest.mark.skipif(
    not BROKER.startswith("redis://"), reason="needs CELERY_BROKER_URL=redis://"
)


@dataclass
class Worker:
    queue: str
    output: str = ""  # the worker's log, once it has stopped


@contextmanager
def celery_worker(**env: str) -> Iterator[Worker]:
    """Run a solo-pool worker on a queue of its own, with ``env`` on top of this process's
    environment and the test database; yields it (publish to ``worker.queue``), then stops
    it and keeps its log in ``worker.output``."""
    worker = Worker(f"test-{uuid.uuid4().hex[:12]}")
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    environ = {
        **os.environ,
        "DATABASE_URL": f"postgres://{user}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": BROKER,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "POOL_AUTOFILL": "0",
        **env,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "spider_api", "worker", "-Q", worker.queue]
        + ["--concurrency", "1", "--pool", "solo", "--loglevel", "INFO"]
        + ["--without-heartbeat", "--without-gossip", "--without-mingle"],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        yield worker
    finally:
        celery_app.conf.task_always_eager = eager
        proc.terminate()
        try:
            worker.output, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            worker.output, _ = proc.communicate()
