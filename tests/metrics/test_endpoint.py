"""GET /metrics: only with the token, the same 404 as an unknown path to anyone else, never
throttled, not in the schema; no token set, nothing is measured and it is 404 for everyone."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.test import Client

from tests.conftest import ROOT
from tests.metrics.helpers import AUTH, TOKEN, scrape, value
from tests.schema_check import published_schema

pytestmark = pytest.mark.django_db

UNKNOWN = "/no-such-page"


def not_found_like_an_unknown_path(response, path: str = "/metrics") -> None:
    unknown = Client().get(UNKNOWN)
    assert response.status_code == 404 == unknown.status_code
    assert response["Content-Type"] == unknown["Content-Type"]
    assert response.json() == {
        **unknown.json(),
        "detail": unknown.json()["detail"].replace(UNKNOWN, path),
    }


def test_no_token_set_is_a_404_for_everyone(settings):
    settings.METRICS_TOKEN = ""
    for header in ({}, AUTH, {"HTTP_AUTHORIZATION": "Bearer "}):
        not_found_like_an_unknown_path(Client().get("/metrics", **header))


@pytest.mark.parametrize(
    "header",
    [
        None,
        f"Bearer {TOKEN}x",
        f"Bearer {TOKEN[:-1]}",
        f"Basic {TOKEN}",
        TOKEN,
        "Bearer",
    ],
)
def test_anything_but_the_token_is_a_404(metrics_on, header):
    extra = {} if header is None else {"HTTP_AUTHORIZATION": header}
    not_found_like_an_unknown_path(Client().get("/metrics", **extra))


def test_the_token_reads_them_in_the_prometheus_text_format(metrics_on):
    samples = scrape(Client())
    assert "spider_http_requests_in_flight" in samples
    assert "spider_pool_deals" in samples  # the shared state's, read as the scrape is answered


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_only_get_even_with_the_token(metrics_on, method):
    response = getattr(Client(), method)("/metrics", **AUTH)
    not_found_like_an_unknown_path(response)


def test_never_throttled(metrics_on, settings):
    rest_framework = dict(settings.REST_FRAMEWORK)
    rates = dict.fromkeys(rest_framework["DEFAULT_THROTTLE_RATES"], "1/hour")
    settings.REST_FRAMEWORK = {**rest_framework, "DEFAULT_THROTTLE_RATES": rates}
    client = Client()
    for _ in range(5):
        scrape(client)


def test_not_in_the_schema():
    assert not [p for p in published_schema()["paths"] if "metrics" in p]


def test_nothing_is_measured_without_a_token(settings):
    settings.METRICS_TOKEN = ""
    before = value("spider_http_requests_total", route="/health/live", method="GET", status="200")
    assert Client().get("/health/live").status_code == 200
    after = value("spider_http_requests_total", route="/health/live", method="GET", status="200")
    assert after == before


def test_a_short_token_stops_the_start():
    result = subprocess.run(
        [sys.executable, "-c", "import spider_api.settings"],
        cwd=ROOT,
        env={"DEBUG": "1", "METRICS_TOKEN": "short", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "METRICS_TOKEN must be at least 16 characters" in result.stderr
