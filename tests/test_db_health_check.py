"""The PostgreSQL backend's health check (base/postgresql): once per
DATABASE_HEALTH_CHECK_DELAY seconds per connection, not before every request, and always
again on a new connection."""

import pytest
from django.db import connection, connections

from base.postgresql import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def checks(monkeypatch):
    """Counts the real health checks (``is_usable``) and lets the test move the clock."""
    calls = []
    now = [5000.0]
    real = base.DatabaseWrapper.is_usable

    def counting(self):
        calls.append(now[0])
        return real(self)

    monkeypatch.setattr(base.DatabaseWrapper, "is_usable", counting)
    monkeypatch.setattr(base.time, "monotonic", lambda: now[0])
    connection.ensure_connection()
    connection._checked_conn = None  # no check from an earlier test counts
    enabled = connection.health_check_enabled
    connection.health_check_enabled = True  # as DATABASE_URL's conn_health_checks sets it
    yield calls, now
    connection.health_check_enabled = enabled


def request_cycle() -> None:
    """What a request does to the connection: a new cycle (Django's request_started hook resets
    ``health_check_done``; the hook itself would close a connection inside the test's
    transaction), then two queries."""
    connection.health_check_done = False  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 2")
        cursor.execute("SELECT 3")


def test_one_check_per_delay_not_per_request(checks, settings):
    calls, now = checks
    settings.DATABASE_HEALTH_CHECK_DELAY = 1

    for _ in range(5):
        request_cycle()
        now[0] += 0.1
    assert len(calls) == 1  # five requests within a second: one check

    now[0] += 1
    request_cycle()
    request_cycle()
    assert len(calls) == 2  # idle past the delay: checked again, once


def test_a_delay_of_zero_checks_every_request_as_django_does(checks, settings):
    calls, now = checks
    settings.DATABASE_HEALTH_CHECK_DELAY = 0

    for _ in range(3):
        request_cycle()
    assert len(calls) == 3


def test_a_new_connection_is_checked_whatever_the_delay(checks, settings):
    calls, now = checks
    settings.DATABASE_HEALTH_CHECK_DELAY = 60
    request_cycle()
    assert len(calls) == 1

    connection._checked_conn = object()  # as if the connection had been replaced
    request_cycle()
    assert len(calls) == 2


def test_the_project_backend_is_in_use(settings):
    assert settings.DATABASES["default"]["ENGINE"] == "base.postgresql"
    assert isinstance(connections["default"], base.DatabaseWrapper)
