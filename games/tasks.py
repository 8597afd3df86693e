"""Celery tasks for games. Each is idempotent and safe to run twice or concurrently; with no
broker they run in-process (and the management commands call the same functions)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from base.queueing import queue_follow_up
from games import pool, services
from games.idempotency import idempotent_requests_prune
from games.services import games_close_past_days, games_expire_idle


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def expire_idle_games() -> int:
    return games_expire_idle(idle=timedelta(seconds=settings.GAME_IDLE_EXPIRY_SECONDS))


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def close_past_daily_games() -> int:
    """The daily close: attempts still in progress when their UTC day closed end as lost."""
    return games_close_past_days()


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def prune_idempotent_requests() -> int:
    """Forget Idempotency-Key answers older than IDEMPOTENCY_WINDOW_SECONDS."""
    return idempotent_requests_prune()


@shared_task(
    name=pool.FILL_POOL_TASK,  # pool.py queues it by this name
    acks_late=True,
    reject_on_worker_lost=True,  # a worker killed mid-vet: the task is delivered again
    soft_time_limit=settings.POOL_FILL_MAX_SECONDS + 150,
    time_limit=settings.POOL_FILL_MAX_SECONDS + 180,
)
def fill_pool(suits: int) -> int:
    """Top up the vetted pool of one suit mode; each stored deal is one short transaction,
    so a killed worker leaves no half-written deal behind."""
    return pool.pool_fill(suits=suits)


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def top_up_pools() -> dict[int, int]:
    """Beat's check: queue a fill for every suit mode below its low-water mark."""
    levels = pool.pool_levels()
    for suits, level in levels.items():
        if level < settings.POOL_LOW_WATER:
            queue_follow_up(fill_pool, suits)
    return levels


@shared_task(
    name=services.ANALYSE_TASK,  # services.analyses queues it by name, on ANALYSIS_QUEUE
    acks_late=True,
    reject_on_worker_lost=True,  # a worker killed mid-search: the analysis is run again
    soft_time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS,
    time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS + 30,
)
def analyse_game(analysis_id: int) -> str:
    """Run one post-game analysis (idempotent: a done one, or one another worker holds, is
    left as it is)."""
    try:
        done = services.analysis_run(analysis_id=analysis_id)
    except SoftTimeLimitExceeded:
        services.analysis_fail(analysis_id=analysis_id, reason="time_limit")
        return "failed"
    return "skipped" if done is None else done.status
