"""Queueing a Celery task fail-soft: the one way every service and task asks for work.

* With a broker (``CELERY_TASK_ALWAYS_EAGER`` off) the task is published by its name (a
  service must not import the task module that calls it). A publish that fails (the broker
  down, its connection timeout) is logged and swallowed, for the request that asked must not
  fail with it; and for ``BACKOFF_SECONDS`` after it nothing is published at all, so a dead
  broker costs one caller its timeout, not every request. Something else catches up later:
  beat's periodic run, a read that asks again.
* Without one (the zero-setup run, the tests) the work runs in this process as the caller's
  rule says (``without_broker``): ``inline`` now, in the caller's thread, its errors the
  caller's; ``in_thread`` in a daemon thread named ``spider-background: <what it runs>``, one
  at a time for the same work, whose errors are logged and never raised, and which closes
  its database connections when done; or nothing (None).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

# While the broker is down, nothing is published for this long after a failed publish.
BACKOFF_SECONDS = 10.0
# The name of every thread ``in_thread`` starts begins with this (the tests wait for them).
BACKGROUND_THREAD_PREFIX = "spider-background"


@dataclass(frozen=True, slots=True)
class WithoutBroker:
    """How a task's work runs in this process when there is no broker."""

    run: Callable[[], object]
    thread: bool = False
    on_error: Callable[[], object] | None = None  # after ``run`` raised in the thread


def inline(run: Callable[[], object]) -> WithoutBroker:
    """Run it now, in the caller's thread (an error is the caller's)."""
    return WithoutBroker(run)


def in_thread(
    run: Callable[[], object], *, on_error: Callable[[], object] | None = None
) -> WithoutBroker:
    """Run it in a background thread of this process; an error is logged, then ``on_error``
    runs (logged too if it raises)."""
    return WithoutBroker(run, thread=True, on_error=on_error)


def queue_task(
    name: str,
    args: tuple[Any, ...] = (),
    *,
    queue: str | None = None,
    without_broker: WithoutBroker | None = None,
) -> bool:
    """Ask for task ``name`` to run with ``args``: published to the broker, or, without one,
    ``without_broker``'s way. True when it was published or run or started, False when it
    was not (the broker down or backing off, nothing to run in-process, the same work
    already running in a thread)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        if without_broker is None:
            return False
        if without_broker.thread:
            return _start(without_broker)
        without_broker.run()
        return True
    return _BROKER.publish(name, args, queue)


def queue_follow_up(task: Task, *args: Any) -> bool:
    """A task asks for another one: published, or without a broker run now as Celery runs a
    task in-process (its signals, so its figures, as a worker's)."""
    return queue_task(task.name, args, without_broker=inline(functools.partial(task.apply, args)))


class _Broker:
    """The publishes of this process, and when the broker last failed one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down_until = 0.0

    def publish(self, name: str, args: tuple[Any, ...], queue: str | None) -> bool:
        with self._lock:
            if time.monotonic() < self._down_until:
                log.debug(
                    "not queueing %s: the broker failed less than %ss ago",
                    _call(name, args),
                    BACKOFF_SECONDS,
                )
                return False
        # No queue named: the task's route (CELERY_TASK_ROUTES) or the default queue.
        options: dict[str, Any] = {"queue": queue} if queue else {}
        try:
            current_app.send_task(name, args=args, **options)
        except Exception as exc:  # kombu's OperationalError, a timeout, ...: log and carry on
            with self._lock:
                self._down_until = time.monotonic() + BACKOFF_SECONDS
            log.warning("could not queue %s, the broker is unavailable: %s", _call(name, args), exc)
            return False
        return True

    def forget_failure(self) -> None:
        with self._lock:
            self._down_until = 0.0


def _call(name: str, args: tuple[Any, ...]) -> str:
    """A task's call as a log reads it: ``games.tasks.fill_pool(1)``."""
    return f"{name}({', '.join(map(repr, args))})"


_BROKER = _Broker()


def forget_broker_failure() -> None:
    """Publish again at once, whatever failed before (the tests: one's broken broker must not
    hold back the next one's publishes)."""
    _BROKER.forget_failure()


# -- the background threads -------------------------------------------------------------------
_running: set[str] = set()
_running_lock = threading.Lock()


def _start(work: WithoutBroker) -> bool:
    name = f"{BACKGROUND_THREAD_PREFIX}: {_describe(work.run)}"
    with _running_lock:
        if name in _running:
            return False  # the same work is running already: it does what this would
        _running.add(name)
    try:
        threading.Thread(target=_run, args=(name, work), name=name, daemon=True).start()
    except BaseException:  # no thread to be had: the same work may be asked for again
        with _running_lock:
            _running.discard(name)
        raise
    return True


def _run(name: str, work: WithoutBroker) -> None:
    try:
        work.run()
    except Exception:  # a background helper must never take the process down
        log.exception("%s failed", name)
        if work.on_error is not None:
            try:
                work.on_error()
            except Exception:
                log.exception("%s: its error handler failed too", name)
    finally:
        with _running_lock:
            _running.discard(name)
        connections.close_all()  # this thread's own connections, which nothing else closes


def _describe(run: Callable[[], object]) -> str:
    """``module.function(arguments)``: what the thread runs, for its name and its logs."""
    func: object = run
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = {}
    if isinstance(run, functools.partial):
        func, args, kwargs = run.func, run.args, run.keywords
    words = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    where = getattr(func, "__module__", None) or ""
    what = getattr(func, "__qualname__", None) or repr(func)
    return f"{where}.{what}({', '.join(words)})" if where else f"{what}({', '.join(words)})"
