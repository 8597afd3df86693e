"""The move review (docs/rules.md#the-move-review): each action of a finished game's final line
graded by what the player could see, with chance.py's estimate.

This is an **estimate** from the cards in view, never the certain analysis's claim about the
real cards (analysis.py's ``last_win``, ``proved_loss``, ``turning_point``): a move that lost
the real deal may have been the best choice on the cards in view. Every field here says
``chance`` or ``estimate``, never ``winnable``.

For a reviewed position the chance before it is estimated in its own worlds (the **graph**),
and a graded action is weighed against the moves the player had: the hints' first
``REVIEW_CANDIDATES`` and the action played, each applied in the same worlds of the position
(``chance.estimate_moves``, a paired comparison). The **drop** is the best candidate's share
less the played one's; its grade (``GRADES``, Lichess's thresholds) is given only where the
sample tells the two apart (``_told_apart``): both shares from at least ``MIN_DECIDED_SHARE``
of the worlds decided, the drop still over the threshold with every undecided world counted
against it, and the worlds the best won and the played lost outnumbering the reverse by two
standard deviations of a sign test (McNemar's). Otherwise the action is reviewed but not
graded (``grade`` None).

Bounded (``ReviewBudget``): the positions to review are chosen so that a run never passes
``total_nodes`` solver positions (each position is started only if its worst case fits) nor
``max_seconds`` of CPU (a safety net checked between positions; the result says when it
struck). First the graph over positions spread evenly along the line (at most half the
budget) plus each position before a deal; then the grades, where they matter most first:
the stretches where the chance dropped the most, the actions next to a deal, then from the
stretch's end back.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Final

from games.engine import Action, Board, Layout
from games.engine.words import say_card

from .analysis import FinalLine
from .chance import SHARE_DIGITS, Chance, WorldBudget, estimate, estimate_moves
from .hint import VisiblePosition, hints

REVIEW_VERSION: Final = 1
# The moves weighed against the one played: the hints' first few (ranked from the visible
# position only, as the player would have been given them).
REVIEW_CANDIDATES: Final = 3
# Lichess's thresholds on the drop in the chance to win, worst first.
GRADES: Final = (("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1))
# A share is read only from a sample with at least this share of its worlds decided.
MIN_DECIDED_SHARE: Final = 0.75
# The sign test's bar: the worlds won by the best and lost by the played one, less the
# reverse, at least this many standard deviations (sqrt of the worlds that differ).
SIGN_TEST_Z: Final = 2.0
# The chance in words: tenths, "about 3 in 10".
SCALE: Final = 10


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    sample: int  # worlds per position
    world: WorldBudget  # deciding one world
    total_nodes: int  # the whole review
    max_seconds: float  # CPU, a safety net (the node budget ends a normal run)

    def position_cost(self, actions: int) -> int:
        """The most a position weighed with ``actions`` candidates may spend."""
        return self.sample * (1 + actions) * self.world.most

    def to_json(self) -> dict[str, Any]:
        return {
            "sample": self.sample,
            "world_search_nodes": self.world.search_nodes,
            "world_proof_nodes": self.world.proof_nodes,
            "total_nodes": self.total_nodes,
            "max_seconds": self.max_seconds,
        }


@dataclass(frozen=True, slots=True)
class Graded:
    """One action weighed: the chance before, after it, after the best candidate."""

    index: int
    before: Chance
    played: Chance
    best: Chance
    best_action: Action | None  # None: the played action was the best
    drop: float | None  # None: the sample cannot tell them apart
    grade: str | None
    nodes: int = 0  # spent on it: the worlds before and after every candidate


def say_action(layout: Layout, action: Action) -> str:
    """An action in a player's words: "moving the 7♥ to the 8♠", "dealing a new row"."""
    if action.kind == "deal":
        return "dealing a new row"
    assert action.src is not None and action.dst is not None and action.count is not None
    src = layout.columns[action.src][1]
    card = src[len(src) - action.count]
    dst = layout.columns[action.dst]
    onto = f"the {say_card(dst[1][-1])}" if dst[1] else "an empty column"
    return f"moving the {say_card(card)} to {onto}"


def say_chance(chance: Chance) -> str:
    """ "a win in about 3 of 10 ways the hidden cards could lie"; where too few worlds were
    decided to read a share (``MIN_DECIDED_SHARE``), says so instead of a share."""
    share = chance.share
    if share is None or not _readable(chance):
        return (
            f"not sure: the search ran out of budget in {chance.undecided} of "
            f"{chance.sample} ways the hidden cards could lie"
        )
    if chance.won == 0:
        return f"no win in any of the {chance.decided} ways the hidden cards could lie"
    if chance.won == chance.decided:
        return f"a win in all {chance.decided} ways the hidden cards could lie"
    tenths = min(SCALE - 1, max(1, round(share * SCALE)))
    return f"a win in about {tenths} of {SCALE} ways the hidden cards could lie"


def _readable(chance: Chance) -> bool:
    return chance.sample > 0 and chance.decided >= MIN_DECIDED_SHARE * chance.sample


def _readable_share(chance: Chance) -> float:
    """The share to rank by: -1 where it cannot be read."""
    return chance.share if _readable(chance) and chance.share is not None else -1.0


def _told_apart(best: Chance, played: Chance, wins: tuple[int, int], threshold: float) -> bool:
    """Whether the sample shows a drop of at least ``threshold`` (see the module's
    docstring); ``wins``: worlds won after the best and not the played one, and the reverse."""
    if not (_readable(best) and _readable(played)):
        return False
    if round(best.low - played.high, SHARE_DIGITS) < threshold:  # undecided worlds could close it
        return False
    better, worse = wins
    return better - worse >= SIGN_TEST_Z * math.sqrt(better + worse)


def grade_of(
    best: Chance, played: Chance, wins: tuple[int, int]
) -> tuple[float | None, str | None]:
    """The drop from the best to the played action and its grade (None where the sample
    cannot tell; a drop below every threshold is ``None`` grade with its drop said)."""
    if not (_readable(best) and _readable(played)):
        return None, None
    assert best.share is not None and played.share is not None
    drop = round(max(0.0, best.share - played.share), SHARE_DIGITS)
    for name, threshold in GRADES:
        if drop >= threshold and _told_apart(best, played, wins, threshold):
            return drop, name
    return drop, None


def grade_position(
    layout: Layout, played: Action, *, budget: ReviewBudget, last_move: Action | None
) -> Graded:
    """Weigh ``played`` against the hints' first moves at ``layout``, in its worlds."""
    board = Board(layout)
    visible = VisiblePosition.from_board(board)
    found = hints(visible, last_move=last_move, deal_over_gap=layout.deal_over_gap)
    candidates = [played]
    for h in found[:REVIEW_CANDIDATES]:
        action = Action.from_json(h.action)
        if action not in candidates:
            candidates.append(action)
    before, after, won = estimate_moves(
        layout, candidates, sample=budget.sample, budget=budget.world
    )
    # The best: the highest share that can be read, the played action first among equals;
    # a better move is named only where the played one's share can be read too.
    best = max(range(len(candidates)), key=lambda i: (_readable_share(after[i]), -i))
    b = best if _readable(after[0]) and _readable(after[best]) else 0
    better = sum(1 for x, y in zip(won[b], won[0], strict=True) if x and not y)
    worse = sum(1 for x, y in zip(won[b], won[0], strict=True) if y and not x)
    drop, grade = grade_of(after[b], after[0], (better, worse))
    return Graded(
        index=-1,
        before=before,
        played=after[0],
        best=after[b],
        best_action=None if b == 0 else candidates[b],
        drop=drop,
        grade=grade,
        nodes=before.nodes + sum(a.nodes for a in after),
    )


class _Clock:
    def __init__(self, budget: ReviewBudget) -> None:
        self.budget = budget
        self.spent = 0
        self.cpu0 = time.thread_time()
        self.cut: str | None = None

    def afford(self, limit: int) -> bool:
        """Whether another position may start: fewer than ``limit`` positions spent (one
        position may then overrun it, by at most ``position_cost``), and CPU left."""
        if self.spent >= limit:
            self.cut = "nodes"
            return False
        if time.thread_time() - self.cpu0 > self.budget.max_seconds:
            self.cut = "seconds"
            return False
        return True

    @property
    def seconds(self) -> float:
        return time.thread_time() - self.cpu0


def review(line: FinalLine, *, budget: ReviewBudget) -> dict[str, Any]:
    """The move review of ``line`` as a JSON-ready dict (see the module's docstring)."""
    clock = _Clock(budget)
    n = len(line.steps)
    deals = [i for i, s in enumerate(line.steps) if s.action.kind == "deal"]
    graph: dict[int, Chance] = {}

    def chart(i: int) -> None:
        if i in graph or not clock.afford(budget.total_nodes // 2):
            return
        graph[i] = estimate(line.position(i), sample=budget.sample, budget=budget.world)
        clock.spent += graph[i].nodes

    # The graph: positions spread evenly within half the budget, the deals' and the end.
    per = budget.position_cost(0)
    points = max(2, min(n + 1, budget.total_nodes // 2 // max(1, per)))
    spread = sorted({round(k * n / (points - 1)) for k in range(points)})
    for i in sorted(set(spread) | set(deals)):
        chart(i)
    clock.cut = None if clock.cut == "nodes" else clock.cut  # the graph's half, not the end
    graded: dict[int, Graded] = {}
    for i in _grading_order(n, graph, deals):
        if not clock.afford(budget.total_nodes):
            break
        step = line.steps[i]
        last = line.steps[i - 1].action if i > 0 else None
        g = grade_position(step.before, step.action, budget=budget, last_move=last)
        clock.spent += g.nodes
        graded[i] = replace(g, index=i)
        graph.setdefault(i, g.before)
    return {
        "version": REVIEW_VERSION,
        "claim": "estimate",
        "budget": budget.to_json(),
        "chances": [_point(line, i, c) for i, c in sorted(graph.items())],
        "moves": [_move_json(line, g) for _, g in sorted(graded.items())],
        "reviewed": len(graded),
        "actions": n,
        "complete": len(graded) == n,
        "cut": clock.cut,
        "nodes": clock.spent,
        "seconds": round(clock.seconds, SHARE_DIGITS),
    }


def _grading_order(n: int, graph: dict[int, Chance], deals: list[int]) -> list[int]:
    """The actions to grade, where they matter most first: each stretch between two
    positions of the graph with a share, the steepest drop in the chance first (a stretch
    with no share at either end last), and within a stretch the actions next to a deal
    first, then from its end back (nearer the lower chance, with fewer cards: cheaper to
    decide)."""
    marks = sorted(i for i, c in graph.items() if c.share is not None)
    near_deal = {j for d in deals for j in (d - 1, d, d + 1)}
    keyed: list[tuple[float, int, int]] = []
    for i in range(n):
        left = max((m for m in marks if m <= i), default=None)
        right = min((m for m in marks if m > i), default=None)
        a = graph[left].share if left is not None else None
        b = graph[right].share if right is not None else None
        if a is not None and b is not None:
            drop = a - b
        else:  # a share at one end only (0.0) or at neither (last)
            drop = -1.0 if a is None and b is None else 0.0
        keyed.append((-drop, 0 if i in near_deal else 1, -i))
    return [-i for *_, i in sorted(keyed)]


def _place(line: FinalLine, i: int) -> dict[str, Any]:
    step = line.steps[i].seq - 1 if i < len(line.steps) else line.log_length
    return {"index": i, "step": step}


def _point(line: FinalLine, i: int, chance: Chance) -> dict[str, Any]:
    return {**_place(line, i), "chance": chance.to_json()}


def _move_json(line: FinalLine, g: Graded) -> dict[str, Any]:
    step = line.steps[g.index]
    played_words = say_action(step.before, step.action)
    better = None
    if g.best_action is not None:
        better = {
            "action": g.best_action.to_json(),
            "words": say_action(step.before, g.best_action),
        }
    said = say_chance(g.played)
    sentence = f"This move left {said}" if _readable(g.played) else f"After this move, {said}"
    if g.grade is not None and better is not None:
        sentence += f"; {better['words']} left {_one(g.best)}"
    return {
        **_place(line, g.index),
        "action": step.action.to_json(),
        "words": played_words,
        "chance_before": g.before.to_json(),
        "chance_after": g.played.to_json(),
        "chance_best": g.best.to_json(),
        "better": better,
        "drop": g.drop,
        "grade": g.grade,
        "sentence": sentence + ".",
    }


def _one(chance: Chance) -> str:
    """The second half of the sentence: "one in about 9 of 10"."""
    return say_chance(chance).replace("a win in", "one in", 1)
