"""Celery tasks for races: the timer sweep and the presence sweep (beat runs them every
RACE_SWEEP_SECONDS), and the pruning (every RACE_PRUNE_SECONDS). Every check is in the
database (deadline columns, under the table lock), so a sweep lost with a killed worker is
simply done by the next one."""

from __future__ import annotations

from celery import shared_task

from races.services import presence_sweep, races_prune, races_tick


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_races() -> int:
    return races_tick()


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_presence() -> int:
    """The `gone` events owed (the stream processes write them on time; this catches those
    of a process that died)."""
    return presence_sweep()


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def prune_races() -> dict[str, int]:
    """Stream tickets used or expired, tables left open and unused."""
    return races_prune()
