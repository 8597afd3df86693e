"""A Redis cache that fails soft: when Redis is down the cache is simply empty.

The cache holds throttling counters and a few seconds of leaderboard pages, nothing that must
survive. Django's RedisCache raises on every call while Redis is down, which would turn each
throttled request into a 500; this one logs the outage once, answers as an empty cache (a
read misses, a write is dropped, so throttling lets requests through) and does not touch Redis
again for ``RETRY_SECONDS``, so a dead Redis costs one short connect timeout every few
seconds, not one per request.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0


# INCRBY only if the key exists (a missing key must raise, as Django's contract says).
_INCR_EXISTING = (
    "if redis.call('exists', KEYS[1]) == 1 then "
    "return redis.call('incrby', KEYS[1], ARGV[1]) end return false"
)


class _Client(RedisCacheClient):
    def incr(self, key: Any, delta: int) -> int:
        """One round trip: Django's client sends EXISTS, then INCRBY; every throttled
        request increments a counter (base.throttling)."""
        value = self.get_client(key, write=True).eval(_INCR_EXISTING, 1, key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(value)


class FailSoftRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        timeouts = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
        params["OPTIONS"] = {**timeouts, **params.get("OPTIONS", {})}
        super().__init__(server, params)
        self._class = _Client
        self._down_until = 0.0  # monotonic time before which Redis is not tried
        self._down = False
        self._lock = threading.Lock()

    def _call(self, fallback: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        if self._down and time.monotonic() < self._down_until:
            return fallback
        try:
            result = getattr(super(), method)(*args, **kwargs)
        except RedisError as exc:
            with self._lock:
                newly_down, self._down = not self._down, True
                self._down_until = time.monotonic() + RETRY_SECONDS
            if newly_down:
                log.warning("cache unavailable, serving without it: %s", exc)
            return fallback
        if self._down:
            with self._lock:
                recovered, self._down = self._down, False
            if recovered:
                log.warning("cache available again")
        return result

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call(default, "get", key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call(None, "set", key, value, timeout, version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call(False, "add", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call(False, "touch", key, timeout, version)

    def delete(self, key: Any, version: Any = None):
        return self._call(False, "delete", key, version)

    def get_many(self, keys: Any, version: Any = None):
        return self._call({}, "get_many", keys, version)

    def has_key(self, key: Any, version: Any = None):
        return self._call(False, "has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None):
        return self._call(delta, "incr", key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call([], "set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None):
        return self._call(None, "delete_many", keys, version)

    def clear(self):
        return self._call(False, "clear")
