"""Reads from the standby where staleness is harmless (docs/architecture.md, "Reads from the
standby").

With ``DATABASE_REPLICA_URL`` set, Django has a second alias, ``replica`` (the streaming
standby, behind HAProxy's replica port and PgBouncer), and ``ReplicaRouter`` sends to it the
reads of the views that declare ``reads_from_standby = True`` (public boards, player pages,
finished games' logs and replays) when three things hold:

- **The client wrote nothing lately.** Every answer to a POST, PATCH, PUT or DELETE pins
  its client to the primary for ``REPLICA_MAX_LAG_SECONDS``, twice over: a signed cookie,
  ``PIN_COOKIE`` (a browser, on whichever web host), and a key in the shared cache named by
  a hash of the request's credentials (a program with a token and no cookie jar). A request
  that carries either reads the primary: a player reads back what they just wrote
  (read-your-writes).
- **The standby is fresh enough.** Once a second, per process and only while such reads
  have come in the last minute, a background thread reads the primary's WAL position, then
  the standby's replay position, and keeps the times of the primary's positions: the standby
  holds every commit acknowledged before the newest time whose position it has replayed.
  A read goes to the standby only while that time is at most ``REPLICA_MAX_LAG_SECONDS``
  old. A standby that is down, paused or behind stops answering the check or falls behind
  it, so its reads go to the primary by themselves; a check that hangs holds up no request.
- **Nothing written in this request.** Inside a transaction every read is the primary's.

A request that read the standby and met a database error there (the standby died between two
checks) is answered again from the primary before anyone sees it: these views write nothing.
Without ``DATABASE_REPLICA_URL`` (``make run``, the tests) every read is the primary's.

Which database served a request's reads is left on it for the access log, and counted with the
standby's lag in the metrics (base/metrics/database.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse

from base.metrics import database as database_metrics

logger = logging.getLogger(__name__)

PRIMARY = DEFAULT_DB_ALIAS
REPLICA = "replica"
PIN_COOKIE = "spider_primary"
_PIN_KEY = "replica-pin:"  # + a hash of the credentials, in the cache shared by the web hosts
_PIN_SALT = "spider_api.replica.pin"
_WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
# How often a process checks the standby at most, and how far back it keeps the primary's
# positions (a standby further behind than this is simply "too far").
CHECK_INTERVAL_SECONDS = 1.0
_HISTORY_SECONDS = 120.0
_KEEP_CHECKING_SECONDS = 60.0


def replica_configured() -> bool:
    return REPLICA in connections.settings


# -- the standby's freshness ------------------------------------------------------------------
def lsn(text: str) -> int:
    """A WAL position as PostgreSQL prints it (``16/B374D848``), as a number."""
    high, low = text.split("/")
    return (int(high, 16) << 32) | int(low, 16)


@dataclass
class Freshness:
    """What this process knows of the standby: it holds every commit acknowledged before
    ``applied_through`` (a ``time.monotonic()`` time; -inf: nothing known, or it is down)."""

    applied_through: float = -math.inf
    lag: float | None = None  # at the last check, seconds (None: never checked, or down)
    checked_at: float = -math.inf  # the last check begun
    _positions: deque[tuple[float, int]] = field(default_factory=deque)

    def observe(
        self, *, read_at: float, primary_lsn: int, replay_lsn: int | None, now: float
    ) -> None:
        """One check: the primary was at ``primary_lsn`` at ``read_at``, then the standby had
        replayed ``replay_lsn`` (None: it is no standby, e.g. a promoted one)."""
        self._positions.append((read_at, primary_lsn))
        while self._positions and self._positions[0][0] < now - _HISTORY_SECONDS:
            self._positions.popleft()
        through = -math.inf
        if replay_lsn is not None:
            for at, position in self._positions:
                if position <= replay_lsn:
                    through = at  # the newest time whose position the standby has
        self.applied_through = through
        self.lag = None if through == -math.inf else max(0.0, now - through)

    def down(self) -> None:
        self.applied_through, self.lag = -math.inf, None

    def staleness(self, now: float) -> float:
        """How old the standby's view may be now, in seconds (inf: unknown)."""
        return now - self.applied_through


class _Checker:
    """The per-process check, on a thread of its own started at the first request for it."""

    def __init__(self) -> None:
        self.freshness = Freshness()
        self._wanted_at = -math.inf
        self._wanted = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def want(self, now: float) -> None:
        """A read is being routed: keep the standby checked, once a second, for a while."""
        self._wanted_at = now
        if now - self.freshness.checked_at < CHECK_INTERVAL_SECONDS:
            return
        self._wanted.set()
        if self._thread is None or not self._thread.is_alive():
            with self._lock:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(
                        target=self._run, name="replica-check", daemon=True
                    )
                    self._thread.start()

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            # Checked every second while such reads come, so each finds a fresh answer; a
            # process that has had none for a while stops checking.
            while time.monotonic() - self._wanted_at < _KEEP_CHECKING_SECONDS:
                self.check()
                time.sleep(CHECK_INTERVAL_SECONDS)

    def check(self) -> None:
        """Read the primary's position, then the standby's (in that order: the standby has
        everything the primary had before if it has replayed that far)."""
        self.freshness.checked_at = started = time.monotonic()
        try:
            with connections[PRIMARY].cursor() as cursor:
                cursor.execute("SELECT pg_current_wal_lsn()::text")
                primary_lsn = lsn(cursor.fetchone()[0])
            with connections[REPLICA].cursor() as cursor:
                cursor.execute("SELECT pg_last_wal_replay_lsn()::text")
                replayed = cursor.fetchone()[0]
        except Exception as exc:  # noqa: BLE001  (down, restarting, a pooler's refusal, ...)
            self.freshness.down()
            database_metrics.replica_lag(REPLICA, math.inf)  # unknown: as far behind as can be
            for alias in (PRIMARY, REPLICA):
                with contextlib.suppress(Exception):
                    connections[alias].close()
            logger.info("standby check failed: %s", str(exc).strip().splitlines()[0][:200])
            return
        self.freshness.observe(
            read_at=started,
            primary_lsn=primary_lsn,
            replay_lsn=lsn(replayed) if replayed else None,
            now=time.monotonic(),
        )
        if self.freshness.lag is not None:
            database_metrics.replica_lag(REPLICA, self.freshness.lag)


CHECKER = _Checker()


# -- the router -------------------------------------------------------------------------------
@dataclass
class _Route:
    """One request's routing: may it read the standby, and where it did."""

    eligible: bool = False
    alias: str | None = None  # chosen at the first read, then kept for the whole request
    used: set[str] = field(default_factory=set)


_route: ContextVar[_Route | None] = ContextVar("replica_route", default=None)


def route_read() -> str:
    state = _route.get()
    if state is None or (state.alias is None and not state.eligible):
        return PRIMARY
    if state.alias is None:
        now = time.monotonic()
        CHECKER.want(now)
        fresh = CHECKER.freshness.staleness(now) <= settings.REPLICA_MAX_LAG_SECONDS
        state.alias = REPLICA if fresh else PRIMARY
    if state.alias == REPLICA and connections[PRIMARY].in_atomic_block:
        return PRIMARY  # a read inside a transaction belongs with its writes
    state.used.add(state.alias)
    return state.alias


def use_primary() -> bool:
    """Send the rest of this request's reads to the primary (a selector that found the row
    still changing, or missing: a game not over yet). True if they were going to the standby."""
    state = _route.get()
    was = state is not None and state.alias == REPLICA
    if state is not None and (state.eligible or state.alias is not None):
        state.eligible, state.alias = False, PRIMARY
    return was


class ReplicaRouter:
    """Writes, migrations and every read outside ``reads_from_standby`` views: the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        return route_read()

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database, two copies of it

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY


# -- the middleware ---------------------------------------------------------------------------
def _pin_key(request: HttpRequest) -> str | None:
    """The cache key pinning the credentials ``request`` carries (None: it carries none)."""
    credentials = request.META.get("HTTP_AUTHORIZATION")
    if not credentials:
        return None
    return _PIN_KEY + hashlib.sha256(credentials.encode()).hexdigest()[:32]


def _pin(request: HttpRequest, response: HttpResponse) -> None:
    response.set_cookie(
        PIN_COOKIE,
        signing.TimestampSigner(salt=_PIN_SALT).sign("1"),
        max_age=settings.REPLICA_MAX_LAG_SECONDS,
        path="/",
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )
    key = _pin_key(request)
    if key is not None:
        # The cache is fail-soft: with Redis down a program's reads may be the bound behind.
        cache.set(key, 1, timeout=settings.REPLICA_MAX_LAG_SECONDS)


def _pinned(request: HttpRequest) -> bool:
    value = request.COOKIES.get(PIN_COOKIE)
    if value:
        try:
            signing.TimestampSigner(salt=_PIN_SALT).unsign(
                value, max_age=settings.REPLICA_MAX_LAG_SECONDS
            )
        except signing.BadSignature:  # expired (SignatureExpired) or not ours
            pass
        else:
            return True
    key = _pin_key(request)
    return key is not None and cache.get(key) is not None


class ReplicaMiddleware:
    """Marks the requests whose view reads from the standby, pins a client that wrote to the
    primary for ``REPLICA_MAX_LAG_SECONDS``, and answers again from the primary a read the
    standby failed. Leaves ``request.database`` (the alias the reads went to) for the log, and
    ``request.database_retried`` when the standby failed and the primary answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_configured():
            return self.get_response(request)
        state = _route.get()
        token = _route.set(_Route())
        try:
            response = self.get_response(request)
            state = _route.get()
            if state is not None and REPLICA in state.used and _standby_failed():
                CHECKER.freshness.down()  # until the next check finds it well
                _route.set(_Route(alias=PRIMARY))  # every read of the second run on the primary
                response = self.get_response(request)
                state = _route.get()
                request.database_retried = True  # type: ignore[attr-defined]
            if state is not None and state.used:
                # Where the answer's reads ended (a game found in play was read again).
                request.database = state.alias  # type: ignore[attr-defined]
                database_metrics.read_served(state.alias or PRIMARY)
        finally:
            _route.reset(token)
        if request.method in _WRITE_METHODS:
            _pin(request, response)
        return response

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> None:
        state = _route.get()
        view_class = getattr(view_func, "view_class", None)
        if (
            state is not None
            and state.alias is None
            and request.method in ("GET", "HEAD")
            and getattr(view_class, "reads_from_standby", False)
        ):
            if _pinned(request):
                state.alias = PRIMARY  # read-your-writes
            else:
                state.eligible = True


def _standby_failed() -> bool:
    wrapper = connections[REPLICA]
    if not wrapper.errors_occurred:
        return False
    with contextlib.suppress(Exception):
        wrapper.close()
    return True


@contextlib.contextmanager
def standby_reads() -> Iterator[None]:
    """Route the reads inside as a ``reads_from_standby`` view's are (tests, scripts)."""
    token = _route.set(_Route(eligible=replica_configured()))
    try:
        yield
    finally:
        _route.reset(token)
