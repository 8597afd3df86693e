"""Read-side queries for the leaderboards and the daily challenge.

Boards are paged with LIMIT/OFFSET over an index that matches their order exactly, and never
COUNT(*) the whole board: a page says whether a next page exists by asking for one row more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, Final

from django.db.models import Count, Max, Q, QuerySet

from base.pagination import PageRequest, page_json
from games.daily import daily_closed, day_closes_at
from games.models import Game
from games.presenters import iso
from leaderboard.models import DailyChallenge, LeaderboardEntry
from leaderboard.player_daily import attempt_summary, streaks_info
from leaderboard.standing import day_counts

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


PERIODS: Final = ("all", "day", "week", "month")
DAILY_PLACES_DAYS: Final = 100  # a player page looks this far back for the best daily place
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
    "daily_date",
    "deal_over_gap",
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


def _page(
    entries: QuerySet[LeaderboardEntry], page: int, page_size: int, now: datetime | None = None
) -> Page:
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
                "deal_over_gap": row["deal_over_gap"],
                # games.visibility.deal_out of a ranked win: a daily's once its day closed.
                "public": row["daily_date"] is None or daily_closed(row["daily_date"], now),
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
    return _page(entries, page, page_size, now)


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


def daily_info(
    *, challenge: DailyChallenge, viewer: User | AnonymousUser, now: datetime
) -> dict[str, Any]:
    """The public face of a day's challenge, plus the viewer's own attempt if signed in."""
    closed = daily_closed(challenge.date, now)
    deal = challenge.deal
    counts = day_counts(challenge.date)
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
        # The day's ranked wins: its board's size, counted from its few score rows.
        "winners": counts.winners,
        "attempt": None,
        "streaks": None,
    }
    if viewer is not None and viewer.is_authenticated:
        today = now.astimezone(UTC).date()
        info["streaks"] = streaks_info(player=viewer, today=today)
        attempt = (
            Game.objects.filter(player=viewer, kind=Game.Kind.DAILY, daily_date=challenge.date)
            .order_by("-ranked", "created_at")
            .defer("snapshot")
            .first()
        )
        if attempt is not None:
            summary = None
            if attempt.ranked and attempt.over:
                played = info["streaks"]["played"]
                summary = attempt_summary(
                    player=viewer,
                    day=challenge.date,
                    suits=deal.suits,
                    closed=closed,
                    counts=counts,
                    streak=played["current"] if played else None,
                )
            info["attempt"] = {
                "game": str(attempt.id),
                "status": attempt.status,
                "score": attempt.score,
                "ranked": attempt.ranked,
                "standing": summary["standing"] if summary else None,
                "share": summary["share"] if summary else None,
            }
    return info


def daily_days_page(
    *, before: date | None, after: date | None, asked: PageRequest, now: datetime
) -> dict[str, Any]:
    """The days that had a challenge, up to today, between the bounds (both exclusive):
    nearest the bound first, so newest first, except with ``after`` alone (oldest first: the
    days just after it)."""
    days = DailyChallenge.objects.filter(date__lte=now.astimezone(UTC).date())
    if before is not None:
        days = days.filter(date__lt=before)
    if after is not None:
        days = days.filter(date__gt=after)
    order = "date" if after is not None and before is None else "-date"
    rows = list(
        days.order_by(order).values("date", "deal__suits")[
            asked.offset : asked.offset + asked.limit
        ]
    )
    shown = [row["date"] for row in rows[: asked.page_size]]
    winners = dict(
        LeaderboardEntry.objects.filter(daily_date__in=shown)
        .values("daily_date")
        .annotate(n=Count("id"))
        .values_list("daily_date", "n")
    )
    return page_json(
        asked,
        [
            {
                "date": row["date"].isoformat(),
                "suits": row["deal__suits"],
                "closed": daily_closed(row["date"], now),
                "winners": winners.get(row["date"], 0),
            }
            for row in rows
        ],
    )


def challenge_on(*, day: date) -> DailyChallenge | None:
    return DailyChallenge.objects.select_related("deal").filter(date=day).first()


def _rank(entry: LeaderboardEntry, board: QuerySet[LeaderboardEntry]) -> int:
    """``entry``'s place on ``board``: one more than the entries ordered before it (ORDER)."""
    ahead = board.filter(
        Q(score__gt=entry.score)
        | Q(score=entry.score, elapsed_ms__lt=entry.elapsed_ms)
        | Q(score=entry.score, elapsed_ms=entry.elapsed_ms, finished_at__lt=entry.finished_at)
        | Q(
            score=entry.score,
            elapsed_ms=entry.elapsed_ms,
            finished_at=entry.finished_at,
            id__lt=entry.id,
        )
    )
    return ahead.count() + 1


def entry_places(*, entry: LeaderboardEntry, now: datetime) -> dict[str, Any]:
    """Where a ranked win stands now: on its suit mode's board for each period it falls in
    (None for a period it finished before), and on its day's daily board if it ranks there."""
    places: dict[str, int | None] = {}
    for period in PERIODS:
        start = period_start(period, now)
        board = LeaderboardEntry.objects.filter(suits=entry.suits)
        if start is not None:
            if entry.finished_at < start:
                places[period] = None
                continue
            board = board.filter(finished_at__gte=start)
        places[period] = _rank(entry, board)
    daily = None
    if entry.daily_date is not None:
        board = LeaderboardEntry.objects.filter(daily_date=entry.daily_date)
        daily = {"date": entry.daily_date.isoformat(), "rank": _rank(entry, board)}
    return {
        "game": str(entry.game_id),
        "player": entry.username,
        "suits": entry.suits,
        "score": entry.score,
        "places": places,
        "daily": daily,
    }


def daily_rank(*, entry: LeaderboardEntry) -> int:
    """A daily attempt's place on its day's board."""
    return _rank(entry, LeaderboardEntry.objects.filter(daily_date=entry.daily_date))


def entry_of_game(*, game_id: Any) -> LeaderboardEntry | None:
    return LeaderboardEntry.objects.filter(game_id=game_id).first()


def player_best_places(*, player_id: int) -> dict[str, Any]:
    """Per suit mode, the player's best ranked win and its place on the all-time board; and
    their best place on a daily board (among their last DAILY_PLACES_DAYS daily wins)."""
    modes = []
    for suits in (1, 2, 4):
        best = LeaderboardEntry.objects.filter(player_id=player_id, suits=suits)
        best_entry = best.order_by(*ORDER).first()
        row: dict[str, Any] = {"suits": suits, "rank": None, "game": None, "score": None}
        if best_entry is not None:
            row.update(
                rank=_rank(best_entry, LeaderboardEntry.objects.filter(suits=suits)),
                game=str(best_entry.game_id),
                score=best_entry.score,
            )
        modes.append(row)
    daily: dict[str, Any] | None = None
    recent = LeaderboardEntry.objects.filter(
        player_id=player_id, daily_date__isnull=False
    ).order_by("-daily_date")[:DAILY_PLACES_DAYS]
    for entry in recent:
        assert entry.daily_date is not None
        rank = _rank(entry, LeaderboardEntry.objects.filter(daily_date=entry.daily_date))
        if daily is None or rank < daily["rank"]:
            daily = {"date": entry.daily_date.isoformat(), "rank": rank, "game": str(entry.game_id)}
    return {"modes": modes, "daily": daily}
