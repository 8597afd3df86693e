"""Hand-built reads of the hottest rows, written once per process from the models' metadata.

The ORM compiles a query on every call; on the paths every request takes (the token behind a
request, a racer's action) that cost more CPU than the work around it. These helpers select
every concrete column of some models joined under aliases, and build the instances the ORM
would (its converters: the backend's, then the field's; ``Model.from_db``). On PostgreSQL the
statements are prepared once per connection (base/postgresql).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections

# A model's place in a row: the model, its attnames, and each converter with its column's
# index (only the columns that have any: most have none).
Shape = tuple[Any, list[str], list[tuple[int, Any, Any]]]


def shapes(models: Sequence[tuple[Any, str]], alias: str) -> tuple[list[str], list[Shape]]:
    """The columns to select for each ``(model, table alias)`` and each model's shape."""
    connection = connections[alias]
    qn = connection.ops.quote_name
    columns: list[str] = []
    found: list[Shape] = []
    for model, table_alias in models:
        fields = model._meta.concrete_fields
        columns += [f"{table_alias}.{qn(f.column)}" for f in fields]
        converters = []
        for i, f in enumerate(fields):
            col = f.get_col(model._meta.db_table)
            for convert in connection.ops.get_db_converters(col) + f.get_db_converters(connection):
                converters.append((i, convert, col))
        found.append((model, [f.attname for f in fields], converters))
    return columns, found


def instances(connection: Any, values: Sequence[Any], found: Sequence[Shape]) -> list[Any]:
    """The instances of one row read with the columns of ``shapes`` (in that order)."""
    out = []
    at = 0
    for model, names, converters in found:
        own = list(values[at : at + len(names)])
        at += len(names)
        for i, convert, col in converters:
            own[i] = convert(own[i], col, connection)
        out.append(model.from_db(connection.alias, names, own))
    return out


def cursor(connection: Any) -> Any:
    """On PostgreSQL a cursor whose statements are prepared once per connection (see
    base/postgresql); elsewhere a plain one."""
    prepared = getattr(connection, "prepared_cursor", None)
    return prepared() if prepared is not None else connection.cursor()
