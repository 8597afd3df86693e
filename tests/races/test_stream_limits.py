"""What one player may cost the stream processes: at most RACE_STREAMS_PER_PLAYER streams
open at once (across processes, through Redis; in one process without it), opening streams
and tickets throttled (scope `streams`), and a bounded queue per stream whose overflow falls
back to the database catch-up with no gap."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import time

import httpx
import pytest

from races import hub, services, stream
from races.models import Table
from tests.games.api.helpers import ok, refused
from tests.ops.procs import wait_for
from tests.races.conftest import open_table, post
from tests.races.streams import Reader, close_all, stream_server
from tests.races.test_race_api import WIN2
from tests.races.test_stream import bearer, events_url
from tests.redis_server import REDIS_URL, redis_up

QUIET = {"RACE_TICK_SECONDS": "3600", "RACE_HEARTBEAT_SECONDS": "3600"}


def _refused_stream(url: str, headers: dict[str, str], code: str) -> httpx.Response:
    response = httpx.get(url, headers=headers, timeout=10)
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == code, body
    assert int(response.headers["Retry-After"]) == body["retry_after"] >= 1
    return response


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_player_holds_at_most_the_limit_of_streams_in_one_process(tmp_path, racers):
    """`make run`: one process, no Redis."""
    (alice, a), (bob, b) = racers(2)
    with stream_server(tmp_path, redis_url="", RACE_STREAMS_PER_PLAYER="3", **QUIET) as base:
        code = open_table([a, b], layout=WIN2)["code"]
        other = open_table([a], layout=WIN2)["code"]
        url = events_url(base, code)
        held = [Reader(url, headers=bearer(alice)) for _ in range(2)]
        held.append(Reader(events_url(base, other), headers=bearer(alice)))  # any table
        for reader in held:
            reader.wait_open()
        _refused_stream(url, bearer(alice), "too_many_streams")
        ticket = ok(post(a, code, "ticket"), 201)  # a ticket does not dodge it
        _refused_stream(base + ticket["events_url"], {}, "too_many_streams")
        bob_reader = Reader(url, headers=bearer(bob))  # another player's streams are theirs
        bob_reader.wait_open()
        held.pop().close()  # one closed: a slot comes free
        again: list[Reader] = []

        def reopened() -> bool:
            reader = Reader(url, headers=bearer(alice))
            item = reader._arrived.get(timeout=10)
            again.append(reader)
            return item.get("event") == "_open"

        wait_for("a slot free again", reopened, 10)
        close_all()


needs_redis = pytest.mark.skipif(not redis_up(), reason="needs Redis: set CELERY_BROKER_URL")


@needs_redis
@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_limit_holds_across_stream_processes(tmp_path, racers, settings):
    settings.RACE_EVENTS_REDIS_URL = REDIS_URL
    (alice, a), _ = racers(2)
    env = {"RACE_STREAMS_PER_PLAYER": "2", **QUIET}
    with (
        stream_server(tmp_path, redis_url=REDIS_URL, name="one", **env) as one,
        stream_server(tmp_path, redis_url=REDIS_URL, name="two", **env) as two,
    ):
        code = open_table([a], layout=WIN2)["code"]
        first = Reader(events_url(one, code), headers=bearer(alice))
        first.wait_open()
        second = Reader(events_url(two, code), headers=bearer(alice))
        second.wait_open()
        _refused_stream(events_url(one, code), bearer(alice), "too_many_streams")
        _refused_stream(events_url(two, code), bearer(alice), "too_many_streams")
        close_all()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_opening_streams_is_throttled(tmp_path, racers):
    (alice, a), _ = racers(2)
    env = {"THROTTLE_RATE_STREAMS": "3/day", **QUIET}
    with stream_server(tmp_path, redis_url="", **env) as base:
        code = open_table([a], layout=WIN2)["code"]
        url = events_url(base, code)
        for _ in range(3):  # open and close, three times
            reader = Reader(url, headers=bearer(alice))
            reader.wait_open()
            reader.close()
        refusal = _refused_stream(url, bearer(alice), "throttled")
        # The stream's 429 says where the player stands, as a throttled view's does.
        assert refusal.headers["RateLimit-Limit"] == "3"
        assert refusal.headers["RateLimit-Remaining"] == "0"
        assert refusal.headers["RateLimit-Reset"] == refusal.headers["Retry-After"]
        assert refusal.headers["RateLimit-Policy"] == "3;w=86400"
        close_all()


def test_tickets_are_throttled_in_the_streams_scope(set_throttle_rate, racers):
    set_throttle_rate("streams", "2/day")
    (_, a), (_, b) = racers(2)
    code = open_table([a], layout=WIN2)["code"]
    first = post(a, code, "ticket")
    ok(first, 201)
    assert (first["RateLimit-Limit"], first["RateLimit-Remaining"]) == ("2", "1")
    ok(post(a, code, "ticket"), 201)
    response = post(a, code, "ticket")
    refused(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1
    assert response["RateLimit-Remaining"] == "0"
    ok(post(b, code, "ticket"), 201)  # per player


@pytest.mark.django_db(transaction=True)
def test_a_reader_that_stops_reading_costs_a_bounded_queue_and_loses_nothing(settings, racers):
    """A stream whose client does not read while 300 events happen: its queue never holds
    more than RACE_STREAM_QUEUE_MAX; when it reads again, the events it was not queued come
    from the database, every seq once, in order."""
    settings.RACE_STREAM_QUEUE_MAX = 10
    settings.RACE_TICK_SECONDS = 3600
    settings.RACE_HEARTBEAT_SECONDS = 3600
    settings.RACE_GONE_GRACE_SECONDS = 0
    (alice, a), (bob, b) = racers(2)
    code = open_table([a, b], ready=False, layout=WIN2)["code"]
    table = Table.objects.get(code=code)

    async def run() -> tuple[list[int], int, int]:
        loop = asyncio.get_running_loop()
        frames = stream._stream(table.pk, code, alice, None, True, "test-stream")
        first = json.loads(await frames.__anext__())  # the table; subscribed from now on
        (sub,) = hub.HUB._subs[code]
        most = 0
        for i in range(300):  # Bob gets ready and unready: one event each
            ready = functools.partial(services.seat_ready, player=bob, code=code, ready=i % 2 == 0)
            await loop.run_in_executor(None, ready)
            await asyncio.sleep(0)  # the hub's deliveries run
            most = max(most, sub.queue.qsize())
        last_seq = await loop.run_in_executor(None, lambda: Table.objects.get(pk=table.pk).seq)
        seqs = [first["seq"]]
        deadline = time.monotonic() + 30
        while seqs[-1] < last_seq and time.monotonic() < deadline:
            frame = await asyncio.wait_for(frames.__anext__(), timeout=15)
            if frame.strip():
                seqs.append(json.loads(frame)["seq"])
        await frames.aclose()  # type: ignore[attr-defined]  # an async generator
        return seqs, most, sub.overflows

    # A loop of its own in a thread of its own: the browser tests' Playwright may hold a
    # running loop in this thread, where asyncio.run() refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        seqs, most, overflows = pool.submit(asyncio.run, run()).result()
    assert most <= settings.RACE_STREAM_QUEUE_MAX
    assert overflows > 0  # it did fall behind
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # contiguous: none lost, none twice
    assert seqs[-1] == Table.objects.get(pk=table.pk).seq
    # The stream's presence and slot are given back when it ends.
    assert not hub.SLOTS._local.get(alice.pk)


@needs_redis
def test_a_burst_of_streams_opening_at_once_is_counted_not_waved_through(settings, caplog):
    """300 streams of 300 players opening at the same moment in one process (a server
    restart: every racer reconnects): each slot is taken through Redis, none is admitted
    uncounted because the process ran out of connections."""
    settings.RACE_EVENTS_REDIS_URL = REDIS_URL
    settings.RACE_EVENTS_CHANNEL = f"test-burst-{time.time_ns()}"
    settings.RACE_STREAMS_PER_PLAYER = 1

    async def run() -> tuple[list[int | None], list[int | None]]:
        slots = hub.StreamSlots()
        first = await asyncio.gather(*(slots.take(p, f"s{p}") for p in range(300)))
        again = await asyncio.gather(*(slots.take(p, f"t{p}") for p in range(300)))
        return first, again

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first, again = pool.submit(asyncio.run, run()).result()
    assert first == [None] * 300
    assert all(wait is not None and wait >= 1 for wait in again)  # each player at the limit
    assert "stream slots unavailable" not in caplog.text
