"""CORS: public reads from any origin, the rest from CORS_ALLOWED_ORIGINS, preflights without a
token, and the response headers a browser script may read."""

import os
import subprocess
import sys
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponseBase
from django.test import Client

from base.env import env_origins
from tests.conftest import ROOT, token_of

pytestmark = pytest.mark.django_db

API = "/api/v1"
LISTED = "https://app.example.com"
STRANGER = "https://elsewhere.example.org"
EXPOSED = {"retry-after", "etag", "idempotent-replayed", "x-request-id"}


@pytest.fixture(autouse=True)
def _listed_origin(settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [LISTED]
    settings.CORS_ALLOW_ALL_ORIGINS = False


def _preflight(path: str, origin: str, method: str = "POST", headers: str = "") -> HttpResponseBase:
    extra: dict[str, Any] = {"HTTP_ORIGIN": origin, "HTTP_ACCESS_CONTROL_REQUEST_METHOD": method}
    if headers:
        extra["HTTP_ACCESS_CONTROL_REQUEST_HEADERS"] = headers
    return Client().options(path, **extra)


def _listed(header: str) -> set[str]:
    return {h.strip().lower() for h in header.split(",") if h.strip()}


def test_a_preflight_needs_no_token_and_grants_the_listed_origin() -> None:
    response = _preflight(
        f"{API}/games", LISTED, headers="authorization, content-type, idempotency-key"
    )

    assert response.status_code == 200  # not 401: a preflight carries no token
    assert response["Access-Control-Allow-Origin"] == LISTED
    assert "post" in _listed(response["Access-Control-Allow-Methods"])
    allowed = _listed(response["Access-Control-Allow-Headers"])
    assert {"authorization", "content-type", "idempotency-key", "if-none-match"} <= allowed
    assert "Access-Control-Allow-Credentials" not in response  # no cookies, ever
    assert "X-Request-ID" in response


def test_an_unlisted_origin_gets_no_grant_for_an_authenticated_endpoint(user) -> None:
    preflight = _preflight(f"{API}/games", STRANGER, headers="authorization, content-type")
    assert preflight.status_code == 200
    assert "Access-Control-Allow-Origin" not in preflight  # the browser stops here

    token = token_of(user)
    direct = Client().get(f"{API}/me", HTTP_ORIGIN=STRANGER, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert direct.status_code == 200  # answered, but a browser hides it from the page
    assert "Access-Control-Allow-Origin" not in direct


def test_the_listed_origin_may_read_an_authenticated_answer_and_its_headers(user) -> None:
    token = token_of(user)
    response = Client().get(f"{API}/me", HTTP_ORIGIN=LISTED, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == LISTED
    assert _listed(response["Access-Control-Expose-Headers"]) >= EXPOSED
    assert "origin" in _listed(response["Vary"])  # a cache keeps one answer per origin


@pytest.mark.parametrize(
    "path",
    [
        f"{API}/leaderboard?suits=1",
        f"{API}/daily?date=2020-01-01",  # a 404 no_challenge is readable too
        f"{API}/daily/2020-01-01/leaderboard",
        f"{API}/players/nobody",
        "/api/schema/",
    ],
)
def test_public_reads_answer_any_origin(path: str) -> None:
    response = Client().get(path, HTTP_ORIGIN=STRANGER)

    assert response["Access-Control-Allow-Origin"] == STRANGER
    assert _listed(response["Access-Control-Expose-Headers"]) >= EXPOSED


def test_a_public_read_preflight_for_a_conditional_get_is_granted_to_any_origin() -> None:
    response = _preflight(f"{API}/leaderboard", STRANGER, method="GET", headers="if-none-match")

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == STRANGER


def test_a_public_read_with_a_token_is_an_authenticated_request(user) -> None:
    """A token makes the request the player's own (``/daily`` adds their attempt): only the
    listed origins may send one."""
    preflight = _preflight(f"{API}/daily", STRANGER, method="GET", headers="authorization")
    assert "Access-Control-Allow-Origin" not in preflight

    token = token_of(user)
    direct = Client().get(
        f"{API}/players/{user.username}",
        HTTP_ORIGIN=STRANGER,
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert "Access-Control-Allow-Origin" not in direct


def test_writes_to_public_paths_are_not_public() -> None:
    preflight = _preflight(f"{API}/leaderboard", STRANGER, method="POST", headers="content-type")
    assert "Access-Control-Allow-Origin" not in preflight
    register = Client().post(
        f"{API}/auth/register", {}, content_type="application/json", HTTP_ORIGIN=STRANGER
    )
    assert "Access-Control-Allow-Origin" not in register


def test_star_grants_every_origin_without_credentials(settings) -> None:
    settings.CORS_ALLOW_ALL_ORIGINS = True
    settings.CORS_ALLOWED_ORIGINS = []

    response = _preflight(f"{API}/games", STRANGER, headers="authorization, content-type")
    assert response["Access-Control-Allow-Origin"] == "*"
    refused = Client().post(
        f"{API}/auth/token", {}, content_type="application/json", HTTP_ORIGIN=STRANGER
    )
    assert refused.status_code == 400
    assert refused["Access-Control-Allow-Origin"] == "*"  # errors are readable too
    assert "Access-Control-Allow-Credentials" not in refused


def test_paths_outside_the_api_send_no_cors_headers() -> None:
    response = Client().get("/health/live", HTTP_ORIGIN=LISTED)
    assert "Access-Control-Allow-Origin" not in response


def test_cors_allowed_origins_is_a_list_of_origins_or_a_star(monkeypatch) -> None:
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", "https://a.example, http://localhost:3000")
    assert env_origins("CORS_ALLOWED_ORIGINS") == ["https://a.example", "http://localhost:3000"]
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", "*")
    assert env_origins("CORS_ALLOWED_ORIGINS") == ["*"]
    for bad in ("a.example", "https://a.example/path", "ftp://a.example"):
        monkeypatch.setenv("CORS_ALLOWED_ORIGINS", bad)
        with pytest.raises(ImproperlyConfigured, match="^CORS_ALLOWED_ORIGINS"):
            env_origins("CORS_ALLOWED_ORIGINS")


def test_a_star_in_the_environment_allows_all_origins() -> None:
    code = (
        "from django.conf import settings; "
        "print(settings.CORS_ALLOW_ALL_ORIGINS, settings.CORS_ALLOWED_ORIGINS)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "spider_api.settings", "DEBUG": "1"}
    env["CORS_ALLOWED_ORIGINS"] = "*"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True []"
