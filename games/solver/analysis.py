"""After the game, the analysis: where the win was lost (docs/rules.md#after-the-game-the-analysis).

A finished game hides nothing any more, so the full-information solver may look at every
card. The game's **final line** is its positions from the start to the end with the undone
actions taken out (``final_line``): position ``i`` is the table as the player had it when
they played the line's action ``i`` (cards an undo left face up included), and the last
position is the table at the end.

On that line winnability is monotone: from a position that can still be won, the player's
own next action and a win from the position after it make a win, so every earlier position
can be won too. The **turning point** is the last position from which the solver finds a
win, and the action played there, after which it finds none within its budget
(``analyse``). The solver is a beam search: a win it finds is a proof (replayed), "no win
found" may be a false negative, and those come from positions with a long game still to
play. So the search trusts wins and doubts failures (``_Search.turning_point``): it never
goes left of a position a win was found from; it starts at the end and steps back 4, 8,
16, ... actions until it finds a win (late positions have few cards and are cheap to
settle), then halves only the stretch between that win and the nearest position after it
with none. What the budget has left then goes to the positions after the turning point
up to the first one proved lost (``widen``): a win at any of them would mean a win at every
position before it, and one further on, with fewer cards, can be cheaper to win than the
boundary (bench/NOTES.md). They are searched again in rounds, the least searched first and
the furthest first among equals, each given as much again as it has had; the middle of a
long stretch between two of them is searched too, and one whose search ran out of positions
is proved instead. If a win turns up, the search goes on from there. Before those rounds
(``walk_back``), the positions from the first one proved lost (or the end) back towards the
last win are proved lost one at a time: every position an exhaustive search met is lost,
and the later positions' reach is mostly part of the earlier ones', so each proof is given
those keys (``lost``) and searches only what the player's action opened up; the walk stops
at the first proof that runs out of positions.
Every win found is kept as a goal of the searches after it (games/solver/goals.py): a
search that meets a position along a known win has found one. "No win found" means that,
within the positions allowed, unless ``exhaust`` searched every reachable position of the
position after the turning point and so proved it lost. Every line reported has been replayed
through the engine (``verify``): a line that does not win raises SolverBug, it is never
stored.

The answer claims only what is certain (``_claims``): the last position a win was found
from, the first one proved lost (if any), and how many between them stay unsettled. The
turning point is named only where the two meet; otherwise it is None and the stretch is
reported as open, never guessed.

The plan is Python, the searches run in the solver's native core (search.py), and nothing
here knows Django: the caller (``games.services.analysis_compute``) reads the deal and the log
and stores the result.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from games.engine import Action, Board, Layout, apply_action

from .api import WIDTHS, exhaust, polish, solve, verify
from .goals import Goals
from .transplant import carry

# 8: the move review (review.py) joins the result, under its own key.
# 7: the positions after the last win proved lost one by one back from the first proved
# (or the end), each proof sharing the positions the later ones found lost.
# 6: the answer states what is certain (``last_win``, ``proved_loss``) and the stretch left
# unsettled between them; a turning point is named only where the two meet.
# 5: a win found is carried past the player's next actions (transplant.py); 4: what is
# left spread over the failures after the boundary; 3: wins found so far are goals of the
# later searches; 2: the search from the end backwards, the boundary searched again; 1: a
# binary search.
ANALYSIS_VERSION: Final = 8
# A win found is carried this many positions on at most (a replay per position tried, each
# a few hundred steps; the player's actions a win absorbs are mostly a few in a row).
CARRY_REACH: Final = 6
# Below this many positions left, the shown line is not shortened (too few to gain).
MIN_POLISH_NODES: Final = 1000
# The first step back from the end: a lost game's turning point is seldom within its last
# few actions (the hint follower's: 4 to 23 before the end), and each position searched
# without a win costs a whole search, so the search does not walk back one by one.
GALLOP_FIRST: Final = 4
# After the boundary, a stretch of at least this many actions between two positions with
# no win found has its middle searched too (``_Search.widen``); narrower stretches would
# make the spreading a scan of every position (measured: bench/NOTES.md).
SPREAD_MIN_GAP: Final = 2 * GALLOP_FIRST


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
class AnalysisBudget:
    """What one analysis may spend, in solver positions (deterministic; the seconds caps
    are the solver's own, derived from these)."""

    probe_nodes: int  # one search of one position of the line
    total_nodes: int  # the whole analysis: every search, the proof and the polish
    proof_nodes: int  # the exhaustive search after the turning point (0: none)

    def per_probe(self, line_length: int) -> int:
        """The search budget of each position: ``probe_nodes``, less if a binary search
        over ``line_length`` actions would otherwise overrun ``total_nodes`` (the search
        from the end makes about as many when the turning point is near the end, as it
        mostly is; past ``total_nodes`` the last searches get what is left)."""
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
    proved: bool = False  # the proof budget was spent on it (``_Search.prove``)
    # Its last search stopped at its allowance, not for want of positions to search: more
    # positions may find a win (``_Search.widen``); else only a proof can settle it.
    spent_all: bool = True
    widths: list[int] = field(default_factory=list)  # beam widths its searches tried


@dataclass(slots=True)
class ComputedAnalysis:
    result: dict[str, Any]
    nodes: int
    seconds: float


def analyse(
    line: FinalLine,
    *,
    budget: AnalysisBudget,
    start_line: list[Action] | None = None,
    par: int | None = None,
) -> ComputedAnalysis:
    """The turning point of ``line`` (see the module's docstring) as a JSON-ready dict.

    ``start_line``: a known win of the line's first position (the deal's vetted line), tried
    before any search; ``par``: the deal's par, compared with a won game's length.
    """
    t0 = time.perf_counter()
    n = len(line.steps)
    search = _Search(line, budget)
    probes = search.probes
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
                **_claims(line, last_win=n, proved_loss=None),
            }
        )
        return _done(result, search, t0)

    first = _known_start(line, start_line)
    if first is not None:
        probes[0] = first
        _follow(line, first, probes)
    start = search.probe(0)
    result["start_winnable"] = start.won
    if not start.won:
        search.prove(start)
        result.update(
            {
                "winnable_actions": 0,
                "winnable_at_end": False,
                "turning_point": None,
                "solver_line": None,
                "start": _verdict(line, start),
                **_claims(line, last_win=None, proved_loss=0 if start.exhausted else None),
            }
        )
        return _done(result, search, t0)
    lo, hi = search.turning_point()
    if lo == n:  # given up (or ended) while it could still be won
        shown = _shown_line(line, probes[n], budget, search.spent)
        search.spent += shown[1]
        result.update(
            {
                "winnable_actions": n,
                "winnable_at_end": True,
                "turning_point": None,
                "solver_line": _line_json(line, n, shown[0]),
                **_claims(line, last_win=n, proved_loss=None),
            }
        )
        return _done(result, search, t0)
    after = probes[hi]
    # Winnability is monotone along the line: the first position proved lost settles every
    # position after it; the positions between it and the last win stay open.
    proved = min((i for i, p in probes.items() if i > lo and p.exhausted), default=None)
    shown = _shown_line(line, probes[lo], budget, search.spent)
    search.spent += shown[1]
    step = line.steps[lo]
    turning_point = None
    if proved == lo + 1:  # the last win and the first proved loss meet: that action lost it
        turning_point = {
            "index": lo,
            "seq": step.seq,
            "step": step.seq - 1,
            "position": step.before.notation(),
            "action": step.action.to_json(),
            "after": _verdict(line, after),
        }
    result.update(
        {
            "winnable_actions": lo,
            "winnable_at_end": False,
            "turning_point": turning_point,
            "solver_line": _line_json(line, lo, shown[0]),
            **_claims(line, last_win=lo, proved_loss=proved),
        }
    )
    return _done(result, search, t0)


class _Search:
    """The searches of one analysis over one line: every position searched (``probes``, by
    index, one entry per position however often it is searched) and the positions spent."""

    def __init__(self, line: FinalLine, budget: AnalysisBudget) -> None:
        self.line = line
        self.budget = budget
        self.per_probe = budget.per_probe(len(line.steps))
        self.probes: dict[int, Probe] = {}
        self.spent = 0
        # Every position along the wins found so far: a later search that meets one has
        # found a win (games/solver/goals.py).
        self.goals = Goals()
        self._learned: set[int] = set()
        # Keys of every position an exhaustive search proved lost: the positions of one game
        # share them (a later position's reach is part of an earlier one's), so each proof
        # searches only what the earlier proofs did not.
        self.lost: set[int] = set()
        self._walked: set[int] = set()  # the last wins a walk back has been made for

    def learn(self) -> None:
        """Take the wins found since the last call as goals of the searches to come."""
        for p in self.probes.values():
            if p.won and p.line and p.index not in self._learned:
                self._learned.add(p.index)
                self.goals.add(self.line.position(p.index), p.line)

    def left(self) -> int:
        return self.budget.total_nodes - self.spent

    def won_last(self) -> int:
        return max(i for i, p in self.probes.items() if p.won)

    def failed_after(self, lo: int) -> int | None:
        after = [i for i, p in self.probes.items() if not p.won and i > lo]
        return min(after) if after else None

    def probe(self, i: int) -> Probe:
        """Search position ``i`` once with the per-position budget (or what is left)."""
        if i in self.probes:
            return self.probes[i]
        line = self.line
        for other in list(self.probes.values()):  # the same table met again (a move and back)
            if line.position(other.index) == line.position(i):
                p = Probe(i, other.won, 0, other.exhausted, list(other.line), True)
                p.proved = other.proved
                self.probes[i] = p
                return p
        allowed = min(self.per_probe, self.left())
        if allowed < 1:  # the whole analysis's budget is spent: no search, no win found
            self.probes[i] = Probe(i, False, 0)
            return self.probes[i]
        self.learn()
        found = solve(line.position(i), max_nodes=allowed, shorten_ratio=0, goals=self.goals)
        self.spent += found.nodes
        p = Probe(i, found.won, found.nodes, found.exhausted, list(found.line))
        p.widths = list(found.widths)
        p.spent_all = found.nodes >= allowed
        self.probes[i] = p
        if p.won:
            _follow(line, p, self.probes)
        return p

    def recheck(self, p: Probe, allowed: int) -> None:
        """Search a position again where its searches found no win, carrying on where the
        last one stopped: the beam width it had reached and wider (the narrower passes are
        not repeated), within ``allowed`` positions."""
        if p.won or p.exhausted or p.inferred or allowed < 1:
            return
        reached = p.widths[-1] if p.widths else 0
        widths = tuple(w for w in WIDTHS if w >= reached) or (reached,)
        self.learn()
        found = solve(
            self.line.position(p.index),
            max_nodes=allowed,
            widths=widths,
            shorten_ratio=0,
            goals=self.goals,
        )
        self.spent += found.nodes
        p.nodes += found.nodes
        p.exhausted = found.exhausted
        p.spent_all = found.nodes >= allowed
        if found.widths:
            p.widths = list(found.widths)
        if found.won:
            p.won, p.line = True, list(found.line)
            _follow(self.line, p, self.probes)

    def widen(self, lo: int) -> bool:
        """One more search after the boundary ``lo``, within what the budget has left but
        one search's worth (kept for the line shown); False when there is nothing left to
        do. A win at any position after ``lo`` would mean a win at every position before it,
        and one further on, with fewer cards, can be cheaper to win than the boundary
        (bench/NOTES.md), so the positions up to the first one proved lost are searched
        again in rounds: a position whose last search ran out of positions to search is
        proved (more of the same search would find nothing); else the least searched one,
        the furthest first, is given as much again as it has had, so shares grow round by
        round; the middle of a stretch of ``SPREAD_MIN_GAP`` actions or more between two of
        them is searched as if it had had one search already."""
        spare = self.left() - self.per_probe
        if spare < self.per_probe:
            return False
        lost = min((i for i, p in self.probes.items() if i > lo and p.exhausted), default=None)
        end = len(self.line.steps) + 1 if lost is None else lost
        open_ = sorted(
            (p for i, p in self.probes.items() if lo < i < end and not (p.won or p.inferred)),
            key=lambda p: p.index,
        )
        settle = [p for p in open_ if not p.spent_all and not p.proved]
        if settle:
            self.prove(settle[-1])
            return True
        grow = [p for p in open_ if p.spent_all]
        ends = [p.index for p in grow] + ([] if lost is None else [lost])
        middles = [(a + b) // 2 for a, b in itertools.pairwise(ends) if b - a >= SPREAD_MIN_GAP]
        choices = [(p.nodes, -p.index) for p in grow]
        choices += [(self.per_probe, -i) for i in middles if i not in self.probes]
        if not choices:
            return False
        i = -min(choices)[1]
        if i not in self.probes:
            self.probe(i)
            return True
        p = self.probes[i]
        self.recheck(p, min(max(p.nodes, self.per_probe), spare))
        return True

    def walk_back(self, lo: int) -> None:
        """Prove the positions after the last win ``lo`` lost one by one, from the first
        one proved lost (or the end) back towards ``lo``, each proof sharing the positions
        the later ones searched (``lost``), so each step costs about what the player's one
        action opened up; until a proof runs out of positions (or finds a win, which moves
        ``lo`` on), or the budget but one search's worth is spent."""
        self._walked.add(lo)
        n = len(self.line.steps)
        proved = min((i for i, p in self.probes.items() if i > lo and p.exhausted), default=None)
        i = n if proved is None else proved - 1
        while i > lo:
            allowed = min(self.budget.proof_nodes, self.left() - self.per_probe)
            if allowed < 1:
                return
            p = self.probes.setdefault(i, Probe(i, False, 0))
            if p.won:  # the same table as a won one (``probe``'s): not after the last win
                return
            if not p.exhausted:
                p.proved = True
                self.learn()
                self.spent += _prove(self.line, p, allowed, self.goals, self.lost)
                if p.won:
                    _follow(self.line, p, self.probes)
                if not p.exhausted:
                    return
            i -= 1

    def prove(self, p: Probe) -> None:
        """Spend the proof budget, once, on settling a position no win was found from;
        marks ``p.exhausted`` when every reachable position was searched."""
        if p.proved:
            return
        p.proved = True
        self.learn()
        # Within what is left: a win found by the last search moves the search on to a
        # position whose proof would otherwise run past the analysis's budget.
        allowed = min(self.budget.proof_nodes, self.left())
        self.spent += _prove(self.line, p, allowed, self.goals, self.lost)
        if p.won:
            _follow(self.line, p, self.probes)

    def turning_point(self) -> tuple[int, int]:
        """(lo, hi): the last position a win was found from, and the first after it with
        none (``len(steps)`` and ``len(steps) + 1`` when the end is still won). Position 0
        is won (searched already)."""
        n = len(self.line.steps)
        if not self.probe(n).won:
            back = GALLOP_FIRST
            while n - back > self.won_last():  # back from the end until a win is found
                if self.probe(n - back).won:
                    break
                back *= 2
        while True:
            lo = self.won_last()
            hi = self.failed_after(lo)
            if hi is None:
                return n, n + 1
            if hi - lo > 1:  # a win at lo, none at hi: halve the stretch between
                self.probe((lo + hi) // 2)
                continue
            p = self.probes[hi]
            if lo not in self._walked:
                self.walk_back(lo)  # a win it finds moves lo on: go again
            elif not p.proved:
                self.prove(p)  # likewise
            elif not self.widen(lo):
                return lo, hi


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
    if k > 0 and not (j in probes and probes[j].won):
        _infer(line, j, p.line[k:], probes)
    _carry(line, probes)


def _carry(line: FinalLine, probes: dict[int, Probe]) -> None:
    """The furthest win known, carried on past the player's next actions (a replay of it
    with its moves taken from where their cards are now, no search: transplant.py), to
    the furthest of the next ``CARRY_REACH`` positions it wins from, and again from there."""
    while True:
        w = max(i for i, q in probes.items() if q.won)
        src = probes[w]
        frm = line.position(w)
        for j in range(min(w + CARRY_REACH, len(line.steps)), w, -1):
            carried = carry(frm, src.line, line.position(j))
            if carried is not None and _infer(line, j, carried, probes):
                break
        else:
            return


def _infer(line: FinalLine, j: int, rest: list[Action], probes: dict[int, Probe]) -> bool:
    """Record ``rest``, a line replayed from an earlier win, as position ``j``'s win if it
    wins from there."""
    try:
        verify(line.position(j), rest)
    except AssertionError:
        return False
    # A search there that found no win is overruled: the replayed line wins.
    spent = probes[j].nodes if j in probes else 0
    probes[j] = Probe(j, True, spent, line=rest, inferred=True)
    return True


def _prove(
    line: FinalLine,
    p: Probe,
    max_nodes: int,
    goals: Goals | None = None,
    lost: set[int] | None = None,
) -> int:
    """Spend up to ``max_nodes`` on settling a position the search found no win from; marks
    ``p.exhausted`` when every reachable position was searched (``lost``: keys known lost,
    not searched again; those of a proof are added). Returns positions spent."""
    if p.won or p.exhausted or max_nodes <= 0:
        return 0
    found = exhaust(line.position(p.index), max_nodes=max_nodes, goals=goals, lost=lost)
    if found.won:  # a win the beam search missed: the position was winnable after all
        p.won, p.line = True, list(found.line)
    p.exhausted = found.exhausted
    if lost is not None:
        lost.update(found.lost_keys)
    return found.nodes


def _shown_line(
    line: FinalLine, p: Probe, budget: AnalysisBudget, spent: int
) -> tuple[list[Action], int]:
    """The solver's win from ``p`` as shown to the player: shortened within what is left of
    the budget (at most one search's worth), replayed through the engine either way."""
    left = min(budget.total_nodes - spent, budget.probe_nodes)
    layout = line.position(p.index)
    if left < MIN_POLISH_NODES:
        verify(layout, p.line)
        return p.line, 0
    return polish(layout, p.line, max_nodes=left)


def _claims(line: FinalLine, *, last_win: int | None, proved_loss: int | None) -> dict[str, Any]:
    """What the analysis knows, and no more: the last position of the line a win was found
    from (certain: the win was replayed through the engine), the first one proved lost (an
    exhaustive search), and how many positions between them stay unsettled within the
    budget (after the last win up to the end when no loss was proved)."""
    n = len(line.steps)
    upto = n + 1 if proved_loss is None else proved_loss
    return {
        "last_win": None if last_win is None else _position_json(line, last_win),
        "proved_loss": None if proved_loss is None else _position_json(line, proved_loss),
        "unsettled": upto - (-1 if last_win is None else last_win) - 1,
    }


def _position_json(line: FinalLine, i: int) -> dict[str, Any]:
    """Position ``i`` of the line: its index, the replay step showing it, its notation."""
    step = line.steps[i].seq - 1 if i < len(line.steps) else line.log_length
    return {"index": i, "step": step, "position": line.position(i).notation()}


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


def _done(result: dict[str, Any], search: _Search, t0: float) -> ComputedAnalysis:
    result["budget"] = {
        "probe_nodes": search.per_probe,
        "total_nodes": search.budget.total_nodes,
        "proof_nodes": search.budget.proof_nodes,
    }
    result["probes"] = [
        {
            "index": p.index,
            "won": p.won,
            "nodes": p.nodes,
            "exhaustive": p.exhausted,
            "inferred": p.inferred,
        }
        for p in sorted(search.probes.values(), key=lambda p: p.index)
    ]
    result["nodes"] = search.spent
    return ComputedAnalysis(result, search.spent, time.perf_counter() - t0)
