"""The action path's own CPU by game length: ``games.services.game_act`` in one process, no HTTP.

Plays G games of a seeded 1-suit deal for up to 300 actions each (random legal moves, some
undos; the same sequence every run), on a scratch PostgreSQL database, and reports the mean
process CPU (this process: engine, snapshot, ORM and driver; not PostgreSQL's) per action in
each 100-action stretch of a game. A long game should cost an action no more than a short one.

    .venv/bin/python bench/action.py --games 6

Last line: one JSON object, {"cpu_us_per_action": {"0-99": ..., "100-199": ..., "200-299": ...},
"actions": N, "growth_last_vs_first": ratio}.
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


def play(games: int) -> dict[int, list[float]]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import services
    from games.engine import DEAL, load

    player = get_user_model().objects.create_user(
        username="bench_action", password="bench password 1", is_staff=True
    )
    rnd = random.Random(5)
    stretches: dict[int, list[float]] = {}
    for g in range(games):
        game = services.game_create(player=player, suits=1, seed=1000 + g)
        board = load(game.snapshot)
        for i in range(3 * STRETCH):
            actions = board.legal_actions()
            if not actions or board.won:
                break
            move = rnd.choice(actions)
            if board.can_undo and rnd.random() < UNDO_SHARE:
                action = services.ActionRequest(type="undo", src=None, dst=None, count=None)
            elif move == DEAL:
                action = services.ActionRequest(type="deal", src=None, dst=None, count=None)
            else:
                action = services.ActionRequest(
                    type="move", src=move[0], dst=move[1], count=move[2]
                )
            started = time.process_time()
            result = services.game_act(player=player, game_id=str(game.id), action=action)
            stretches.setdefault(i // STRETCH, []).append(time.process_time() - started)
            board = result.board
    return stretches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--db", default="spider_bench_action")
    args = parser.parse_args()

    env = server_env(f"postgres://postgres@127.0.0.1:5432/{args.db}")
    prepare_database(args.db, env, deals=0)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "spider_api.settings"
    stretches = play(args.games)
    means = {}
    for k, times in sorted(stretches.items()):
        name = f"{k * STRETCH}-{k * STRETCH + STRETCH - 1}"
        means[name] = round(statistics.mean(times) * 1e6)
        print(f"actions {name}: {means[name]} us of CPU per action ({len(times)} actions)")
    first, last = stretches[min(stretches)], stretches[max(stretches)]
    figures = {
        "cpu_us_per_action": means,
        "actions": sum(len(v) for v in stretches.values()),
        "growth_last_vs_first": round(statistics.mean(last) / statistics.mean(first), 2),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
