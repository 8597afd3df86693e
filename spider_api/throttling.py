"""Throttling by scope: a view sets `throttle_scope = "auth"` (or "game_create", "actions")."""

from rest_framework import throttling
from rest_framework.settings import api_settings


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """DRF's ScopedRateThrottle, reading the rates on each request.

    DRF copies DEFAULT_THROTTLE_RATES into a class attribute at import time, so a settings
    override (as the tests use) would never reach it; this reads the live setting instead.
    A scope whose rate is None is not throttled.
    """

    def __init__(self) -> None:
        # DRF's name for them; its stubs type the rates as numbers, they are "20/min" strings
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        super().__init__()
