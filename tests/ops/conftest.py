"""tests/ops: the deployment pieces (health, request ids, logs, fail-soft cache and broker)
and, behind ``make faults``, the failure tests that start real processes and break them.

The failure tests (``@pytest.mark.faults``) are skipped unless ``SPIDER_FAULTS=1``: they take
minutes, start a private PostgreSQL cluster, Redis servers, gunicorn and Celery, and need
PostgreSQL's binaries and redis-server on this machine.
"""

from __future__ import annotations

import logging
import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    faults = os.environ.get("SPIDER_FAULTS") == "1"
    rehearsal = os.environ.get("SPIDER_REHEARSAL") == "1"
    skip_fault = pytest.mark.skip(reason="a failure test: run it with `make faults`")
    skip_rehearsal = pytest.mark.skip(reason="the topology's rehearsal: `make rehearsal`")
    for item in items:
        if "faults" in item.keywords and not faults:
            item.add_marker(skip_fault)
        if "rehearsal" in item.keywords and not rehearsal:
            item.add_marker(skip_rehearsal)


# The failure tests talk to their servers with httpx; its INFO line per request drowns what
# the tests print.
logging.getLogger("httpx").setLevel(logging.WARNING)
