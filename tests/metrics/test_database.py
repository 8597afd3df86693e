"""The connections a process holds (base/postgresql/base.py counts them): one more
while a thread's connection is open, one fewer once it is closed."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from tests.metrics.helpers import value

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_a_connection_counts_while_it_is_open(metrics_on):
    seen: list[float] = []
    before = value("spider_database_connections", database="default")

    def use() -> None:  # a thread of its own: a connection of its own, outside the test's
        connection = connections["default"]
        connection.ensure_connection()
        seen.append(value("spider_database_connections", database="default"))
        connection.close()
        seen.append(value("spider_database_connections", database="default"))

    worker = threading.Thread(target=use)
    worker.start()
    worker.join()
    assert seen == [before + 1, before]
