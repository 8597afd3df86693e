"""Read-side queries for the leaderboards and the daily challenge.

Boards are paged with LIMIT/OFFSET over an index that matches their order exactly, and never
COUNT(*) the whole board: a page says whether a next page exists by asking for one row more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Final

from django.db.models import Max, QuerySet

from games.models import Game
from games.presenters import iso
from leaderboard.models import DailyChallenge, LeaderboardEntry
from leaderboard.ranking import daily_closed, day_closes_at

PERIODS: Final = ("all", "day", "week", "month")
ORDER: Final = ("-score", "elapsed_ms", "finished_at", "id")
ROW_FIELDS: Final = (
    "id",
    "game_id",
    "username",
    "score",
    "actions",
    "elapsed_ms",
    "finished_at",
    "perfect",
    "hints",
)


@dataclass(frozen=True, slots=True)
class Page:
    rows: list[dict[str, Any]]
    page: int
    page_size: int
    has_next: bool


def period_start(period: str, now: datetime) -> datetime | None:
    """Calendar periods in UTC: today, this ISO week (from Monday), this month."""
    today = now.astimezone(UTC).date()
    if period == "day":
        start = today
    elif period == "week":
        start = today - timedelta(days=today.weekday())
    elif period == "month":
        start = today.replace(day=1)
    else:
        return None
    return datetime.combine(start, time.min, tzinfo=UTC)


def _page(entries: QuerySet[LeaderboardEntry], page: int, page_size: int) -> Page:
    offset = (page - 1) * page_size
    rows = list(entries.order_by(*ORDER).values(*ROW_FIELDS)[offset : offset + page_size + 1])
    has_next = len(rows) > page_size
    rows = rows[:page_size]
    return Page(
        rows=[
            {
                "rank": offset + i + 1,
                "player": row["username"],
                "score": row["score"],
                "actions": row["actions"],
                "elapsed_ms": row["elapsed_ms"],
                "finished_at": iso(row["finished_at"]),
                "perfect": row["perfect"],
                "hints": row["hints"],
                "game": str(row["game_id"]),
            }
            for i, row in enumerate(rows)
        ],
        page=page,
        page_size=page_size,
        has_next=has_next,
    )


def leaderboard_page(*, suits: int, period: str, page: int, page_size: int, now: datetime) -> Page:
    entries = LeaderboardEntry.objects.filter(suits=suits)
    start = period_start(period, now)
    if start is not None:
        entries = entries.filter(finished_at__gte=start)
    return _page(entries, page, page_size)


def daily_leaderboard_page(*, day: date, page: int, page_size: int) -> Page:
    return _page(LeaderboardEntry.objects.filter(daily_date=day), page, page_size)


def board_marker(*, suits: int | None = None, day: date | None = None) -> int:
    """The newest entry's id on a board: it changes exactly when the board may have."""
    entries = LeaderboardEntry.objects.all()
    if suits is not None:
        entries = entries.filter(suits=suits)
    if day is not None:
        entries = entries.filter(daily_date=day)
    return entries.aggregate(m=Max("id"))["m"] or 0


def daily_info(*, challenge: DailyChallenge, viewer: Any, now: datetime) -> dict[str, Any]:
    """The public face of a day's challenge, plus the viewer's own attempt if signed in."""
    closed = daily_closed(challenge.date, now)
    deal = challenge.deal
    info: dict[str, Any] = {
        "date": challenge.date.isoformat(),
        "suits": deal.suits,
        "deal_version": deal.deal_version,
        "commitment": challenge.commitment,
        "closes_at": iso(day_closes_at(challenge.date)),
        "closed": closed,
        "seed": str(deal.seed) if closed else None,
        "nonce": challenge.nonce if closed else None,
        "par": deal.par if closed else None,
        "winners": LeaderboardEntry.objects.filter(daily_date=challenge.date).count(),
        "attempt": None,
    }
    if viewer is not None and viewer.is_authenticated:
        attempt = (
            Game.objects.filter(player=viewer, kind=Game.Kind.DAILY, daily_date=challenge.date)
            .order_by("-ranked", "created_at")
            .defer("snapshot")
            .first()
        )
        if attempt is not None:
            info["attempt"] = {
                "game": str(attempt.id),
                "status": attempt.status,
                "score": attempt.score,
                "ranked": attempt.ranked,
            }
    return info


def challenge_on(*, day: date) -> DailyChallenge | None:
    return DailyChallenge.objects.select_related("deal").filter(date=day).first()
