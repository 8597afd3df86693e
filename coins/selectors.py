"""Reading coins: every figure is a sum over the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Q, Sum
from django.utils import timezone

from coins.models import CoinEntry
from coins.rules import DAILY_CAP, coin_day


@dataclass(frozen=True, slots=True)
class CoinSummary:
    """What a profile shows: the balance and today's (UTC) earnings."""

    balance: int
    earned_today: int
    day: date

    @property
    def left_today(self) -> int:
        return max(0, DAILY_CAP - self.earned_today)

    @property
    def daily_limit(self) -> int:
        return DAILY_CAP


def coins_balance(*, player_id: int) -> int:
    total = CoinEntry.objects.filter(player_id=player_id).aggregate(total=Sum("amount"))["total"]
    return total or 0


def coins_earned_on(*, player_id: int, day: date) -> int:
    entries = CoinEntry.objects.filter(player_id=player_id, day=day)
    return entries.aggregate(total=Sum("amount"))["total"] or 0


def coins_summary(*, player_id: int, now: datetime | None = None) -> CoinSummary:
    """Balance and today's earnings in one query."""
    day = coin_day(now or timezone.now())
    sums = CoinEntry.objects.filter(player_id=player_id).aggregate(
        balance=Sum("amount"), today=Sum("amount", filter=Q(day=day))
    )
    return CoinSummary(balance=sums["balance"] or 0, earned_today=sums["today"] or 0, day=day)
