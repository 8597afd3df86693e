"""A real Celery worker on the local Redis fills the vetted-deal pool.

The worker is a separate process that shares the test database, so this needs PostgreSQL
(committed data, ``transaction=True``) and ``CELERY_BROKER_URL=redis://...``. Its queue name
is unique to this run, so no other worker on the machine can take the task.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection

from games.models import Deal
from games.tasks import fill_pool
from spider_api import celery_app
from tests.conftest import ROOT

BROKER = os.environ.get("CELERY_BROKER_URL", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.skipif(
        not BROKER.startswith("redis://"), reason="needs CELERY_BROKER_URL=redis://"
    ),
]


def _worker_env(queue: str) -> dict[str, str]:
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{user}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        CELERY_BROKER_URL=BROKER,
        CELERY_TASK_ALWAYS_EAGER="0",
        POOL_TARGET="3",
        POOL_AUTOFILL="0",
    )
    return env


@pytest.mark.django_db(transaction=True)
def test_a_worker_fills_the_pool_through_redis(settings) -> None:
    queue = f"test-{uuid.uuid4().hex[:12]}"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "spider_api",
            "worker",
            "-Q",
            queue,
            "--concurrency",
            "1",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=_worker_env(queue),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        fill_pool.apply_async(args=(1,), queue=queue)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if Deal.objects.filter(suits=1, state=Deal.State.POOLED).count() >= 3:
                break
            time.sleep(0.5)
        pooled = list(Deal.objects.filter(suits=1, state=Deal.State.POOLED))
        assert len(pooled) >= 3, "the worker did not fill the pool in 90 s"
        for deal in pooled:  # each one solver-vetted, with its verified line stored
            assert deal.vetted and deal.source == Deal.Source.POOL
            assert deal.solver_line and deal.par == len(deal.solver_line)
    finally:
        celery_app.conf.task_always_eager = eager
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    assert "games.tasks.fill_pool" in output, output[-2000:]
