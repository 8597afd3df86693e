"""Middleware: a request id on every request and its log lines, the RateLimit-* fields of a
throttled answer, one access-log line per request, and a clean 503 when the database is
unreachable outside DRF views."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from base.errors import (
    DATABASE_ERRORS,
    DATABASE_RETRY_AFTER_SECONDS,
    database_unavailable_response,
)
from base.logging import HEADER, new_request_id, request_id_var

access_log = logging.getLogger("spider_api.access")  # as docs/operations.md names it
_RETRY_STATUSES = (429, 503)


class RequestIdMiddleware:
    """Outermost: sets the request id (``X-Request-ID`` in and out), adds the RateLimit-*
    fields where a throttle counted the request (``base.throttling``: it leaves
    ``request.ratelimit``; one place for every throttled view, its 429 included), and logs the
    request once it is answered: method, path, status, duration and the player's id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = new_request_id(request.headers.get(HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[HEADER] = request_id
            ratelimit = request.__dict__.get("ratelimit")
            if ratelimit is not None:
                for name, value in ratelimit.headers().items():
                    response[name] = value
            if response.status_code in _RETRY_STATUSES and not response.has_header("Retry-After"):
                # Every 429 and 503 says when to come back; each path sets its own, this is
                # the net under one that forgot (a proxy's or a library's answer).
                response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
            if access_log.isEnabledFor(logging.INFO):
                access_log.info(
                    "%s %s %s",
                    request.method,
                    request.path,
                    response.status_code,
                    extra={
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                        "user_id": _user_id(request),
                    },
                )
            return response
        finally:
            request_id_var.reset(token)


def _user_id(request: HttpRequest) -> int | None:
    """The authenticated player's id, without triggering a lookup that did not happen yet."""
    user = request.__dict__.get("user")
    user = getattr(user, "_wrapped", user)  # Django's lazy user, maybe never evaluated
    if user is None or user is empty or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


class DatabaseUnavailableMiddleware:
    """Outside DRF (the admin, the docs), a view that cannot reach the database answers 503
    ``database_unavailable`` like the API does, instead of a 500 with a traceback in the log.
    DRF views get the same answer from ``base.errors.exception_handler``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_ERRORS):
            return database_unavailable_response(exception, request.path)
        return None
