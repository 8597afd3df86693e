"""Gunicorn's settings for the API: `gunicorn -c gunicorn.conf.py spider_api.wsgi`.

Read from the environment (every variable is in docs/operations.md, "Deployment"):

- ``PORT`` (8000) or ``GUNICORN_BIND`` (e.g. ``unix:/run/spider.sock``): where to listen.
- ``WEB_CONCURRENCY``: worker processes; default 2 per core plus one.
- ``GUNICORN_WORKER_CLASS`` (``sync``): gunicorn's worker class.
- ``GUNICORN_THREADS`` (1): threads per worker. Each thread holds its own database connection,
  so a web process needs ``GUNICORN_THREADS`` connections (see docs/operations.md, "Scaling").
- ``GUNICORN_TIMEOUT`` (30): a worker silent for this long is killed and replaced.
- ``LOG_LEVEL``, ``LOG_FORMAT``: as for the app; gunicorn's own lines use the same format.

The app logs one line per request itself (with its request id), so gunicorn's access log is
off unless ``GUNICORN_ACCESS_LOG=1``.
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


bind = os.environ.get("GUNICORN_BIND") or f"0.0.0.0:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1)
threads = _int("GUNICORN_THREADS", 1)
# sync: a worker takes the next connection only when it is free, so requests spread over the
# workers as they free up, and the proxy in front keeps the clients' connections alive. gthread
# keeps connections alive itself but pins each one to the worker that accepted it: in the
# anchor comparison it did 2.0x the naive endpoint's actions/s where sync did 1.6x, but with a
# p99 at parity (0.99x) where sync's was 0.74x (bench/NOTES.md). Threads > 1 means gthread.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 20)  # finish requests in flight on TERM
keepalive = 5
# The authorization page passes an authorization request's query string on as it is: a
# redirect URI, scope and state of up to 500 characters each, percent-encoded up to three
# times as long, would pass gunicorn's default request line (4094 bytes: 414). Its maximum:
limit_request_line = 8190
# Recycle workers now and then: a slow leak never grows without bound.
# A worker is replaced after this many requests (a bound on any slow leak). A replacement
# imports the app again (about 0.5 s of CPU): at 5000, under full load that was 5-10 % of
# the web CPU (bench/NOTES.md), so the bound is set where it costs well under 1 %.
max_requests = _int("GUNICORN_MAX_REQUESTS", 50000)
max_requests_jitter = max_requests // 10
# Heartbeat files on tmpfs where there is one (Docker's /tmp may be an overlay on disk).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# Load the app in each worker, not the master: no database connection is shared by a fork.
preload_app = False
# Gunicorn's control socket is one path per user ($HOME/.gunicorn): two servers on one machine
# would fight over it. Off unless a path is given.
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]

loglevel = os.environ.get("LOG_LEVEL", "INFO").lower()
errorlog = "-"
_access = os.environ.get("GUNICORN_ACCESS_LOG", "").strip().lower() in ("1", "true", "yes", "on")
accesslog = "-" if _access else None

if not _access:
    from gunicorn.glogging import Logger

    class _NoAccessLogger(Logger):
        """Gunicorn formats an access line for every request whenever a logging config is set
        (as below), even with nowhere to write it: skip that work when the access log is off."""

        def access(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
            return None

    logger_class = _NoAccessLogger

_debug = os.environ.get("DEBUG", "").strip().lower() in ("1", "true", "yes", "on")
_json = os.environ.get("LOG_FORMAT", "plain" if _debug else "json").strip().lower() == "json"
# Gunicorn's own lines (boot, worker restarts, timeouts, the access log when on) in the app's
# format, and through its filter that redacts secrets (an access line has the query string).
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "base.logging.JsonFormatter"},
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
    },
    "filters": {
        "request_id": {"()": "base.logging.RequestIdFilter"},
        "redact": {"()": "base.logging.RedactSecretsFilter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if _json else "plain",
            "filters": ["request_id", "redact"],
            "stream": "ext://sys.stderr",
        }
    },
    "root": {"level": "INFO", "handlers": []},
    "loggers": {
        "gunicorn.error": {
            "level": loglevel.upper(),
            "handlers": ["console"],
            "propagate": False,
        },
        "gunicorn.access": {
            "level": "INFO",
            "handlers": ["console"] if _access else [],
            "propagate": False,
        },
    },
}
