"""The OAuth housekeeping beat runs (CELERY_BEAT_SCHEDULE: prune-oauth)."""

from __future__ import annotations

from celery import shared_task

from oauth.services import oauth_prune


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def prune_oauth() -> dict[str, int]:
    """Expired authorization codes and the records of spent ones."""
    return oauth_prune()
