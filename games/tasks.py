"""Celery tasks for games. Each is idempotent and safe to run twice or concurrently; with no
broker they run in-process (and the management commands call the same functions)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from games.services import games_expire_idle


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def expire_idle_games() -> int:
    return games_expire_idle(idle=timedelta(seconds=settings.GAME_IDLE_EXPIRY_SECONDS))
