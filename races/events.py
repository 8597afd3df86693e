"""Table events: one row per change, written with the change, announced after the commit.

On the wire every event is ``{"seq": n, "event": kind, "at": time, "data": {...}}``; the same
text goes to every viewer of the table (events never hold a racer's cards while a race runs),
so it is encoded once.
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.db import connection, transaction

from games.presenters import iso
from games.rows import Statement
from races import hub
from races.models import Table, TableEvent


class EventKind(StrEnum):
    """Every kind of table event (the stream's ``event``; the data of each is documented in
    races/serializers.py, EVENT_DATA)."""

    TABLE = "table"  # the whole table: the stream's first event, never stored
    SEATED = "seated"
    STOOD = "stood"
    READY = "ready"
    SETTINGS = "settings"
    COUNTDOWN = "countdown"
    STARTED = "started"
    PROGRESS = "progress"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"
    GONE = "gone"
    BACK = "back"
    OUT = "out"
    FINISHED = "finished"
    AGAIN = "again"


# The table's counter and the event row; ``data`` is taken from the encoded body (the same
# text goes on the wire), so it is serialised once. On PostgreSQL they go in one statement.
_BUMP_SQL = f"UPDATE {Table._meta.db_table} SET seq = %s WHERE id = %s"
_INSERT_SQL = (
    f"INSERT INTO {TableEvent._meta.db_table} (table_id, seq, kind, data, created_at) "
    "VALUES (%s, %s, %s, (%s::jsonb) -> 'data', %s)"
)
_EMIT_SQL = f"WITH bumped AS ({_BUMP_SQL}) {_INSERT_SQL}"


def encode(seq: int, kind: str, at: datetime, data: dict[str, Any]) -> str:
    return json.dumps(
        {"seq": seq, "event": str(kind), "at": iso(at), "data": data}, separators=(",", ":")
    )


def encode_row(event: TableEvent) -> str:
    return encode(event.seq, event.kind, event.created_at, event.data)


def event_emit(*, table: Table, kind: EventKind, data: dict[str, Any], now: datetime) -> int:
    """Append event ``kind`` to the table's log; the caller holds the table row lock (so
    sequence numbers are given and committed in order). Published after the commit."""
    seq, body = _next(table, kind, now, data)
    if connection.vendor == "postgresql":  # one round trip for both writes
        with connection.cursor() as cursor:
            cursor.execute(_EMIT_SQL, [seq, table.pk, table.pk, seq, str(kind), body, now])
    else:
        _write_orm(table, seq, kind, data, now)
    return seq


def event_statements(
    *, table: Table, kind: EventKind, data: dict[str, Any], now: datetime
) -> list[Statement]:
    """As ``event_emit``, but on PostgreSQL the two writes are returned for the caller to send
    in its own statement (a racer's action: in the action's one statement), which must run in
    this transaction before any other event is emitted; elsewhere they are made now."""
    seq, body = _next(table, kind, now, data)
    if connection.vendor != "postgresql":
        _write_orm(table, seq, kind, data, now)
        return []
    return [(_BUMP_SQL, [seq, table.pk]), (_INSERT_SQL, [table.pk, seq, str(kind), body, now])]


def _next(table: Table, kind: EventKind, now: datetime, data: dict[str, Any]) -> tuple[int, str]:
    """The event's seq (the table's counter raised) and encoded body, published after the
    commit that writes it."""
    assert kind is not EventKind.TABLE  # the whole table is read, never logged
    table.seq += 1
    seq = table.seq
    body = encode(seq, kind, now, data)
    code = table.code
    transaction.on_commit(lambda: hub.publish(code, seq, body))
    return seq, body


def _write_orm(
    table: Table, seq: int, kind: EventKind, data: dict[str, Any], now: datetime
) -> None:
    Table.objects.filter(pk=table.pk).update(seq=seq)
    TableEvent.objects.create(table=table, seq=seq, kind=str(kind), data=data, created_at=now)
