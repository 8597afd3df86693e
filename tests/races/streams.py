"""Real stream servers for the race tests: uvicorn processes serving spider_api.asgi on the
test database, and a reader that holds a stream open with httpx in a thread.

``stream_server(redis_url=...)`` starts one; the test process publishes to the same Redis
channel, so an event committed here reaches every server's streams (the production path).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from django.db import connection

from tests.ops.procs import Proc, free_port, wait_for

BIN = Path(sys.executable).parent
CHANNEL = f"test-race-events-{uuid.uuid4().hex[:8]}"


def database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@contextlib.contextmanager
def stream_server(
    tmp_path: Path,
    *,
    redis_url: str = "",
    name: str = "stream",
    port: int | None = None,
    lifespan: str = "on",
    **env: str,
) -> Iterator[str]:
    """A uvicorn process serving the whole ASGI app; yields its base URL. ``port``: a given
    one (a server restarted where its clients reconnect), else a free one. ``lifespan``:
    uvicorn's --lifespan (on, as the Makefile and the Procfile run it)."""
    port = port or free_port()
    environ = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "insecure-key-for-tests-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": "",
        "RACE_EVENTS_REDIS_URL": redis_url,
        "RACE_EVENTS_CHANNEL": CHANNEL,
        "RACE_COUNTDOWN_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        **env,
    }
    cmd = [
        str(BIN / "uvicorn"),
        "spider_api.asgi:application",
        "--host=127.0.0.1",
        f"--port={port}",
        f"--lifespan={lifespan}",
        "--no-access-log",
        "--no-proxy-headers",
        "--timeout-graceful-shutdown=2",
    ]
    proc = Proc(name, cmd, environ, tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{name} up", lambda: httpx.get(f"{base}/health/live").status_code == 200, 30)
        yield base
    finally:
        if not proc.alive():
            print(proc.output())
        proc.stop()


OPEN: list[Reader] = []


def close_all(timeout: float = 15) -> None:
    """Close every reader and wait until the servers have noticed (each presence closed):
    after that no server touches the database, and the test's tables may be flushed."""
    from django.conf import settings

    from races.models import Presence

    while OPEN:
        OPEN.pop().close()
    wait_for(
        "the streams closed", lambda: not Presence.objects.filter(streams__gt=0).exists(), timeout
    )
    # Then each closed stream's `gone` is written by the server, RACE_GONE_GRACE_SECONDS
    # later: a write that, meeting the flush of the test's tables, deadlocked it. Wait for
    # those too (a presence whose `gone` is never owed does not hold this up for long).
    deadline = time.monotonic() + settings.RACE_GONE_GRACE_SECONDS + 3
    while Presence.objects.filter(log_present=True).exists() and time.monotonic() < deadline:
        time.sleep(0.1)


class Reader:
    """Holds GET /races/{code}/events open in a thread; ``events`` as they arrive."""

    def __init__(
        self, url: str, *, headers: dict[str, str] | None = None, ndjson: bool = False
    ) -> None:
        self.url = url
        self.headers = dict(headers or {})
        if ndjson:
            self.headers["Accept"] = "application/x-ndjson"
        self.ndjson = ndjson
        self.events: list[dict[str, Any]] = []
        self.ids: list[int] = []  # SSE ids
        self.keepalives = 0
        self.received_at: list[float] = []
        self.status: int | None = None
        self.error: bytes | None = None
        self._stop = threading.Event()
        self._arrived: queue.Queue[dict[str, Any]] = queue.Queue()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        OPEN.append(self)

    def _run(self) -> None:
        with (
            httpx.Client(timeout=httpx.Timeout(5, read=60)) as client,
            client.stream("GET", self.url, headers=self.headers) as response,
        ):
            self.status = response.status_code
            if response.status_code != 200:
                self.error = response.read()
                self._arrived.put({})
                return
            self._arrived.put({"event": "_open"})
            for line in response.iter_lines():
                if self._stop.is_set():
                    return
                self._line(line)

    def _line(self, line: str) -> None:
        if self.ndjson:
            if not line.strip():
                self.keepalives += 1
                return
            self._add(json.loads(line))
        elif line.startswith(":"):
            self.keepalives += 1
        elif line.startswith("id: "):
            self.ids.append(int(line[4:]))
        elif line.startswith("data: "):
            self._add(json.loads(line[6:]))

    def _add(self, event: dict[str, Any]) -> None:
        self.received_at.append(time.time())
        self.events.append(event)
        self._arrived.put(event)

    def wait_open(self, timeout: float = 10) -> None:
        item = self._arrived.get(timeout=timeout)
        assert item.get("event") == "_open", (self.status, self.error)

    def wait_for(self, kind: str, timeout: float = 10, **data: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event["event"] == kind and all(event["data"].get(k) == v for k, v in data.items()):
                return event
        while time.monotonic() < deadline:
            try:
                event = self._arrived.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if event.get("event") == kind and all(
                event["data"].get(k) == v for k, v in data.items()
            ):
                return event
        raise AssertionError(
            f"no {kind} {data} within {timeout} s: {[e['event'] for e in self.events]}"
        )

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        if self in OPEN:
            OPEN.remove(self)

    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events]
