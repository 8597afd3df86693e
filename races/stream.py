"""GET /races/{code}/events: the table's live event stream, served by the ASGI server.

A plain async Django view (DRF is synchronous): one coroutine per open stream, no thread.
The first event is the whole table (``table``, at the table's current ``seq``), then every
event in order. ``Last-Event-ID`` (or ``?since=``) resumes after that seq instead: the
missed events come from PostgreSQL, then the live ones, none twice and none skipped (a
stream that sees a gap in the live ones reads the rows in between). A keep-alive goes out
every RACE_KEEPALIVE_SECONDS.

SSE (``text/event-stream``): ``id: <seq>`` and ``data: <event JSON>`` (the default
``message`` type, so one ``onmessage`` handler sees them all). NDJSON
(``Accept: application/x-ndjson``): one event object a line; a keep-alive is an empty line.

Auth: ``Authorization: Bearer <token>`` (a sign-in, a personal or an app's access token that
allows ``race:play``), or ``?ticket=`` from POST /races/{code}/ticket (single use,
short-lived) for a browser's EventSource, which cannot send headers.

Limits: opening a stream is throttled per player (scope ``streams``, shared with tickets: a
stream opened with a ticket was counted when the ticket was issued), and a player holds at
most RACE_STREAMS_PER_PLAYER streams at once (``races.hub.SLOTS``); past either, a 429 JSON
answer with Retry-After, before the stream starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import re
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import AuthenticationFailed

from accounts.models import User
from base.authentication import BEARER_CHALLENGE, BearerTokenAuthentication
from base.errors import DomainError
from base.oauth import OAuthTokenAuthentication
from base.permissions import InsufficientScope, token_allows
from base.scopes import RACE_PLAY
from base.throttling import throttle_wait
from games.presenters import iso
from races import selectors, services
from races.errors import BadTicket, TooManyStreams
from races.events import EventKind
from races.hub import HUB, SLOTS

log = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
# What a token must allow to open a stream (the operation's required_scopes, races.views).
STREAM_SCOPES = (RACE_PLAY,)
TICKET_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe gives
SSE = "text/event-stream"
CATCH_UP_PAGE = 1000  # rows read at a time (selectors.events_after's limit)
T = TypeVar("T")

# Every database call of the streams runs on these few threads, each with its own
# connection: a stream process holds RACE_STREAM_DB_THREADS connections however many
# streams it serves (Django's per-request thread would hold one per open stream).
_DB_THREADS = settings.RACE_STREAM_DB_THREADS
_DB = ThreadPoolExecutor(max_workers=_DB_THREADS, thread_name_prefix="race-db")


async def db(fn: Callable[..., T], /, **kwargs: Any) -> T:
    def call() -> T:
        close_old_connections()  # CONN_MAX_AGE and health checks, as at a request's start
        return fn(**kwargs)

    return await asyncio.get_running_loop().run_in_executor(_DB, functools.partial(call))


def close_db_connections(timeout: float = 10.0) -> None:
    """Close the connection each of the stream's database threads holds open between calls
    (a test run calls this before it drops its database, which refuses while one is open).
    One call per thread: each waits at a barrier until all have started, so no thread runs
    two of them; threads not started yet start here, with nothing to close."""
    threads = _DB_THREADS
    barrier = threading.Barrier(threads, timeout=timeout)

    def close() -> None:
        barrier.wait()
        connection.close()

    for future in [_DB.submit(close) for _ in range(threads)]:
        future.result()


# csrf_exempt as DRF's views are: the stream takes no cookie, and CSRF's check would answer
# any other method with its HTML 403 before this view could answer a JSON 405.
@csrf_exempt
async def race_events(request: HttpRequest, code: str) -> HttpResponseBase:
    if request.method != "GET":
        return _error(DomainError("method_not_allowed", "Only GET.", 405), {"Allow": "GET"})
    try:
        since = _since(request)
        user = await db(_authenticate, request=request, code=code)
        table = await db(selectors.table_by_code, code=code)
        if not request.GET.get("ticket"):  # a ticket was counted when it was issued
            await db(_throttle, user=user, request=request)
        stream_id = uuid.uuid4().hex
        wait = await SLOTS.take(user.pk, stream_id)
        if wait is not None:
            raise TooManyStreams(wait)
    except DomainError as exc:
        headers = {"WWW-Authenticate": BEARER_CHALLENGE} if exc.status == 401 else {}
        return _error(exc, headers)
    ndjson = NDJSON in request.headers.get("Accept", "")
    response = StreamingHttpResponse(
        _stream(table.pk, table.code, user, since, ndjson, stream_id),
        content_type=NDJSON if ndjson else SSE,
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer the stream
    # Readable from any origin: it takes no cookie, only a token or a one-use ticket.
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _throttle(user: User, request: HttpRequest) -> None:
    """Count one stream opening of ``user`` in the scope ``streams`` (429 past its rate; the
    answer, a 429 or the stream, carries the RateLimit-* fields)."""
    wait = throttle_wait(scope="streams", user=user, meta=request.META, request=request)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise DomainError(
            "throttled",
            f"Request was throttled. Expected available in {seconds} seconds.",
            429,
            extra={"retry_after": seconds},
            headers={"Retry-After": str(seconds)},
        )


def _error(exc: DomainError, headers: dict[str, str]) -> JsonResponse:
    response = JsonResponse(exc.as_dict(), status=exc.status)
    for key, value in {**exc.headers, **headers}.items():
        response[key] = value
    return response


def _since(request: HttpRequest) -> int | None:
    # An empty Last-Event-ID is none (a browser's before any id); an empty ?since= is refused,
    # as every empty query value is.
    raw = request.headers.get("Last-Event-ID") or request.GET.get("since")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 10:
        raise DomainError(
            "invalid", "Last-Event-ID / since must be an event's seq (a whole number).", 400
        )
    return int(raw)


def _authenticate(request: HttpRequest, code: str) -> Any:
    ticket = request.GET.get("ticket")
    if ticket is not None:  # `?ticket=` is a ticket that cannot be one, not "use the header"
        if not TICKET_KEY.fullmatch(ticket):  # never a query with it (a NUL byte: a 500)
            raise BadTicket()
        return services.ticket_redeem(key=ticket, code=code)
    header = request.headers.get("Authorization", "")
    keyword, _, key = header.partition(" ")
    if keyword != "Bearer" or not key.strip():
        raise DomainError(
            "not_authenticated", "Send Authorization: Bearer <token>, or ?ticket=.", 401
        )
    try:  # the API's own checks, in its order: an app's access token, else a sign-in's
        found = OAuthTokenAuthentication().authenticate(request)
        if found is None:
            found = BearerTokenAuthentication().authenticate_credentials(key.strip())
    except AuthenticationFailed as exc:
        raise DomainError("invalid_token", str(exc.detail), 401) from None
    user, token = found
    if not token_allows(token, STREAM_SCOPES):  # as every other operation checks its scopes
        refusal = InsufficientScope(STREAM_SCOPES)
        raise DomainError(
            refusal.default_code,
            str(refusal.detail),
            403,
            extra=refusal.extra,
            headers={"WWW-Authenticate": refusal.auth_header},
        )
    return user


def _frame(seq: int, body: str, ndjson: bool) -> bytes:
    return f"{body}\n".encode() if ndjson else f"id: {seq}\ndata: {body}\n\n".encode()


async def _stream(
    table_id: int, code: str, user: User, since: int | None, ndjson: bool, stream_id: str
) -> AsyncIterator[bytes]:
    sub = HUB.subscribe(code)  # before reading anything: nothing committed later is missed
    BACKGROUND.start()
    slot = (user.pk, stream_id)
    BACKGROUND.slots.add(slot)  # renewed by the heartbeat from now on
    presence_id: int | None = None
    keepalive = b"\n" if ndjson else b": keep-alive\n\n"
    try:
        presence_id = await db(services.presence_open, table_id=table_id, player=user)
        BACKGROUND.presences[presence_id] = BACKGROUND.presences.get(presence_id, 0) + 1
        if since is None:
            table = await db(selectors.table_view, table_id=table_id)
            last = table["seq"]
            event = {
                "seq": last,
                "event": EventKind.TABLE.value,
                "at": iso(timezone.now()),
                "data": table,
            }
            yield _frame(last, json.dumps(event, separators=(",", ":")), ndjson)
        else:
            last = since
        catch_up = True
        while True:
            while catch_up:  # page by page, until the rows run out
                rows = await db(
                    selectors.events_after, table_id=table_id, seq=last, limit=CATCH_UP_PAGE
                )
                for seq, body in rows:
                    yield _frame(seq, body, ndjson)
                    last = seq
                catch_up = len(rows) >= CATCH_UP_PAGE
            try:
                seq, body = await asyncio.wait_for(
                    sub.queue.get(), timeout=settings.RACE_KEEPALIVE_SECONDS
                )
            except TimeoutError:
                yield keepalive
                catch_up = True  # a message lost on the way (Redis restarting) is read now
                continue
            if seq <= last and seq != -1:
                continue  # already sent (from the rows)
            if seq != last + 1:
                catch_up = True  # a gap, or a resync: the rows in between first
                continue
            yield _frame(seq, body, ndjson)
            last = seq
    finally:
        HUB.unsubscribe(sub)
        BACKGROUND.slots.discard(slot)
        if presence_id is not None:
            BACKGROUND.presences[presence_id] -= 1
            if not BACKGROUND.presences[presence_id]:
                del BACKGROUND.presences[presence_id]
            with contextlib.suppress(Exception):
                await db(services.presence_close, presence_id=presence_id)
            BACKGROUND.sweep_presence_later()  # a `gone` once the grace is over, if still away
        with contextlib.suppress(Exception):
            await SLOTS.give_back(*slot)


class Background:
    """Per ASGI process, from its start (spider_api.asgi): the timer sweep (so the
    countdown, the time limit, the 60 s to come back and the daily close fire with nobody
    acting or connected, also under `make run` without Celery) and the presence heartbeat
    of the streams open here.

    The sweep is the project's (``sweep``: every app's timers, spider_api.sweeps), set by the
    ASGI entry point that names the apps; this app does not import it."""

    def __init__(self) -> None:
        self.sweep: Callable[[], object] | None = None  # run every RACE_TICK_SECONDS once set
        self.presences: dict[int, int] = {}
        self.slots: set[tuple[int, str]] = set()  # (player id, stream id) open here
        self._tasks: list[asyncio.Task[None]] = []
        self._sweeps: set[asyncio.Task[None]] = set()
        self._sweeps_due: set[int] = set()  # the loop's whole seconds a sweep is set for
        self._sweeping = False
        self._sweep_again = False

    def start(self) -> None:
        if self._tasks and not any(t.done() for t in self._tasks):
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._tick()), loop.create_task(self._heartbeat())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._tasks = []

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(settings.RACE_TICK_SECONDS)
            if self.sweep is None:
                continue
            try:
                await db(self.sweep)
            except Exception:  # the database restarting: try again next tick
                log.exception("races tick failed")

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(settings.RACE_HEARTBEAT_SECONDS)
            try:
                await db(services.presence_heartbeat, presence_ids=list(self.presences))
            except Exception:
                log.exception("presence heartbeat failed")
            try:
                await SLOTS.renew(list(self.slots))
            except Exception:
                log.exception("stream slots not renewed")

    def sweep_presence_later(self) -> None:
        """A stream closed: once RACE_GONE_GRACE_SECONDS are over, write the `gone` of every
        seated player still away (beat's sweep_presence is the safety net). The streams that
        close within the same second share one sweep, and a process runs one at a time: a
        sweep per closed stream (a round of races ending, a whole process's streams dropping
        at once) took every database thread of the process, and the live streams' reads
        waited behind them for over a second (bench/NOTES.md, the race sweep)."""
        loop = asyncio.get_running_loop()
        due = math.ceil(loop.time() + settings.RACE_GONE_GRACE_SECONDS + 0.2)
        if due in self._sweeps_due:
            return  # a sweep is set for that second already
        self._sweeps_due.add(due)

        def start() -> None:
            self._sweeps_due.discard(due)
            task = loop.create_task(self._sweep_presence())
            self._sweeps.add(task)  # a reference until it is done
            task.add_done_callback(self._sweeps.discard)

        loop.call_at(due, start)

    async def _sweep_presence(self) -> None:
        if self._sweeping:  # the running sweep goes round once more instead
            self._sweep_again = True
            return
        self._sweeping = True
        try:
            while True:
                self._sweep_again = False
                try:
                    await db(services.presence_sweep)
                except Exception:
                    log.exception("presence sweep failed")
                if not self._sweep_again:
                    return
        finally:
            self._sweeping = False


BACKGROUND = Background()
