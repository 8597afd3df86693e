"""Where a ranked daily attempt stands among the day's ended attempts (docs/rules.md#streaks):
read from the day's ``DayScoreCount`` in one query (one row per (won, score) that occurred,
a few hundred whatever the number of players). Aggregates only: no deal, no other player."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from leaderboard.models import DayScoreCount

# The score distribution's bins: the lower bound of each (the last one open-ended).
BIN_FLOORS: Final = (0, 300, 500, 700, 900, 1100)


@dataclass(frozen=True, slots=True)
class DayCounts:
    """A day's ended ranked attempts: (won, score, players), best first."""

    rows: list[tuple[bool, int, int]]

    @property
    def players(self) -> int:
        return sum(n for _, _, n in self.rows)

    @property
    def winners(self) -> int:
        return sum(n for won, _, n in self.rows if won)


def day_counts(day: date) -> DayCounts:
    """One query: an index range scan of the day's rows."""
    rows = DayScoreCount.objects.filter(date=day).order_by("-won", "-score")
    return DayCounts(rows=list(rows.values_list("won", "score", "players")))


def bin_of(score: int) -> int:
    return max(i for i, floor in enumerate(BIN_FLOORS) if score >= floor)


def standing(counts: DayCounts, *, won: bool, score: int, final: bool) -> dict[str, Any]:
    """A result's place among the day's (a loss below every win, then by score; equal results
    share a place), the share of players with a lower result, and the distribution of scores
    in BIN_FLOORS's bins with the player's marked. ``final`` once the day has closed."""
    mine = (won, score)
    better = sum(n for w, s, n in counts.rows if (w, s) > mine)
    lower = sum(n for w, s, n in counts.rows if (w, s) < mine)
    players = counts.players
    bins = [0] * len(BIN_FLOORS)
    for _, s, n in counts.rows:
        bins[bin_of(s)] += n
    marked = bin_of(score)
    return {
        "players": players,
        "winners": counts.winners,
        "won_percent": _percent(counts.winners, players),
        "place": better + 1,
        "final": final,
        "better_than_percent": _percent(lower, players),
        "distribution": [
            {
                "from": floor,
                "to": BIN_FLOORS[i + 1] - 1 if i + 1 < len(BIN_FLOORS) else None,
                "players": bins[i],
                "mine": i == marked,
            }
            for i, floor in enumerate(BIN_FLOORS)
        ],
    }


def _percent(part: int, whole: int) -> int:
    """A whole percentage, rounded down (never "100%" unless it is all of them)."""
    return part * 100 // whole if whole else 0
