"""Daily challenge writes: create a day's challenge, start a player's game on it."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from games.models import Game
from games.pool import pool_take
from games.services import game_start
from leaderboard.commitment import commit, new_nonce
from leaderboard.models import DailyChallenge
from spider_api.errors import DomainError

DAILY_SUITS = 2
DAILY_LOCK_SPACE = 0x5D41  # advisory-lock namespace of daily challenge creation
User = get_user_model()


class DailyAlreadyPlayed(DomainError):
    code, status = "daily_already_played", 409
    detail = (
        'You have used today\'s ranked attempt. Send {"unranked": true} to play the deal '
        "again for practice (it will not rank)."
    )


def daily_ensure(*, day: date) -> DailyChallenge:
    """The challenge of ``day``, created if missing. Safe to call twice or from two workers at
    once: creators of one day queue on a lock and the later ones find the first's challenge
    (the unique date stays the last word), so exactly one exists and no deal is wasted."""
    existing = DailyChallenge.objects.select_related("deal").filter(date=day).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            _lock_day(day)  # a second creator waits here, then finds the first one's row
            existing = DailyChallenge.objects.select_related("deal").filter(date=day).first()
            if existing is not None:
                return existing
            deal = pool_take(suits=DAILY_SUITS)
            seed = deal.seed
            assert seed is not None
            nonce = new_nonce()
            return DailyChallenge.objects.create(
                date=day,
                deal=deal,
                nonce=nonce,
                commitment=commit(
                    day=day,
                    suits=deal.suits,
                    deal_version=deal.deal_version,
                    seed=seed,
                    nonce=nonce,
                ),
            )
    except IntegrityError:
        return DailyChallenge.objects.select_related("deal").get(date=day)


def _lock_day(day: date) -> None:
    """Serialise the creation of one day's challenge. PostgreSQL: a transaction-scoped
    advisory lock; SQLite already runs one writing transaction at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [DAILY_LOCK_SPACE, day.toordinal()]
            )


@transaction.atomic
def daily_play(*, player: Any, day: date, unranked: bool = False) -> tuple[Game, bool]:
    """The player's game on the daily challenge of ``day``: (game, created).

    A daily game in progress is returned as it is. Otherwise the first game is the ranked
    attempt; after it, only an explicit ``unranked`` practice game. Daily games and casual
    games never end each other.
    """
    challenge = daily_ensure(day=day)
    User.objects.select_for_update().filter(pk=player.pk).first()
    mine = Game.objects.filter(player=player, kind=Game.Kind.DAILY, daily_date=day)
    current = mine.filter(status=Game.Status.IN_PROGRESS).first()
    if current is not None:
        return current, False
    attempted = mine.exists()
    if attempted and not unranked:
        raise DailyAlreadyPlayed()
    game = game_start(
        player=player,
        deal=challenge.deal,
        kind=Game.Kind.DAILY,
        daily_date=day,
        rankable=not attempted,
    )
    return game, True
