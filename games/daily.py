"""The daily challenge's clock: the challenge of a UTC day closes when that day ends.

Until then a daily game keeps its deal to itself (no seed, no replay, no public final
position); from then on it is public, and a win no longer ranks on the day's board.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.utils import timezone


def day_closes_at(day: date) -> datetime:
    """The end of a UTC day: the instant its daily challenge closes."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def daily_closed(day: date | None, now: datetime | None = None) -> bool:
    """Whether the daily challenge of ``day`` has closed (its seed may then be revealed)."""
    return day is not None and (now or timezone.now()) >= day_closes_at(day)
