"""Daily challenge tasks: idempotent, safe to run twice or from two workers at once."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from base.queueing import queue_follow_up
from leaderboard.services import CREATE_DAILY_TASK, daily_ensure, daily_improve_pars


@shared_task(
    name=CREATE_DAILY_TASK,  # the services queue it by this name
    acks_late=True,
    soft_time_limit=120,
    time_limit=150,
)
def create_daily_challenges() -> list[str]:
    """Make sure today's and tomorrow's challenges exist (tomorrow's ahead of time, so its
    commitment is public before the day starts)."""
    today = timezone.now().date()
    # A worker may vet (the pool empty) as long as a fill task may; a request may not.
    vet = settings.POOL_FILL_MAX_SECONDS
    days = [
        daily_ensure(day=today + timedelta(days=d), vet_seconds=vet).date.isoformat()
        for d in (0, 1)
    ]
    # A worker's minute per new challenge; without a broker (tasks in-process) nobody should
    # wait for it, so the zero-setup run keeps vetting's line as the par.
    if settings.DAILY_PAR_MAX_NODES and not settings.CELERY_TASK_ALWAYS_EAGER:
        queue_follow_up(improve_daily_pars)
    return days


# Two open challenges (today's and tomorrow's) at most, each capped at DAILY_PAR_MAX_SECONDS;
# the hard limit stays under the broker's visibility timeout (900 s), or a second worker would
# be handed the task while the first still runs.
@shared_task(
    acks_late=True,
    soft_time_limit=2 * settings.DAILY_PAR_MAX_SECONDS + 60,
    time_limit=2 * settings.DAILY_PAR_MAX_SECONDS + 90,
)
def improve_daily_pars() -> list[str]:
    """Search the open daily challenges' lines again for a shorter par (idempotent: each
    deal once, so the hourly run finds nothing to do once they are done)."""
    return [day.isoformat() for day in daily_improve_pars()]
