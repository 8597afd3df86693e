"""Prometheus metrics from every process kind, in the Prometheus text format
(prometheus-client). docs/operations.md, "Metrics and alerts", lists every figure.

- ``multiprocess``: the directory a forking server's processes write their figures into
  (gunicorn's workers, a Celery worker's pool), made fresh at its start; a dead process's
  counts folded into one archive.
- ``exposition``: ``GET /metrics`` (only with ``Authorization: Bearer <METRICS_TOKEN>``;
  404 to anyone else) and the listener of a process that serves no HTTP
  (``METRICS_ADDRESS``: a Celery worker, beat); the figures read when scraped
  (``register_state``: the pool's depth, races running, beat's heartbeat).
- ``tasks``: Celery tasks by name and outcome, with their run time; beat's sends.
- ``beat``: beat's heartbeat as /health reads it.

What every app records is in base/metrics (the switch, bounded labels, the HTTP and database
figures, the scrape-time sources); the game's own figures are its apps' (games/metrics.py,
races/metrics.py, oauth/metrics.py). With no ``METRICS_TOKEN`` nothing is measured.

This package's ``__init__`` imports nothing: gunicorn's master imports ``multiprocess``
before it names the directory its workers inherit, and prometheus-client must not be
imported in that process before then.
"""
