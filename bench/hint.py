"""Hint benchmark (no Django): speed per hint, and how often following the top hint wins.

    python bench/hint.py                          # 50 vetted deals per suit mode and set
    python bench/hint.py --games 10 --suits 1     # a quick subset
    python bench/hint.py --suits 2 --games 5 --profile
    python bench/hint.py --sets 1                 # only the first set (the one tuned on)
    python bench/hint.py --level deep             # the deeper, slower hint level
    python bench/hint.py --jobs 2                 # games in 2 processes (win rates only)

For each suit mode:

1. Vetted deals, per set: seeds s, s+1, ... from each ``--sets`` start s (default 1, the set
   the hint constants were tuned on, and 5001, a second set never tuned on) are given to the
   full-information solver (``games.solver.solve`` with ``--vet-nodes`` / ``--vet-seconds``);
   the first ``--games`` seeds it wins are the deals (printed, and listed in the final JSON).
2. The hint-follower plays each deal with no undo: at every step it sees only the public
   view (``VisiblePosition.from_view(public_view(board))``), takes the top hint and plays
   it on the true Board (``board.play``). If that would repeat a position of this game (a
   cycle, found with ``board.key()``), it takes the next hint instead. A game ends won,
   stuck (no hint left), or at ``--max-actions``.
3. Random play: ``--random`` positions per mode reached by random legal actions, timed too.

Times are wall milliseconds per hint on one core, from the public view dict to the ranked
list (``public_view`` + ``VisiblePosition.from_view`` + ``hints``), over every hint of
steps 2 and 3 (with ``--jobs`` above 1 the games' times are contended: time with one job,
under the bench lock). The LAST line is one JSON object: ``{"p50_ms", "p99_ms",
"win_rate_1", "win_rate_2", "win_rate_4", "win_rate_4_set5001", ..., "sets": {...}}`` (the
first set's rates unsuffixed, every other set's suffixed with its first seed).
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

from games.engine import DEAL, Board, deal_layout, public_view  # noqa: E402
from games.engine.records import DealRecord  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.hint import VisiblePosition, hints  # noqa: E402

VET_NODES = 300_000
VET_SECONDS = 60.0


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


OPTIONS: dict[str, object] = {}  # hints(..., **OPTIONS): --level


def timed_hints(board: Board, times: list[float]) -> list:
    t0 = time.perf_counter()
    visible = VisiblePosition.from_view(public_view(board))
    found = hints(visible, last_move=board.last_move, **OPTIONS)  # type: ignore[arg-type]
    times.append((time.perf_counter() - t0) * 1000)
    return found


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


def follow(
    suits: int,
    seed: int,
    max_actions: int,
    times: list[float] | None = None,
    before_deal: Callable[[Board], None] | None = None,
    keep_line: bool = False,
) -> dict:
    """Play deal (suits, seed) by always taking the top hint (the next one on a cycle).
    ``before_deal(board)`` is called with the board about to take each deal it plays;
    ``keep_line``: the result's ``line`` is the moves played, in order (bench/analysis.py)."""
    times = [] if times is None else times
    board = Board(deal_layout(suits, seed))
    seen = {board.key()}
    avoided = 0
    result = "cap"
    while board.actions < max_actions:
        if board.won:
            result = "won"
            break
        found = timed_hints(board, times)
        for hint in found:
            if before_deal is not None and hint.move == DEAL:
                before_deal(board)  # a deal never repeats a position: it is played
            board.play(hint.move)
            key = board.key()
            if key not in seen:
                seen.add(key)
                break
            board.pop()  # a repeated position: back out exactly, try the next hint
            avoided += 1
        else:
            result = "stuck"
            break
    out = {
        "seed": seed,
        "result": result,
        "actions": board.actions,
        "runs": board.runs_removed,
        "hidden_left": sum(board.down),
        "deals_left": board.deals_left,
        "cycles_avoided": avoided,
        "times": times,
    }
    if keep_line:  # the follower never undoes: its board's undo records are its line
        out["line"] = [DEAL if isinstance(r, DealRecord) else r[:3] for r in board.history()]
    return out


def _follow_job(job: tuple[int, int, int, dict]) -> dict:
    suits, seed, max_actions, options = job
    OPTIONS.clear()
    OPTIONS.update(options)
    return follow(suits, seed, max_actions)


def random_positions(suits: int, count: int, times: list[float]) -> None:
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
                timed_hints(board, times)
                done += 1


def play_set(args: Any, suits: int, first: int, pool: Any, times: list[float]) -> dict:
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
    jobs = [(suits, seed, args.max_actions, dict(OPTIONS)) for seed in seeds]
    results = pool.imap(_follow_job, jobs) if pool else map(_follow_job, jobs)
    done = []
    mode_times: list[float] = []
    for r in results:
        mode_times.extend(r.pop("times"))
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
        "seconds": round(time.perf_counter() - t0, 1),
        "seeds": seeds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", default="1,2,4", help="suit modes, e.g. 1 or 2,4")
    parser.add_argument("--games", type=int, default=50, help="vetted deals per suit mode and set")
    parser.add_argument("--sets", default="1,5001", help="each set's first seed (1: tuned on)")
    parser.add_argument("--random", type=int, default=300, help="random-play positions per mode")
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument("--vet-nodes", type=int, default=VET_NODES)
    parser.add_argument("--vet-seconds", type=float, default=VET_SECONDS)
    parser.add_argument("--seeds", help="play these seeds (comma-separated) instead of vetting")
    parser.add_argument("--level", help="hints(..., level=LEVEL); default: the default level")
    parser.add_argument("--jobs", type=int, default=1, help="processes (times are then contended)")
    parser.add_argument("--profile", action="store_true", help="cProfile the random-play hints")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()

    modes = [int(s) for s in args.suits.split(",")]
    sets = [int(s) for s in args.sets.split(",")]
    if args.level is not None:
        OPTIONS["level"] = args.level
    pool = Pool(args.jobs) if args.jobs > 1 else None
    times: list[float] = []
    random_times: list[float] = []
    by_set: dict[str, dict[str, dict]] = {}
    win_rates: dict[str, float | None] = {}
    games = 0
    profiler = cProfile.Profile() if args.profile else None
    t_start = time.perf_counter()
    for first in sets:
        for suits in modes:
            mode = play_set(args, suits, first, pool, times)
            by_set.setdefault(str(first), {})[str(suits)] = mode
            games += mode["games"]
            key = f"win_rate_{suits}" + ("" if first == sets[0] else f"_set{first}")
            win_rates[key] = mode["win_rate"]
            figures = {k: v for k, v in mode.items() if k != "seeds"}
            print(f"suits={suits} set={first}: {json.dumps(figures)}", flush=True)
    for suits in modes:
        if profiler:
            profiler.enable()
        random_positions(suits, args.random, random_times)
        if profiler:
            profiler.disable()
    if pool:
        pool.close()
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
    times.extend(random_times)
    final = {
        "p50_ms": round(quantile(times, 0.5), 1),
        "p99_ms": round(quantile(times, 0.99), 1),
        "random_p50_ms": round(quantile(random_times, 0.5), 1),
        "random_p99_ms": round(quantile(random_times, 0.99), 1),
        **win_rates,
        "games": games,
        "hints_timed": len(times),
        "jobs": args.jobs,
        "seconds": round(time.perf_counter() - t_start, 1),
        "sets": by_set,
        "options": OPTIONS,
    }
    print(json.dumps(final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
