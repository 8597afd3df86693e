"""Django's PostgreSQL backend, with the connection health check at most once per
``DATABASE_HEALTH_CHECK_DELAY`` seconds per connection instead of once per request.

Django's ``CONN_HEALTH_CHECKS`` sends ``SELECT 1`` before the first query of every request on a
persistent connection: a whole round trip on every API call. A connection that passed the check
moments ago is as good as checked, which is what PgBouncer's ``server_check_delay`` relies on
too. If the server went away in between, the
request's first query fails as it would have without the check (503 ``database_unavailable``),
and Django closes the connection at the end of that request because an error occurred, so the
next request reconnects. A connection idle for longer than the delay is checked as before.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    _checked_at = float("-inf")
    _checked_conn: object = None
    health_check_done: bool

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
