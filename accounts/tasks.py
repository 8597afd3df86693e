"""Celery tasks for accounts: idempotent enough to run twice (a second reset mail is harmless;
each link works once)."""

from __future__ import annotations

from celery import shared_task

from accounts.services import password_reset_send


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def send_password_reset(email: str) -> None:
    """Mail the reset links for ``email`` (queued by `password_reset_request`)."""
    password_reset_send(email=email)
