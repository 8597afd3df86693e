"""Hint benchmark (no Django): speed per hint, and how often following the top hint wins.

    python bench/hint.py                          # 50 vetted deals per suit mode and set
    python bench/hint.py --games 10 --suits 1     # a quick subset
    python bench/hint.py --suits 2 --games 5 --profile
    python bench/hint.py --sets 1                 # only the first set (the one tuned on)
    python bench/hint.py --level deep             # the deeper, slower hint level
    python bench/hint.py --jobs 2                 # games in 2 processes (win rates only)
    python bench/hint.py --serve-level default    # the API serving the look-ahead alone

For each suit mode:

1. Vetted deals, per set: seeds s, s+1, ... from each ``--sets`` start s (default 1, the set
   the hint constants were tuned on, and 5001, a second set never tuned on) are given to the
   full-information solver (``games.solver.solve`` with ``--vet-nodes`` / ``--vet-seconds``);
   the first ``--games`` seeds it wins are the deals (printed, and listed in the final JSON).
2. The hint-follower plays each deal as an API client that always plays hint ``n=0``
   does, through the API's own service calls (``games.services.game_create`` with the
   seed, then ``game_hint(n=0)`` and ``game_act`` with the hint's action, in this process
   on a scratch in-memory SQLite database): no undo, and no check of its own for repeated
   positions (the server's hints never lead back to a position the game has been in). A
   game ends won, stuck (no hint), or at ``--max-actions`` (by default 600 / 800 / 1000
   actions at 1 / 2 / 4 suits: a game that reaches it has looped or wandered). The API
   serves the hint level ``--serve-level`` (the ``HINT_LEVEL`` setting: ``default``, the
   API's default, the look-ahead alone, or ``rollout``), so both run side by side.
3. Random play: ``--random`` positions per mode reached by random legal actions, and
   ``--stock-out`` positions per mode reached by random play with the stock then dealt
   out (where a stuck hint runs its fallbacks, the dearest hints), timed too
   (``games.solver.hint.board_hints``, what ``game_hint`` searches with).

Times are milliseconds per hint on one core: ``p50_ms`` / ``p99_ms`` wall time of the
follower's ``game_hint`` calls (the service with its database work: a millisecond or two
more than the search) and of step 3's searches; ``worst_cpu_ms`` the most CPU
(``time.process_time``) any one hint took, over steps 2 and 3 (the bound docs/api.md's "Hints"
documents). With ``--jobs`` above 1 the games' times are contended: time with one job. The
LAST line is one JSON object: ``{"p50_ms", "p99_ms", "worst_cpu_ms", "win_rate_1",
"win_rate_2", "win_rate_4", "win_rate_4_set5001", ..., "modes": {...}, "sets": {...}}``
(the first set's rates unsuffixed, every other set's suffixed with its first seed);
``modes`` per suit mode over every set: ``games``, ``won``, ``win_rate``, ``looped`` (games
that reached the action cap), and the CPU per hint (``time.process_time``, the followed
games' service calls and step 3's searches together) ``p50_cpu_ms``, ``p99_cpu_ms``,
``worst_cpu_ms``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import DEAL, Board, deal_layout, load  # noqa: E402
from games.engine.records import DealRecord  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.hint import board_hints  # noqa: E402

VET_NODES = 300_000
VET_SECONDS = 60.0
# The action cap per suit mode: a game that reaches it has looped or wandered.
MAX_ACTIONS = {1: 600, 2: 800, 4: 1000}


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


OPTIONS: dict[str, object] = {}  # board_hints(..., **OPTIONS): --level (step 3 only)


class _Cpu:
    """The most CPU one hint took (``time.process_time``), and where."""

    worst_ms = 0.0
    where = ""

    @classmethod
    def note(cls, ms: float, where: str) -> None:
        if ms > cls.worst_ms:
            cls.worst_ms, cls.where = ms, where


def timed_hints(
    board: Board, times: list[float], where: str = "", cpu: list[float] | None = None
) -> list:
    t0, c0 = time.perf_counter(), time.process_time()
    found = board_hints(board, **OPTIONS)  # type: ignore[arg-type]
    times.append((time.perf_counter() - t0) * 1000)
    ms = (time.process_time() - c0) * 1000
    _Cpu.note(ms, where)
    if cpu is not None:
        cpu.append(ms)
    return found


class ServicePath:
    """The API's service calls in this process, on a scratch in-memory SQLite database (one
    per process): what a client's requests run, without HTTP."""

    _instance: ServicePath | None = None

    def __init__(self) -> None:
        os.environ["DJANGO_SETTINGS_MODULE"] = "spider_api.settings"
        os.environ["DATABASE_URL"] = "sqlite://:memory:"
        os.environ.setdefault("DEBUG", "1")  # no SECRET_KEY needed: nothing is served
        os.environ.pop("CACHE_URL", None)  # the hint cache in process memory
        os.environ.pop("CELERY_BROKER_URL", None)  # no broker: tasks run in this process
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from games import services

        call_command("migrate", verbosity=0)
        from base.heap import freeze_startup_objects

        freeze_startup_objects()  # as the web, stream and worker processes do at start
        self.services = services
        self.warm = False
        self.player = get_user_model().objects.create_user(
            username="bench_hint", password="bench hint password 1", is_staff=True
        )

    @classmethod
    def get(cls) -> ServicePath:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance


def _request(move: tuple) -> Any:
    """A legal action of the engine as the API receives it."""
    services = ServicePath.get().services
    if tuple(move) == DEAL:
        return services.ActionRequest(type="deal")
    src, dst, count = move[:3]
    return services.ActionRequest(type="move", src=src, dst=dst, count=count)


def follow(
    suits: int,
    seed: int,
    max_actions: int,
    times: list[float] | None = None,
    before_deal: Callable[[Board], None] | None = None,
    keep_line: bool = False,
    blunder: int = 0,
) -> dict:
    """Play deal (suits, seed) as a client that always plays hint n=0 (``ServicePath``).
    ``before_deal(board)`` is called with the board about to take each deal it plays;
    ``keep_line``: the result's ``line`` is the moves played, in order (bench/analysis.py);
    ``blunder`` k > 0: every k-th action is a legal action drawn at random instead (seeded
    by the seed), a weaker player that loses more games (bench/analysis.py)."""
    times = [] if times is None else times
    cpu: list[float] = []  # per hint, the process's first (one-time costs) left out
    api = ServicePath.get()
    services = api.services
    game = services.game_create(player=api.player, suits=suits, seed=seed)
    game_id = str(game.id)
    board = load(game.snapshot)
    rng = random.Random(seed)
    result = "cap"
    while board.actions < max_actions:
        if board.won:
            result = "won"
            break
        if blunder and (board.actions + 1) % blunder == 0 and board.legal_actions():
            board = services.game_act(
                player=api.player,
                game_id=game_id,
                action=_request(rng.choice(board.legal_actions())),
            ).board
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        hint = services.game_hint(player=api.player, game_id=game_id, n=0)
        times.append((time.perf_counter() - t0) * 1000)
        if api.warm:  # the process's first request pays one-time costs (imports, SQL)
            cpu.append((time.process_time() - c0) * 1000)
            _Cpu.note(cpu[-1], f"follow {suits} suit seed {seed}")
        api.warm = True
        if hint.hint is None:
            result = "stuck"
            break
        action = hint.hint.action
        if before_deal is not None and action["type"] == "deal":
            before_deal(board)
        played = services.game_act(
            player=api.player,
            game_id=game_id,
            action=services.ActionRequest(
                type=action["type"],
                src=action.get("from"),
                dst=action.get("to"),
                count=action.get("count"),
            ),
            expected_version=hint.game.version,
        )
        board = played.board
    out = {
        "seed": seed,
        "game_id": game_id,
        "result": result,
        "actions": board.actions,
        "runs": board.runs_removed,
        "hidden_left": sum(board.down),
        "deals_left": board.deals_left,
        "times": times,
        "cpu": cpu,
        "worst_cpu_ms": round(_Cpu.worst_ms, 1),
    }
    if keep_line:  # the follower never undoes: its board's undo records are its line
        out["line"] = [DEAL if isinstance(r, DealRecord) else r[:3] for r in board.history()]
    return out


def _wins(job: tuple[int, int, int, float]) -> bool:
    suits, seed, nodes, seconds = job
    layout = deal_layout(suits, seed)
    return solve(layout, max_nodes=nodes, max_seconds=seconds, shorten_ratio=0).won


def vetted_seeds(
    suits: int, count: int, nodes: int, seconds: float, first: int = 1, pool: Any = None
) -> tuple[list[int], int]:
    """The first ``count`` seeds from ``first`` up that the solver wins, and the last seed
    it tried (the line is not needed: no shortening)."""
    seeds: list[int] = []
    seed = first - 1
    batch = getattr(pool, "_processes", 1) if pool else 1
    while len(seeds) < count:
        todo = list(range(seed + 1, seed + 1 + batch))
        jobs = [(suits, s, nodes, seconds) for s in todo]
        won = pool.map(_wins, jobs) if pool else [_wins(j) for j in jobs]
        for s, w in zip(todo, won, strict=True):
            seed = s
            if w:
                seeds.append(s)
                if len(seeds) == count:
                    break
    return seeds, seed


def _follow_job(job: tuple[int, int, int]) -> dict:
    suits, seed, max_actions = job
    return follow(suits, seed, max_actions)


def random_positions(
    suits: int, count: int, times: list[float], cpu: list[float] | None = None
) -> None:
    """Time hints on ``count`` positions reached by random legal play (deterministic)."""
    rng = random.Random(suits)
    done = 0
    game = 0
    while done < count:
        game += 1
        board = Board(deal_layout(suits, 10_000 + game))
        for _ in range(rng.randrange(20, 300)):
            actions = board.legal_actions()
            if not actions or board.won:
                break
            moves = [a for a in actions if a != DEAL]
            # mostly moves, a deal now and then, so positions from every stage come up
            if DEAL in actions and (not moves or rng.random() < 0.08):
                board.play(DEAL)
            else:
                board.play(rng.choice(moves))
            if rng.random() < 0.15 and done < count:
                timed_hints(board, times, f"random {suits} suits game {game}", cpu)
                done += 1


def stock_out_positions(
    suits: int, count: int, times: list[float], cpu: list[float] | None = None
) -> None:
    """Time hints on ``count`` positions of random play with the stock then dealt out (and,
    every other one, a few random moves more; deterministic): where the stuck fallbacks run."""
    rng = random.Random(100 + suits)
    for game in range(count):
        board = Board(deal_layout(suits, 20_000 + game))
        for _ in range(rng.randrange(0, 60)):
            actions = board.legal_actions()
            if not actions:
                break
            board.play(rng.choice(actions))
        while board.can_deal():
            board.play(DEAL)
        # half of them straight after the last deal: many moves, few gains in sight (the
        # deep look-ahead's and the last resort's longest runs)
        for _ in range(rng.randrange(0, 40) if game % 2 else 0):
            moves = board.legal_moves()
            if not moves or board.won:
                break
            board.play(rng.choice(moves))
        if not board.won:
            timed_hints(board, times, f"stock-out {suits} suits game {game}", cpu)


def play_set(
    args: Any, suits: int, first: int, pool: Any, times: list[float], cpu: list[float]
) -> dict:
    """Vet and follow one set's deals in one suit mode; the mode's figures."""
    t0 = time.perf_counter()
    if args.seeds:
        seeds = [int(s) for s in args.seeds.split(",")]
        tried = None
    else:
        seeds, tried = vetted_seeds(
            suits, args.games, args.vet_nodes, args.vet_seconds, first, pool
        )
    vet_s = time.perf_counter() - t0
    print(
        f"suits={suits} set={first}: seeds {seeds}"
        + (f" (solver won {len(seeds)} of seeds {first}..{tried}, {vet_s:.0f}s)" if tried else ""),
        flush=True,
    )
    cap = args.max_actions or MAX_ACTIONS[suits]
    jobs = [(suits, seed, cap) for seed in seeds]
    results = pool.imap(_follow_job, jobs) if pool else map(_follow_job, jobs)
    done = []
    mode_times: list[float] = []
    worst = 0.0
    for r in results:
        mode_times.extend(r.pop("times"))
        game_cpu = r.pop("cpu")
        cpu.extend(game_cpu)
        # each hint's CPU on the game's line, so a run stopped early still has its figures
        r["cpu_ms"] = [round(ms, 1) for ms in game_cpu]
        worst = max(worst, r.pop("worst_cpu_ms"))
        done.append(r)
        if not args.quiet:
            print(f"  {suits} suit seed {r['seed']}: {json.dumps(r)}", flush=True)
    times.extend(mode_times)
    won = sum(r["result"] == "won" for r in done)
    return {
        "win_rate": round(won / len(done), 3) if done else 0.0,
        "won": won,
        "games": len(done),
        "stuck": sum(r["result"] == "stuck" for r in done),
        "capped": sum(r["result"] == "cap" for r in done),
        "mean_runs": round(sum(r["runs"] for r in done) / max(1, len(done)), 2),
        "follow_hints": len(mode_times),
        "p50_ms": round(quantile(mode_times, 0.5), 1),
        "p99_ms": round(quantile(mode_times, 0.99), 1),
        "worst_cpu_ms": worst,
        "seconds": round(time.perf_counter() - t0, 1),
        "seeds": seeds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", default="1,2,4", help="suit modes, e.g. 1 or 2,4")
    parser.add_argument("--games", type=int, default=50, help="vetted deals per suit mode and set")
    parser.add_argument("--sets", default="1,5001", help="each set's first seed (1: tuned on)")
    parser.add_argument("--random", type=int, default=300, help="random-play positions per mode")
    parser.add_argument(
        "--stock-out", type=int, default=100, help="random positions per mode, stock dealt out"
    )
    parser.add_argument(
        "--max-actions", type=int, default=0, help="the action cap (0: 600 / 800 / 1000 by mode)"
    )
    parser.add_argument(
        "--serve-level",
        choices=("rollout", "default"),
        help="the hint level the API serves (HINT_LEVEL; unset: the setting's default)",
    )
    parser.add_argument("--vet-nodes", type=int, default=VET_NODES)
    parser.add_argument("--vet-seconds", type=float, default=VET_SECONDS)
    parser.add_argument("--seeds", help="play these seeds (comma-separated) instead of vetting")
    parser.add_argument(
        "--level", help="step 3 at hints(..., level=LEVEL) (unset: the level the API serves)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (times are then contended)")
    parser.add_argument("--profile", action="store_true", help="cProfile the random-play hints")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()

    modes = [int(s) for s in args.suits.split(",")]
    sets = [int(s) for s in args.sets.split(",")]
    if args.level is not None:
        OPTIONS["level"] = args.level
    if args.serve_level is not None:  # read by the settings, in every process of the pool
        os.environ["HINT_LEVEL"] = args.serve_level
    # step 3 times what the API serves, unless --level asks for another
    OPTIONS.setdefault("level", os.environ.get("HINT_LEVEL", "default"))
    pool = Pool(args.jobs) if args.jobs > 1 else None
    times: list[float] = []
    random_times: list[float] = []
    by_set: dict[str, dict[str, dict]] = {}
    win_rates: dict[str, float | None] = {}
    games = 0
    cpu: dict[int, list[float]] = {suits: [] for suits in modes}
    profiler = cProfile.Profile() if args.profile else None
    t_start = time.perf_counter()
    for first in sets:
        for suits in modes:
            mode = play_set(args, suits, first, pool, times, cpu[suits])
            by_set.setdefault(str(first), {})[str(suits)] = mode
            games += mode["games"]
            key = f"win_rate_{suits}" + ("" if first == sets[0] else f"_set{first}")
            win_rates[key] = mode["win_rate"]
            figures = {k: v for k, v in mode.items() if k != "seeds"}
            print(f"suits={suits} set={first}: {json.dumps(figures)}", flush=True)
    for suits in modes:
        if profiler:
            profiler.enable()
        random_positions(suits, args.random, random_times, cpu[suits])
        stock_out_positions(suits, args.stock_out, random_times, cpu[suits])
        if profiler:
            profiler.disable()
    if pool:
        pool.close()
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
    times.extend(random_times)
    worst = max([_Cpu.worst_ms, *(m["worst_cpu_ms"] for s in by_set.values() for m in s.values())])
    per_mode = {}
    for suits in modes:
        played = [s[str(suits)] for s in by_set.values() if str(suits) in s]
        n = sum(m["games"] for m in played)
        won = sum(m["won"] for m in played)
        per_mode[str(suits)] = {
            "games": n,
            "won": won,
            "win_rate": round(won / n, 3) if n else 0.0,
            "looped": sum(m["capped"] for m in played),
            "p50_cpu_ms": round(quantile(cpu[suits], 0.5), 1),
            "p99_cpu_ms": round(quantile(cpu[suits], 0.99), 1),
            "worst_cpu_ms": round(max(cpu[suits], default=0.0), 1),
            "hints_timed": len(cpu[suits]),
        }
    final = {
        "p50_ms": round(quantile(times, 0.5), 1),
        "p99_ms": round(quantile(times, 0.99), 1),
        "worst_cpu_ms": round(worst, 1),
        "worst_hint": _Cpu.where if worst == _Cpu.worst_ms else "a followed game (see the sets)",
        "random_p50_ms": round(quantile(random_times, 0.5), 1),
        "random_p99_ms": round(quantile(random_times, 0.99), 1),
        **win_rates,
        "games": games,
        "hints_timed": len(times),
        "jobs": args.jobs,
        "seconds": round(time.perf_counter() - t_start, 1),
        "modes": per_mode,
        "sets": by_set,
        "options": OPTIONS,
    }
    print(json.dumps(final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
