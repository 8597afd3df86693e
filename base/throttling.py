"""Throttling by scope: a view sets `throttle_scope = "auth"` (or "game_create", "actions",
"hints", "streams", "export", "account_delete"); a view that takes a deal from the vetted
pool sets `takes_pool_deal`, and is counted in the scope "pool" as well (PoolThrottle).
``throttle_wait`` is the same count for code outside DRF (the race event stream).

Who is counted: a player (any of their tokens) per player, anyone else per client address.
A request made with an app's OAuth2 access token (``request.auth.application_id``) is counted
twice, for the player and for that app acting for the player: the player's budget is one
whatever the number of apps, and each app's use shows on its own.

Every throttled answer tells the client where it stands, in the fields of
draft-ietf-httpapi-ratelimit-headers-06 (``RateLimit-Limit``, ``RateLimit-Remaining``,
``RateLimit-Reset``, ``RateLimit-Policy``; set by ``base.middleware``, from what the
throttles left on the request as ``ratelimit``): of the counts a request was held to, the
one with the fewest requests left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http.request import HttpHeaders
from rest_framework import throttling
from rest_framework.settings import api_settings

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True, slots=True)
class RateLimit:
    """Where a client stands in one count: what the RateLimit-* fields say."""

    limit: int
    remaining: int
    reset: int  # seconds: until one more is admitted when none is left, else to the window's end
    window: int  # the period, seconds

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset),
            "RateLimit-Policy": f"{self.limit};w={self.window}",
        }


def _note(request: Any, seen: RateLimit) -> None:
    """Keep, on the Django request, the count with the fewest requests left."""
    target = getattr(request, "_request", request)  # DRF's Request wraps Django's
    known = getattr(target, "ratelimit", None)
    if known is None or seen.remaining < known.remaining:
        target.ratelimit = seen


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
        self._overlap = overlap = 1.0 - (now - window * period) / period  # of the last window
        keys = [(f"{self.key}:{window}", f"{self.key}:{window - 1}")]
        app = getattr(getattr(request, "auth", None), "application_id", None)
        if app is not None:  # an OAuth2 access token (django-oauth-toolkit): the app's count too
            keys.append((f"{self.key}:app:{app}:{window}", f"{self.key}:app:{app}:{window - 1}"))
        counts = self.cache.get_many([name for pair in keys for name in pair])
        # The fullest count decides (the app's is never fuller than the player's, but both
        # are kept: the player's bounds what they cost, the app's is what it used).
        used = -1.0
        for current, previous in keys:
            p, c = counts.get(previous, 0), counts.get(current, 0)
            if p * overlap + c > used:
                used, self._previous, self._current = p * overlap + c, p, c
        if used >= limit:
            _note(request, RateLimit(limit, 0, int(self.wait() or 1), period))
            return False
        for current, _ in keys:
            try:
                self.cache.incr(current)
            except ValueError:  # the window's first request (or its key was evicted)
                if not self.cache.add(current, 1, timeout=2 * period):
                    self.cache.incr(current)  # another request created it in between
        # Requests still admitted if none slid out meanwhile; the window's end, when they do.
        remaining = max(0, math.ceil(limit - used - 1))
        _note(request, RateLimit(limit, remaining, math.ceil(period - now % period), period))
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
    """What a throttle reads of a request outside DRF: the user, and META for the address;
    where it notes the count (the Django request, if any)."""

    def __init__(self, user: User | None, meta: dict[str, Any], request: Any) -> None:
        self.user, self.META = user, meta
        self.headers = HttpHeaders(meta)  # the address: X-Forwarded-For behind NUM_PROXIES
        if request is not None:
            self._request = request


class _Keyed(ScopedRateThrottle):
    """A count of its own name (``ident``) rather than a player's or an address's."""

    def __init__(self, ident: str) -> None:
        super().__init__()
        self.ident = ident

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


def throttle_wait(
    *,
    scope: str,
    user: User | None,
    meta: dict[str, Any] | None = None,
    request: Any = None,
    ident: str | None = None,
) -> float | None:
    """Count one request of ``user`` (None: the client's address, from ``meta``) in ``scope``
    as the views' throttles do (the same cache key, so a view and this share the count), or of
    ``ident`` when given (a client id, say); None if admitted, else the seconds to wait.
    Given the Django ``request``, its answer carries the RateLimit-* fields."""
    throttle = ScopedRateThrottle() if ident is None else _Keyed(ident)
    view = type("View", (), {"throttle_scope": scope})()
    if throttle.allow_request(_Bare(user, meta or {}, request), view):
        return None
    return throttle.wait()
