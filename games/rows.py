"""The SQL of the action path: lock one game row, and write one action.

Every move, deal and undo of every player runs these two statements, so they are written once
per process from the models' own metadata (column names, converters, value preparation) rather
than compiled by the ORM on every call, which cost more CPU than the rest of an action. They
stay in step with the models: the SELECT reads every concrete column of Game and builds the
instance the ORM would, and the write takes the columns an action changes.

On PostgreSQL the log row and the game's new state go in ONE statement (a data-modifying CTE):
one round trip, and the row's indexed columns never change, so the UPDATE is a HOT update.
Elsewhere (SQLite) they are two statements. Either way the caller's transaction holds both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from base import rows
from games.models import Action, Game

# What a move, deal, undo or hint changes on the game row (see services.lookups.game_store).
ACT_FIELDS = (
    "snapshot",
    "version",
    "actions",
    "undos",
    "hints",
    "runs_removed",
    "score",
    "perfect",
    "started_at",
    "last_action_at",
)
_LOG_FIELDS = ("game", "seq", "kind", "src", "dst", "count", "created_at")

# One more write that goes with an action (a race's event): an INSERT or UPDATE and its
# parameters. On PostgreSQL it rides in the action's one statement as a data-modifying CTE.
Statement = tuple[str, list[Any]]


@cache
def _select_sql(vendor: str, for_update: bool) -> tuple[str, list[rows.Shape]]:
    """SELECT every Game column by id and player, and the row's shape."""
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    columns, shapes = rows.shapes([(Game, "g")], DEFAULT_DB_ALIAS)
    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(Game._meta.db_table)} g "
        f"WHERE g.{qn('id')} = %s AND g.{qn('player_id')} = %s"
        + (" FOR UPDATE" if for_update else "")
    )
    return sql, shapes


def game_for_update(*, game_id: Any, player_id: int) -> Game | None:
    """The player's game ``game_id``, its row locked until the transaction ends; None if there
    is no such game of theirs. Only the game row is read: its deal is loaded lazily."""
    connection = connections[DEFAULT_DB_ALIAS]  # once: the proxy costs a lookup per access
    sql, shapes = _select_sql(connection.vendor, connection.features.has_select_for_update)
    pk = Game._meta.pk.get_db_prep_value(game_id, connection)
    with rows.cursor(connection) as cursor:
        cursor.execute(sql, [pk, player_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (game,) = rows.instances(connection, row, shapes)
    return game


@cache
def _write_sql(vendor: str) -> tuple[str, str]:
    """(INSERT of a log row, UPDATE of the game's ACT_FIELDS); on PostgreSQL one statement."""
    insert, update = _write_parts()
    if vendor == "postgresql":
        return _with(insert, update, ()), ""
    return insert, update


@cache
def _write_parts() -> tuple[str, str]:
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    log_cols = ", ".join(qn(_column(Action, f)) for f in _LOG_FIELDS)
    insert = (
        f"INSERT INTO {qn(Action._meta.db_table)} ({log_cols}) "
        f"VALUES ({', '.join(['%s'] * len(_LOG_FIELDS))})"
    )
    sets = ", ".join(f"{qn(_column(Game, f))} = %s" for f in ACT_FIELDS)
    update = f"UPDATE {qn(Game._meta.db_table)} SET {sets} WHERE {qn('id')} = %s"
    return insert, update


@cache
def _with(insert: str, update: str, also: tuple[str, ...]) -> str:
    """The log row, the ``also`` writes and the game's new state as one statement."""
    ctes = "".join(f", also{i} AS ({sql})" for i, sql in enumerate(also))
    return f"WITH logged AS ({insert}){ctes} {update}"


def _column(model: Any, name: str) -> str:
    column: str = model._meta.get_field(name).column
    return column


@cache
def _fields(model: Any, names: tuple[str, ...]) -> list[Any]:
    return [model._meta.get_field(name) for name in names]


def _prepared(connection: Any, model: Any, instance: Any, names: tuple[str, ...]) -> list[Any]:
    """The values as the ORM would send them (JSON adapted, datetimes for the backend...)."""
    return [
        field.get_db_prep_save(getattr(instance, field.attname), connection)
        for field in _fields(model, names)
    ]


def action_write(*, game: Game, entry: Action, also: Sequence[Statement] = ()) -> None:
    """Append ``entry`` to the log and store the game's ACT_FIELDS, inside the caller's
    transaction (which holds the game's row lock); with ``also``, those writes too (on
    PostgreSQL in the same one statement; elsewhere one after another)."""
    connection = connections[DEFAULT_DB_ALIAS]
    first, second = _write_sql(connection.vendor)
    log = _prepared(connection, Action, entry, _LOG_FIELDS)
    pk = Game._meta.pk.get_db_prep_value(game.pk, connection)
    state = [*_prepared(connection, Game, game, ACT_FIELDS), pk]
    with rows.cursor(connection) as cursor:
        if second:
            cursor.execute(first, log)
            cursor.execute(second, state)
            for sql, params in also:
                cursor.execute(sql, params)
        elif also:
            sql = _with(*_write_parts(), tuple(sql for sql, _ in also))
            cursor.execute(sql, log + [p for _, params in also for p in params] + state)
        else:
            cursor.execute(first, log + state)
