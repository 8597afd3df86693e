"""Board freshness: an entry deleted (its player or game deleted) or changed makes every cached
board stale at once. New entries need nothing here: each board's cache key carries its newest
entry's id (``selectors.board_marker``)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from leaderboard.models import LeaderboardEntry

GENERATION_KEY = "lb:generation"


def board_generation() -> int:
    """A counter in the cache, part of every board's cache key. Should the cache lose it, the
    cached boards went with it, so counting from 0 again is safe."""
    return cache.get(GENERATION_KEY) or 0


def boards_changed() -> None:
    """Every cached board is stale from now: entries were changed or deleted."""
    cache.add(GENERATION_KEY, 0, None)
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # evicted between add and incr
        cache.set(GENERATION_KEY, 1, None)


@receiver(post_delete, sender=LeaderboardEntry)
@receiver(post_save, sender=LeaderboardEntry)
def _boards_changed(sender: Any, created: bool = False, **kwargs: Any) -> None:
    if not created:  # a new entry needs nothing: the board's marker moves on by itself
        boards_changed()
