"""Where the figures are read: ``GET /metrics`` on the processes that serve HTTP, and a
listener of its own on ``METRICS_ADDRESS`` for a process that serves none (a Celery worker,
beat). Both answer only ``Authorization: Bearer <METRICS_TOKEN>`` (compared in constant
time), and anything else exactly as an unknown path (404): the endpoint is not public, and
is not in the OpenAPI schema; with no METRICS_TOKEN it is 404 for everyone. It is never
throttled and touches no database of its own.

A scrape reads:

- this server's processes: the multiprocess directory where there is one (gunicorn's
  workers, a Celery worker's pool, beat; spider_api.metrics.multiprocess), else this
  process's registry (the stream process, `make run`), with its process figures (CPU,
  memory, open files);
- ``register_local`` (base.metrics.sources): figures this process keeps in memory (the
  stream process's open streams);
- ``register_state``: figures of the shared state, read as the scrape is answered (the
  pool's depth, races running, beat's heartbeat): only where the API is served (the web
  processes, `make run`), not from the stream-only processes nor the listeners. One that
  cannot be read (the database or Redis down) is left out of that scrape, which still
  answers.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import socket
import threading
from collections.abc import Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, ThreadingWSGIServer

from base.errors import page_not_found
from base.metrics.sources import LOCAL, STATE, state_reported
from spider_api.metrics import multiprocess

log = logging.getLogger(__name__)


def authorized(header: str | None) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``, compared in constant time (as digests, so
    not even the token's length shows)."""
    token = settings.METRICS_TOKEN
    if not token or not header:
        return False
    scheme, _, presented = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    given = hashlib.sha256(presented.strip().encode()).digest()
    return hmac.compare_digest(given, hashlib.sha256(token.encode()).digest())


class _Scrape:
    """What one scrape reads (a collector for generate_latest)."""

    def __init__(self, *, state: bool) -> None:
        self.state = state

    def collect(self) -> Iterator[Any]:
        path = multiprocess.active()
        yield from multiprocess.Collector(path).collect() if path else REGISTRY.collect()
        for source in [*LOCAL, *(STATE if self.state else [])]:
            try:
                families = list(source.collect())
            except Exception as exc:  # noqa: BLE001 - a figure unread must not fail the scrape
                log.warning("metrics: %s not read: %s", type(source).__name__, exc)
                continue
            yield from families


def render(*, state: bool) -> bytes:
    return generate_latest(_Scrape(state=state))


@csrf_exempt  # any method but GET is a 404 like the rest, not CSRF's 403
def metrics_view(request: HttpRequest) -> HttpResponse:
    if request.method != "GET" or not authorized(request.headers.get("Authorization")):
        return page_not_found(request)
    body = render(state=state_reported())
    return HttpResponse(body, content_type=CONTENT_TYPE_PLAIN_0_0_4)


# -- a listener for a process that serves no HTTP ---------------------------------------------
_NOT_FOUND = b'{"code": "not_found", "detail": "Nothing is here."}'


def _listener_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    if (
        environ.get("REQUEST_METHOD") != "GET"
        or environ.get("PATH_INFO") != "/metrics"
        or not authorized(environ.get("HTTP_AUTHORIZATION"))
    ):
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [_NOT_FOUND]
    body = render(state=False)
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_PLAIN_0_0_4)])
    return [body]


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """A scrape is not worth a log line."""


def serve(address: str) -> WSGIServer:
    """Serve ``GET /metrics`` on ``address`` (host:port; [::] or a name too) from a daemon
    thread of this process; returns the server (``shutdown()`` stops it)."""
    host, _, port = address.rpartition(":")
    family, _, _, _, where = socket.getaddrinfo(
        host.strip("[]") or None, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]

    class Server(ThreadingWSGIServer):
        address_family = family

    server = make_server(str(where[0]), int(port), _listener_app, Server, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("metrics served on %s", address)
    return server
