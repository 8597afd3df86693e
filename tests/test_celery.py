"""Celery runs tasks in-process when no broker is configured (and always in tests), and reaches
the broker when one is."""

import os

import pytest

from spider_api import celery_app


@celery_app.task
def _add(x: int, y: int) -> int:
    return x + y


def test_tasks_run_in_process_in_tests():
    assert celery_app.conf.task_always_eager
    assert _add.delay(2, 3).get() == 5


@pytest.mark.skipif(
    not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"),
    reason="needs CELERY_BROKER_URL=redis://...",
)
def test_the_redis_broker_is_reachable():
    with celery_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=2)
        assert connection.transport.driver_name == "redis"
