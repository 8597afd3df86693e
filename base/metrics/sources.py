"""The figures read when a process is scraped, registered by the apps and the entry points
(spider_api.metrics.exposition reads them):

- ``register_local``: figures this process keeps in memory (the stream process's streams);
- ``register_state``: figures of the shared state, the database and Redis (the pool's depth,
  races running, beat's heartbeat), read only where the API is served (``reports_state``:
  off in a stream-only process).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class Source(Protocol):
    def collect(self) -> Iterable[Any]: ...


LOCAL: list[Source] = []
STATE: list[Source] = []
_reports_state = [True]


def register_local(source: Source) -> None:
    """Figures this process keeps in memory, read at each scrape of it."""
    if source not in LOCAL:
        LOCAL.append(source)


def register_state(source: Source) -> None:
    """Figures of the shared state, read at each scrape of a process serving the API."""
    if source not in STATE:
        STATE.append(source)


def reports_state(on: bool) -> None:
    """Whether this process's /metrics reads the shared state (off: a stream-only process)."""
    _reports_state[0] = on


def state_reported() -> bool:
    return _reports_state[0]
