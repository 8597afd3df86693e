"""Table events: one row per change, written with the change, announced after the commit.

On the wire every event is ``{"seq": n, "event": kind, "at": time, "data": {...}}``; the same
text goes to every viewer of the table (events never hold a racer's cards while a race runs),
so it is encoded once.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import transaction

from games.presenters import iso
from races import hub
from races.models import Table, TableEvent


def encode(seq: int, kind: str, at: datetime, data: dict[str, Any]) -> str:
    return json.dumps(
        {"seq": seq, "event": kind, "at": iso(at), "data": data}, separators=(",", ":")
    )


def encode_row(event: TableEvent) -> str:
    return encode(event.seq, event.kind, event.created_at, event.data)


def event_emit(*, table: Table, kind: str, data: dict[str, Any], now: datetime) -> int:
    """Append event ``kind`` to the table's log; the caller holds the table row lock (so
    sequence numbers are given and committed in order). Published after the commit."""
    table.seq += 1
    seq = table.seq
    Table.objects.filter(pk=table.pk).update(seq=seq)
    TableEvent.objects.create(table=table, seq=seq, kind=kind, data=data, created_at=now)
    body = encode(seq, kind, now, data)
    code = table.code
    transaction.on_commit(lambda: hub.publish(code, seq, body))
    return seq
