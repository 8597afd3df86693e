"""What a request sees when a backing service is down: the database (503
database_unavailable, logged once, no traceback), the cache (it is empty, throttling lets
requests through) and the broker (a new game is still created; the fill is not queued)."""

from __future__ import annotations

import logging
import socket
import time
import uuid

import pytest
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path
from kombu.exceptions import OperationalError as KombuOperationalError

from base import queueing
from base.authentication import BearerTokenAuthentication
from base.cache import FailSoftRedisCache
from games import pool
from games.engine import DEAL_VERSION
from games.models import Deal, Game


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the database ---------------------------------------------------------------------------
@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_an_api_request_with_the_database_down_is_503(api_client, monkeypatch, caplog, error):
    def unreachable(self, key):
        raise error("connection to server at 127.0.0.1, port 5432 failed: Connection refused")

    monkeypatch.setattr(BearerTokenAuthentication, "authenticate_credentials", unreachable)

    with caplog.at_level(logging.INFO):
        response = api_client.get("/api/v1/me", HTTP_AUTHORIZATION="Bearer abc")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "database_unavailable"
    assert body["retry_after"] == 5
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == 1, [r.getMessage() for r in errors]  # logged once ...
    assert errors[0].name == "spider_api.errors"
    assert errors[0].exc_info is None  # ... without a traceback
    assert "Connection refused" in errors[0].getMessage()


def _plain_django_view(request: HttpRequest) -> HttpResponse:
    raise OperationalError("the database system is shutting down")


urlpatterns = [path("plain", _plain_django_view)]


@pytest.mark.urls(__name__)
def test_a_page_outside_drf_with_the_database_down_is_503(client, caplog):
    with caplog.at_level(logging.INFO):
        response = client.get("/plain")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["code"] == "database_unavailable"
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in errors] == ["spider_api.errors"]


# -- the cache ------------------------------------------------------------------------------
@pytest.fixture
def dead_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "base.cache.FailSoftRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/1",
        }
    }


def test_a_dead_redis_cache_is_an_empty_cache(caplog):
    cache = FailSoftRedisCache(f"redis://127.0.0.1:{closed_port()}/1", {})
    with caplog.at_level(logging.WARNING):
        started = time.monotonic()
        assert cache.get("k", "default") == "default"
        assert cache.set("k", 1) is None
        assert cache.add("k", 1) is False
        assert cache.get_many(["a", "b"]) == {}
        assert cache.get_or_set("k", 7) == 7
        took = time.monotonic() - started
    assert took < 2
    outages = [r for r in caplog.records if "cache unavailable" in r.getMessage()]
    assert len(outages) == 1  # once per outage, not once per call


def test_throttling_lets_requests_through_when_the_cache_is_down(
    api_client, dead_cache, set_throttle_rate, db
):
    set_throttle_rate("auth", "1/min")
    responses = [
        api_client.post(
            "/api/v1/auth/register",
            {"username": f"throttled{n}", "password": "correct horse battery staple"},
        )
        for n in range(3)
    ]
    assert [r.status_code for r in responses] == [201, 201, 201], responses[0].json()


def test_the_leaderboard_is_served_when_the_cache_is_down(api_client, dead_cache, db):
    assert api_client.get("/api/v1/leaderboard?suits=1").status_code == 200


# -- the broker -----------------------------------------------------------------------------
@pytest.fixture
def broker_down(settings, monkeypatch):
    """A deployment with a broker that refuses every publish."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.POOL_AUTOFILL = True
    settings.POOL_SYNC_VET_SECONDS = 0
    calls = []

    def refuse(name, args=(), **kwargs):
        assert name == "games.tasks.fill_pool"
        calls.append(args)
        raise KombuOperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(queueing.current_app, "send_task", refuse)
    return calls


def test_kick_fill_fails_soft_and_backs_off(broker_down, caplog):
    with caplog.at_level(logging.WARNING):
        pool.kick_fill(2)
        pool.kick_fill(2)  # within the back-off: not even tried
    assert broker_down == [(2,)]
    assert "broker is unavailable" in caplog.text


def test_a_game_is_created_from_the_pool_while_the_broker_is_down(
    broker_down, settings, make_user, auth_client, django_capture_on_commit_callbacks
):
    settings.POOL_LOW_WATER = 5  # taking the only deal asks for a fill, which cannot be queued
    deal = Deal(
        suits=1,
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.POOLED,
        vetted=True,
    )
    deal.seed = uuid.uuid4().int >> 65
    deal.save()
    client = auth_client(make_user())

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/games", {"suits": 1})

    assert response.status_code == 201, response.json()
    assert Game.objects.get(pk=response.json()["id"]).deal_id == deal.pk
    assert broker_down == [(1,)]  # the fill was asked for, failed, and did not fail the game
