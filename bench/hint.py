"""Hint benchmark (no Django): speed per hint, and how often following the top hint wins.

    python bench/hint.py                          # 50 vetted deals each of 1, 2 and 4 suits
    python bench/hint.py --games 10 --suits 1     # a quick subset
    python bench/hint.py --suits 2 --games 5 --profile
    python bench/hint.py --first-seed 5001        # a second set of deals (not tuned on)
    python bench/hint.py --samples 4              # hints with determinization (see hint.py)

For each suit mode:

1. Vetted deals: seeds 1, 2, 3, ... (from ``--first-seed``) are given to the full-information solver
   (``games.solver.solve`` with ``--vet-nodes`` / ``--vet-seconds``); the first ``--games``
   seeds it wins are the deals (printed, and listed in the final JSON).
2. The hint-follower plays each deal with no undo: at every step it sees only the public
   view (``VisiblePosition.from_view(public_view(board))``), takes the top hint and plays
   it on the true Board (``board.play``). If that would repeat a position of this game (a
   cycle, found with ``board.key()``), it takes the next hint instead. A game ends won,
   stuck (no hint left), or at ``--max-actions``.
3. Random play: ``--random`` positions per mode reached by random legal actions, timed too.

Times are wall milliseconds per hint on one core, from the public view dict to the ranked
list (``public_view`` + ``VisiblePosition.from_view`` + ``hints``), over every hint of
steps 2 and 3. The LAST line is one JSON object:
``{"p50_ms", "p99_ms", "win_rate_1", "win_rate_2", "win_rate_4", "games", ...}``.
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

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import DEAL, Board, deal_layout, public_view  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.hint import VisiblePosition, hints  # noqa: E402

VET_NODES = 300_000
VET_SECONDS = 60.0


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


SAMPLES: dict[str, int] = {}  # hints(..., samples=n) when set (--samples)


def timed_hints(board: Board, times: list[float]) -> list:
    t0 = time.perf_counter()
    visible = VisiblePosition.from_view(public_view(board))
    found = hints(visible, last_move=board.last_move, **SAMPLES)
    times.append((time.perf_counter() - t0) * 1000)
    return found


def vetted_seeds(
    suits: int, count: int, nodes: int, seconds: float, first: int = 1
) -> tuple[list[int], int]:
    """The first ``count`` seeds from ``first`` up that the solver wins, and the last seed
    it tried (the line is not needed: no shortening)."""
    seeds: list[int] = []
    seed = first - 1
    while len(seeds) < count:
        seed += 1
        layout = deal_layout(suits, seed)
        if solve(layout, max_nodes=nodes, max_seconds=seconds, shorten_ratio=0).won:
            seeds.append(seed)
    return seeds, seed


def follow(suits: int, seed: int, max_actions: int, times: list[float]) -> dict:
    """Play deal (suits, seed) by always taking the top hint (the next one on a cycle)."""
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
    return {
        "seed": seed,
        "result": result,
        "actions": board.actions,
        "runs": board.runs_removed,
        "hidden_left": sum(board.down),
        "deals_left": board.deals_left,
        "cycles_avoided": avoided,
    }


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", default="1,2,4", help="suit modes, e.g. 1 or 2,4")
    parser.add_argument("--games", type=int, default=50, help="vetted deals per suit mode")
    parser.add_argument("--random", type=int, default=300, help="random-play positions per mode")
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument("--vet-nodes", type=int, default=VET_NODES)
    parser.add_argument("--vet-seconds", type=float, default=VET_SECONDS)
    parser.add_argument("--seeds", help="play these seeds (comma-separated) instead of vetting")
    parser.add_argument("--first-seed", type=int, default=1, help="vet seeds from this one up")
    parser.add_argument("--samples", type=int, help="hints(..., samples=N); default: hint's")
    parser.add_argument("--profile", action="store_true", help="cProfile the hint calls")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()

    modes = [int(s) for s in args.suits.split(",")]
    if args.samples is not None:
        SAMPLES["samples"] = args.samples
    times: list[float] = []
    summary: dict[str, object] = {}
    win_rates: dict[str, float | None] = {f"win_rate_{s}": None for s in (1, 2, 4)}
    seeds_used: dict[str, list[int]] = {}
    games = 0
    profiler = cProfile.Profile() if args.profile else None
    t_start = time.perf_counter()
    for suits in modes:
        t0 = time.perf_counter()
        if args.seeds:
            seeds = [int(s) for s in args.seeds.split(",")]
            tried = None
        else:
            seeds, tried = vetted_seeds(
                suits, args.games, args.vet_nodes, args.vet_seconds, args.first_seed
            )
        vet_s = time.perf_counter() - t0
        print(
            f"suits={suits}: seeds {seeds}"
            + (
                f" (solver won {len(seeds)} of seeds {args.first_seed}..{tried}, {vet_s:.0f}s)"
                if tried
                else ""
            ),
            flush=True,
        )
        seeds_used[str(suits)] = seeds
        if profiler:
            profiler.enable()
        mode_times: list[float] = []
        results = []
        for seed in seeds:
            r = follow(suits, seed, args.max_actions, mode_times)
            results.append(r)
            if not args.quiet:
                print(f"  {suits} suit seed {seed}: {json.dumps(r)}", flush=True)
        follow_n = len(mode_times)
        random_positions(suits, args.random, mode_times)
        if profiler:
            profiler.disable()
        times.extend(mode_times)
        won = sum(r["result"] == "won" for r in results)
        games += len(results)
        rate = won / len(results) if results else 0.0
        win_rates[f"win_rate_{suits}"] = round(rate, 3)
        mode = {
            "won": won,
            "games": len(results),
            "stuck": sum(r["result"] == "stuck" for r in results),
            "capped": sum(r["result"] == "cap" for r in results),
            "mean_runs": round(sum(r["runs"] for r in results) / max(1, len(results)), 2),
            "hints_timed": len(mode_times),
            "follow_hints": follow_n,
            "p50_ms": round(quantile(mode_times, 0.5), 1),
            "p99_ms": round(quantile(mode_times, 0.99), 1),
            "max_ms": round(max(mode_times, default=0.0), 1),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        summary[str(suits)] = mode
        print(f"suits={suits}: win rate {rate:.0%} ({won}/{len(results)}) {json.dumps(mode)}")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
    final = {
        "p50_ms": round(quantile(times, 0.5), 1),
        "p99_ms": round(quantile(times, 0.99), 1),
        **win_rates,
        "games": games,
        "hints_timed": len(times),
        "seconds": round(time.perf_counter() - t_start, 1),
        "modes": summary,
        "seeds": seeds_used,
        "samples": SAMPLES.get("samples"),
    }
    print(json.dumps(final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
