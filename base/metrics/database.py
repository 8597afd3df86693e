"""The database's figures from the application's side: the connections each process holds,
and, for the replica routing of reads, which database served each read and how far a
replica lags.

``spider_database_connections`` rises when the project's PostgreSQL backend opens a
connection (or takes one from the pool, with DATABASE_POOL) and falls when it closes it
(or gives it back): base/postgresql/base.py. On SQLite (`make run`) it is not kept.

The replica's two figures are defined here for the router that sends reads to a replica:
it calls ``read_served(alias)`` for each read it routes and ``replica_lag(alias, seconds)``
when it measures a replica's lag (``now() - pg_last_xact_replay_timestamp()`` on the
replica). Until a router exists neither has a series, and the alert on the lag
(SpiderReplicaLagging, deploy/prometheus/rules) waits for them.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge

from base.metrics.core import Children, measuring

CONNECTIONS = Children(
    Gauge(
        "spider_database_connections",
        "Database connections this process holds: open (persistent connections), or taken "
        "from the pool (DATABASE_POOL), by database alias.",
        ["database"],
        multiprocess_mode="livesum",
    )
)
READS = Children(
    Counter(
        "spider_database_reads_total",
        "Reads the router sent, by the database alias that served them (the primary or a replica).",
        ["database"],
    )
)
REPLICA_LAG = Children(
    Gauge(
        "spider_database_replica_lag_seconds",
        "How far a replica's replay is behind its primary, as last measured, by alias.",
        ["database"],
        multiprocess_mode="mostrecent",
    )
)


def connection_opened(alias: str) -> None:
    if measuring():
        CONNECTIONS.labels(alias).inc()


def connection_closed(alias: str) -> None:
    if measuring():
        CONNECTIONS.labels(alias).dec()


def read_served(alias: str) -> None:
    """The router sent a read to ``alias`` (its aliases are the settings' DATABASES keys)."""
    if measuring():
        READS.labels(alias).inc()


def replica_lag(alias: str, seconds: float) -> None:
    """A replica's lag, as just measured."""
    if measuring():
        REPLICA_LAG.labels(alias).set(max(0.0, seconds))
