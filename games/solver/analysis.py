"""After the game, the analysis: where the win was lost (docs/rules.md#after-the-game-the-analysis).

A finished game hides nothing any more, so the full-information solver may look at every
card. The game's **final line** is its positions from the start to the end with the undone
actions taken out (``final_line``): position ``i`` is the table as the player had it when
they played the line's action ``i`` (cards an undo left face up included), and the last
position is the table at the end.

On that line winnability is monotone: from a position that can still be won, the player's
own next action and a win from the position after it make a win, so every earlier position
can be won too. A binary search with the solver therefore finds the **turning point**: the
last position from which the solver finds a win, and the action played there, after which
it finds none within its budget (``analyse``). The solver is a beam search: "no win found"
means that, within the positions it was allowed, unless ``exhaust`` searched every
reachable position of the position after the turning point and so proved it lost. Every
line reported has been replayed through the engine (``verify``): a line that does not win
raises SolverBug, it is never stored.

Pure Python, like the rest of the solver: the caller (games/analysis.py) reads the deal and
the log and stores the result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from games.engine import Action, Board, Layout, apply_action

from .api import exhaust, polish, solve, verify

ANALYSIS_VERSION: Final = 1
# Below this many positions left, the shown line is not shortened (too few to gain).
MIN_POLISH_NODES: Final = 1000


@dataclass(frozen=True, slots=True)
class LineStep:
    """One action of the final line: the log entry that played it (1-based ``seq``), and
    the position the player had just before it."""

    seq: int
    action: Action
    before: Layout


@dataclass(frozen=True, slots=True)
class FinalLine:
    steps: tuple[LineStep, ...]
    end: Layout  # the table after the whole log
    won: bool
    log_length: int  # log entries, hints and undos included
    undone: int  # actions taken back by an undo

    def position(self, i: int) -> Layout:
        """Position ``i`` of the line: before its action ``i``; ``len(steps)``: the end."""
        return self.end if i == len(self.steps) else self.steps[i].before


def final_line(start: Layout, log: Iterable[Action]) -> FinalLine:
    """Replay ``log`` from ``start`` through the engine's checked path and keep the actions
    no undo took back, each with the position it was played from. An illegal entry raises
    IllegalAction, as a replay does: a log that does not replay is never analysed."""
    board = Board(start)
    kept: list[LineStep] = []
    entries = 0
    undone = 0
    for seq, action in enumerate(log, start=1):
        entries = seq
        if action.kind == "hint":
            apply_action(board, action)
            continue
        if action.kind == "undo":
            apply_action(board, action)
            kept.pop()  # the engine refused it if there was nothing to take back
            undone += 1
            continue
        before = board.layout()
        apply_action(board, action)
        kept.append(LineStep(seq, action, before))
    return FinalLine(tuple(kept), board.layout(), board.won, entries, undone)


@dataclass(frozen=True, slots=True)
class Budget:
    """What one analysis may spend, in solver positions (deterministic; the seconds caps
    are the solver's own, derived from these)."""

    probe_nodes: int  # one search of one position of the line
    total_nodes: int  # the whole analysis: every search, the proof and the polish
    proof_nodes: int  # the exhaustive search after the turning point (0: none)

    def per_probe(self, line_length: int) -> int:
        """The search budget of each position: ``probe_nodes``, less if the binary search
        over ``line_length`` actions would otherwise overrun ``total_nodes``."""
        probes = math.ceil(math.log2(line_length + 1)) + 2  # the end, the start, the halvings
        share = (self.total_nodes - 2 * self.proof_nodes) // probes
        return max(1, min(self.probe_nodes, share))


@dataclass(slots=True)
class Probe:
    index: int
    won: bool
    nodes: int
    exhausted: bool = False
    line: list[Action] = field(default_factory=list)
    inferred: bool = False  # won because the solver's line from an earlier probe still wins


@dataclass(slots=True)
class Analysis:
    result: dict[str, Any]
    nodes: int
    seconds: float


def analyse(
    line: FinalLine,
    *,
    budget: Budget,
    start_line: list[Action] | None = None,
    par: int | None = None,
) -> Analysis:
    """The turning point of ``line`` (see the module's docstring) as a JSON-ready dict.

    ``start_line``: a known win of the line's first position (the deal's vetted line), tried
    before any search; ``par``: the deal's par, compared with a won game's length.
    """
    t0 = time.perf_counter()
    n = len(line.steps)
    per_probe = budget.per_probe(n)
    probes: dict[int, Probe] = {}
    spent = 0

    def probe(i: int) -> Probe:
        nonlocal spent
        if i in probes:
            return probes[i]
        for other in list(probes.values()):  # the same table met again (a move and back)
            if line.position(other.index) == line.position(i):
                probes[i] = Probe(i, other.won, 0, other.exhausted, list(other.line), True)
                return probes[i]
        allowed = min(per_probe, budget.total_nodes - spent)
        if allowed < 1:  # the whole analysis's budget is spent: no search, no win found
            probes[i] = Probe(i, False, 0)
            return probes[i]
        found = solve(line.position(i), max_nodes=allowed, shorten_ratio=0)
        spent += found.nodes
        p = Probe(i, found.won, found.nodes, found.exhausted, list(found.line))
        probes[i] = p
        if p.won:
            _follow(line, p, probes)
        return p

    result: dict[str, Any] = {
        "version": ANALYSIS_VERSION,
        "outcome": "won" if line.won else "lost",
        "line_length": n,
        "log_length": line.log_length,
        "undone": line.undone,
        "par": par,
    }
    if line.won:
        # Nothing to search: every position of a won game's line was winnable.
        result.update(
            {
                "length": n,
                "over_par": None if par is None else n - par,
                "winnable_actions": n,
                "winnable_at_end": True,
                "start_winnable": True,
                "turning_point": None,
                "solver_line": None,
            }
        )
        return _done(result, budget, per_probe, probes, spent, t0)

    first = _known_start(line, start_line)
    if first is not None:
        probes[0] = first
        _follow(line, first, probes)
    start = probe(0)
    result["start_winnable"] = start.won
    if not start.won:
        spent += _prove(line, start, budget)
        result.update(
            {
                "winnable_actions": 0,
                "winnable_at_end": False,
                "turning_point": None,
                "solver_line": None,
                "start": _verdict(line, start),
            }
        )
        return _done(result, budget, per_probe, probes, spent, t0)
    probe(n)
    proved: set[int] = set()
    while True:
        # lo: the last position a win was found from; hi: the first after it with none.
        lo = max(i for i, p in probes.items() if p.won)
        if lo == n:
            break
        hi = min(i for i, p in probes.items() if not p.won and i > lo)
        if hi - lo > 1:
            probe((lo + hi) // 2)
            continue
        if hi in proved:
            break
        proved.add(hi)
        spent += _prove(line, probes[hi], budget)  # a win it finds moves lo on: go again
    if lo == n:  # given up (or ended) while it could still be won
        shown = _shown_line(line, probes[n], budget, spent)
        spent += shown[1]
        result.update(
            {
                "winnable_actions": n,
                "winnable_at_end": True,
                "turning_point": None,
                "solver_line": _line_json(line, n, shown[0]),
            }
        )
        return _done(result, budget, per_probe, probes, spent, t0)
    after = probes[hi]
    spent += _prove(line, after, budget)
    shown = _shown_line(line, probes[lo], budget, spent)
    spent += shown[1]
    step = line.steps[lo]
    result.update(
        {
            "winnable_actions": lo,
            "winnable_at_end": False,
            "turning_point": {
                "index": lo,
                "seq": step.seq,
                "step": step.seq - 1,
                "position": step.before.notation(),
                "action": step.action.to_json(),
                "after": _verdict(line, after),
            },
            "solver_line": _line_json(line, lo, shown[0]),
        }
    )
    return _done(result, budget, per_probe, probes, spent, t0)


def _known_start(line: FinalLine, start_line: list[Action] | None) -> Probe | None:
    """The deal's vetted line as the first position's win, if it replays to one from there
    (an undo before the first kept action may have left cards face up)."""
    if not start_line:
        return None
    try:
        verify(line.position(0), start_line)
    except AssertionError:
        return None
    return Probe(0, True, 0, line=list(start_line), inferred=True)


def _follow(line: FinalLine, p: Probe, probes: dict[int, Probe]) -> None:
    """Where the player's own actions after position ``p.index`` are the first actions of
    the solver's line from there, the rest of that line may win from further on: try it at
    the furthest such position (a replay, no search) and record the win found."""
    i = p.index
    k = 0
    while i + k < len(line.steps) and k < len(p.line) and line.steps[i + k].action == p.line[k]:
        k += 1
    j = i + k
    if k == 0 or j in probes:
        return
    rest = p.line[k:]
    try:
        verify(line.position(j), rest)
    except AssertionError:
        return
    probes[j] = Probe(j, True, 0, line=rest, inferred=True)


def _prove(line: FinalLine, p: Probe, budget: Budget) -> int:
    """Spend the proof budget on settling a position the search found no win from; marks
    ``p.exhausted`` when every reachable position was searched. Returns positions spent."""
    if p.won or p.exhausted or budget.proof_nodes <= 0:
        return 0
    found = exhaust(line.position(p.index), max_nodes=budget.proof_nodes)
    if found.won:  # a win the beam search missed: the position was winnable after all
        p.won, p.line = True, list(found.line)
    p.exhausted = found.exhausted
    return found.nodes


def _shown_line(line: FinalLine, p: Probe, budget: Budget, spent: int) -> tuple[list[Action], int]:
    """The solver's win from ``p`` as shown to the player: shortened within what is left of
    the budget (at most one search's worth), replayed through the engine either way."""
    left = min(budget.total_nodes - spent, budget.probe_nodes)
    layout = line.position(p.index)
    if left < MIN_POLISH_NODES:
        verify(layout, p.line)
        return p.line, 0
    return polish(layout, p.line, max_nodes=left)


def _verdict(line: FinalLine, p: Probe) -> dict[str, Any]:
    return {
        "index": p.index,
        "position": line.position(p.index).notation(),
        "nodes": p.nodes,
        "exhaustive": p.exhausted,
    }


def _line_json(line: FinalLine, index: int, actions: list[Action]) -> dict[str, Any]:
    return {
        "from_index": index,
        "from_seq": line.steps[index].seq - 1 if index < len(line.steps) else line.log_length,
        "position": line.position(index).notation(),
        "length": len(actions),
        "actions": [a.to_json() for a in actions],
    }


def _done(
    result: dict[str, Any],
    budget: Budget,
    per_probe: int,
    probes: dict[int, Probe],
    spent: int,
    t0: float,
) -> Analysis:
    result["budget"] = {
        "probe_nodes": per_probe,
        "total_nodes": budget.total_nodes,
        "proof_nodes": budget.proof_nodes,
    }
    result["probes"] = [
        {
            "index": p.index,
            "won": p.won,
            "nodes": p.nodes,
            "exhaustive": p.exhausted,
            "inferred": p.inferred,
        }
        for p in sorted(probes.values(), key=lambda p: p.index)
    ]
    result["nodes"] = spent
    return Analysis(result, spent, time.perf_counter() - t0)
