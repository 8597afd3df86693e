"""bench/race.py's accounting: offered and achieved over the same window, counted the same way
(by when each action was due and answered), with a slow server still showing as a shortfall.

The racer loop runs on a virtual clock (its sleeps and the server's answers move the clock), so
these are exact and take no wall time."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random

from bench.race import Tally, play_plan, schedules


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def run(plan: list[float], seconds: float, answer_s: float, outcomes: dict[int, str] | None = None):
    clock, tally = Clock(), Tally()
    sends: list[float] = []

    async def send(version: int) -> str:
        sends.append(clock.now)
        clock.now += answer_s
        return (outcomes or {}).get(version, "ok")

    t0 = clock.now
    coroutine = play_plan(plan, t0, t0 + seconds, send, tally, clock=clock, sleep=clock.sleep)
    # A loop of its own, in a thread: a browser test's Playwright loop may be running here.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()
    return tally, [s - t0 for s in sends]


def test_a_quick_server_gets_every_action_due_in_the_window_and_no_more() -> None:
    plan = [0.5, 2.5, 4.5, 6.5, 8.5]
    tally, sends = run(plan, seconds=10, answer_s=0.01)
    assert sends == plan  # each on time: the answer's wait is not added to the pace
    assert (tally.sent, tally.ok, tally.ok_in_window, tally.errors) == (5, 5, 5, 0)
    assert max(tally.late_ms) == 0
    assert round(tally.server_s, 6) == 0.05


def test_a_server_slower_than_the_pace_shows_as_a_shortfall() -> None:
    plan = [0.0, 2.0, 4.0, 6.0, 8.0]
    tally, sends = run(plan, seconds=10, answer_s=3.0)
    # one action out at a time: each goes when the one before is answered, late
    assert sends == [0.0, 3.0, 6.0, 9.0]
    assert tally.sent == 4  # the fifth fell due at 8 but could not go before the window closed
    assert tally.ok == 4
    assert tally.ok_in_window == 3  # the one sent at 9 was answered at 12, after the window
    assert [round(x) for x in tally.late_ms] == [0, 1000, 2000, 3000]


def test_the_race_ending_stops_the_racer_without_an_error_and_an_error_is_counted() -> None:
    tally, _ = run([0.0, 1.0, 2.0], seconds=10, answer_s=0.0, outcomes={1: "over"})
    assert (tally.sent, tally.ok, tally.errors) == (2, 1, 0)
    tally, _ = run([0.0, 1.0, 2.0], seconds=10, answer_s=0.0, outcomes={0: "error"})
    assert (tally.sent, tally.ok, tally.errors) == (1, 0, 1)


def test_the_schedules_offer_one_action_per_pace_per_racer_inside_the_window() -> None:
    plans = schedules(400, seconds=30, pace=2.0, rnd=random.Random(7))
    due = sum(len(p) for p in plans)
    assert abs(due - 400 * 30 / 2.0) < 0.02 * 400 * 30 / 2.0
    assert all(0 <= p[0] < 2.0 and p[-1] < 30 for p in plans)
    gaps = [b - a for p in plans for a, b in zip(p, p[1:], strict=False)]
    assert min(gaps) >= 1.6 and max(gaps) <= 2.4
