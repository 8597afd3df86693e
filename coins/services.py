"""Writing rewards. Called inside the transaction that wins a game, so the win and its reward
commit together or not at all."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from coins.models import CoinDay, CoinEntry
from coins.rules import DAILY_CAP, Reward, capped, coin_day
from coins.selectors import coins_balance, coins_earned_on


@dataclass(frozen=True, slots=True)
class CoinAward:
    """What one win earned, as the winning action's answer reports it."""

    eligible: bool  # False: this win earns nothing (replay, staff game, unranked practice)
    base: int
    bonus: int
    earned: int  # credited
    cut: int  # lost to the daily cap
    earned_today: int  # after this win
    balance: int  # after this win

    @property
    def left_today(self) -> int:
        return max(0, DAILY_CAP - self.earned_today)


def coins_award(
    *,
    player_id: int,
    game_id: Any,
    suits: int,
    kind: str,
    reward: Reward | None,
    now: datetime,
) -> CoinAward:
    """Credit ``reward`` for game ``game_id`` (None: the win earns nothing), under the cap of
    ``now``'s UTC day. Must run inside the winning transaction (it locks the player's tally
    row for the day). A game is paid once: its row is locked and over after the win, and
    the ledger's unique constraint on the game refuses a second entry."""
    day = coin_day(now)
    if reward is None:
        earned_today = coins_earned_on(player_id=player_id, day=day)
        return CoinAward(False, 0, 0, 0, 0, earned_today, coins_balance(player_id=player_id))
    # Lock order is always game row -> tally row, so this cannot deadlock with game_act.
    CoinDay.objects.bulk_create([CoinDay(player_id=player_id, day=day)], ignore_conflicts=True)
    tally = CoinDay.objects.select_for_update().get(player_id=player_id, day=day)
    amount, cut = capped(reward.total, tally.earned)
    entry = CoinEntry.objects.create(
        player_id=player_id,
        game_id=game_id,
        day=day,
        suits=suits,
        kind=kind,
        base=reward.base,
        bonus=reward.bonus,
        amount=amount,
        cut=cut,
        created_at=now,
    )
    tally.earned += amount
    tally.save(update_fields=["earned"])
    return _award(entry, tally.earned)


def _award(entry: CoinEntry, earned_today: int) -> CoinAward:
    return CoinAward(
        eligible=True,
        base=entry.base,
        bonus=entry.bonus,
        earned=entry.amount,
        cut=entry.cut,
        earned_today=earned_today,
        balance=coins_balance(player_id=entry.player_id),  # the ledger's sum
    )
