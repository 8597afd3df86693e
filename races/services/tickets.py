"""Stream tickets: a short-lived, single-use key that lets a browser open a table's event
stream (a browser's EventSource cannot send an Authorization header)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from races.errors import BadTicket, TableNotFound
from races.models import StreamTicket, Table


@transaction.atomic
def ticket_issue(*, player: User, code: str) -> StreamTicket:
    table = Table.objects.filter(code=code.upper()).first()
    if table is None:
        raise TableNotFound()
    return StreamTicket.objects.create(
        key=secrets.token_urlsafe(32),
        player=player,
        table=table,
        expires_at=timezone.now() + timedelta(seconds=settings.RACE_TICKET_SECONDS),
    )


def ticket_redeem(*, key: str, code: str) -> Any:
    """The ticket's player, once: a second use, another table or a late one is refused."""
    now = timezone.now()
    ticket = (
        StreamTicket.objects.filter(key=key, table__code=code.upper()).select_related("player")
    ).first()
    if ticket is None:
        raise BadTicket()
    used = StreamTicket.objects.filter(pk=ticket.pk, used_at__isnull=True, expires_at__gt=now)
    if used.update(used_at=now) != 1:  # the compare-and-set makes it single-use
        raise BadTicket()
    return ticket.player
