"""Throttling by scope: a view sets `throttle_scope = "auth"` (or "game_create", "actions")."""

from rest_framework import throttling
from rest_framework.settings import api_settings


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """DRF's ScopedRateThrottle, reading the rates on each request.

    DRF copies DEFAULT_THROTTLE_RATES into a class attribute at import time, so a settings
    override (as the tests use) would never reach it; this reads the live setting instead.
    A scope whose rate is None is not throttled.
    """

    @property
    def THROTTLE_RATES(self) -> dict[str, str | None]:  # DRF's name for it
        return api_settings.DEFAULT_THROTTLE_RATES
