"""The collector is held off while a hint searches and comes back after, also when hints run
in several threads at once (games/solver/collector.py)."""

from __future__ import annotations

import gc
import threading

from games.engine import Board, deal_layout
from games.solver import collector, hint
from games.solver.hint import board_hints


def test_a_hint_searches_with_the_collector_off_and_leaves_it_on(monkeypatch) -> None:
    during: list[bool] = []
    rank = hint._rank

    def watched(*args: object, **kwargs: object) -> object:
        during.append(gc.isenabled())
        return rank(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hint, "_rank", watched)
    assert gc.isenabled()
    assert board_hints(Board(deal_layout(2, 7)))
    assert during == [False]
    assert gc.isenabled()


def test_overlapping_holders_turn_it_back_on_only_when_the_last_one_ends() -> None:
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with collector.collector_paused():
            inside.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    inside.wait(5)
    with collector.collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's search still runs
    release.set()
    other.join(5)
    assert gc.isenabled()


def test_an_error_inside_still_turns_it_back_on() -> None:
    try:
        with collector.collector_paused():
            raise RuntimeError("search failed")
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_it_stays_off_after_if_it_was_off_before() -> None:
    gc.disable()
    try:
        with collector.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
