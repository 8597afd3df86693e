"""The race stream's database threads keep a connection each between calls (one per thread,
however many streams are open); ``stream.close_db_connections`` closes every one of them, as
the test run does before it drops its database."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from races import stream


def _on_every_thread(open_first: bool) -> list[bool]:
    """Whether each of the stream's database threads holds an open connection (opening one
    first where asked): one call per thread, kept apart by a barrier."""
    barrier = threading.Barrier(stream._DB_THREADS, timeout=10)

    def probe() -> tuple[str, bool]:
        barrier.wait()
        if open_first:
            connection.ensure_connection()
        return threading.current_thread().name, connection.connection is not None

    answers = [f.result() for f in [stream._DB.submit(probe) for _ in range(stream._DB_THREADS)]]
    assert len({name for name, _ in answers}) == stream._DB_THREADS  # every thread, once
    return [held for _, held in answers]


@pytest.mark.django_db(transaction=True)
def test_every_thread_s_connection_is_closed() -> None:
    if connection.vendor != "postgresql":  # as CI runs the suite
        pytest.skip("the test database is SQLite in memory, whose connections close() keeps")
    assert _on_every_thread(open_first=True) == [True] * stream._DB_THREADS
    stream.close_db_connections()
    assert _on_every_thread(open_first=False) == [False] * stream._DB_THREADS
