"""What a win earns (docs/rules.md#coins): pure Python, the one place the amounts live.

- A ranked win (casual or daily: a vetted deal, not a replay, not staff-made) earns
  ``COINS_PER_SUIT`` times the suit mode (1 suit x1, 2 suits x2, 4 suits x4); a perfect win
  (no undo, no hint) earns the same again as a bonus.
- A race win earns ``COINS_PER_SUIT`` times the mode, never a bonus (races have no undo and
  no hints, so every race game looks perfect).
- At most ``DAILY_CAP`` coins per player and UTC day; what the cap cuts is lost.

>>> reward_for(suits=2, kind="casual", perfect=True, ranked=True, staff_made=False)
Reward(base=20, bonus=20)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final

COINS_PER_SUIT: Final = 10
DAILY_CAP: Final = 200
RACE: Final = "race"  # Game.Kind of a racer's table (games.models, once races exist)
RANKED_KINDS: Final = frozenset({"casual", "daily"})


@dataclass(frozen=True, slots=True)
class Reward:
    base: int  # for the win
    bonus: int  # for a perfect win

    @property
    def total(self) -> int:
        return self.base + self.bonus


def reward_for(
    *, suits: int, kind: str, perfect: bool, ranked: bool, staff_made: bool
) -> Reward | None:
    """The reward a won game earns before the daily cap, or None if it earns nothing."""
    if staff_made:
        return None
    base = COINS_PER_SUIT * suits
    if kind == RACE:
        return Reward(base=base, bonus=0)
    if kind not in RANKED_KINDS or not ranked:
        return None  # a replay, an unranked daily practice, an unvetted deal
    return Reward(base=base, bonus=base if perfect else 0)


def coin_day(moment: datetime) -> date:
    """The UTC day a moment belongs to: the cap resets at midnight UTC."""
    return moment.astimezone(UTC).date()


def capped(total: int, earned_today: int) -> tuple[int, int]:
    """(credited, cut): what is left under the cap is credited, the rest is lost."""
    room = max(0, DAILY_CAP - earned_today)
    credited = min(total, room)
    return credited, total - credited
