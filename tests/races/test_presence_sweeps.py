"""How a stream process writes the `gone` events its closed streams owe: the closes of one
second share one sweep, one sweep runs at a time, and each event is stamped when written.

Many streams closing at once (a round of races ending) used to set one full sweep each, and
those took every database thread of the stream process: the live streams' reads waited
behind them for over a second (bench/NOTES.md, the race sweep)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import math
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from races import services, stream
from races.models import Table, TableEvent
from races.services import presence_close, presence_open, presence_sweep
from races.stream import Background
from tests.races.conftest import open_table


def run(coroutine) -> None:
    """``asyncio.run`` on a thread of its own: the browser tests' Playwright may hold a running
    loop in this thread, where asyncio.run() refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


class Sweeps:
    """Stands in for races.services.presence_sweep: counts the calls, and how many ran at
    once (each takes ``seconds``, on the stream process's database threads)."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        time.sleep(self.seconds)
        with self._lock:
            self.running -= 1
        return 0


@pytest.fixture
def stand_in(monkeypatch):
    """``stand_in(seconds)``: a fresh Background whose presence sweeps are a ``Sweeps``,
    run on a thread of their own as the stream process's database calls are, without the
    database (those threads may hold another test's connection)."""

    async def on_a_thread(fn, /, **kwargs):
        return await asyncio.to_thread(fn, **kwargs)

    monkeypatch.setattr(stream, "db", on_a_thread)

    def make(seconds: float = 0.0) -> tuple[Sweeps, Background]:
        sweeps = Sweeps(seconds)
        monkeypatch.setattr(services, "presence_sweep", sweeps)
        return sweeps, Background()

    return make


def test_streams_closing_in_the_same_second_share_one_sweep(settings, stand_in):
    settings.RACE_GONE_GRACE_SECONDS = 0
    sweeps, background = stand_in()

    async def two_hundred_closes() -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(math.ceil(loop.time()) - loop.time() + 0.01)  # a second's start
        for _ in range(200):
            background.sweep_presence_later()
        await asyncio.sleep(2.5)  # past the grace (0) + 0.2, rounded up to the second
        while background._sweeps:
            await asyncio.sleep(0.01)

    run(two_hundred_closes())
    assert sweeps.calls == 1


def test_closes_a_second_apart_each_get_their_sweep(settings, stand_in):
    settings.RACE_GONE_GRACE_SECONDS = 0
    sweeps, background = stand_in()

    async def closes() -> None:
        background.sweep_presence_later()
        await asyncio.sleep(1.05)
        background.sweep_presence_later()  # later: its own sweep, not the first one's
        await asyncio.sleep(3.5)

    run(closes())
    assert sweeps.calls == 2


def test_a_process_runs_one_sweep_at_a_time(stand_in):
    sweeps, background = stand_in(seconds=0.3)

    async def three_at_once() -> None:
        await asyncio.gather(*(background._sweep_presence() for _ in range(3)))

    run(three_at_once())
    # The first ran; the two that came meanwhile made it go round once more, after it.
    assert (sweeps.calls, sweeps.most_at_once) == (2, 1)


@pytest.mark.django_db
def test_each_gone_is_stamped_when_it_is_written(settings, racers, monkeypatch):
    settings.RACE_GONE_GRACE_SECONDS = 10
    (alice, a), (bob, b), (carol, c) = racers(3)
    start = timezone.now() - timedelta(seconds=60)
    codes = []
    for player, client in ((bob, b), (carol, c)):
        code = open_table([client])["code"]
        pid = presence_open(table_id=Table.objects.get(code=code).pk, player=player, now=start)
        presence_close(presence_id=pid, now=start + timedelta(seconds=1))
        codes.append(code)
    # A pass that takes a while: every reading of the clock a second after the one before.
    ticks = itertools.count()
    base = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: base + timedelta(seconds=next(ticks)))
    assert presence_sweep() == 2
    stamps = [TableEvent.objects.get(table__code=code, kind="gone").created_at for code in codes]
    assert base < stamps[0] < stamps[1]  # not both at the time the pass began
