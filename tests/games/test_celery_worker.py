"""A real Celery worker on the local Redis fills the vetted-deal pool.

The worker is a separate process that shares the test database (tests/celery_worker.py), so
this needs PostgreSQL and ``CELERY_BROKER_URL=redis://...``.
"""

from __future__ import annotations

import time

import pytest

from games.models import Deal
from games.tasks import fill_pool
from tests.celery_worker import celery_worker, needs_redis

pytestmark = [pytest.mark.postgres, pytest.mark.slow, needs_redis]


@pytest.mark.django_db(transaction=True)
def test_a_worker_fills_the_pool_through_redis(settings) -> None:
    with celery_worker(POOL_TARGET="3") as worker:
        fill_pool.apply_async(args=(1,), queue=worker.queue)
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
    assert "games.tasks.fill_pool" in worker.output, worker.output[-2000:]
