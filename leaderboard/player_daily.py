"""A player's dailies as the API shows them: their streaks (docs/rules.md#streaks), where an
ended ranked attempt stands among the day's, its spoiler-free share text, and their calendar
of days."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Final

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum

from leaderboard.models import DailyChallenge, DailyResult, DailyStreak, DayScoreCount
from leaderboard.share import share_text
from leaderboard.standing import DayCounts, standing
from leaderboard.streaks import ONE_DAY, current

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

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
    *, player: User, day: date, suits: int, closed: bool, counts: DayCounts, streak: int | None
) -> dict[str, Any] | None:
    """The player's ended ranked attempt of ``day``: where it stands among the day's
    ``counts`` (``day_counts``, read once for the page) and its share text, which names the
    player's current ``streak``."""
    result = DailyResult.objects.filter(player_id=player.pk, date=day).first()
    if result is None:
        return None
    where = standing(counts, won=result.won, score=result.score, final=closed)
    text = share_text(
        day=day,
        suits=suits,
        won=result.won,
        elapsed_ms=result.elapsed_ms,
        actions=result.actions,
        score=result.score,
        runs=result.runs,
        standing=where,
        streak=streak,
    )
    return {"standing": where, "share": {"text": text, "path": f"/daily/{day.isoformat()}"}}


def _place_among(counts: QuerySet[DayScoreCount]) -> Subquery:
    """The place of the outer DailyResult on its day: one more than the players ahead."""
    ahead = counts.filter(date=OuterRef("date")).filter(
        Q(won__gt=OuterRef("won")) | Q(won=OuterRef("won"), score__gt=OuterRef("score"))
    )
    return Subquery(ahead.values("date").annotate(n=Sum("players")).values("n")[:1])


def month_text(value: date) -> str:
    """``YYYY-MM``, the year in four digits (strftime's ``%Y`` writes year 1 as "1")."""
    return f"{value.year:04d}-{value.month:02d}"


def calendar(
    *, player: User, month: date, viewer: User | AnonymousUser, today: date
) -> dict[str, Any]:
    """The player's days of ``month`` that had a challenge, up to today: won, lost or missed,
    each played day with its score and, once closed, its place among the day's players. An
    open day's result shows to the player only (the day's others see aggregates, never a
    line). Three queries: the days, the player's results with their places, the days' sizes."""
    viewer_is_player = viewer.is_authenticated and viewer.pk == player.pk
    first = month.replace(day=1)
    # Up to today: a month to come has no days yet (and 9999-12 no month after it).
    until = today + ONE_DAY
    if first <= today:
        until = min(until, (first + timedelta(days=32)).replace(day=1))
    days = list(
        DailyChallenge.objects.filter(date__gte=first, date__lt=until)
        .order_by("date")
        .values_list("date", flat=True)
    )
    counts = DayScoreCount.objects.all()
    results = {
        r.date: r
        for r in DailyResult.objects.filter(player_id=player.pk, date__gte=first, date__lt=until)
        .annotate(ahead=_place_among(counts))
        .only("date", "won", "score", "actions", "elapsed_ms", "game_id")
    }
    sizes = dict(
        DayScoreCount.objects.filter(date__in=list(results))
        .values("date")
        .annotate(n=Sum("players"))
        .values_list("date", "n")
    )
    rows = []
    for day in days:
        closed = day < today
        result = results.get(day)
        row: dict[str, Any] = {
            "date": day.isoformat(),
            "closed": closed,
            "status": "open" if not closed else "missed",
            "score": None,
            "place": None,
            "players": None,
        }
        if result is not None and (closed or viewer_is_player):
            row.update(
                status="won" if result.won else "lost",
                score=result.score,
                place=(result.ahead or 0) + 1,
                players=sizes.get(day),
            )
        elif result is not None:
            row["status"] = "played"
        rows.append(row)
    return {
        "username": player.username,
        "month": month_text(first),
        "days": rows,
        "streaks": streaks_info(player=player, today=today),
    }
