"""What the coin ledger adds to a winning action.

Times ``games.services.game_act`` for the move that wins a game (one move from a win, on a
vetted pooled deal, so the game is ranked and earns coins), in-process on PostgreSQL: the
whole service transaction (lock, engine, log row, stats, leaderboard entry, and the reward),
the same as a request pays minus HTTP and DRF. Runs alternate between the real service and
one whose reward call is switched off, so both see the same machine load; the reward's own
queries are counted too.

    .venv/bin/python bench/coins.py               # 300 wins each way
    .venv/bin/python bench/coins.py --wins 100

Uses its own database (``--db``, default ``spider_coins_bench``, created and migrated if
missing; its games are deleted first). The LAST line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = "postgres://postgres@127.0.0.1:5432"
DB = "spider_coins_bench"  # the default of --db
NEAR_WIN = "1 " + "/".join(["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As", *["|"] * 8]) + " - -"


def setup_django(db: str = DB) -> None:
    from bench.servers import database_afresh, django_in_process  # ROOT is on sys.path

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone()
    if not exists:
        database_afresh(db)
    django_in_process(f"{PG}/{db}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wins", type=int, default=300, help="winning actions each way")
    parser.add_argument("--db", default=DB, help="its own database: emptied of games first")
    args = parser.parse_args()
    setup_django(args.db)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from coins.models import CoinDay, CoinEntry
    from games import services
    from games.engine import DEAL_VERSION
    from games.models import Deal, Game, PlayerStats
    from games.services import endings
    from leaderboard.models import LeaderboardEntry

    for model in (CoinEntry, CoinDay, LeaderboardEntry, PlayerStats, Game):
        model.objects.all().delete()
    Deal.objects.all().delete()  # this database is the bench's own
    players = [User.objects.get_or_create(username=f"coinbench{i}")[0] for i in range(10)]
    real_reward = endings.game_reward

    def no_reward(**kwargs: object) -> None:
        return None

    win = services.ActionRequest(type="move", src=1, dst=0)

    def one_win(player, with_coins: bool) -> tuple[float, int]:
        Deal.objects.create(
            suits=1,
            deal_version=DEAL_VERSION,
            layout_notation=NEAR_WIN,
            source=Deal.Source.POOL,
            state=Deal.State.POOLED,
            vetted=True,
        )
        game = services.game_create(player=player, suits=1)
        endings.game_reward = real_reward if with_coins else no_reward  # type: ignore[assignment]
        try:
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                result = services.game_act(player=player, game_id=str(game.pk), action=win)
                elapsed = time.perf_counter() - start
        finally:
            endings.game_reward = real_reward
        assert result.game.status == Game.Status.WON
        assert (result.coins is not None) == with_coins
        return elapsed * 1000, len(queries)

    for i in range(20):  # warm-up: connections, caches, code paths
        one_win(players[i % len(players)], i % 2 == 0)
    times: dict[bool, list[float]] = {True: [], False: []}
    queries: dict[bool, int] = {}
    for i in range(args.wins * 2):
        with_coins = i % 2 == 0
        ms, count = one_win(players[i % len(players)], with_coins)
        times[with_coins].append(ms)
        queries[with_coins] = count

    def q(values: list[float], p: float) -> float:
        return round(statistics.quantiles(values, n=100)[int(p) - 1], 3)

    with_ms = statistics.median(times[True])
    without_ms = statistics.median(times[False])
    figures = {
        "wins_each_way": args.wins,
        "win_ms_p50_with_coins": round(with_ms, 3),
        "win_ms_p50_without_coins": round(without_ms, 3),
        "win_ms_p90_with_coins": q(times[True], 90),
        "win_ms_p90_without_coins": q(times[False], 90),
        "added_ms_p50": round(with_ms - without_ms, 3),
        "ratio_p50": round(with_ms / without_ms, 3),
        "queries_with_coins": queries[True],
        "queries_without_coins": queries[False],
        "entries_written": CoinEntry.objects.count(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
