"""Daily challenge tasks: idempotent, safe to run twice or from two workers at once."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from leaderboard.services import daily_ensure


@shared_task(acks_late=True, soft_time_limit=120, time_limit=150)
def create_daily_challenges() -> list[str]:
    """Make sure today's and tomorrow's challenges exist (tomorrow's ahead of time, so its
    commitment is public before the day starts)."""
    today = timezone.now().date()
    return [daily_ensure(day=today + timedelta(days=d)).date.isoformat() for d in (0, 1)]
