"""The streak rules (docs/rules.md#streaks), pure: a run of consecutive UTC days with a ranked
daily attempt, and one with a ranked daily win. A day that has not closed never breaks a run:
a run whose last day is yesterday is still current today."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Streaks:
    """What ``DailyStreak`` keeps: each run as it stood after its last day, and the longest."""

    played_run: int = 0
    played_last: date | None = None
    played_best: int = 0
    won_run: int = 0
    won_last: date | None = None
    won_best: int = 0


def streaks_after(streaks: Streaks, *, day: date, won: bool) -> Streaks | None:
    """The streaks once ``day``'s attempt is counted, or None when ``day`` is not after every
    day counted so far (an attempt that ended late, after a later day's): rebuild them then."""
    if streaks.played_last is not None and day <= streaks.played_last:
        return None
    played = streaks.played_run + 1 if streaks.played_last == day - ONE_DAY else 1
    won_run, won_last = 0, streaks.won_last
    if won:
        won_run = streaks.won_run + 1 if streaks.won_run and won_last == day - ONE_DAY else 1
        won_last = day
    return Streaks(
        played_run=played,
        played_last=day,
        played_best=max(streaks.played_best, played),
        won_run=won_run,
        won_last=won_last,
        won_best=max(streaks.won_best, won_run),
    )


def streaks_of(days: Iterable[tuple[date, bool]]) -> Streaks:
    """The streaks of a player's (day, won) results, in any order: the rebuild, and the
    check of what was kept (``manage.py verify_daily``)."""
    streaks = Streaks()
    for day, won in sorted(days):
        after = streaks_after(streaks, day=day, won=won)
        assert after is not None, "one result a day"
        streaks = after
    return streaks


def current(run: int, last: date | None, today: date) -> int:
    """A run as the player sees it today: broken once a whole day has closed without it."""
    return run if last is not None and last >= today - ONE_DAY else 0
