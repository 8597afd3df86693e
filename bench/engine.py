"""Engine benchmark (no Django): the hot paths the solver, the hints and the API lean on.

    python bench/engine.py                   # 5 repeats, 20 seeds per suit mode
    python bench/engine.py --repeats 9 --seeds 40 --profile

Positions: for each suit mode, seeds 1..N are dealt and played forward by random legal
actions (``random.Random(seed)``, deals included), and the boards after 20, 40 and 60
actions are kept: mid-game positions with undo stacks. Everything is deterministic.

Each figure is the MEDIAN over ``--repeats`` timed repeats (``time.perf_counter``) of one
batch of work, sized at start-up to take about ``--batch-seconds``:

* apply_undo_per_s      push(move) + pop() pairs, over every legal move of every position
* legal_moves_per_s     full ``legal_moves()`` generations
* key_per_s             ``key()``; canonical_key_per_s: ``canonical_key()``
* replay_actions_per_s  actions per second through ``replay`` of recorded game logs
                        (moves, deals and undos, all through the checked path)
* dump_per_s, load_per_s  snapshot ``dump(board)`` / ``load(data)``

A human-readable table comes first; the LAST line is one JSON object of the figures.
The machine may be shared: run it a few times and compare medians, not single runs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import (  # noqa: E402
    DEAL,
    SUIT_MODES,
    Action,
    Board,
    Layout,
    deal_layout,
    dump,
    load,
    replay,
)

DEPTHS = (20, 40, 60)  # actions played before a position is kept
LOG_LENGTH = 150  # actions per recorded game for the replay figure
UNDO_SHARE = 0.1  # share of undos in a recorded log
TARGETS = {"apply_undo_per_s": 200_000, "legal_moves_per_s": 30_000}


# -- building the work ------------------------------------------------------------------------
def random_action(board: Board, rng: random.Random) -> tuple[int, int, int] | None:
    actions = board.legal_actions()
    return rng.choice(actions) if actions else None


def mid_game_positions(seeds: int) -> list[Board]:
    """Boards after DEPTHS random legal actions from seeds 1..seeds of each suit mode."""
    boards: list[Board] = []
    for suits in SUIT_MODES:
        for seed in range(1, seeds + 1):
            rng = random.Random(seed)
            board = Board(deal_layout(suits, seed))
            for played in range(1, max(DEPTHS) + 1):
                action = random_action(board, rng)
                if action is None:
                    break
                board.play(action)
                if played in DEPTHS:
                    boards.append(board.copy())
    return boards


def recorded_games(seeds: int) -> list[tuple[Layout, list[Action]]]:
    """Logs of random play with deals and undos, replayable from their starting layouts."""
    games = []
    for suits in SUIT_MODES:
        for seed in range(1, seeds + 1):
            rng = random.Random(10_000 + seed)
            start = deal_layout(suits, seed)
            board = Board(start)
            log: list[Action] = []
            while len(log) < LOG_LENGTH and not board.won:
                if board.can_undo and rng.random() < UNDO_SHARE:
                    board.undo()
                    log.append(Action("undo"))
                    continue
                move = random_action(board, rng)
                if move is None:
                    break
                board.play(move)
                log.append(Action("deal") if move == DEAL else Action.move(*move))
            games.append((start, log))
    return games


# -- the timed batches: each returns how many operations it did -------------------------------
def apply_undo(pairs: list[tuple[Callable, Callable, tuple[int, int, int]]], loops: int) -> int:
    for _ in range(loops):
        for push, pop, move in pairs:
            push(move)
            pop()
    return loops * len(pairs)


def calls(functions: list[Callable[[], object]], loops: int) -> int:
    for _ in range(loops):
        for f in functions:
            f()
    return loops * len(functions)


def _dumper(board: Board) -> Callable[[], object]:
    return lambda: dump(board)


def replay_all(games: list[tuple[Layout, list[Action]]], loops: int) -> int:
    done = 0
    for _ in range(loops):
        for start, log in games:
            replay(start, log)
            done += len(log)
    return done


def load_all(snapshots: list[dict], loops: int) -> int:
    for _ in range(loops):
        for data in snapshots:
            load(data)
    return loops * len(snapshots)


def measure(batch: Callable[[int], int], repeats: int, batch_seconds: float) -> list[float]:
    """Operations per second of ``batch`` over ``repeats`` timed runs of a calibrated size."""
    start = time.perf_counter()
    batch(1)  # warm up, and calibrate
    once = max(time.perf_counter() - start, 1e-6)
    loops = max(1, round(batch_seconds / once))
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        ops = batch(loops)
        rates.append(ops / (time.perf_counter() - start))
    return rates


# -- main -------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds per suit mode (default 20)")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (default 5)")
    parser.add_argument("--batch-seconds", type=float, default=0.3, help="seconds per repeat")
    parser.add_argument("--profile", action="store_true", help="cProfile the two hot paths")
    args = parser.parse_args()

    boards = mid_game_positions(args.seeds)
    games = recorded_games(args.seeds)
    pairs = [(b.push, b.pop, m) for b in boards for m in b.legal_moves()]
    snapshots = [dump(b) for b in boards]
    work: dict[str, Callable[[int], int]] = {
        "apply_undo_per_s": lambda n: apply_undo(pairs, n),
        "legal_moves_per_s": lambda n: calls([b.legal_moves for b in boards], n),
        "key_per_s": lambda n: calls([b.key for b in boards], n),
        "canonical_key_per_s": lambda n: calls([b.canonical_key for b in boards], n),
        "replay_actions_per_s": lambda n: replay_all(games, n),
        "dump_per_s": lambda n: calls([_dumper(b) for b in boards], n),
        "load_per_s": lambda n: load_all(snapshots, n),
    }
    before = [dump(b) for b in boards]

    actions = sum(len(log) for _, log in games)
    print(
        f"engine bench: {len(boards)} mid-game positions ({len(pairs)} legal moves), "
        f"{len(games)} logs ({actions} actions); median of {args.repeats} repeats "
        f"of ~{args.batch_seconds:g}s; {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    print(f"{'figure':<22} {'median/s':>12} {'min/s':>12} {'max/s':>12} {'us/op':>8}")
    figures: dict[str, object] = {}
    for name, batch in work.items():
        rates = measure(batch, args.repeats, args.batch_seconds)
        median = statistics.median(rates)
        figures[name] = round(median)
        print(
            f"{name:<22} {median:>12,.0f} {min(rates):>12,.0f} {max(rates):>12,.0f} "
            f"{1e6 / median:>8.2f}"
        )
    assert [dump(b) for b in boards] == before, "push/pop must leave every position as it was"

    for name, target in TARGETS.items():
        met = figures[name] >= target  # type: ignore[operator]
        print(f"target {name} >= {target:,}: {'met' if met else 'MISSED'}")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        work["apply_undo_per_s"](20)
        work["legal_moves_per_s"](200)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())

    figures.update(
        positions=len(boards),
        legal_moves=len(pairs),
        repeats=args.repeats,
        python=platform.python_version(),
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
