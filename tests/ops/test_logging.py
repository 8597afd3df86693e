"""Structured logs: JSON lines with the request id; the id in and out of every response, and
into Celery tasks; a failed task logged with its arguments."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest

from base.logging import (
    HEADER,
    JsonFormatter,
    RequestIdFilter,
    _stamp_request_id,
    request_id_var,
)
from spider_api import celery_app
from tests.conftest import ROOT, token_of


def test_every_response_carries_a_request_id(client):
    first = client.get("/health/live")[HEADER]
    second = client.get("/health/live")[HEADER]
    assert len(first) == 32 and first != second


def test_a_well_formed_incoming_request_id_is_kept(client):
    response = client.get("/health/live", HTTP_X_REQUEST_ID="edge-7f3a.42")
    assert response[HEADER] == "edge-7f3a.42"


@pytest.mark.parametrize("bad", ["has space", "x" * 129, 'quote"d', "new\nline"])
def test_a_malformed_request_id_is_replaced(client, bad):
    response = client.get("/health/live", HTTP_X_REQUEST_ID=bad)
    assert response[HEADER] != bad and len(response[HEADER]) == 32


def test_each_request_is_logged_once_with_its_id_status_and_player(api_client, make_user, caplog):
    user = make_user()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
    with caplog.at_level(logging.INFO, logger="spider_api.access"):
        response = api_client.get("/api/v1/me", HTTP_X_REQUEST_ID="req-1")
    [record] = [r for r in caplog.records if r.name == "spider_api.access"]
    assert response.status_code == 200
    assert record.request_id == "req-1"
    assert (record.method, record.path, record.status) == ("GET", "/api/v1/me", 200)
    assert record.user_id == user.pk and record.duration_ms >= 0


def _format(record: logging.LogRecord) -> dict:
    RequestIdFilter().filter(record)
    return json.loads(JsonFormatter().format(record))


def test_the_json_formatter_writes_one_object_with_the_request_id_and_extras():
    token = request_id_var.set("abc123")
    try:
        record = logging.LogRecord("games.pool", logging.INFO, __file__, 1, "vetted %s", (7,), None)
        record.suits = 2
        line = _format(record)
    finally:
        request_id_var.reset(token)
    assert line["message"] == "vetted 7"
    assert line["level"] == "INFO" and line["logger"] == "games.pool"
    assert line["request_id"] == "abc123"
    assert line["suits"] == 2
    assert line["ts"].endswith("+00:00")


def test_the_json_formatter_keeps_the_traceback_in_one_line():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    text = JsonFormatter().format(record)
    assert "\n" not in text
    assert "ValueError: boom" in json.loads(text)["exc"]


def test_production_logs_are_json_lines():
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('games.pool').warning('hello %s', 'world')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "spider_api.settings"}
        | {"SECRET_KEY": "x", "DEBUG": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["message"] == "hello world" and line["request_id"] == "-"


def test_a_task_published_during_a_request_carries_its_id():
    headers: dict = {}
    token = request_id_var.set("req-42")
    try:
        _stamp_request_id(headers=headers)
    finally:
        request_id_var.reset(token)
    assert headers == {"request_id": "req-42"}
    _stamp_request_id(headers=(outside := {}))
    assert outside == {}  # beat's tasks get their own id in the worker


@celery_app.task(name="tests.ops.failing_task")
def failing_task(suits: int, seed: int, note: str = "") -> None:
    raise RuntimeError(f"cannot vet {suits}/{seed}")


def test_a_failed_task_is_logged_with_its_arguments(caplog):
    with caplog.at_level(logging.ERROR, logger="spider_api.tasks"):
        # throw=False: as in a worker (an eager task that raises skips the failure signal)
        failing_task.apply(args=(4, 123456789), kwargs={"note": "retry"}, throw=False)
    [record] = [r for r in caplog.records if r.name == "spider_api.tasks"]
    message = record.getMessage()
    assert "tests.ops.failing_task" in message and "RuntimeError: cannot vet 4/123456789" in message
    assert "args=(4, 123456789)" in message or "args=[4, 123456789]" in message
    assert "'note': 'retry'" in message
    assert record.exc_info and record.exc_info[0] is RuntimeError
    assert list(record.task_args) == [4, 123456789] and record.task_kwargs == {"note": "retry"}
