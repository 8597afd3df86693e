"""Queueing a task fail-soft (base.queueing), the one way the services and tasks ask for
work: with a broker, a failed publish is logged and not tried again for BACKOFF_SECONDS,
then tried again; without one, the caller's rule (inline, a named background thread, or
nothing), a background thread's errors logged and never raised. And the suite's own rule
(tests/conftest.py): a test's background thread is finished before the next test runs."""

from __future__ import annotations

import logging
import threading
import time
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
from celery import shared_task
from kombu.exceptions import OperationalError as KombuOperationalError

from base import queueing
from base.queueing import (
    BACKGROUND_THREAD_PREFIX,
    BACKOFF_SECONDS,
    in_thread,
    inline,
    queue_follow_up,
    queue_task,
)
from tests.conftest import background_threads

TASK = "tests.test_queueing.record"
_recorded: list[Any] = []


@shared_task(name=TASK)
def record(value: Any) -> Any:
    _recorded.append(value)
    return value


class Broker:
    """current_app.send_task as the broker answers it: up (the publishes kept) or down."""

    def __init__(self) -> None:
        self.up = True
        self.tried: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def send_task(self, name: str, args: tuple[Any, ...] = (), **options: Any) -> None:
        self.tried.append((name, args, options))
        if not self.up:
            raise KombuOperationalError("Error 111 connecting to 127.0.0.1:6379. Refused.")


@pytest.fixture
def broker(settings, monkeypatch) -> Broker:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    fake = Broker()
    monkeypatch.setattr(queueing.current_app, "send_task", fake.send_task)
    return fake


@pytest.fixture
def clock(monkeypatch) -> SimpleNamespace:
    """base.queueing's monotonic clock, moved by hand."""
    now = SimpleNamespace(t=1000.0)
    monkeypatch.setattr(queueing, "time", SimpleNamespace(monotonic=lambda: now.t))
    return now


# -- with a broker ----------------------------------------------------------------------------
def test_a_task_is_published_by_name_on_its_queue(broker):
    assert queue_task(TASK, (1,)) is True
    assert queue_task(TASK, (2,), queue="analysis") is True

    # No queue named: the task's route (CELERY_TASK_ROUTES) decides.
    assert broker.tried == [(TASK, (1,), {}), (TASK, (2,), {"queue": "analysis"})]


def test_the_broker_down_is_logged_then_left_alone_for_the_back_off(broker, clock, caplog):
    broker.up = False
    ran: list[int] = []

    with caplog.at_level(logging.WARNING, logger="base.queueing"):
        assert queue_task(TASK, (1,), without_broker=inline(partial(ran.append, 1))) is False
        clock.t += BACKOFF_SECONDS - 0.1
        assert queue_task(TASK, (2,)) is False  # within the window: not even tried

    assert broker.tried == [(TASK, (1,), {})]
    assert ran == []  # a broker is configured: its failure is no reason to run it here
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"could not queue {TASK}(1), the broker is unavailable: "
        "Error 111 connecting to 127.0.0.1:6379. Refused."
    ]


def test_past_the_back_off_it_is_tried_again_and_a_broker_back_up_gets_the_task(broker, clock):
    broker.up = False
    assert queue_task(TASK, (1,)) is False
    clock.t += BACKOFF_SECONDS
    assert queue_task(TASK, (2,)) is False  # tried, still down: a new window
    clock.t += BACKOFF_SECONDS
    broker.up = True

    assert queue_task(TASK, (3,)) is True
    assert queue_task(TASK, (4,)) is True  # recovered: every publish goes through again
    assert [args for _, args, _ in broker.tried] == [(1,), (2,), (3,), (4,)]


def test_one_failure_holds_back_every_task_of_the_process(broker, clock):
    """One broker: its failure on one task's publish is the failure of all of them."""
    broker.up = False
    queue_task(TASK, (1,))
    broker.up = True

    assert queue_task("games.tasks.fill_pool", (2,)) is False
    assert len(broker.tried) == 1


def test_a_follow_up_is_published_by_its_tasks_name(broker):
    _recorded.clear()
    assert queue_follow_up(record, 7) is True
    assert broker.tried == [(TASK, (7,), {})]
    assert _recorded == []  # published, not run here


# -- without a broker -------------------------------------------------------------------------
def test_inline_runs_now_in_the_callers_thread_and_its_error_is_the_callers(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    seen: list[str] = []

    assert queue_task(TASK, without_broker=inline(lambda: seen.append(_thread_name()))) is True
    assert seen == [threading.current_thread().name]

    def broken() -> None:
        raise ValueError("inline")

    with pytest.raises(ValueError, match="inline"):
        queue_task(TASK, without_broker=inline(broken))


def test_nothing_to_run_without_a_broker_is_nothing(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.setattr(queueing.current_app, "send_task", _never)

    assert queue_task(TASK, (1,)) is False


def test_a_follow_up_runs_in_process_as_a_task(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    _recorded.clear()

    assert queue_follow_up(record, "now") is True
    assert _recorded == ["now"]


def test_the_thread_runs_the_work_under_a_name_that_says_what(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.setattr(queueing.current_app, "send_task", _never)
    done = threading.Event()
    seen: list[str] = []

    def work(*, day: str) -> None:
        seen.append(_thread_name())
        done.set()

    assert queue_task(TASK, without_broker=in_thread(partial(work, day="2026-12-07"))) is True
    assert done.wait(10)

    (name,) = seen
    assert name.startswith(BACKGROUND_THREAD_PREFIX)
    assert name.endswith("work(day='2026-12-07')")
    assert name != threading.current_thread().name


def test_the_same_work_runs_in_one_thread_at_a_time(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    release = threading.Event()
    runs: list[int] = []

    def fill(suits: int) -> None:
        runs.append(suits)
        release.wait(10)

    assert queue_task(TASK, without_broker=in_thread(partial(fill, 2))) is True
    assert queue_task(TASK, without_broker=in_thread(partial(fill, 2))) is False  # running
    assert queue_task(TASK, without_broker=in_thread(partial(fill, 4))) is True  # other work
    release.set()
    _wait_for_background()
    assert sorted(runs) == [2, 4]

    release.clear()
    assert queue_task(TASK, without_broker=in_thread(partial(fill, 2))) is True  # done: again
    release.set()
    _wait_for_background()
    assert sorted(runs) == [2, 2, 4]


def test_a_thread_that_cannot_start_leaves_the_work_free_to_ask_again(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    ran = threading.Event()

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    with monkeypatch.context() as patch:
        patch.setattr(threading.Thread, "start", refuse)
        with pytest.raises(RuntimeError):
            queue_task(TASK, without_broker=in_thread(ran.set))

    assert queue_task(TASK, without_broker=in_thread(ran.set)) is True
    assert ran.wait(10)


def test_an_error_in_the_thread_is_logged_not_raised_then_its_handler_runs(settings, caplog):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    handled: list[str] = []

    def broken() -> None:
        raise RuntimeError("the solver fell over")

    def handler_broken_too() -> None:
        handled.append("second")
        raise RuntimeError("and so did the handler")

    with caplog.at_level(logging.ERROR, logger="base.queueing"):
        queue_task(TASK, without_broker=in_thread(broken, on_error=lambda: handled.append("1")))
        _wait_for_background()
        queue_task(TASK, without_broker=in_thread(broken, on_error=handler_broken_too))
        _wait_for_background()

    assert handled == ["1", "second"]
    errors = [r for r in caplog.records if r.name == "base.queueing"]
    name = f"{BACKGROUND_THREAD_PREFIX}: {__name__}.{broken.__qualname__}()"
    assert [r.getMessage() for r in errors] == [
        f"{name} failed",
        f"{name} failed",
        f"{name}: its error handler failed too",
    ]
    assert [str(r.exc_info[1]) for r in errors if r.exc_info] == [
        "the solver fell over",
        "the solver fell over",
        "and so did the handler",
    ]


# -- the suite: a test's background work ends with it ----------------------------------------
# The two tests below run in this order (pytest keeps a module's order): the first leaves a
# background thread running as it returns; the second, the next test, finds it finished.
_left_running: list[threading.Event] = []


def test_a_thread_still_running_when_its_test_returns(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    finished = threading.Event()

    def slow() -> None:
        time.sleep(0.5)
        finished.set()

    queue_task(TASK, without_broker=in_thread(slow))
    _left_running.append(finished)
    assert not finished.is_set()
    assert len(background_threads()) == 1


def test_is_finished_before_the_next_test_runs():
    assert all(event.is_set() for event in _left_running)
    assert background_threads() == []


# -- helpers ----------------------------------------------------------------------------------
def _thread_name() -> str:
    return threading.current_thread().name


def _never(*_: Any, **__: Any) -> None:
    raise AssertionError("nothing is published without a broker")


def _wait_for_background() -> None:
    for thread in background_threads():
        thread.join(10)
    assert background_threads() == []
