"""Post-game analysis benchmark: games lost by the hint follower, analysed as the service does.

    nice -n 10 python bench/analysis.py --suits 4 --games 20    # one mode (a process per mode)
    python bench/analysis.py --suits 2 --games 3 --sample 1     # a quick subset
    python bench/analysis.py --summarise out1.log out2.log      # one summary of earlier runs

Everything runs through the API's service calls in this process, on a scratch in-memory
SQLite database (bench/hint.py's ``ServicePath``), as a client's requests and the worker
would run them. For each suit mode:

1. Deals: seeds 1, 2, ... that the full-information solver wins (``--vet-nodes``, no
   shortening), as vetting would; the line found is stored as the deal's line and par, as
   the pool stores a vetted deal's.
2. The hint follower of bench/hint.py (``follow``: the top hint every time, no undo) plays
   each (``game_create`` with the seed, ``game_hint``, ``game_act``); the first ``--games``
   it loses (stuck, or at ``--max-actions``) it resigns (``game_resign``), and each is
   analysed as a client asks: ``games.services.analysis_request`` (the quotas raised for
   the bench, the run inline instead of on the queue), which runs ``analysis_run``, the
   worker's task, with the service's budget (settings ``ANALYSIS_*``); the stored row is
   read back (status ``done``, its result).
3. Agreement: the first ``--sample`` of those games per mode (default: all) are analysed
   again by ``analysis_compute`` (what ``analysis_run`` computes) with every budget x10;
   they agree when both find their last win at the same action.
4. Claims: every answer's claims are checked apart from the analysis (``wrong_claims``):
   the way through from the last win replays to a win through the engine, a proved loss
   rests on an exhaustive search with no win recorded from it on, and a turning point is
   named only where the two meet.

Seconds are CPU seconds of this process around the request (``time.process_time``: one
core), so they do not count waiting for a core on a shared machine; positions are the
solver's nodes. "Winnable until its last action": the turning point is the line's last
action (or there is none: given up while still winnable). Each analysis prints one JSON
line (``"scale": 1`` or ``10``) as it ends; ``--summarise`` reads such lines back from
files (runs of one mode each) and summarises them together. The LAST line is one JSON
object: per mode ``games``, ``turning_points``, ``median_s``, ``median_unsettled``,
``wrong_claims``, ``p95_s``, ``median_nodes``, ``p95_nodes``, ``winnable_to_last_share``,
``exhaustive_share`` (turning points proved lost), ``sample``, ``agreement``,
``agreement_share``, ``median_s_10x``, ``disagreements`` (seed, actions, last win at 1x and
at 10x); and the budget used.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from bench.hint import ServicePath, follow, quantile
except ImportError:  # run as a script: bench/ itself is on sys.path
    from hint import ServicePath, follow, quantile  # type: ignore[import-not-found,no-redef]

from games.engine import Action, Layout, deal_layout, replay  # noqa: E402
from games.solver import solve  # noqa: E402

SCALE = 10  # the agreement check's budget, times the service's


def lost_games(
    suits: int, vet_nodes: int, max_actions: int, blunder: int, seeds: list[int] | None
) -> Iterator[tuple[int, str, str]]:
    """Vetted deals (from seed 1 up, or ``seeds``) the follower loses, resigned: (seed, game
    id, result). Played first, vetted after (only a lost game needs it): the same deals."""
    api = ServicePath.get()
    from games.models import Deal, Game

    order = iter(seeds) if seeds else itertools.count(1)
    played = 0
    for seed in order:
        game = follow(suits, seed, max_actions, blunder=blunder)
        played += 1
        if game["result"] == "won":
            continue
        vetted = solve(deal_layout(suits, seed), max_nodes=vet_nodes, shorten_ratio=0)
        if not vetted.won:
            played -= 1  # not a deal the service would have dealt
            continue
        row = Game.objects.select_related("deal").get(pk=game["game_id"])
        Deal.objects.filter(pk=row.deal_id).update(
            solver_line=[a.to_json() for a in vetted.line], par=len(vetted.line)
        )
        api.services.game_resign(player=api.player, game_id=game["game_id"])
        print(f"suits={suits} seed={seed}: {game['result']} ({played} vetted played)", flush=True)
        yield seed, game["game_id"], game["result"]


def analyse_as_client(game_id: str) -> tuple[dict, int, float]:
    """The analysis a client's POST gets, run inline by the worker's own function."""
    from django.test import override_settings

    from games import services
    from games.models import Analysis

    api = ServicePath.get()
    with override_settings(  # the bench asks for more analyses than one player may
        ANALYSIS_PLAYER_DAILY_MAX=10**6, ANALYSIS_IN_THREAD=False
    ):
        t0 = time.process_time()
        analysis, created = services.analysis_request(player=api.player, game_id=game_id)
        cpu = time.process_time() - t0
    assert created
    analysis = Analysis.objects.get(pk=analysis.pk)
    assert analysis.status == Analysis.Status.DONE, (analysis.status, analysis.reason)
    assert analysis.result is not None
    return analysis.result, analysis.nodes, cpu


def analyse_wider(game_id: str) -> tuple[dict, int, float]:
    """``analysis_compute`` (the worker's computation) with every budget x SCALE."""
    from django.conf import settings
    from django.test import override_settings

    from games import services
    from games.models import Game

    wider = {
        "ANALYSIS_PROBE_MAX_NODES": {
            s: n * SCALE for s, n in settings.ANALYSIS_PROBE_MAX_NODES.items()
        },
        "ANALYSIS_MAX_NODES": settings.ANALYSIS_MAX_NODES * SCALE,
        "ANALYSIS_PROOF_MAX_NODES": settings.ANALYSIS_PROOF_MAX_NODES * SCALE,
    }
    game = Game.objects.select_related("deal").get(pk=game_id)
    with override_settings(**wider):
        t0 = time.process_time()
        computed = services.analysis_compute(game=game)
        cpu = time.process_time() - t0
    return computed.result, computed.nodes, cpu


def wrong_claims(result: dict) -> int:
    """The answer's claims that do not hold, checked apart from the analysis: the way
    through must start at ``last_win`` and win when the engine replays it; ``proved_loss``
    must rest on an exhaustive search and no win may be recorded from it or after it, nor
    after ``last_win``; a turning point only where the two meet."""
    wrong = 0
    win, loss, turn = result["last_win"], result["proved_loss"], result["turning_point"]
    line = result["solver_line"]
    if win is not None and result["outcome"] == "lost":
        if line is None or line["from_index"] != win["index"]:
            wrong += 1
        else:
            board = replay(
                Layout.parse(line["position"]), [Action.from_json(a) for a in line["actions"]]
            )
            wrong += not board.won or line["position"] != win["position"]
    probes = {p["index"]: p for p in result["probes"]}
    if loss is not None:
        wrong += not probes.get(loss["index"], {}).get("exhaustive", False)
        wrong += any(p["won"] for i, p in probes.items() if i >= loss["index"])
    if win is not None:
        wrong += any(p["won"] and not p["inferred"] for i, p in probes.items() if i > win["index"])
    meet = win is not None and loss is not None and loss["index"] == win["index"] + 1
    wrong += (turn is not None) != meet
    return wrong


def row(
    suits: int, seed: int, scale: int, result: dict, nodes: int, cpu: float, blunder: int
) -> dict:
    turn = result["turning_point"]
    n = result["line_length"]
    win = result["last_win"]
    return {
        "suits": suits,
        "blunder": blunder,
        "seed": seed,
        "scale": scale,
        "actions": n,
        "turn": None if turn is None else turn["index"],
        "last_win": None if win is None else win["index"],
        "proved_loss": None if result["proved_loss"] is None else result["proved_loss"]["index"],
        "unsettled": result["unsettled"],
        "wrong_claims": wrong_claims(result),
        "exhaustive": bool(turn and turn["after"]["exhaustive"]),
        "to_last": turn is None or turn["index"] == n - 1,
        "start_winnable": result.get("start_winnable"),
        "cpu_s": round(cpu, 2),
        "nodes": nodes,
        "probes": len(result["probes"]),
        # every position searched: index, won, positions spent ("x": proved lost)
        "searched": [
            [p["index"], "x" if p["exhaustive"] else int(p["won"]), p["nodes"]]
            for p in result["probes"]
        ],
        "budget": result["budget"],
    }


def summarise(results: list[dict]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for suits, blunder in sorted({(r["suits"], r.get("blunder", 0)) for r in results}):
        mine = [r for r in results if (r["suits"], r.get("blunder", 0)) == (suits, blunder)]
        base = [r for r in mine if r["scale"] == 1]
        wide = {r["seed"]: r for r in mine if r["scale"] == SCALE}
        paired = [r for r in base if r["seed"] in wide]
        # The same last action a win is found from, at 1x and at 10x.
        agree = [r for r in paired if wide[r["seed"]]["last_win"] == r["last_win"]]
        secs = [r["cpu_s"] for r in base]
        nodes = [r["nodes"] for r in base]
        found = [r for r in base if r["turn"] is not None]
        mode = str(suits) if not blunder else f"{suits}_blunder{blunder}"
        summary[mode] = {
            "games": len(base),
            "turning_points": len(found),
            "median_s": round(statistics.median(secs), 2) if secs else None,
            "median_unsettled": statistics.median(r["unsettled"] for r in base) if base else None,
            "wrong_claims": sum(r["wrong_claims"] for r in mine),
            "p95_s": round(quantile(secs, 0.95), 2) if secs else None,
            "median_nodes": int(statistics.median(nodes)) if nodes else None,
            "p95_nodes": int(quantile(nodes, 0.95)) if nodes else None,
            "winnable_to_last_share": round(sum(r["to_last"] for r in base) / len(base), 3)
            if base
            else None,
            "exhaustive_share": round(sum(r["exhaustive"] for r in found) / len(found), 3)
            if found
            else None,
            "sample": len(paired),
            "agreement": len(agree),
            "agreement_share": round(len(agree) / len(paired), 3) if paired else None,
            "median_s_10x": round(statistics.median(wide[r["seed"]]["cpu_s"] for r in paired), 2)
            if paired
            else None,
            "disagreements": [
                [r["seed"], r["actions"], r["last_win"], wide[r["seed"]]["last_win"]]
                for r in paired
                if r not in agree
            ],
        }
        if base:
            summary[mode]["budget"] = base[0]["budget"]
    summary["scale"] = SCALE
    return summary


def read_results(paths: list[str]) -> list[dict]:
    out: list[dict] = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith('{"suits"'):
                    out.append(json.loads(line))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", default="1,2,4")
    parser.add_argument("--games", type=int, default=20, help="lost games per mode")
    parser.add_argument("--sample", type=int, default=None, help="of those, re-analysed x10")
    parser.add_argument("--vet-nodes", type=int, default=300_000)
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument(
        "--blunder", type=int, default=0, help="k: every k-th action a random one (0: none)"
    )
    parser.add_argument("--seeds", help="only these seeds (comma-separated), in this order")
    parser.add_argument("--summarise", nargs="+", metavar="FILE", help="earlier runs' output")
    args = parser.parse_args()
    if args.summarise:
        print(json.dumps(summarise(read_results(args.summarise))))
        return 0
    sample = args.games if args.sample is None else args.sample
    results: list[dict] = []
    for suits in [int(s) for s in args.suits.split(",")]:
        seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else None
        games = lost_games(suits, args.vet_nodes, args.max_actions, args.blunder, seeds)
        for k, (seed, game_id, _) in zip(range(args.games), games, strict=False):
            jobs = [(1, analyse_as_client)] + ([(SCALE, analyse_wider)] if k < sample else [])
            for scale, how in jobs:
                result, nodes, cpu = how(game_id)
                results.append(row(suits, seed, scale, result, nodes, cpu, args.blunder))
                print(json.dumps(results[-1]), flush=True)
    print(json.dumps(summarise(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
