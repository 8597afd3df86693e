"""Two workers creating the same day's challenge at once (PostgreSQL: real transactions, real
row locks, one connection per thread)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Deal
from leaderboard import services
from leaderboard.models import DailyChallenge

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WORKERS = 4


def run_threads(n: int, target: Callable[[], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run ``target`` in n threads released together; each closes its own connection."""
    start = threading.Barrier(n)
    results: list[Any] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def work() -> None:
        try:
            start.wait(timeout=10)
            value = target()
            with lock:
                results.append(value)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    return results, errors


def test_workers_at_once_make_one_challenge_and_waste_no_deal(stock_pool):
    stock_pool(2, WORKERS + 1)
    day = timezone.now().date()

    with mock.patch.object(services, "pool_take", wraps=services.pool_take) as take:
        results, errors = run_threads(WORKERS, lambda: services.daily_ensure(day=day))

    assert not errors, errors
    # Creators of one day queue on its lock: only the first takes a deal from the pool.
    assert take.call_count == 1
    challenge = DailyChallenge.objects.get()  # exactly one
    assert {c.pk for c in results} == {challenge.pk}
    assert {c.commitment for c in results} == {challenge.commitment}
    states = dict(Deal.objects.values_list("pk", "state"))
    assert states.pop(challenge.deal_id) == Deal.State.DEALT
    assert list(states.values()) == [Deal.State.POOLED] * WORKERS  # no deal wasted


def test_concurrent_first_requests_all_get_the_same_challenge(stock_pool, api_client):
    stock_pool(2, WORKERS)
    day = timezone.now().date()

    results, errors = run_threads(WORKERS, lambda: services.daily_ensure(day=day))

    assert not errors, errors
    assert len({c.pk for c in results}) == 1
    assert DailyChallenge.objects.count() == 1
    assert Deal.objects.filter(state=Deal.State.POOLED).count() == WORKERS - 1


def _someone_waits_on_a_lock() -> bool:
    """Whether another session of this database is blocked on a lock (e.g. one we hold)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def test_a_loser_gets_the_challenge_even_when_the_pool_has_one_deal(stock_pool):
    """The first creator holds the only pooled deal, uncommitted, until the second has
    looked: either it found nothing to claim, or it is queued behind the first (a lock
    wait). Either way it must end with the first one's challenge, not a 503."""
    stock_pool(2, 1)
    day = timezone.now().date()
    real_take = services.pool_take
    winner_holds = threading.Event()
    loser_looked = threading.Event()
    first = threading.Lock()
    order: list[str] = []

    def take(*, suits: int) -> Deal:
        with first:
            role = "winner" if not order else "loser"
            order.append(role)
        if role == "loser":
            winner_holds.wait(timeout=10)
            try:
                return real_take(suits=suits)
            finally:
                loser_looked.set()
        deal = real_take(suits=suits)
        winner_holds.set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not loser_looked.is_set():
            if _someone_waits_on_a_lock():
                loser_looked.set()
                break
            time.sleep(0.02)
        return deal

    with mock.patch.object(services, "pool_take", side_effect=take):
        results, errors = run_threads(2, lambda: services.daily_ensure(day=day))

    assert loser_looked.is_set(), "the second creator never raced the first"
    assert not errors, errors
    assert DailyChallenge.objects.count() == 1
    assert len({c.pk for c in results}) == 1
    assert len(results) == 2
