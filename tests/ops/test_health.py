"""GET /health: database, broker, pool levels and beat's heartbeat; 200 or 503 naming what is
down. GET /health/live: the process answers."""

from __future__ import annotations

import os
import socket
import time
import uuid

import pytest
from django.db import OperationalError

from games.engine import DEAL_VERSION
from games.models import Deal
from spider_api import health

REDIS = os.environ.get("CELERY_BROKER_URL", "")
needs_redis = pytest.mark.skipif(
    not REDIS.startswith("redis://"), reason="needs CELERY_BROKER_URL=redis://..."
)


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stock(suits: int, n: int) -> None:
    for _ in range(n):
        deal = Deal(
            suits=suits,
            deal_version=DEAL_VERSION,
            source=Deal.Source.POOL,
            state=Deal.State.POOLED,
            vetted=True,
        )
        deal.seed = uuid.uuid4().int >> 65
        deal.save()


@pytest.fixture
def full_pool(db, settings) -> None:
    settings.POOL_LOW_WATER = 2
    for suits in (1, 2, 4):
        stock(suits, 2)


@pytest.fixture
def with_broker(settings):
    """Point the app at a broker (a real Redis, or a closed port) as a deployment would."""

    def use(url: str) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = url

    return use


def test_all_good_without_a_broker_is_200(client, full_pool):
    response = client.get("/health")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["down"] == []
    checks = body["checks"]
    assert checks["database"]["status"] == "ok"
    assert checks["broker"] == {"status": "disabled"}  # tasks run in-process
    assert checks["beat"] == {"status": "disabled"}
    assert checks["pool"]["modes"] == {
        "1": {"level": 2, "status": "ok"},
        "2": {"level": 2, "status": "ok"},
        "4": {"level": 2, "status": "ok"},
    }


def test_health_is_public_and_never_throttled(client, full_pool, set_throttle_rate):
    for scope in ("auth", "game_create", "actions"):
        set_throttle_rate(scope, "1/min")
    codes = {client.get("/health", HTTP_AUTHORIZATION="Bearer nonsense").status_code}
    codes |= {client.get("/health").status_code for _ in range(5)}
    assert codes == {200}


def test_an_empty_suit_mode_is_503_naming_the_pool(client, db, settings):
    settings.POOL_LOW_WATER = 2
    stock(1, 1)
    stock(2, 3)

    response = client.get("/health")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded" and body["down"] == ["pool"]
    assert body["checks"]["pool"]["modes"] == {
        "1": {"level": 1, "status": "low"},
        "2": {"level": 3, "status": "ok"},
        "4": {"level": 0, "status": "empty"},
    }


def test_a_low_pool_is_reported_but_is_not_down(client, db, settings):
    settings.POOL_LOW_WATER = 5
    for suits in (1, 2, 4):
        stock(suits, 1)
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["checks"]["pool"]["status"] == "low"


def test_database_down_is_503_naming_the_database(client, full_pool, monkeypatch):
    class Unreachable:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr(health, "connection", Unreachable())

    response = client.get("/health")

    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["database"]
    assert body["checks"]["database"]["status"] == "down"
    assert "connection refused" in body["checks"]["database"]["error"]
    assert body["checks"]["pool"]["status"] == "unknown"  # it lives in the database


def test_broker_down_is_503_within_the_timeout(client, full_pool, with_broker):
    with_broker(f"redis://127.0.0.1:{closed_port()}/0")

    started = time.monotonic()
    response = client.get("/health")
    took = time.monotonic() - started

    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["broker"]
    assert body["checks"]["broker"]["status"] == "down"
    assert body["checks"]["beat"]["status"] == "unknown"  # its heartbeat is in the broker
    assert took < 3 * health.BROKER_TIMEOUT_SECONDS


@needs_redis
def test_beat_heartbeat_fresh_then_stale(client, full_pool, with_broker, settings, monkeypatch):
    with_broker(REDIS)
    monkeypatch.setattr(health, "HEARTBEAT_KEY", f"test:heartbeat:{uuid.uuid4().hex}")
    redis = health._redis(REDIS)
    try:
        body = client.get("/health").json()
        assert body["checks"]["beat"]["status"] == "stale"  # never beaten
        assert "beat" in body["down"]

        health.beat_heartbeat()
        response = client.get("/health")
        assert response.status_code == 200, response.json()
        beat = response.json()["checks"]["beat"]
        assert beat["status"] == "ok" and beat["age_s"] < 5

        redis.set(health.HEARTBEAT_KEY, repr(time.time() - settings.BEAT_STALE_SECONDS - 1))
        response = client.get("/health")
        assert response.status_code == 503
        assert response.json()["down"] == ["beat"]
        assert response.json()["checks"]["beat"]["status"] == "stale"
    finally:
        redis.delete(health.HEARTBEAT_KEY)


def test_the_heartbeat_task_is_scheduled_by_beat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["beat-heartbeat"]
    assert entry["task"] == health.beat_heartbeat.name
    assert entry["schedule"] == settings.BEAT_HEARTBEAT_SECONDS < settings.BEAT_STALE_SECONDS


def test_liveness_touches_nothing(client):
    response = client.get("/health/live")  # no db fixture: a query would fail the request
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_health_is_not_redirected_to_https(client, full_pool, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/health").status_code == 200
    assert client.get("/health/live").status_code == 200
    assert client.get("/api/v1/me").status_code == 301  # everything else still is


def test_health_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/health"]["get"]
    assert {"200", "503"} <= set(operation["responses"])


@pytest.mark.parametrize(
    ("allowed", "host"),
    [("api.example.com,localhost", "api.example.com"), (".example.com", "example.com")]
    + [("*", "localhost"), ("", "localhost"), (" , x.org", "x.org")],
)
def test_the_container_healthcheck_sends_a_host_the_app_accepts(allowed, host):
    from spider_api.healthcheck import host_header

    assert host_header(allowed) == host
