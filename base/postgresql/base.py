"""Django's PostgreSQL backend, with the connection health check at most once per
``DATABASE_HEALTH_CHECK_DELAY`` seconds per connection instead of once per request.

Django's ``CONN_HEALTH_CHECKS`` sends ``SELECT 1`` before the first query of every request on a
persistent connection: a whole round trip on every API call. A connection that passed the check
moments ago is as good as checked, which is what PgBouncer's ``server_check_delay`` relies on
too. If the server went away in between, the
request's first query fails as it would have without the check (503 ``database_unavailable``),
and Django closes the connection at the end of that request because an error occurred, so the
next request reconnects. A connection idle for longer than the delay is checked as before.

It also gives the action path prepared statements (``prepared_cursor``): the two statements
every move, deal and undo sends are parsed and planned once per connection instead of on every
request. The ORM's own queries stay as Django sends them (bound client-side, never prepared).
``DATABASE_PREPARED_STATEMENTS=0`` turns it off, for a pooler in transaction mode that cannot
carry prepared statements (PgBouncer before 1.21, or without ``max_prepared_statements``).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base, operations

# psycopg prepares a statement after this many executions; only our prepared cursor asks for
# it (at once), so the automatic threshold is set beyond reach.
_ONLY_WHEN_ASKED = 2**31 - 1


class PreparedCursor(base.ServerBindingCursor):  # type: ignore[name-defined]  # psycopg 3 only
    """Parameters bound server-side, and every statement prepared on this connection at its
    first execution (psycopg keeps the names; a new connection prepares afresh)."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        kwargs["prepare"] = True
        return super().execute(query, params, **kwargs)


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: Any, params: Any) -> Any:
        # psycopg keeps no query text for an execution of a prepared statement: log ours.
        return super().last_executed_query(cursor, sql, params) or sql


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    _checked_at = float("-inf")
    _checked_conn: object = None
    health_check_done: bool

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if settings.DATABASE_PREPARED_STATEMENTS and params.get("prepare_threshold") is None:
            params["prepare_threshold"] = _ONLY_WHEN_ASKED
        return params

    def prepared_cursor(self) -> Any:
        """A cursor (Django's wrapper: errors, query capture) whose statements are prepared;
        a plain cursor when prepared statements are off."""
        if not settings.DATABASE_PREPARED_STATEMENTS:
            return self.cursor()
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            return self._prepare_cursor(PreparedCursor(self.connection))  # type: ignore[attr-defined]

    def close_if_health_check_failed(self) -> None:
        if self.health_check_done or self.connection is None:
            return super().close_if_health_check_failed()  # nothing to check (Django's rules)
        if (
            self.connection is self._checked_conn
            and time.monotonic() - self._checked_at < settings.DATABASE_HEALTH_CHECK_DELAY
        ):
            self.health_check_done = True  # checked moments ago: trust it for this request
            return None
        super().close_if_health_check_failed()
        if self.connection is not None and self.health_check_done:  # checked and kept
            self._checked_at, self._checked_conn = time.monotonic(), self.connection
        return None
