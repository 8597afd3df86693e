"""The timer sweeps a serving process runs itself, from its start (spider_api.asgi): under
`make run` there is no beat, and a race must still turn its cards over, end on time and put
out the racers gone, a daily attempt must still end at its day's close, with nobody acting
or connected. Under `make serve` beat runs the same functions (races.tasks, games.tasks);
the stream processes running them too only makes a timer fire sooner. Each is idempotent
and finds only what is due (a few index reads when idle).

Without a broker the process also does beat's housekeeping (``HOUSEKEEPING``): idle games
expire, stored Idempotency-Key answers, abandoned race tables and spent OAuth codes are
pruned, each once a
period, the first time one period after the start."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.idempotency import idempotent_requests_prune
from games.services import games_close_past_days, games_expire_idle
from oauth.services import oauth_prune
from races.services import presence_sweep, races_prune, races_tick

DAILY_CLOSE_EVERY_SECONDS = 30.0  # an action after the close ends the attempt anyway
_last_daily_close = -DAILY_CLOSE_EVERY_SECONDS


def _expire_idle_games(now: datetime | None) -> Any:
    return games_expire_idle(idle=timedelta(seconds=settings.GAME_IDLE_EXPIRY_SECONDS), now=now)


def _prune_races(now: datetime | None) -> Any:
    return races_prune(now=now)


def _prune_idempotent_requests(now: datetime | None) -> Any:
    return idempotent_requests_prune(now=now)


def _prune_oauth(now: datetime | None) -> Any:
    return oauth_prune(now=now)


# name -> (the job, its period in seconds): beat's schedule for the same work
# (CELERY_BEAT_SCHEDULE: expire-idle-games, prune-races, prune-idempotent-requests,
# prune-oauth).
HOUSEKEEPING: dict[str, tuple[Callable[[datetime | None], Any], Callable[[], float]]] = {
    "expire_idle_games": (_expire_idle_games, lambda: 15 * 60),
    "prune_races": (_prune_races, lambda: settings.RACE_PRUNE_SECONDS),
    "prune_idempotent_requests": (_prune_idempotent_requests, lambda: 3600),
    "prune_oauth": (_prune_oauth, lambda: 3600),
}
_last_run: dict[str, float] = {}  # name -> monotonic time of its last run (or the start)


def _housekeeping(now: datetime | None) -> None:
    clock = time.monotonic()
    for name, (job, period) in HOUSEKEEPING.items():
        last = _last_run.setdefault(name, clock)  # the process starts: one period from now
        if clock - last >= period():
            _last_run[name] = clock
            job(now)


def sweep_due(*, now: datetime | None = None) -> None:
    """One tick of the in-process loop (every RACE_TICK_SECONDS)."""
    global _last_daily_close
    races_tick(now=now)
    presence_sweep(now=now)  # the `gone` events owed (the stream that closed runs it too)
    if settings.CELERY_TASK_ALWAYS_EAGER:  # no broker, so no beat
        _housekeeping(now)
    if time.monotonic() - _last_daily_close >= DAILY_CLOSE_EVERY_SECONDS:
        _last_daily_close = time.monotonic()
        games_close_past_days(now=now)
