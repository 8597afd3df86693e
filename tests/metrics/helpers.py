"""Reading the metrics in the tests: a figure's value in this process (``value``), and the
exposition a scrape answers, parsed (``scrape``).

The figures live in the process-wide registry, so they add up across the tests of a run: a
test reads a figure before and after what it does and checks the difference.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "metrics-token-for-the-tests-only"
AUTH = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


def value(name: str, **labels: str) -> float:
    """A sample's value in this process's registry (0 if it has none yet)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(client: Any) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """GET /metrics with the token: each sample's value by name and labels."""
    response = client.get("/metrics", **AUTH)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return parse(response.content.decode())


def parse(text: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted(sample.labels.items()))
            samples.setdefault(sample.name, {})[labels] = sample.value
    return samples
