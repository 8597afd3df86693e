"""The metrics every app records (Prometheus, prometheus-client): the switch and the
bounded labels (``core``), the HTTP figures and their middleware (``http``), the database's
(``database``), and where the figures read at a scrape are registered (``sources``). The
project serves them (spider_api.metrics: /metrics, the listeners, the multiprocess
directory); docs/operations.md, "Metrics and alerts", lists every figure."""
