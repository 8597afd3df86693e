"""The SQL of a racer's action: the table row locked, with the racer and its race, at once.

Every action of every racer runs this, so it is written once per process from the models'
metadata (as games/rows.py does for the game row) rather than compiled by the ORM on every
call, which cost more CPU than the rest of a race action.

One statement locks the table row (``FOR UPDATE OF`` the table only) and reads the racer,
its race and the player's name. Under READ COMMITTED a statement that waited for the lock
gets the table row as committed since, but the racer and race rows as they were when it
began; so it also reads the table's ``seq`` as of its own snapshot. Every change to a race or
a racer is made under the table lock and writes an event, which raises ``seq``: if the two
``seq`` differ, something committed at the table while this statement waited, and the read
is repeated (the lock is held by then, so the second read sees every such commit and waits
for nothing).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections

from base import rows
from games.models import Game
from races.models import Race, Racer, Table

_MODELS = (Table, Race, Racer)
_ALIASES = {Game: "g", Table: "t", Race: "ra", Racer: "r"}


@cache
def _check_sql(vendor: str, for_update: bool, with_game: bool) -> tuple[str, list[rows.Shape]]:
    """The statement (with the game row too, locked first, if ``with_game``) and the shapes
    of the models it reads."""
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    user = get_user_model()
    models = ((Game,) if with_game else ()) + _MODELS
    columns, shapes = rows.shapes([(m, _ALIASES[m]) for m in models], DEFAULT_DB_ALIAS)
    g, t, ra, r = (qn(m._meta.db_table) for m in (Game, *_MODELS))
    u = qn(user._meta.db_table)
    source = (
        f"FROM {g} g JOIN {r} r ON r.{qn('game_id')} = g.{qn('id')} "
        if with_game
        else f"FROM {r} r "
    )
    where = (
        f"WHERE g.{qn('id')} = %s AND g.{qn('player_id')} = %s"
        if with_game
        else f"WHERE r.{qn('game_id')} = %s"
    )
    locks = " FOR UPDATE OF g, t" if with_game else " FOR UPDATE OF t"
    sql = (
        f"SELECT {', '.join(columns)}, u.{qn(user.USERNAME_FIELD)}, "
        f"(SELECT s.{qn('seq')} FROM {t} s WHERE s.{qn('id')} = t.{qn('id')}) "
        + source
        + f"JOIN {ra} ra ON ra.{qn('id')} = r.{qn('race_id')} "
        f"JOIN {t} t ON t.{qn('id')} = ra.{qn('table_id')} "
        f"JOIN {u} u ON u.{qn('id')} = r.{qn('player_id')} " + where + (locks if for_update else "")
    )
    return sql, shapes


def racer_for_act(*, game_id: Any) -> tuple[Table, Race, Racer] | None:
    """The table of this racer's game, its row locked until the transaction ends, the race
    and the racer (with ``racer.race`` and ``racer.player`` set; the player holds only its
    id and name), read after the lock; None if the game has no racer."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, shapes = _check_sql(connection.vendor, connection.features.has_select_for_update, False)
    params = [Racer._meta.get_field("game").get_db_prep_value(game_id, connection)]
    for _ in range(2):
        found = _read(connection, sql, params, shapes)
        if found is None:
            return None
        (table, race, racer), fresh = found
        if fresh:
            break
    return table, race, racer


def game_for_act(*, game_id: Any, player_id: int) -> tuple[Game, tuple[Table, Race, Racer]] | None:
    """A racer's game row and its table row locked (in that order, the one lock order), with
    the race and the racer as ``racer_for_act`` reads them, in one statement; None if the
    player has no such race game."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, shapes = _check_sql(connection.vendor, connection.features.has_select_for_update, True)
    pk = Game._meta.pk.get_db_prep_value(game_id, connection)
    found = _read(connection, sql, [pk, player_id], shapes)
    if found is None:
        return None
    (game, table, race, racer), fresh = found
    if not fresh:  # the table changed while this waited: read again, the lock now held
        again = racer_for_act(game_id=game.pk)
        assert again is not None
        table, race, racer = again
    return game, (table, race, racer)


def _read(
    connection: Any, sql: str, params: list[Any], shapes: list[rows.Shape]
) -> tuple[list[Any], bool] | None:
    """The instances of one row, and whether its racer and race are fresh (the table's seq
    as locked is the seq of the statement's snapshot)."""
    with rows.cursor(connection) as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    *values, username, snapshot_seq = row
    instances = rows.instances(connection, values, shapes)
    table, race, racer = instances[-3:]
    user_model = get_user_model()
    player = user_model.from_db(
        connection.alias,
        [user_model._meta.pk.attname, user_model.USERNAME_FIELD],
        [racer.player_id, username],
    )
    Race.table.field.set_cached_value(race, table)
    Racer.race.field.set_cached_value(racer, race)
    Racer.player.field.set_cached_value(racer, player)
    return instances, table.seq == snapshot_seq
