"""Post-game analysis benchmark (no Django): games lost by the hint follower, analysed.

    nice -n 5 python bench/analysis.py                       # the defaults below
    python bench/analysis.py --suits 4 --games 5 --sample 2  # a quick subset
    python bench/analysis.py --jobs 2                        # analyses in 2 processes

For each suit mode:

1. Deals: seeds 1, 2, ... that the full-information solver wins (``--vet-nodes``, no
   shortening), as vetting would; the line found is the deal's vetted line.
2. The hint follower of bench/hint.py (``follow``: the top hint every time, no undo) plays
   each; the first ``--games`` it loses (stuck, or at ``--max-actions``) are analysed with
   the service's default budget (``games.solver.analysis``: ``--probe-nodes`` per
   position, ``--total-nodes`` per analysis, ``--proof-nodes`` for the proof), given the
   vetted line and its length as the par, as the service gives them.
3. Agreement: the first ``--sample`` of those games per mode are analysed again with every
   budget x10; the turning point agrees when both find one at the same action (or neither).

Seconds are CPU seconds of the analysing process (``time.process_time``: one core), so they
do not count waiting for a core on a shared machine; positions are the solver's nodes.
"Winnable until its last action": the turning point is the line's last action (or there is
none: given up while still winnable). The LAST line is one JSON object: per mode ``games``,
``turning_points``, ``median_s``, ``p95_s``, ``median_nodes``, ``p95_nodes``,
``winnable_to_last_share``, ``exhaustive_share`` (turning points proved lost), ``sample``,
``agreement``, ``agreement_share``, ``median_s_10x``; and the settings used.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from bench.hint import follow, quantile
except ImportError:  # run as a script: bench/ itself is on sys.path
    from hint import follow, quantile  # type: ignore[import-not-found,no-redef]

from games.engine import DEAL, Action, deal_layout  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.analysis import Budget, analyse, final_line  # noqa: E402

# The service's defaults (spider_api/settings.py: ANALYSIS_*).
PROBE_NODES = 300_000
TOTAL_NODES = 4_000_000
PROOF_NODES = 100_000


def to_action(move: Any) -> Action:
    move = tuple(move)
    return Action("deal") if move == DEAL else Action.move(*move)


def lost_games(suits: int, count: int, vet_nodes: int, max_actions: int) -> list[dict]:
    """The first ``count`` vetted deals (from seed 1 up) the follower loses, with its line."""
    out: list[dict] = []
    seed = 0
    played = 0
    while len(out) < count:
        seed += 1
        vetted = solve(deal_layout(suits, seed), max_nodes=vet_nodes, shorten_ratio=0)
        if not vetted.won:
            continue
        played += 1
        game = follow(suits, seed, max_actions, keep_line=True)
        if game["result"] == "won":
            continue
        out.append(
            {
                "suits": suits,
                "seed": seed,
                "result": game["result"],
                "line": game["line"],
                "vetted": [a.to_json() for a in vetted.line],
            }
        )
    print(
        f"suits={suits}: {len(out)} lost of {played} vetted deals played (seeds 1..{seed})",
        flush=True,
    )
    return out


def run(job: tuple[dict, int]) -> dict:
    game, scale = job
    layout = deal_layout(game["suits"], game["seed"])
    line = final_line(layout, [to_action(m) for m in game["line"]])
    vetted = [Action.from_json(a) for a in game["vetted"]]
    budget = Budget(PROBE_NODES * scale, TOTAL_NODES * scale, PROOF_NODES * scale)
    t0 = time.process_time()
    analysis = analyse(line, budget=budget, start_line=vetted, par=len(vetted))
    cpu = time.process_time() - t0
    result = analysis.result
    turn = result["turning_point"]
    n = result["line_length"]
    return {
        "suits": game["suits"],
        "seed": game["seed"],
        "scale": scale,
        "actions": n,
        "turn": None if turn is None else turn["index"],
        "exhaustive": bool(turn and turn["after"]["exhaustive"]),
        "to_last": turn is None or turn["index"] == n - 1,
        "cpu_s": round(cpu, 2),
        "nodes": analysis.nodes,
        "probes": len(result["probes"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", default="1,2,4")
    parser.add_argument("--games", type=int, default=10, help="lost games per mode")
    parser.add_argument("--games-1", type=int, default=None, help="lost 1-suit games (rare)")
    parser.add_argument("--sample", type=int, default=3, help="of those, re-analysed at 10x")
    parser.add_argument("--vet-nodes", type=int, default=300_000)
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    modes = [int(s) for s in args.suits.split(",")]
    pool = Pool(args.jobs) if args.jobs > 1 else None
    games: list[dict] = []
    for suits in modes:
        count = args.games_1 if suits == 1 and args.games_1 is not None else args.games
        games.extend(lost_games(suits, count, args.vet_nodes, args.max_actions))
    jobs = [(g, 1) for g in games]
    sampled: dict[int, list[dict]] = {
        s: [g for g in games if g["suits"] == s][: args.sample] for s in modes
    }
    jobs += [(g, 10) for s in modes for g in sampled[s]]
    results = []
    for r in pool.imap(run, jobs) if pool else map(run, jobs):
        results.append(r)
        print(json.dumps(r), flush=True)
    summary: dict[str, Any] = {
        "probe_nodes": PROBE_NODES,
        "total_nodes": TOTAL_NODES,
        "proof_nodes": PROOF_NODES,
        "jobs": args.jobs,
    }
    for suits in modes:
        base = [r for r in results if r["suits"] == suits and r["scale"] == 1]
        wide = {r["seed"]: r for r in results if r["suits"] == suits and r["scale"] == 10}
        agree = [r for r in base if r["seed"] in wide and wide[r["seed"]]["turn"] == r["turn"]]
        secs = [r["cpu_s"] for r in base]
        nodes = [r["nodes"] for r in base]
        found = [r for r in base if r["turn"] is not None]
        summary[str(suits)] = {
            "games": len(base),
            "turning_points": len(found),
            "median_s": round(statistics.median(secs), 2) if secs else None,
            "p95_s": round(quantile(secs, 0.95), 2) if secs else None,
            "median_nodes": int(statistics.median(nodes)) if nodes else None,
            "p95_nodes": int(quantile(nodes, 0.95)) if nodes else None,
            "winnable_to_last_share": round(sum(r["to_last"] for r in base) / len(base), 3)
            if base
            else None,
            "exhaustive_share": round(sum(r["exhaustive"] for r in found) / len(found), 3)
            if found
            else None,
            "sample": len(wide),
            "agreement": len(agree),
            "agreement_share": round(len(agree) / len(wide), 3) if wide else None,
            "median_s_10x": round(statistics.median(r["cpu_s"] for r in wide.values()), 2)
            if wide
            else None,
        }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
