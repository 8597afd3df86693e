"""The action path's own CPU by game length: ``games.services.game_act`` in one process, no HTTP.

Plays G games of a seeded 1-suit deal for up to 300 actions each (``--actions``; random
legal moves, some undos; the same sequence every run), on a scratch PostgreSQL database, and
reports the mean process CPU (this process: engine, snapshot, ORM and driver; not
PostgreSQL's) per action in each 100-action stretch of a game. A long game should cost an
action no more than a short one.

``--kind casual,race`` plays each deal twice, alternating: as a casual game and as a racer's
game in a two-player race on the same deal (same seed, the same actions; no undo in either,
since a race refuses it), and reports both kinds side by side: CPU per action (median and
mean), statements per action, and ``race_casual_cpu_ratio`` (race median / casual median).
The race's events are published after each commit as in production when ``--redis`` is
given (on a channel of the bench's own), else handed to the in-process hub.

    .venv/bin/python bench/action.py --games 6
    .venv/bin/python bench/action.py --games 6 --kind casual,race --redis redis://127.0.0.1:6379/0

Last line: one JSON object, {"cpu_us_per_action": {"0-99": ..., "100-199": ..., "200-299": ...},
"actions": N, "growth_last_vs_first": ratio} (the first kind's), and with two kinds
"kinds": {kind: {"cpu_us_median", "cpu_us_mean", "statements_per_action", "actions"}} and
"race_casual_cpu_ratio".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:  # imported as bench.<module>
    from bench.api import prepare_database
    from bench.servers import server_env
except ImportError:  # run as a script: bench/ itself is on sys.path
    from api import prepare_database  # type: ignore[import-not-found,no-redef]
    from servers import server_env  # type: ignore[import-not-found,no-redef]

STRETCH = 100
UNDO_SHARE = 0.08


class Kind:
    """One kind's figures: CPU per action by stretch, and the statements of sampled actions."""

    def __init__(self) -> None:
        self.stretches: dict[int, list[float]] = {}
        self.statements: list[int] = []


def play(games: int, kinds: list[str], undo_share: float, max_actions: int) -> dict[str, Kind]:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.engine import DEAL, load
    from races import services as races

    settings.RACE_COUNTDOWN_SECONDS = 0  # the cards turn over at once
    users = get_user_model().objects
    player = users.filter(username="bench_action").first() or users.create_user(
        username="bench_action", password="bench password 1", is_staff=True
    )
    rival = users.filter(username="bench_rival").first() or users.create_user(
        username="bench_rival", password="bench password 1"
    )
    figures = {kind: Kind() for kind in kinds}

    def new_game(kind: str, seed: int) -> Any:
        if kind == "casual":
            return services.game_create(player=player, suits=1, seed=seed)
        table = races.table_open(player=player, suits=1, seed=seed)
        races.seat_sit(player=rival, code=table.code)
        races.seat_ready(player=rival, code=table.code, ready=True)
        races.race_start(player=player, code=table.code)
        races.races_tick()  # the countdown is over: racing
        from races.models import Racer

        racer = Racer.objects.filter(race__table=table, player=player).get()
        return racer.game

    for g in range(games):
        for kind in kinds:  # the same deal and the same actions for each kind, alternating
            figure = figures[kind]
            rnd = random.Random(5 + g)
            game = new_game(kind, 1000 + g)
            board = load(game.snapshot)
            for i in range(max_actions):
                actions = board.legal_actions()
                if not actions or board.won or game.over:
                    break
                move = rnd.choice(actions)
                if board.can_undo and rnd.random() < undo_share:
                    action = services.ActionRequest(type="undo", src=None, dst=None, count=None)
                elif move == DEAL:
                    action = services.ActionRequest(type="deal", src=None, dst=None, count=None)
                else:
                    action = services.ActionRequest(
                        type="move", src=move[0], dst=move[1], count=move[2]
                    )
                if i % 10 == 5:  # a sample, counted outside the timed actions
                    with CaptureQueriesContext(connection) as captured:
                        result = services.game_act(
                            player=player, game_id=str(game.id), action=action
                        )
                    figure.statements.append(len(captured.captured_queries))
                else:
                    started = time.process_time()
                    result = services.game_act(player=player, game_id=str(game.id), action=action)
                    figure.stretches.setdefault(i // STRETCH, []).append(
                        time.process_time() - started
                    )
                board, game = result.board, result.game
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--actions", type=int, default=3 * STRETCH, help="per game, at most")
    parser.add_argument("--db", default="spider_bench_action")
    parser.add_argument("--kind", default="casual", help="casual, race, or casual,race")
    parser.add_argument("--redis", default="", help="publish race events on this Redis")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kind.split(",") if k.strip()]
    if not kinds or set(kinds) - {"casual", "race"}:
        parser.error("--kind: casual, race, or both")

    env = server_env(
        f"postgres://postgres@127.0.0.1:5432/{args.db}",
        RACE_EVENTS_REDIS_URL=args.redis,
        RACE_EVENTS_CHANNEL=f"spider.race-events.bench-action.{os.getpid()}",
    )
    prepare_database(args.db, env, deals=0)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "spider_api.settings"
    # A race refuses undo: with a race in the run, neither kind undoes (the same actions).
    figures = play(args.games, kinds, 0.0 if "race" in kinds else UNDO_SHARE, args.actions)
    by_kind: dict[str, dict[str, Any]] = {}
    for kind, figure in figures.items():
        times = [t for v in figure.stretches.values() for t in v]
        by_kind[kind] = {
            "cpu_us_median": round(statistics.median(times) * 1e6),
            "cpu_us_mean": round(statistics.mean(times) * 1e6),
            "statements_per_action": round(statistics.mean(figure.statements), 2),
            "actions": len(times) + len(figure.statements),
        }
        print(f"{kind}: {by_kind[kind]}")
    stretches = figures[kinds[0]].stretches
    means = {}
    for k, times in sorted(stretches.items()):
        name = f"{k * STRETCH}-{k * STRETCH + STRETCH - 1}"
        means[name] = round(statistics.mean(times) * 1e6)
        print(f"actions {name}: {means[name]} us of CPU per action ({len(times)} actions)")
    first, last = stretches[min(stretches)], stretches[max(stretches)]
    figures_out: dict[str, Any] = {
        "cpu_us_per_action": means,
        "actions": sum(len(v) for v in stretches.values()),
        "growth_last_vs_first": round(statistics.mean(last) / statistics.mean(first), 2),
    }
    if len(kinds) > 1:
        figures_out["kinds"] = by_kind
        if {"casual", "race"} <= set(kinds):
            figures_out["race_casual_cpu_ratio"] = round(
                by_kind["race"]["cpu_us_median"] / by_kind["casual"]["cpu_us_median"], 2
            )
    print(json.dumps(figures_out))


if __name__ == "__main__":
    main()
