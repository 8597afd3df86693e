"""Daily challenge writes: create a day's challenge, start a player's game on it."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.models import Game
from games.pool import pool_take
from games.services import game_start
from leaderboard.commitment import commit, new_nonce
from leaderboard.models import DailyChallenge
from spider_api.errors import DomainError

DAILY_SUITS = 2
User = get_user_model()


class DailyAlreadyPlayed(DomainError):
    code, status = "daily_already_played", 409
    detail = (
        'You have used today\'s ranked attempt. Send {"unranked": true} to play the deal '
        "again for practice (it will not rank)."
    )


def daily_ensure(*, day: date) -> DailyChallenge:
    """The challenge of ``day``, created if missing. Safe to call twice or from two workers at
    once: the unique date decides, and the loser's pool deal goes back (its transaction rolls
    back), so exactly one challenge exists and no deal is wasted."""
    existing = DailyChallenge.objects.select_related("deal").filter(date=day).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
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
