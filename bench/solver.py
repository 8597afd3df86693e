"""Solver benchmark (no Django): solve seeds of each suit mode with a fixed per-deal budget.

    python bench/solver.py                       # seeds 1..100 of 1, 2 and 4 suits
    python bench/solver.py --suits 4 --seeds 1-20 --max-nodes 2000000   # one budget for all
    python bench/solver.py --max-nodes 1:2000000,2:4000000,4:8000000     # per suit mode
    python bench/solver.py --suits 2 --seeds 1-5 --profile   # cProfile top entries too

One line per deal, then a summary per suit mode; the LAST line is one JSON object:
{"1": {"solved_share", "median_s", "p90_s", "max_s", "median_par", "median_found_par",
"near_best_share", "nodes_per_s", ...}, ...}
Times are wall seconds per deal on one core (run one benchmark at a time), shortening
included. ``median_par`` is the median length of the lines returned (the deal's par),
``median_found_par`` the same before shortening. ``near_best_share`` is the share of deals
whose line is within 10% of the shortest line the bench knows for that deal
(``solver_best.json`` beside this script; ``--update-best`` records shorter ones).
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
# No seconds cap but the solver's own, derived from the node budget: the figures are then
# the node budget's, whatever the machine's load (a 120 s cap lost 4-suit deals to load).
DEFAULT_MAX_SECONDS = None
BEST_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "solver_best.json")
NEAR_BEST = 1.10  # "within 10% of the best known line"


def load_best() -> dict[str, dict[str, int]]:
    """{suits: {seed: shortest known line}}, from BEST_FILE (empty if there is none)."""
    try:
        with open(BEST_FILE) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


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


def bench_mode(
    suits: int, seeds: list[int], max_nodes: int, max_seconds: float | None, best: dict[str, int]
) -> dict:
    """Solve every seed; ``best`` (seed -> shortest known line) is updated in place."""
    times: list[float] = []
    pars: list[int] = []
    found: list[int] = []
    near = 0
    shorten_nodes = 0
    nodes = 0
    solved = 0
    timed_out = 0
    unsolved: list[int] = []
    for seed in seeds:
        result = solve(deal_layout(suits, seed), max_nodes=max_nodes, max_seconds=max_seconds)
        times.append(result.seconds)
        nodes += result.nodes + result.shorten_nodes
        shorten_nodes += result.shorten_nodes
        timed_out += result.timed_out
        if result.won and result.par is not None:
            solved += 1
            assert result.par is not None  # a won solve has its line's length
            pars.append(result.par)
            found.append(result.found_par or result.par)
            known = best.get(str(seed))
            if known is None or result.par < known:
                best[str(seed)] = known = result.par
            near += result.par <= NEAR_BEST * known
        else:
            unsolved.append(seed)
        print(
            f"suits={suits} seed={seed} {result.status} par={result.par} "
            f"found={result.found_par} best={best.get(str(seed))} nodes={result.nodes} "
            f"shorten_nodes={result.shorten_nodes} s={result.seconds:.2f} widths={result.widths}",
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
        "median_found_par": statistics.median(found) if found else None,
        "near_best_share": round(near / len(seeds), 4) if seeds else 0.0,
        "shorten_nodes": shorten_nodes,
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
    parser.add_argument(
        "--max-seconds", type=float, default=DEFAULT_MAX_SECONDS, help="default: from the budget"
    )
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    parser.add_argument(
        "--update-best", action="store_true", help=f"record shorter lines in {BEST_FILE}"
    )
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    modes = [int(s) for s in args.suits.split(",")]
    budgets = parse_budgets(args.max_nodes, modes)
    profiler = cProfile.Profile() if args.profile else None
    summary: dict[str, dict] = {}
    best = load_best()
    started = time.perf_counter()
    for suits in modes:
        if profiler:
            profiler.enable()
        known = best.setdefault(str(suits), {})
        summary[str(suits)] = bench_mode(suits, seeds, budgets[suits], args.max_seconds, known)
        if profiler:
            profiler.disable()
        print(f"# suits={suits}: {summary[str(suits)]}", flush=True)
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())
    if args.update_best:
        with open(BEST_FILE, "w") as f:
            json.dump(
                {m: dict(sorted(v.items(), key=lambda kv: int(kv[0]))) for m, v in best.items()},
                f,
                indent=1,
            )
            f.write("\n")
    print(
        f"# seeds {args.seeds}, max_nodes={budgets}, max_seconds={args.max_seconds}, "
        f"wall {time.perf_counter() - started:.0f}s"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
