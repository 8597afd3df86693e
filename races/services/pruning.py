"""Pruning: what would otherwise grow for ever (beat's ``prune_races`` every
RACE_PRUNE_SECONDS; without a broker, spider_api.sweeps.sweep_due): stream tickets that can
never be used again, and tables opened and left unused."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from races.models import Presence, Race, StreamTicket, Table, TableEvent


def races_prune(*, now: datetime | None = None) -> dict[str, int]:
    """The pruning, both kinds: how many of each were deleted."""
    return {"tickets": tickets_prune(now=now), "tables": tables_prune(now=now)}


def tickets_prune(*, now: datetime | None = None) -> int:
    """Delete the stream tickets that can never be used again: used, or expired."""
    now = now or timezone.now()
    used_or_expired = Q(used_at__isnull=False) | Q(expires_at__lte=now)
    deleted, _ = StreamTicket.objects.filter(used_or_expired).delete()
    return deleted


def tables_prune(*, now: datetime | None = None, batch: int = 500) -> int:
    """Delete up to ``batch`` abandoned tables (open, never raced at, unused for
    RACE_TABLE_IDLE_SECONDS) with their seats, events, presences and tickets. Each under its
    own row lock, checked again there, so a player sitting down at that moment keeps it."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.RACE_TABLE_IDLE_SECONDS)
    deleted = 0
    for table_id in list(_abandoned(cutoff).values_list("pk", flat=True)[:batch]):
        with transaction.atomic():
            locked = Table.objects.select_for_update(skip_locked=True).filter(pk=table_id)
            if locked.first() is None or not _abandoned(cutoff).filter(pk=table_id).exists():
                continue
            Table.objects.filter(pk=table_id).delete()
            deleted += 1
    return deleted


def _abandoned(cutoff: datetime) -> Any:
    """Open tables never raced at, made before ``cutoff``, with no event and nobody's
    stream since."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, created_at__lt=cutoff)
        .exclude(Exists(Race.objects.filter(table=OuterRef("pk"))))
        .exclude(Exists(TableEvent.objects.filter(table=OuterRef("pk"), created_at__gte=cutoff)))
        .exclude(Exists(Presence.objects.filter(table=OuterRef("pk"), seen_at__gte=cutoff)))
    )
