"""The response check every test runs through (tests/schema_check.py) is strict: it refuses a
status code, a header or a field that the schema does not declare."""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponse

from tests.schema_check import SchemaMismatch, check

BOARD = "/api/v1/leaderboard"
ROW = {
    "rank": 1,
    "player": "ann",
    "score": 900,
    "actions": 120,
    "elapsed_ms": 1000,
    "finished_at": "2026-12-01T00:00:00Z",
    "perfect": True,
    "hints": 0,
    "game": "7b1bf82d-5478-45f8-8c84-a942b4e150af",
    "deal_over_gap": False,
    "public": True,
}
PAGE = {"page": 1, "page_size": 20, "has_next": False, "results": [ROW]}
HEADERS = {
    "Content-Type": "application/json",
    "X-Request-ID": "abc",
    "ETag": '"1"',
    "Cache-Control": "public, max-age=5",
}


def answer(body, status: int = 200, **headers: str) -> HttpResponse:
    merged = {**HEADERS, **headers}
    return HttpResponse(json.dumps(body), status=status, headers=merged)


def test_a_documented_answer_passes():
    check("get", BOARD, {"suits": ["1"]}, answer(PAGE))


def test_an_undeclared_status_code_is_refused():
    with pytest.raises(SchemaMismatch, match="418"):
        check("get", BOARD, {"suits": ["1"]}, answer({"code": "teapot", "detail": "?"}, 418))


def test_an_undeclared_field_is_refused():
    with pytest.raises(SchemaMismatch):
        check("get", BOARD, {"suits": ["1"]}, answer({**PAGE, "count": 1}))
    with pytest.raises(SchemaMismatch):
        check("get", BOARD, {"suits": ["1"]}, answer({**PAGE, "results": [{**ROW, "x": 1}]}))


def test_a_missing_documented_header_is_refused():
    response = answer(PAGE)
    del response["ETag"]
    with pytest.raises(SchemaMismatch):
        check("get", BOARD, {"suits": ["1"]}, response)


def test_an_undeclared_error_field_is_refused():
    body = {"code": "not_found", "detail": "No such game.", "game": {}}
    with pytest.raises(SchemaMismatch):
        check("get", "/api/v1/games/7b1bf82d-5478-45f8-8c84-a942b4e150af", {}, answer(body, 404))


def test_a_method_a_path_does_not_take_must_be_a_405_with_allow():
    body = {"code": "method_not_allowed", "detail": 'Method "DELETE" not allowed.'}
    check("delete", BOARD, {}, answer(body, 405, Allow="GET, OPTIONS"))
    with pytest.raises(SchemaMismatch):
        check("delete", BOARD, {}, answer(body, 405))
    with pytest.raises(SchemaMismatch):
        check("delete", BOARD, {}, answer(PAGE, 200))
