"""Throttling by scope: a view sets `throttle_scope = "auth"` (or "game_create", "actions",
"hints", "streams"); a view that takes a deal from the vetted pool sets `takes_pool_deal`,
and is counted in the scope "pool" as well (PoolThrottle). ``throttle_wait`` is the same
count for code outside DRF (the race event stream)."""

from __future__ import annotations

import math
from typing import Any

from rest_framework import throttling
from rest_framework.settings import api_settings


class SlidingWindowThrottle(throttling.SimpleRateThrottle):
    """DRF's SimpleRateThrottle, counting in sliding windows.

    DRF keeps every request's timestamp of the last period in the cache and reads, edits and
    writes that whole list back on every request: at the actions rate (1200/min) that is up
    to 1,200 floats pickled both ways, twice a round trip to the cache, for every move. Here
    a period is counted in two integer counters, this window's and the last one's, weighted by
    how much of the last one still overlaps the sliding period (Cloudflare's "sliding window
    counter"): one read of both and one atomic increment, whatever the rate. It admits at most
    the rate in any period aligned with a window, and within a few percent in any other.
    """

    num_requests: int  # set from the rate by DRF (its stubs do not declare them)
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        limit, period = self.num_requests, self.duration
        self.now = now = self.timer()
        window = int(now // period)
        current_key, previous_key = f"{self.key}:{window}", f"{self.key}:{window - 1}"
        counts = self.cache.get_many([previous_key, current_key])
        self._previous = counts.get(previous_key, 0)
        self._current = counts.get(current_key, 0)
        self._overlap = 1.0 - (now - window * period) / period  # of the last window, still in
        if self._previous * self._overlap + self._current >= limit:
            return False
        try:
            self.cache.incr(current_key)
        except ValueError:  # the window's first request (or its key was evicted)
            if not self.cache.add(current_key, 1, timeout=2 * period):
                self.cache.incr(current_key)  # another request created it in between
        return True

    def wait(self) -> float | None:
        """Seconds until a request would be admitted: until enough of the last window has
        slid out of the period, or, if this window alone is full, until the next one."""
        limit, period = self.num_requests, self.duration
        window_left = period - (self.now % period)
        if self._current < limit and self._previous > 0:
            # previous * (overlap - t / period) + current < limit
            t = (self._overlap - (limit - self._current) / self._previous) * period
            return max(1.0, math.ceil(t))
        # This window alone is full. The next one starts with it as its previous window, and
        # admits once current * (1 - t / period) < limit.
        return math.ceil(window_left + period * (1 - limit / self._current))


class ScopedRateThrottle(throttling.ScopedRateThrottle, SlidingWindowThrottle):
    """DRF's ScopedRateThrottle (scopes, rates, who is who) over the sliding-window count.

    It reads the rates on each request: DRF copies DEFAULT_THROTTLE_RATES into a class
    attribute at import time, so a settings override (as the tests use) would never reach
    it. A scope whose rate is None is not throttled.
    """

    def __init__(self) -> None:
        # DRF's name for them; its stubs type the rates as numbers, they are "20/min" strings
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        super().__init__()


class PoolThrottle(ScopedRateThrottle):
    """The scope ``pool``, on top of the view's own: every request of a view whose
    ``takes_pool_deal`` is true (a new casual game, a race's start and ``again``), per player.
    One budget of vetted deals a player may take, whichever endpoint takes them."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if not getattr(view, "takes_pool_deal", False):
            return True
        self.scope = "pool"
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)  # type: ignore[assignment]
        return SlidingWindowThrottle.allow_request(self, request, view)


class _Bare:
    """What a throttle reads of a request outside DRF: the user, and META for the address."""

    def __init__(self, user: Any, meta: dict[str, Any]) -> None:
        self.user, self.META = user, meta


def throttle_wait(*, scope: str, user: Any, meta: dict[str, Any] | None = None) -> float | None:
    """Count one request of ``user`` in ``scope`` as the views' throttles do (the same cache
    key, so a view and this share the count); None if admitted, else the seconds to wait."""
    throttle = ScopedRateThrottle()
    view = type("View", (), {"throttle_scope": scope})()
    if throttle.allow_request(_Bare(user, meta or {}), view):
        return None
    return throttle.wait()
