"""Celery tasks for races: the timer sweep. Beat runs it every RACE_SWEEP_SECONDS; every
check is in the database (deadline columns, under the table lock), so a sweep lost with a
killed worker is simply done by the next one."""

from __future__ import annotations

from celery import shared_task

from races.services import races_tick


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_races() -> int:
    return races_tick()
