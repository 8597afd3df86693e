"""The timer sweeps a serving process runs itself, from its start (spider_api.asgi): under
`make run` there is no beat, and a race must still turn its cards over, end on time and put
out the racers gone, a daily attempt must still end at its day's close, with nobody acting
or connected. Under `make serve` beat runs the same functions (races.tasks, games.tasks);
the stream processes running them too only makes a timer fire sooner. Each is idempotent
and finds only what is due (a few index reads when idle)."""

from __future__ import annotations

import time
from datetime import datetime

from django.conf import settings

from games.services import games_close_past_days
from races.services import presence_sweep, races_prune, races_tick

DAILY_CLOSE_EVERY_SECONDS = 30.0  # an action after the close ends the attempt anyway
_last_daily_close = -DAILY_CLOSE_EVERY_SECONDS
_last_prune: float | None = None


def sweep_due(*, now: datetime | None = None) -> None:
    """One tick of the in-process loop (every RACE_TICK_SECONDS)."""
    global _last_daily_close, _last_prune
    races_tick(now=now)
    presence_sweep(now=now)  # the `gone` events owed (the stream that closed runs it too)
    # Without a broker there is no beat: prune here every RACE_PRUNE_SECONDS (the first
    # time one period after the start).
    if settings.CELERY_TASK_ALWAYS_EAGER:
        if _last_prune is None:
            _last_prune = time.monotonic()
        elif time.monotonic() - _last_prune >= settings.RACE_PRUNE_SECONDS:
            _last_prune = time.monotonic()
            races_prune(now=now)
    if time.monotonic() - _last_daily_close >= DAILY_CLOSE_EVERY_SECONDS:
        _last_daily_close = time.monotonic()
        games_close_past_days(now=now)
