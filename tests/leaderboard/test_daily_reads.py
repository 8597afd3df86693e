"""Reading the daily challenge never makes it: GET /daily and GET /daily/{date}/leaderboard
write nothing and solve nothing. A missing challenge is a quick 503 ``daily_not_ready`` with
Retry-After, and its creation is asked for (the worker's task; a thread without a broker)."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Deal
from leaderboard import services
from leaderboard.models import DailyChallenge
from spider_api import celery_app
from tests.celery_worker import celery_worker, needs_redis
from tests.leaderboard.helpers import DAILY, daily_board

WRITES = ("INSERT", "UPDATE", "DELETE")


def _writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("stocked", [True, False], ids=["pool-stocked", "pool-empty"])
def test_reading_a_missing_challenge_writes_and_solves_nothing(
    api_client, stock_pool, settings, stocked
) -> None:
    settings.POOL_SYNC_VET_SECONDS = 3  # what a request might once have spent solving
    if stocked:
        stock_pool(2, 2)
    deals_before = list(Deal.objects.values_list("pk", "state"))
    today = timezone.now().date()

    for path in (DAILY, daily_board(today)):
        started = time.monotonic()
        with CaptureQueriesContext(connection) as queries:
            response = api_client.get(path)
        took = time.monotonic() - started

        assert response.status_code == 503, response.json()
        body = response.json()
        assert body["code"] == "daily_not_ready"
        assert body["retry_after"] == int(response["Retry-After"]) > 0
        assert _writes(queries) == []
        assert took < 1.0  # no solving
    assert not DailyChallenge.objects.exists()
    assert list(Deal.objects.values_list("pk", "state")) == deals_before


@pytest.mark.django_db(transaction=True)
def test_the_missing_challenge_is_made_in_the_background_and_then_served(
    api_client, stock_pool, settings
) -> None:
    """Without a broker (``make run``) the request starts a thread that makes it; readers
    retrying after Retry-After find it."""
    settings.POOL_AUTOFILL = True
    settings.POOL_LOW_WATER = 0  # no pool fill after the take: only the challenge is made
    stock_pool(2, 2)

    first = api_client.get(DAILY)
    assert first.status_code == 503

    deadline = time.monotonic() + 20
    while not DailyChallenge.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    challenge = DailyChallenge.objects.get()
    assert challenge.date == timezone.now().date()

    again = api_client.get(DAILY)
    assert again.status_code == 200
    assert again.json()["commitment"] == challenge.commitment
    assert api_client.get(daily_board(challenge.date)).status_code == 200


@pytest.mark.django_db
def test_a_burst_of_readers_asks_for_the_challenge_once(api_client, settings, monkeypatch) -> None:
    started: list[object] = []
    settings.POOL_AUTOFILL = True
    monkeypatch.setattr(services, "daily_ensure", lambda day: started.append(day))

    for _ in range(5):
        assert api_client.get(DAILY).status_code == 503
    deadline = time.monotonic() + 5
    while not started and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)  # a second thread, had one been started, would have run by now

    assert started == [timezone.now().date()]


@pytest.mark.postgres
@pytest.mark.slow
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_with_a_broker_a_reader_queues_the_task_and_a_real_worker_makes_it(
    api_client, stock_pool, settings, monkeypatch
) -> None:
    stock_pool(2, 2)
    # no par search queued onto the shared broker's default queue
    with celery_worker(POOL_SYNC_VET_SECONDS="0", DAILY_PAR_MAX_NODES="0") as worker:
        settings.CELERY_TASK_ALWAYS_EAGER = False  # daily_request reads it: publish for real
        monkeypatch.setitem(celery_app.conf, "task_default_queue", worker.queue)
        first = api_client.get(DAILY)
        assert first.status_code == 503
        assert first.json()["code"] == "daily_not_ready"
        deadline = time.monotonic() + 60
        while not DailyChallenge.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert api_client.get(DAILY).status_code == 200, "the worker did not make the challenge"
    assert "leaderboard.tasks.create_daily_challenges" in worker.output, worker.output[-2000:]
