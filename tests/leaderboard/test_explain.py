"""The boards' queries use the indexes built for them (PostgreSQL's planner, EXPLAIN)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.engine import DEAL_VERSION
from games.models import Deal, Game
from leaderboard import selectors
from leaderboard.models import LeaderboardEntry

pytestmark = pytest.mark.postgres

ROWS = 3000
DAY = date(2026, 3, 2)


@pytest.fixture
def filled(db) -> None:
    """ROWS entries over three suit modes, a tenth of them on one daily board."""
    players = User.objects.bulk_create(User(username=f"explain{n}") for n in range(20))
    deals = Deal.objects.bulk_create(
        Deal(
            suits=(1, 2, 4)[n % 3],
            seed_db=50_000_000 + n,
            deal_version=DEAL_VERSION,
            source=Deal.Source.POOL,
            state=Deal.State.DEALT,
            vetted=True,
        )
        for n in range(ROWS)
    )
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    games = Game.objects.bulk_create(
        Game(
            player=players[n % 20],
            deal=deal,
            suits=deal.suits,
            status=Game.Status.WON,
            ranked=True,
            snapshot={},
            score=900 + n % 350,
            finished_at=t0 + timedelta(minutes=n),
            elapsed_ms=60_000 + n,
        )
        for n, deal in enumerate(deals)
    )
    LeaderboardEntry.objects.bulk_create(
        LeaderboardEntry(
            game=game,
            player_id=game.player_id,
            username=f"explain{n % 20}",
            suits=game.suits,
            score=game.score,
            actions=1300 - game.score,
            elapsed_ms=60_000 + n,  # as the game's
            finished_at=t0 + timedelta(minutes=n),
            perfect=False,
            daily_date=DAY if n % 10 == 0 and game.suits == 2 else None,
        )
        for n, game in enumerate(games)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leaderboard_leaderboardentry")


def plan_of(run) -> str:
    """EXPLAIN the one SELECT that ``run()`` sends, exactly as the selector sends it.

    A few thousand rows fit in a handful of pages, and for a table that small a sequential
    scan plus a top-N sort is honestly the cheapest plan, so the planner would show no index
    at all and the test would say nothing about a board of a million rows. With
    ``enable_seqscan = off`` the planner still chooses freely among the indexes (the
    all-time index, the period index, the primary key), and the plan shows which one the
    query's WHERE and ORDER BY actually fit: the one it would use on a large table.
    """
    with CaptureQueriesContext(connection) as queries:
        run()
    (query,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN " + query)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")
    return plan


# Page 10 starts at offset 180 of the 1,000-row 4-suit board. Deeper than about a third of a
# board this small, reading the index in order costs the planner more than a bitmap scan of
# all 1,000 rows plus a sort, and it rightly switches; on a real board (page 100 of a board of
# 300,000 is offset 1,980, under 1 %) the ordered index scan is the plan (bench/leaderboard.py
# shows it with EXPLAIN ANALYZE).
@pytest.mark.parametrize("page", [1, 10])
def test_the_all_time_board_reads_its_index_in_order(filled, page):
    now = datetime(2026, 3, 2, tzinfo=UTC)
    result = None

    def run() -> None:
        nonlocal result
        result = selectors.leaderboard_page(suits=4, period="all", page=page, page_size=20, now=now)

    plan = plan_of(run)

    assert "lb_all_time_idx" in plan, plan
    assert "Sort" not in plan, plan  # the index order is the board's order: no sort step
    assert result is not None and len(result.rows) == 20  # the page itself is real
    assert result.rows[0]["rank"] == (page - 1) * 20 + 1


def test_the_daily_board_reads_its_partial_index(filled):
    plan = plan_of(lambda: selectors.daily_leaderboard_page(day=DAY, page=1, page_size=20))

    assert "lb_daily_idx" in plan, plan
    assert "Sort" not in plan, plan


def test_a_past_daily_boards_marker_reads_only_that_board(db):
    """The newest entry of an old daily board, with many newer entries after it."""
    players = User.objects.bulk_create(User(username=f"marker{n}") for n in range(2000))
    deals = Deal.objects.bulk_create(
        Deal(
            suits=2,
            seed_db=60_000_000 + n,
            deal_version=DEAL_VERSION,
            source=Deal.Source.POOL,
            state=Deal.State.DEALT,
            vetted=True,
        )
        for n in range(12_000)
    )
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    games = Game.objects.bulk_create(
        Game(
            player=players[n % 2000],
            deal=deal,
            suits=2,
            kind=Game.Kind.DAILY if n < 2000 else Game.Kind.CASUAL,
            daily_date=DAY if n < 2000 else None,
            status=Game.Status.WON,
            ranked=True,
            snapshot={},
            score=1000,
            finished_at=t0 + timedelta(seconds=n),
            elapsed_ms=60_000,
        )
        for n, deal in enumerate(deals)
    )
    LeaderboardEntry.objects.bulk_create(  # ids in finishing order, the day's first
        LeaderboardEntry(
            game=game,
            player_id=game.player_id,
            username="marker",
            suits=2,
            score=1000,
            actions=300,
            elapsed_ms=60_000,
            finished_at=game.finished_at,
            perfect=False,
            daily_date=game.daily_date,
        )
        for game in games
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leaderboard_leaderboardentry")
    with CaptureQueriesContext(connection) as queries:
        marker = selectors.board_marker(day=DAY)
    (sql,) = [q["sql"] for q in queries.captured_queries]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    plan = plan if isinstance(plan, list) else json.loads(plan)

    def discarded(node: dict) -> int:
        own = node.get("Rows Removed by Filter", 0)
        return own + sum(discarded(child) for child in node.get("Plans", []))

    assert marker == LeaderboardEntry.objects.filter(daily_date=DAY).order_by("-id")[0].id
    assert discarded(plan[0]["Plan"]) < 100  # not the 10,000 newer entries of other boards
