"""Solver benchmarks (no Django): the native core's speed, and vetting with the pool's budgets.

Speed (the default): positions per CPU second of the solver's search, the native core
against the last pure-Python commit (``--reference``, checked out by the bench itself in a
temporary git worktree and imported in a subprocess of its own), on the same deals at 1, 2
and 4 suits:

    python bench/solver.py                               # seeds 1-5, 300 000 positions a deal
    python bench/solver.py --seeds 1-10 --nodes 1000000  # more deals, bigger searches
    python bench/solver.py --width 200                   # wide passes only (improve's kind)

Each deal is solved by both with the same node budget and no shortening (``shorten_ratio=0``:
the shortening is mostly not in the core), with the solver's own widths (an easy deal is won
by the first, narrowest pass in a few milliseconds, so the engine's replay of the line
weighs on its rate) or ``--width``'s only; a deal's rate is the positions its search generated over
the CPU seconds (``time.process_time``) of the solve, a deal's speedup the core's rate over
the reference's. The LAST line is one JSON object: ``speedup`` (the median of the deals'
speedups), ``min_mode_speedup``, and per mode (``modes``) the median rates
``core_nodes_per_cpu_s`` and ``reference_nodes_per_cpu_s`` and the median ``speedup``.

Vetting (``--vet``): solve seeds of each suit mode with a fixed per-deal budget.

    python bench/solver.py --vet                         # seeds 1..100 of 1, 2 and 4 suits
    python bench/solver.py --vet --suits 4 --seeds 1-20 --max-nodes 2000000   # one budget
    python bench/solver.py --vet --max-nodes 1:2000000,2:4000000,4:8000000    # per suit mode
    python bench/solver.py --vet --suits 2 --seeds 1-5 --profile   # cProfile top entries too
    python bench/solver.py --vet --suits 2 --seeds 1-30 --improve 2000000  # the daily's par

The daily's par (``--par``): the same 2-suit deals through the daily challenge's par
search in this tree and in the reference commit (the last pure-Python one, in a worktree as
for the speed): each deal solved with the pool's budget, then its line searched again with
``games.solver.improve`` (the reference with its own daily budget, ``--reference-par-nodes``,
settings.DAILY_PAR_MAX_NODES there; this tree with ``--par-nodes`` and ``--par-widths``,
by default the service's). The LAST line is one JSON object: ``par_ratio`` (this tree's
median par over the reference's), ``median_par``, ``reference_median_par``, the CPU seconds
of the par search a deal (``median_cpu_s``, ``max_cpu_s``; ``reference_median_cpu_s``) and
the budgets:

    python bench/solver.py --par                                   # seeds 1-10
    python bench/solver.py --par --seeds 1-4 --par-nodes 12000000 --par-widths 64,200,600

One line per deal, then a summary per suit mode; the LAST line is one JSON object:
{"1": {"solved_share", "median_s", "median_cpu_s", "p90_s", "max_s", "median_par",
"median_found_par", "near_best_share", "nodes_per_s", ...}, ...}
Times are seconds per deal on one core (run one benchmark at a time), shortening
included: ``median_s`` wall, ``median_cpu_s`` CPU. ``median_par`` is the median length of
the lines returned (the deal's par),
``median_found_par`` the same before shortening. ``near_best_share`` is the share of deals
whose line is within 10% of the shortest line the bench knows for that deal
(``solver_best.json`` beside this script; ``--update-best`` records shorter ones).
With ``--improve N`` each won line is then searched again with ``games.solver.improve`` and
N positions (what the daily challenge's par gets, settings.DAILY_PAR_MAX_NODES): the mode's
figures add ``median_improved_par``, ``improve_median_s`` and ``improve_max_s``, and
``near_best_share`` is that of the improved lines.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A speed worker imports the solver of the tree it is given, not this one.
if "--worker" not in sys.argv:
    sys.path.insert(0, ROOT)

# The last commit whose solver is pure Python: the speed bench's reference.
REFERENCE = "afbc0a4"
SPEED_SEEDS = "1-5"
SPEED_NODES = 300_000

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


# -- speed -----------------------------------------------------------------------------------
def worker(tree: str, modes: list[int], seeds: list[int], nodes: int, width: int | None) -> None:
    """Solve each deal with the solver of ``tree``; one JSON line per deal."""
    sys.path.insert(0, tree)
    import games
    from games.engine import deal_layout
    from games.solver import solve

    here = os.path.realpath(os.path.dirname(os.path.dirname(games.__file__ or "")))
    if here != os.path.realpath(tree):
        raise SystemExit(f"imported the solver of {here}, not of {tree}")
    for suits in modes:
        for seed in seeds:
            layout = deal_layout(suits, seed)
            t0 = time.process_time()
            if width:
                result = solve(layout, max_nodes=nodes, shorten_ratio=0, widths=(width,))
            else:
                result = solve(layout, max_nodes=nodes, shorten_ratio=0)
            cpu = time.process_time() - t0
            row = {"suits": suits, "seed": seed, "nodes": result.nodes, "cpu_s": cpu}
            print(json.dumps({**row, "status": result.status}), flush=True)


def run_worker(
    tree: str, modes: list[int], seeds: list[int], nodes: int, width: int | None
) -> list[dict]:
    args = ["--suits", ",".join(map(str, modes)), "--seeds", ",".join(map(str, seeds))]
    if width:
        args += ["--width", str(width)]
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--worker", tree, *args, "--nodes", str(nodes)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def speed(
    modes: list[int], seeds: list[int], nodes: int, reference: str, width: int | None
) -> dict:
    """Run the same deals through this tree's solver and the reference commit's."""
    with tempfile.TemporaryDirectory(prefix="solver-reference-") as scratch:
        ref_tree = os.path.join(scratch, "tree")
        subprocess.run(
            ["git", "-C", ROOT, "worktree", "add", "--detach", "--quiet", ref_tree, reference],
            check=True,
        )
        try:
            reference_rows = run_worker(ref_tree, modes, seeds, nodes, width)
        finally:
            subprocess.run(
                ["git", "-C", ROOT, "worktree", "remove", "--force", ref_tree], check=True
            )
    core_rows = run_worker(ROOT, modes, seeds, nodes, width)
    by_mode: dict[str, dict] = {}
    ratios: list[float] = []
    for suits in modes:
        core = [r for r in core_rows if r["suits"] == suits]
        ref = [r for r in reference_rows if r["suits"] == suits]
        core_rates = [r["nodes"] / max(r["cpu_s"], 1e-6) for r in core]
        ref_rates = [r["nodes"] / max(r["cpu_s"], 1e-6) for r in ref]
        mode_ratios = [c / f for c, f in zip(core_rates, ref_rates, strict=True)]
        ratios.extend(mode_ratios)
        for c, f in zip(core, ref, strict=True):
            print(
                f"suits={suits} seed={c['seed']} core: {c['status']} {c['nodes']} positions "
                f"{c['cpu_s']:.3f} s  reference: {f['status']} {f['nodes']} positions "
                f"{f['cpu_s']:.3f} s",
                flush=True,
            )
        by_mode[str(suits)] = {
            "core_nodes_per_cpu_s": round(statistics.median(core_rates)),
            "reference_nodes_per_cpu_s": round(statistics.median(ref_rates)),
            "speedup": round(statistics.median(mode_ratios), 1),
            "core_cpu_s": round(sum(r["cpu_s"] for r in core), 3),
            "reference_cpu_s": round(sum(r["cpu_s"] for r in ref), 3),
        }
    return {
        "speedup": round(statistics.median(ratios), 1),
        "min_mode_speedup": min(m["speedup"] for m in by_mode.values()),
        "modes": by_mode,
        "reference": reference,
        "seeds": len(seeds),
        "nodes": nodes,
        "width": width,
        "load": os.getloadavg()[0],
    }


# -- the daily's par ----------------------------------------------------------------------
# The daily challenge's mode and its deal's vetting budget (settings.POOL_SOLVER_MAX_NODES[2]).
PAR_SUITS = 2
PAR_SEEDS = "1-10"
PAR_VET_NODES = 4_000_000
# settings.DAILY_PAR_MAX_NODES, here and at the reference commit.
PAR_NODES = 2_000_000


def par_worker(tree: str, seeds: list[int], nodes: int, widths: tuple[int, ...] | None) -> None:
    """The daily's par search with the solver of ``tree``; one JSON line per deal."""
    sys.path.insert(0, tree)
    import games
    from games.engine import deal_layout
    from games.solver import improve, solve

    here = os.path.realpath(os.path.dirname(os.path.dirname(games.__file__ or "")))
    if here != os.path.realpath(tree):
        raise SystemExit(f"imported the solver of {here}, not of {tree}")
    for seed in seeds:
        layout = deal_layout(PAR_SUITS, seed)
        vetted = solve(layout, max_nodes=PAR_VET_NODES)
        row: dict = {"seed": seed, "vetted": vetted.par}
        if vetted.won:
            t0 = time.process_time()
            if widths:
                better = improve(layout, vetted.line, max_nodes=nodes, widths=widths)
            else:
                better = improve(layout, vetted.line, max_nodes=nodes)
            row.update(par=better.par, cpu_s=time.process_time() - t0, nodes=better.nodes)
        print(json.dumps(row), flush=True)


def run_par_worker(
    tree: str, seeds: list[int], nodes: int, widths: tuple[int, ...] | None
) -> list[dict]:
    args = ["--par-worker", tree, "--seeds", ",".join(map(str, seeds)), "--par-nodes", str(nodes)]
    if widths:
        args += ["--par-widths", ",".join(map(str, widths))]
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), *args],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def par(
    seeds: list[int],
    nodes: int,
    widths: tuple[int, ...] | None,
    reference: str,
    reference_nodes: int,
) -> dict:
    """The daily's par of the same deals, this tree's against the reference commit's."""
    with tempfile.TemporaryDirectory(prefix="solver-reference-") as scratch:
        ref_tree = os.path.join(scratch, "tree")
        subprocess.run(
            ["git", "-C", ROOT, "worktree", "add", "--detach", "--quiet", ref_tree, reference],
            check=True,
        )
        try:
            ref_rows = run_par_worker(ref_tree, seeds, reference_nodes, None)
        finally:
            subprocess.run(
                ["git", "-C", ROOT, "worktree", "remove", "--force", ref_tree], check=True
            )
    rows = run_par_worker(ROOT, seeds, nodes, widths)
    # Deals both vetted (a deal the pool would not deal has no par).
    both = [(r, f) for r, f in zip(rows, ref_rows, strict=True) if "par" in r and "par" in f]
    for r, f in both:
        print(
            f"seed={r['seed']} par {r['par']} ({r['cpu_s']:.2f} s, {r['nodes']} positions)  "
            f"reference {f['par']} ({f['cpu_s']:.2f} s, {f['nodes']} positions)",
            flush=True,
        )
    pars = [r["par"] for r, _ in both]
    ref_pars = [f["par"] for _, f in both]
    cpu = [r["cpu_s"] for r, _ in both]
    median = statistics.median(pars) if pars else None
    ref_median = statistics.median(ref_pars) if ref_pars else None
    return {
        "par_ratio": round(median / ref_median, 3) if median and ref_median else None,
        "median_par": median,
        "reference_median_par": ref_median,
        "median_cpu_s": round(statistics.median(cpu), 3) if cpu else None,
        "max_cpu_s": round(max(cpu), 3) if cpu else None,
        "reference_median_cpu_s": round(statistics.median(f["cpu_s"] for _, f in both), 3)
        if both
        else None,
        "deals": len(both),
        "suits": PAR_SUITS,
        "nodes": nodes,
        "widths": list(widths) if widths else None,
        "reference": reference,
        "reference_nodes": reference_nodes,
        "load": os.getloadavg()[0],
    }


# -- vetting ---------------------------------------------------------------------------------
def bench_mode(
    suits: int,
    seeds: list[int],
    max_nodes: int,
    max_seconds: float | None,
    best: dict[str, int],
    improve_nodes: int = 0,
) -> dict:
    """Solve every seed (and improve each line found with ``improve_nodes`` positions, if
    any); ``best`` (seed -> shortest known line) is updated in place."""
    times: list[float] = []
    pars: list[int] = []
    found: list[int] = []
    near = 0
    shorten_nodes = 0
    nodes = 0
    solved = 0
    timed_out = 0
    unsolved: list[int] = []
    improved: list[int] = []
    improve_times: list[float] = []
    from games.engine import deal_layout
    from games.solver import improve, solve

    cpu_times: list[float] = []
    for seed in seeds:
        cpu0 = time.process_time()
        result = solve(deal_layout(suits, seed), max_nodes=max_nodes, max_seconds=max_seconds)
        cpu_times.append(time.process_time() - cpu0)
        better = None
        if improve_nodes and result.won:
            better = improve(deal_layout(suits, seed), result.line, max_nodes=improve_nodes)
            improve_times.append(better.seconds)
            assert better.par is not None
            improved.append(better.par)
        times.append(result.seconds)
        nodes += result.nodes + result.shorten_nodes
        shorten_nodes += result.shorten_nodes
        timed_out += result.timed_out
        if result.won and result.par is not None:
            solved += 1
            assert result.par is not None  # a won solve has its line's length
            pars.append(result.par)
            found.append(result.found_par or result.par)
            par = better.par if better is not None and better.par is not None else result.par
            known = best.get(str(seed))
            if known is None or par < known:
                best[str(seed)] = known = par
            near += par <= NEAR_BEST * known
        else:
            unsolved.append(seed)
        print(
            f"suits={suits} seed={seed} {result.status} par={result.par} "
            f"found={result.found_par} best={best.get(str(seed))} nodes={result.nodes} "
            f"shorten_nodes={result.shorten_nodes} s={result.seconds:.2f} widths={result.widths}"
            + (f" improved={better.par} improve_s={better.seconds:.2f}" if better else ""),
            flush=True,
        )
    total = sum(times)
    extra: dict[str, object] = {}
    if improve_nodes:
        extra = {
            "median_improved_par": statistics.median(improved) if improved else None,
            "improve_median_s": round(statistics.median(improve_times), 3) if improved else 0.0,
            "improve_max_s": round(max(improve_times), 3) if improved else 0.0,
            "improve_nodes": improve_nodes,
        }
    return {
        "deals": len(seeds),
        "solved_share": round(solved / len(seeds), 4) if seeds else 0.0,
        "median_s": round(statistics.median(times), 3) if times else 0.0,
        "median_cpu_s": round(statistics.median(cpu_times), 3) if cpu_times else 0.0,
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
        **extra,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vet", action="store_true", help="the vetting bench (see above)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # speed: a tree's solver
    parser.add_argument("--suits", default="1,2,4", help="suit modes, e.g. 4 or 1,2")
    parser.add_argument("--seeds", help=f"e.g. 1-100 or 1-10,50 (speed {SPEED_SEEDS}, vet 1-100)")
    parser.add_argument("--nodes", type=int, default=SPEED_NODES, help="speed: positions a deal")
    parser.add_argument("--reference", default=REFERENCE, help="speed: the commit to compare with")
    parser.add_argument(
        "--width", type=int, help="speed: passes of this beam width only (default: solve's own)"
    )
    parser.add_argument(
        "--max-nodes", default=DEFAULT_MAX_NODES, help="e.g. 4000000 or 1:2000000,4:8000000"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=DEFAULT_MAX_SECONDS, help="default: from the budget"
    )
    parser.add_argument(
        "--improve", type=int, default=0, help="improve each line with this many positions"
    )
    parser.add_argument("--par", action="store_true", help="the daily's par (see above)")
    parser.add_argument("--par-worker", help=argparse.SUPPRESS)  # par: a tree's solver
    parser.add_argument(
        "--par-nodes", type=int, default=PAR_NODES, help="par: this tree's positions a deal"
    )
    parser.add_argument("--par-widths", help="par: this tree's beam widths, e.g. 64,200,600")
    parser.add_argument(
        "--reference-par-nodes", type=int, default=PAR_NODES, help="par: the reference's"
    )
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    parser.add_argument(
        "--update-best", action="store_true", help=f"record shorter lines in {BEST_FILE}"
    )
    args = parser.parse_args(argv)
    modes = [int(s) for s in args.suits.split(",")]
    if args.worker:
        worker(args.worker, modes, parse_seeds(args.seeds), args.nodes, args.width)
        return
    widths = tuple(int(w) for w in args.par_widths.split(",")) if args.par_widths else None
    if args.par_worker:
        par_worker(args.par_worker, parse_seeds(args.seeds), args.par_nodes, widths)
        return
    if args.par:
        started = time.perf_counter()
        seeds = parse_seeds(args.seeds or PAR_SEEDS)
        result = par(seeds, args.par_nodes, widths, args.reference, args.reference_par_nodes)
        wall = time.perf_counter() - started
        print(f"# {PAR_SUITS} suits, seeds {args.seeds or PAR_SEEDS}, wall {wall:.0f}s")
        print(json.dumps(result))
        return
    if not args.vet:
        seeds = parse_seeds(args.seeds or SPEED_SEEDS)
        started = time.perf_counter()
        result = speed(modes, seeds, args.nodes, args.reference, args.width)
        print(
            f"# seeds {args.seeds or SPEED_SEEDS}, {args.nodes} positions a deal, reference "
            f"{args.reference}, wall {time.perf_counter() - started:.0f}s"
        )
        print(json.dumps(result))
        return
    args.seeds = args.seeds or "1-100"
    seeds = parse_seeds(args.seeds)
    budgets = parse_budgets(args.max_nodes, modes)
    profiler = cProfile.Profile() if args.profile else None
    summary: dict[str, dict] = {}
    best = load_best()
    started = time.perf_counter()
    for suits in modes:
        if profiler:
            profiler.enable()
        known = best.setdefault(str(suits), {})
        summary[str(suits)] = bench_mode(
            suits, seeds, budgets[suits], args.max_seconds, known, args.improve
        )
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
