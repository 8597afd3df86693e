"""Celery's figures: every task run, by name and outcome, with its run time; the tasks beat
sent; and the listener of a worker or beat (``METRICS_ADDRESS``).

Outcomes: ``succeeded``, ``failed`` (it raised), ``retried``, ``rejected``, ``ignored``
(counted where the task ran: a worker's pool process, or the calling process for a task run
in-process without a broker, where a failure raises into the request that ran it and is that
request's error), and ``worker_lost`` and ``time_limit``, which only the worker's
main process sees (its pool process died mid-task, killed or past the hard time limit:
``MeasuredRequest``, the request class of every task of the app, spider_api.celery). A task
lost with its worker is delivered again (acks_late), so a ``worker_lost`` is usually
followed by a run of the same task.

The series of every task of the project start at 0 when a worker starts, so the first
failure shows in rate() and increase() as an increase, not as a series that appears.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from billiard.exceptions import TimeLimitExceeded, WorkerLostError
from celery import current_app, signals, states
from celery.worker.request import Request
from django.conf import settings
from prometheus_client import Counter, Histogram

from base.metrics.core import Children, bounded, measuring
from spider_api.metrics.exposition import serve

OUTCOMES = {
    states.SUCCESS: "succeeded",
    states.FAILURE: "failed",
    states.RETRY: "retried",
    states.REJECTED: "rejected",
    states.IGNORED: "ignored",
}
_STARTED_AT_ZERO = ("succeeded", "failed", "worker_lost")
_OURS = ("accounts.", "games.", "leaderboard.", "oauth.", "races.", "spider_api.")

TASKS = Children(
    Counter(
        "spider_celery_tasks_total",
        "Celery tasks run, by task name and outcome (succeeded, failed, retried, rejected, "
        "ignored, worker_lost, time_limit).",
        ["task", "outcome"],
    )
)
DURATION = Children(
    Histogram(
        "spider_celery_task_duration_seconds",
        "Time a task ran, to its end (succeeded or failed), by task name.",
        ["task"],
        buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0),
    )
)
SENT = Children(
    Counter(
        "spider_beat_tasks_sent_total",
        "Tasks beat sent on its schedule, by task name.",
        ["task"],
    )
)


def _task_label(name: object) -> str:
    return bounded(name, current_app.tasks)


_started: dict[str, float] = {}  # task id -> when it started, in the process running it


@signals.task_prerun.connect(weak=False)
def _task_started(task_id: str | None = None, **_: Any) -> None:
    if task_id is not None and measuring():
        _started[task_id] = perf_counter()


@signals.task_postrun.connect(weak=False)
def _task_ended(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    started = _started.pop(task_id, None) if task_id is not None else None
    if not measuring():
        return
    name = _task_label(getattr(task, "name", None))
    outcome = OUTCOMES.get(state or "", "other")
    TASKS.labels(name, outcome).inc()
    if started is not None and outcome in ("succeeded", "failed"):
        DURATION.labels(name).observe(perf_counter() - started)


class MeasuredRequest(Request):
    """The worker's main process's view of a task: counts a task whose pool process died
    under it (killed: ``worker_lost``; past its hard time limit: ``time_limit``)."""

    def on_failure(
        self, exc_info: Any, send_failed_event: bool = True, return_ok: bool = False
    ) -> Any:
        exc = getattr(exc_info, "exception", None)
        exc = getattr(exc, "exc", exc)  # ExceptionWithTraceback
        if measuring():
            if isinstance(exc, WorkerLostError):
                TASKS.labels(_task_label(self.name), "worker_lost").inc()
            elif isinstance(exc, TimeLimitExceeded):
                TASKS.labels(_task_label(self.name), "time_limit").inc()
        return super().on_failure(exc_info, send_failed_event, return_ok)


_is_beat = False


@signals.after_task_publish.connect(weak=False)
def _sent(sender: str | None = None, **_: Any) -> None:
    if _is_beat and measuring():
        SENT.labels(_task_label(sender)).inc()


def _listen() -> None:
    if measuring() and settings.METRICS_ADDRESS:
        serve(settings.METRICS_ADDRESS)


@signals.worker_init.connect(weak=False)
def _worker_starts(**_: Any) -> None:
    """In the worker's main process, before its pool starts: every task of ours at 0, and
    the listener."""
    if not measuring():
        return
    for name in current_app.tasks:
        if name.startswith(_OURS):
            for outcome in _STARTED_AT_ZERO:
                TASKS.labels(name, outcome)
    _listen()


@signals.beat_init.connect(weak=False)
def _beat_starts(**_: Any) -> None:
    global _is_beat
    _is_beat = True
    if not measuring():
        return
    for name in current_app.tasks:
        if name.startswith(_OURS):
            SENT.labels(name)
    _listen()
