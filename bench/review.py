"""Move review benchmark: finished games reviewed as a client asks for them, CPU per review.

    nice -n 10 python bench/review.py --games 40              # 40 games a suit mode
    python bench/review.py --suits 1 --games 2 --max-actions 40   # a quick subset

Everything runs through the API's service calls in this process, on a scratch in-memory
SQLite database (bench/hint.py's ``ServicePath``), as a client's requests and the worker
would run them. For each suit mode, seeds 1, 2, ...:

1. Games: half played by the hint follower of bench/hint.py (``follow``: hint ``n=0`` every
   time), half by a weaker player that plays a random legal action every ``--blunder``-th
   action (so that there are mistakes to find); each ends won, stuck, or at
   ``--max-actions`` (then it is resigned).
2. Each game's analysis, with its move review (``result.review``), asked for as a client
   does: ``games.services.analysis_request`` (the quotas raised for the bench, the worker's
   run inline after the commit instead of on the queue), then read with
   ``analysis_read`` (the GET) until it is ``done``.
3. Figures per suit mode: ``median_s`` and ``p95_s``, the CPU of the review itself
   (``result.review.seconds``, the worker thread's CPU clock); ``analysis_median_s``, the
   CPU of the whole request (the certain analysis and the review, ``time.process_time``);
   ``graded_share`` (graded moves of those reviewed); ``complete_share`` (reviews that
   reached every action); ``agree_with_turning_point`` (of the games whose certain turning
   point's move was reviewed, the share graded a mistake or worse); ``brier`` (the graph's
   chances against the real deal's outcome on the positions the certain analysis settled:
   up to its last win won, from its proved loss on lost) and ``brier_base`` (always guessing
   those positions' share of wins); ``calibration_max_gap`` (the largest gap between a bin's
   mean chance and its share of won positions, tenths as bins, bins of at least
   ``--min-bin`` positions; null when no bin is that full); ``positions`` (settled
   positions with a chance).

The review's budgets are the service's settings (``REVIEW_*``), unless ``--review-nodes``
scales the whole review's down (quick runs). The LAST line is one JSON object: per suit mode
(``"1"``, ``"2"``, ``"4"``) the figures above and ``games``, and ``budget``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    from bench.hint import ServicePath, follow, quantile
except ImportError:  # run as a script: bench/ itself is on sys.path
    from hint import ServicePath, follow, quantile  # type: ignore[import-not-found,no-redef]

BINS = 10


def play(suits: int, seed: int, max_actions: int, blunder: int) -> str:
    """A finished game of deal (suits, seed): its id."""
    api = ServicePath.get()
    game = follow(suits, seed, max_actions, blunder=blunder)
    if game["result"] != "won":
        api.services.game_resign(player=api.player, game_id=game["game_id"])
    return str(game["game_id"])


def review_as_client(game_id: str) -> tuple[dict[str, Any], float]:
    """The analysis a client's POST asks for, read with GET until done: its result and the
    process's CPU around the asking and reading."""
    from django.test import override_settings

    from games import services
    from games.models import Analysis

    api = ServicePath.get()
    with override_settings(ANALYSIS_PLAYER_DAILY_MAX=10**6, ANALYSIS_IN_THREAD=False):
        t0 = time.process_time()
        services.analysis_request(player=api.player, game_id=game_id)
        while True:
            analysis = services.analysis_read(viewer=api.player, game_id=game_id)
            if analysis.status != Analysis.Status.PENDING:
                break
            time.sleep(0.1)
        cpu = time.process_time() - t0
    assert analysis.status == Analysis.Status.DONE, (analysis.status, analysis.reason)
    assert analysis.result is not None
    return analysis.result, cpu


def settled(result: dict[str, Any]) -> dict[int, int]:
    """The positions the certain analysis settled: index -> 1 (a win exists) or 0 (lost)."""
    n = result["line_length"]
    truth: dict[int, int] = {}
    last = result["last_win"]
    if result["outcome"] == "won":
        return dict.fromkeys(range(n + 1), 1)
    if last is not None:
        truth.update(dict.fromkeys(range(last["index"] + 1), 1))
    loss = result["proved_loss"]
    if loss is not None:
        truth.update(dict.fromkeys(range(loss["index"], n + 1), 0))
    return truth


def row(suits: int, seed: int, blunder: int, result: dict[str, Any], cpu: float) -> dict:
    review = result["review"]
    truth = settled(result)
    pairs = [
        (p["chance"]["share"], truth[p["index"]])
        for p in review["chances"]
        if p["chance"]["share"] is not None and p["index"] in truth
    ]
    turn = result["turning_point"]
    graded = {m["index"]: m["grade"] for m in review["moves"]}
    return {
        "suits": suits,
        "seed": seed,
        "blunder": blunder,
        "outcome": result["outcome"],
        "actions": review["actions"],
        "reviewed": review["reviewed"],
        "graded": sum(1 for g in graded.values() if g),
        "complete": review["complete"],
        "review_s": review["seconds"],
        "cpu_s": round(cpu, 3),
        "review_nodes": review["nodes"],
        "pairs": pairs,
        # The certain turning point's move, if reviewed: its grade (None: not graded).
        "turn_reviewed": turn is not None and turn["index"] in graded,
        "turn_grade": graded.get(turn["index"]) if turn is not None else None,
    }


def summarise(rows: list[dict], min_bin: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for suits in sorted({r["suits"] for r in rows}):
        mine = [r for r in rows if r["suits"] == suits]
        seconds = [r["review_s"] for r in mine]
        pairs = [p for r in mine for p in r["pairs"]]
        reviewed = sum(r["reviewed"] for r in mine)
        turns = [r for r in mine if r["turn_reviewed"]]
        figures: dict[str, Any] = {
            "games": len(mine),
            "median_s": round(statistics.median(seconds), 3),
            "p95_s": round(quantile(seconds, 0.95), 3),
            "analysis_median_s": round(statistics.median(r["cpu_s"] for r in mine), 3),
            "median_nodes": int(statistics.median(r["review_nodes"] for r in mine)),
            "graded_share": round(sum(r["graded"] for r in mine) / reviewed, 3)
            if reviewed
            else None,
            "complete_share": round(sum(r["complete"] for r in mine) / len(mine), 3),
            "agree_with_turning_point": round(
                sum(r["turn_grade"] in ("mistake", "blunder") for r in turns) / len(turns), 3
            )
            if turns
            else None,
            "turning_points_reviewed": len(turns),
            "positions": len(pairs),
        }
        figures.update(_scores(pairs, min_bin))
        out[str(suits)] = figures
    return out


def _scores(pairs: list[tuple[float, int]], min_bin: int) -> dict[str, Any]:
    if not pairs:
        return {"brier": None, "brier_base": None, "calibration_max_gap": None}
    base = sum(t for _, t in pairs) / len(pairs)
    bins: dict[int, list[tuple[float, int]]] = {}
    for p, t in pairs:
        bins.setdefault(min(BINS - 1, int(p * BINS)), []).append((p, t))
    gaps = [
        abs(sum(p for p, _ in b) / len(b) - sum(t for _, t in b) / len(b))
        for b in bins.values()
        if len(b) >= min_bin
    ]
    return {
        "brier": round(sum((p - t) ** 2 for p, t in pairs) / len(pairs), 4),
        "brier_base": round(sum((base - t) ** 2 for _, t in pairs) / len(pairs), 4),
        "calibration_max_gap": round(max(gaps), 3) if gaps else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suits", default="1,2,4")
    parser.add_argument("--games", type=int, default=40, help="games per suit mode")
    parser.add_argument("--max-actions", type=int, default=1000)
    parser.add_argument("--blunder", type=int, default=7, help="the weaker player's k")
    parser.add_argument("--min-bin", type=int, default=50)
    parser.add_argument(
        "--review-nodes", type=int, default=0, help="the whole review's budget (0: settings)"
    )
    args = parser.parse_args()
    ServicePath.get()  # Django set up before its settings are read
    from django.conf import settings

    if args.review_nodes:
        settings.REVIEW_MAX_NODES = dict.fromkeys(settings.REVIEW_MAX_NODES, args.review_nodes)
    rows: list[dict] = []
    for suits in [int(s) for s in args.suits.split(",")]:
        for k in range(args.games):
            seed = k + 1
            blunder = args.blunder if k % 2 else 0
            game_id = play(suits, seed, args.max_actions, blunder)
            result, cpu = review_as_client(game_id)
            rows.append(row(suits, seed, blunder, result, cpu))
            shown = {key: v for key, v in rows[-1].items() if key != "pairs"}
            print(json.dumps(shown), flush=True)
    budget = {
        "sample": settings.REVIEW_SAMPLE,
        "world_search_nodes": settings.REVIEW_WORLD_SEARCH_NODES,
        "world_proof_nodes": settings.REVIEW_WORLD_PROOF_NODES,
        "total_nodes": settings.REVIEW_MAX_NODES,
        "max_seconds": settings.REVIEW_MAX_SECONDS,
    }
    print(json.dumps({**summarise(rows, args.min_bin), "budget": budget}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
