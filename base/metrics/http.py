"""HTTP figures of every process that serves Django (web, stream, `make run`): per route (the
URL pattern the request matched, never its path), requests by method and status, the time
to answer, the requests in flight; and the requests a throttle refused, by scope.

The time is until the view has answered: for the race event stream, until the stream
starts (what it delivers is measured by races.metrics).
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter

from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponseBase
from prometheus_client import Counter, Gauge, Histogram
from rest_framework.settings import api_settings

from base.metrics.core import Children, bounded, measuring

# Around the objectives (docs/operations.md: an action answered under 150 ms): finer below.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"  # no URL pattern matched (a 404), or a middleware answered first

REQUESTS = Children(
    Counter(
        "spider_http_requests_total",
        "HTTP requests answered, by route (the URL pattern), method and status code.",
        ["route", "method", "status"],
    )
)
DURATION = Children(
    Histogram(
        "spider_http_request_duration_seconds",
        "Time from a request's arrival to its answer, by route and method.",
        ["route", "method"],
        buckets=LATENCY_BUCKETS,
    )
)
IN_FLIGHT = Gauge(
    "spider_http_requests_in_flight",
    "HTTP requests being answered at the moment of the scrape.",
    multiprocess_mode="livesum",
)
THROTTLED = Children(
    Counter(
        "spider_throttled_requests_total",
        "Requests a throttle refused (429), by throttle scope.",
        ["scope"],
    )
)


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return "/" + match.route if match is not None else UNMATCHED


class MetricsMiddleware:
    """Second after the request id: counts and times every request. Not in the chain at all
    when metrics are off."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        if not measuring():
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = perf_counter()
        IN_FLIGHT.inc()
        try:
            response = self.get_response(request)
        finally:
            IN_FLIGHT.dec()
        route = route_of(request)
        method = request.method if request.method in METHODS else "other"
        DURATION.labels(route, method).observe(perf_counter() - started)
        REQUESTS.labels(route, method, str(response.status_code)).inc()
        return response


def throttled(scope: str | None) -> None:
    """A throttle refused a request of ``scope``."""
    if measuring():
        THROTTLED.labels(bounded(scope, api_settings.DEFAULT_THROTTLE_RATES)).inc()
