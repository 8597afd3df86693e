"""What the benches that start the service share: a free port and the server's environment.

The environment is production's (DEBUG off, no broker, no autofill) with throttling lifted so
the load generator measures the service, not its rate limits. It matches `project_env` in
the naive-endpoint comparison (docs/operations.md), which runs the service the same way.
"""

from __future__ import annotations

import os
import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(db_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-only",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=db_url,
        DATABASE_CONN_MAX_AGE="60",
        CELERY_BROKER_URL="",
        POOL_AUTOFILL="0",
        THROTTLE_RATE_ACTIONS="1000000/min",
        THROTTLE_RATE_GAME_CREATE="1000000/min",
        THROTTLE_RATE_AUTH="1000000/min",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env
