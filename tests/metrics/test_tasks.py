"""Celery's figures (spider_api/metrics/tasks.py), of tasks run in this process: by name and
outcome, with the run time. (A task whose pool process is killed, counted by the
worker's main process, is `make faults`' to show: tests/ops/test_faults_prometheus.py.)"""

from __future__ import annotations

import pytest
from celery import shared_task

from games.tasks import prune_idempotent_requests
from tests.metrics.helpers import value

pytestmark = pytest.mark.django_db

FAILING = "tests.metrics.test_tasks.fails"


@shared_task(name=FAILING)
def fails() -> None:
    raise RuntimeError("on purpose")


def test_a_task_by_name_and_outcome_with_its_run_time(metrics_on):
    name = prune_idempotent_requests.name
    succeeded = value("spider_celery_tasks_total", task=name, outcome="succeeded")
    timed = value("spider_celery_task_duration_seconds_count", task=name)
    prune_idempotent_requests.delay()
    assert value("spider_celery_tasks_total", task=name, outcome="succeeded") == succeeded + 1
    assert value("spider_celery_task_duration_seconds_count", task=name) == timed + 1

    # As a worker's pool runs it (the error kept in the result; in-process, with
    # CELERY_TASK_EAGER_PROPAGATES, it is raised into its caller, that request's error).
    failed = value("spider_celery_tasks_total", task=FAILING, outcome="failed")
    assert fails.apply(throw=False).failed()
    assert value("spider_celery_tasks_total", task=FAILING, outcome="failed") == failed + 1


def test_no_figure_without_a_token(settings):
    settings.METRICS_TOKEN = ""
    name = prune_idempotent_requests.name
    before = value("spider_celery_tasks_total", task=name, outcome="succeeded")
    prune_idempotent_requests.delay()
    assert value("spider_celery_tasks_total", task=name, outcome="succeeded") == before
