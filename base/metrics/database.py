"""The database's figures from the application's side: the connections each process holds,
and, for the replica routing of reads, which database served each read and how far a
replica lags.

``spider_database_connections`` rises when the project's PostgreSQL backend opens a
connection (or takes one from the pool, with DATABASE_POOL) and falls when it closes it
(or gives it back): base/postgresql/base.py. On SQLite (`make run`) it is not kept.

The replica's two figures come from the router that sends reads to the standby
(base/replica.py): ``read_served(alias)`` once for each request whose reads it routed, by
the database that served them, and ``replica_lag(alias, seconds)`` at each check of the
standby that finds it replaying (how long ago the primary was where the standby's replay
now is; +Inf when the check fails: a standby down or unreachable is as far behind as can
be). Without a standby neither has a series, and the alert on the lag
(SpiderReplicaLagging, deploy/prometheus/rules) has nothing to fire on.
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
        "Requests whose reads the router sent, by the database alias that served them (the "
        "primary or a replica).",
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
