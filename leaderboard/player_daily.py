"""A player's dailies as the API shows them: their streaks (docs/rules.md#streaks), where an
ended ranked attempt stands among the day's, its spoiler-free share text, and their calendar
of days."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Final

from leaderboard.models import DailyResult, DailyStreak
from leaderboard.share import share_text
from leaderboard.standing import day_counts, standing
from leaderboard.streaks import current

if TYPE_CHECKING:
    from accounts.models import User

GUEST_NO_STREAKS: Final = (
    "Guests play practice dailies only, which never count towards a streak: sign up to keep "
    "your streaks."
)


def streaks_info(*, player: User, today: date) -> dict[str, Any]:
    """The player's streaks as of ``today`` (UTC): each current run (a run whose last day is
    yesterday still counts: today is not over) and the longest. A guest's are not kept."""
    if player.is_guest:
        return {"kept": False, "reason": GUEST_NO_STREAKS, "played": None, "won": None}
    row = DailyStreak.objects.filter(player_id=player.pk).first() or DailyStreak()
    return {
        "kept": True,
        "reason": None,
        "played": {
            "current": current(row.played_run, row.played_last, today),
            "best": row.played_best,
            "last": row.played_last.isoformat() if row.played_last else None,
        },
        "won": {
            "current": current(row.won_run, row.won_last, today),
            "best": row.won_best,
            "last": row.won_last.isoformat() if row.won_last else None,
        },
    }


def attempt_summary(
    *, player: User, day: date, suits: int, closed: bool, today: date
) -> dict[str, Any] | None:
    """The player's ended ranked attempt of ``day``: where it stands and its share text."""
    result = DailyResult.objects.filter(player_id=player.pk, date=day).first()
    if result is None:
        return None
    where = standing(day_counts(day), won=result.won, score=result.score, final=closed)
    streak = streaks_info(player=player, today=today)["played"]
    text = share_text(
        day=day,
        suits=suits,
        won=result.won,
        elapsed_ms=result.elapsed_ms,
        actions=result.actions,
        score=result.score,
        runs=result.runs,
        standing=where,
        streak=streak["current"] if streak else None,
    )
    return {"standing": where, "share": {"text": text, "path": f"/daily/{day.isoformat()}"}}
