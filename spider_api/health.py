"""``GET /health``: is this deployment able to serve players? ``GET /health/live``: is this
process up?

``/health`` checks, each with a short timeout so it answers within a few seconds whatever is
down:

- ``database``: ``SELECT 1`` (and its latency).
- ``broker``: a Redis ``PING`` with a 1 s timeout; ``disabled`` when no broker is configured
  (tasks then run in-process).
- ``pool``: vetted deals ready per suit mode; a mode at 0 is ``empty`` (its new games must be
  vetted on the spot, or answer 503 ``pool_empty``), below ``POOL_LOW_WATER`` ``low``.
- ``beat``: the age of the last heartbeat. Beat schedules ``beat_heartbeat`` every
  ``BEAT_HEARTBEAT_SECONDS`` and a worker runs it, writing the time into the broker's Redis;
  older than ``BEAT_STALE_SECONDS`` (or never written) is ``stale``: beat, or every worker,
  is not running.

200 ``{"status": "ok", "down": [], "checks": {...}}`` when all is well; 503 with
``"status": "degraded"`` and ``down`` naming each failing check otherwise. A low pool is
reported but is not "down". No authentication, no throttling, no session: safe to poll.
``/health/live`` touches nothing (no database, no broker): for a container or process
supervisor that should restart a wedged web process, not one whose database is down.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from celery import shared_task
from django.conf import settings
from django.db import connection
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.errors import DATABASE_ERRORS
from games.pool import pool_levels  # the project names the apps; none of them imports it
from spider_api import schema_docs

HEARTBEAT_KEY = "spider_api:beat:heartbeat"
BROKER_TIMEOUT_SECONDS = 1.0

_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def broker_url() -> str | None:
    """The Redis broker's URL, or None when tasks run in-process (no broker to check)."""
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url.startswith(("redis://", "rediss://")):
        return None
    return url


def _redis(url: str) -> redis.Redis:
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = redis.Redis.from_url(
                url,
                socket_connect_timeout=BROKER_TIMEOUT_SECONDS,
                socket_timeout=BROKER_TIMEOUT_SECONDS,
                retry_on_timeout=False,
            )
            _clients[url] = client
        return client


def _error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def check_database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DATABASE_ERRORS as exc:
        return {"status": "down", "error": _error(exc), "latency_ms": _ms(started)}
    return {"status": "ok", "latency_ms": _ms(started)}


def check_broker() -> dict[str, Any]:
    url = broker_url()
    if url is None:
        return {"status": "disabled"}
    started = time.perf_counter()
    try:
        _redis(url).ping()
    except redis.RedisError as exc:
        return {"status": "down", "error": _error(exc), "latency_ms": _ms(started)}
    return {"status": "ok", "latency_ms": _ms(started)}


def check_pool(database_up: bool) -> dict[str, Any]:
    low_water, target = settings.POOL_LOW_WATER, settings.POOL_TARGET
    check: dict[str, Any] = {"status": "unknown", "low_water": low_water, "target": target}
    if not database_up:
        return check
    try:
        levels = pool_levels()
    except DATABASE_ERRORS as exc:
        return {**check, "error": _error(exc)}
    modes = {}
    for suits, level in sorted(levels.items()):
        state = "empty" if level == 0 else "low" if level < low_water else "ok"
        modes[str(suits)] = {"level": level, "status": state}
    states = {m["status"] for m in modes.values()}
    overall = "empty" if "empty" in states else "low" if "low" in states else "ok"
    return {**check, "status": overall, "modes": modes}


def check_beat(broker: dict[str, Any]) -> dict[str, Any]:
    stale_after = settings.BEAT_STALE_SECONDS
    url = broker_url()
    if url is None:
        return {"status": "disabled"}
    check: dict[str, Any] = {"status": "unknown", "stale_after_s": stale_after}
    if broker["status"] != "ok":
        return check  # the heartbeat lives in the broker's Redis
    try:
        raw = _redis(url).get(HEARTBEAT_KEY)
    except redis.RedisError as exc:
        return {**check, "error": _error(exc)}
    if raw is None:
        return {**check, "status": "stale", "last_run": None, "age_s": None}
    last = float(raw)
    age = round(max(0.0, time.time() - last), 1)
    return {
        **check,
        "status": "stale" if age > stale_after else "ok",
        "last_run": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(last)),
        "age_s": age,
    }


def health_report() -> dict[str, Any]:
    database = check_database()
    broker = check_broker()
    checks = {
        "database": database,
        "broker": broker,
        "pool": check_pool(database["status"] == "ok"),
        "beat": check_beat(broker),
    }
    failing = {"database": {"down"}, "broker": {"down"}, "pool": {"empty"}, "beat": {"stale"}}
    down = [name for name, states in failing.items() if checks[name]["status"] in states]
    return {"status": "degraded" if down else "ok", "down": down, "checks": checks}


@shared_task(name="spider_api.health.beat_heartbeat", ignore_result=True)
def beat_heartbeat() -> float:
    """Beat's heartbeat, run by a worker: records when it ran, for ``check_beat``."""
    now = time.time()
    url = broker_url()
    if url is not None:
        _redis(url).set(HEARTBEAT_KEY, repr(now), ex=7 * 24 * 3600)
    return now


HEALTH_RETRY_AFTER_SECONDS = 10  # a restart or a failover takes about this long to show


@schema_docs.health
class HealthApi(APIView):
    uses_database = False  # it reports the database's state: never 503 database_unavailable
    authentication_classes: list[Any] = []
    permission_classes = (AllowAny,)
    throttle_classes: list[Any] = []
    OutputSerializer = schema_docs.HEALTH

    def get(self, request: Request) -> Response:
        report = health_report()
        response = Response(report, status=200 if report["status"] == "ok" else 503)
        if response.status_code == 503:
            response["Retry-After"] = str(HEALTH_RETRY_AFTER_SECONDS)
        # A 503 here is a report, not a failure of this request: keep it out of the error log
        # (what is down logs itself where it fails).
        response._has_been_logged = True  # type: ignore[attr-defined]
        return response


@schema_docs.liveness
class LivenessApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = (AllowAny,)
    throttle_classes: list[Any] = []

    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
