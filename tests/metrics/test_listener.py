"""The listener of a process that serves no HTTP (a Celery worker, beat: METRICS_ADDRESS):
GET /metrics with the token, a 404 for anything else."""

from __future__ import annotations

import httpx
import pytest

from bench.servers import free_port
from spider_api.metrics.exposition import serve
from tests.metrics.helpers import TOKEN, parse


@pytest.fixture
def listener(metrics_on):
    address = f"127.0.0.1:{free_port()}"
    server = serve(address)
    yield f"http://{address}"
    server.shutdown()
    server.server_close()


def test_the_token_reads_them(listener):
    response = httpx.get(f"{listener}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert "spider_celery_tasks_total" in parse(response.text) or "spider_celery_tasks" in (
        response.text
    )
    assert "spider_pool_deals" not in response.text  # the shared state is the web's to report


@pytest.mark.parametrize(
    ("method", "path", "header"),
    [
        ("GET", "/metrics", None),
        ("GET", "/metrics", f"Bearer {TOKEN}-not"),
        ("GET", "/", f"Bearer {TOKEN}"),
        ("POST", "/metrics", f"Bearer {TOKEN}"),
    ],
)
def test_anything_else_is_a_404(listener, method, path, header):
    headers = {"Authorization": header} if header else {}
    response = httpx.request(method, f"{listener}{path}", headers=headers)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
