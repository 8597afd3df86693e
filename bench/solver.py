"""Solver benchmark (no Django): solve seeds of each suit mode with a fixed per-deal budget.

    python bench/solver.py                       # seeds 1..100 of 1, 2 and 4 suits
    python bench/solver.py --suits 4 --seeds 1-20 --max-nodes 2000000   # one budget for all
    python bench/solver.py --max-nodes 1:2000000,2:4000000,4:8000000     # per suit mode
    python bench/solver.py --suits 2 --seeds 1-5 --profile   # cProfile top entries too

One line per deal, then a summary per suit mode; the LAST line is one JSON object:
{"1": {"solved_share", "median_s", "p90_s", "max_s", "median_par", "nodes_per_s", ...}, ...}
Times are wall seconds per deal on one core (run one benchmark at a time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import deal_layout  # noqa: E402
from games.solver import solve  # noqa: E402

# Per suit mode, the pool's budgets (settings.POOL_SOLVER_MAX_NODES), so the figures say
# what vetting a deal costs.
DEFAULT_MAX_NODES = "1:2000000,2:4000000,4:8000000"
DEFAULT_MAX_SECONDS = 120.0


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def parse_budgets(text: str, modes: list[int]) -> dict[int, int]:
    """``4000000`` (every mode) or ``1:2000000,2:4000000,4:8000000``."""
    if ":" not in text:
        return dict.fromkeys(modes, int(text))
    budgets = {int(k): int(v) for k, _, v in (p.partition(":") for p in text.split(","))}
    return {m: budgets[m] for m in modes}


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_mode(suits: int, seeds: list[int], max_nodes: int, max_seconds: float) -> dict:
    times: list[float] = []
    pars: list[int] = []
    nodes = 0
    solved = 0
    timed_out = 0
    unsolved: list[int] = []
    for seed in seeds:
        result = solve(deal_layout(suits, seed), max_nodes=max_nodes, max_seconds=max_seconds)
        times.append(result.seconds)
        nodes += result.nodes
        timed_out += result.timed_out
        if result.status == "won":
            solved += 1
            pars.append(result.par)
        else:
            unsolved.append(seed)
        print(
            f"suits={suits} seed={seed} {result.status} par={result.par} nodes={result.nodes} "
            f"s={result.seconds:.2f} widths={result.widths}",
            flush=True,
        )
    total = sum(times)
    return {
        "deals": len(seeds),
        "solved_share": round(solved / len(seeds), 4) if seeds else 0.0,
        "median_s": round(statistics.median(times), 3) if times else 0.0,
        "p90_s": round(quantile(times, 0.9), 3),
        "max_s": round(max(times), 3) if times else 0.0,
        "median_par": statistics.median(pars) if pars else None,
        "nodes_per_s": round(nodes / total) if total else 0,
        "max_nodes": max_nodes,
        "total_s": round(total, 1),
        "timed_out": timed_out,
        "unsolved": unsolved,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suits", default="1,2,4", help="suit modes, e.g. 4 or 1,2")
    parser.add_argument("--seeds", default="1-100", help="e.g. 1-100 or 1-10,50")
    parser.add_argument(
        "--max-nodes", default=DEFAULT_MAX_NODES, help="e.g. 4000000 or 1:2000000,4:8000000"
    )
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    modes = [int(s) for s in args.suits.split(",")]
    budgets = parse_budgets(args.max_nodes, modes)
    profiler = cProfile.Profile() if args.profile else None
    summary: dict[str, dict] = {}
    started = time.perf_counter()
    for suits in modes:
        if profiler:
            profiler.enable()
        summary[str(suits)] = bench_mode(suits, seeds, budgets[suits], args.max_seconds)
        if profiler:
            profiler.disable()
        print(f"# suits={suits}: {summary[str(suits)]}", flush=True)
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())
    print(
        f"# seeds {args.seeds}, max_nodes={budgets}, max_seconds={args.max_seconds}, "
        f"wall {time.perf_counter() - started:.0f}s"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
