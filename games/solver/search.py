"""The full-information search: a beam search over positions, grouped by deals made.

The search sees every card (face-down ones and the stock order included). Its passes run
in the solver's native core (``games/solver/native``: search.cpp, on the compact position
of position.cpp, held to ``Board.push`` by tests/solver/test_step.py); this module says
what a pass is asked and gives back. The engine is used to read the start and to replay
every line found (``api.py``), so a bug in the core can cost a win, never fake one.

How it searches (one "pass" at beam width ``W``):

* Level by level: every position of the beam is expanded with the pruned move list
  (``model.search_moves``'s: ``pruned_moves`` and the deal when it is legal, every legal
  move where the deal may go over a gap), each child is scored and checked against a set
  of position keys so a position is never expanded twice in one pass. When some of a
  position's moves lower its score, its other moves are dropped (a sideways move there
  only makes the line longer; deals always stay). The key (``position_key``: the sum of
  the column hashes and the deals made) sees column order while cards remain in the stock
  (the next deal puts stock card i onto column i) and is column-order blind once the stock
  is dealt.
* The children are grouped by how many deals have been made, and the best ``W`` of each
  group (lowest score, ties by generation order) form the next beam. Grouping keeps lines
  that have just dealt (dealing makes a position look worse for a while) alive next to
  the lines that have not dealt yet.
* The score ("chaos") counts what stands between the position and a win: face-down
  cards, breaks between neighbouring face-up cards (an off-suit placement is a soft break,
  a rank break a hard one), cards still in the stock; empty columns and removed runs
  lower it.

Passes run with growing widths (8, 24, 64, 160, 400, 1000, then x4), each width once with
each of three weight sets (``DEFAULT_WEIGHTS``, ``ALT_WEIGHTS``, ``TAIL_WEIGHTS``), until a
win or the node budget is spent: a cheap narrow pass finds most wins, and the heuristics
fail on different deals. Everything is deterministic for a given node budget.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from games.engine.actions import Move

from . import _core
from .model import Column, Columns, GapStock


class Weights(NamedTuple):
    """Heuristic weights (lower score is better). Scores are only compared between
    positions with the same number of deals made, so the stock needs no weight."""

    down: int = 6  # a face-down card
    hard: int = 4  # neighbouring face-up cards that do not even fit by rank
    soft: int = 3  # fit by rank, wrong suit
    empty: int = 12  # bonus for an empty column
    run: int = 40  # bonus for a run removed
    bury: int = 0  # extra for each break (hard or soft) in a column with face-down cards
    tail: int = 0  # bonus for each card of a column's top same-suit run after its first


# A break above face-down cards costs one more than a break in a column with none: it
# stands between the search and a hidden card. An empty column earns little (3): with more
# the beam keeps columns empty, and emptying and refilling them costs moves (the lines
# found are 15-20% shorter with 3 than with 12; figures: bench/NOTES.md).
DEFAULT_WEIGHTS: Final = Weights(down=5, empty=3, bury=1)
# A second opinion: rank breaks cost less next to suit breaks. Passes alternate between
# the two, which finds wins that a wider beam with one heuristic misses.
ALT_WEIGHTS: Final = Weights(hard=3, soft=2, empty=3, bury=1)
# A third: a long same-suit run on top of a column earns a bonus per card. Alone it wins
# fewer deals at width 64 than the others, but largely different ones.
TAIL_WEIGHTS: Final = Weights(empty=3, bury=1, tail=1)


class Shortcut(NamedTuple):
    """A target position a pass met early (``beam_pass``'s ``hits``)."""

    saving: int  # actions saved: its distance less the depth it was met at
    distance: int  # its distance from the pass's root along the known line
    line: list[Move]  # the pass's way there from its root


@dataclass(slots=True)
class Node:
    """A position a pass starts from (``root_node``) or ends at, and the line to it from
    the pass's root."""

    cols: Columns
    down: tuple[int, ...]
    dealt: int
    removed: int = 0  # runs removed before it (its score counts them)
    moves: list[Move] = field(default_factory=list)

    def line(self) -> list[Move]:
        return list(self.moves)


def root_node(cols: Sequence[Sequence[int]], down: Sequence[int], dealt: int, removed: int) -> Node:
    """The position a pass starts from (runs already removed count in its score)."""
    return Node(tuple(tuple(c) for c in cols), tuple(down), dealt, removed)


def position_key(
    cols: Columns | list[Column], down: Sequence[int], dealt: int, stock_len: int
) -> int:
    """The key a pass gives a position (its ``seen`` set; ``targets`` and ``goals`` are
    keyed by it): column order counts while cards remain in the stock."""
    return _core.key(cols, down, dealt, stock_len)


def score(node: Node, stock_len: int, w: Weights = DEFAULT_WEIGHTS) -> int:
    """The heuristic score of ``node``'s position under ``w`` (lower is better)."""
    return _core.score(node.cols, node.down, node.dealt, node.removed, stock_len, w)


class Budget:
    """The node budget (primary, deterministic) and the seconds cap (a safety net)."""

    __slots__ = ("max_nodes", "deadline", "nodes", "timed_out")

    def __init__(self, max_nodes: int, max_seconds: float) -> None:
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + max_seconds
        self.nodes = 0
        self.timed_out = False

    def spent(self) -> bool:
        if self.nodes >= self.max_nodes:
            return True
        if time.perf_counter() >= self.deadline:
            self.timed_out = True
            return True
        return False


def beam_pass(
    root: Node,
    stock: tuple[int, ...],
    width: int,
    budget: Budget,
    w: Weights = DEFAULT_WEIGHTS,
    max_depth: int | None = None,
    targets: dict[int, int] | None = None,
    hits: list[Shortcut] | None = None,
    cuts: list[int] | None = None,
    progress: bool = True,
    goals: Mapping[int, object] | None = None,
    reached: list[object] | None = None,
    lost: Collection[int] | None = None,
    seen: list[int] | None = None,
) -> Node | None:
    """One beam pass at ``width`` per deal group, in the native core; returns the won
    position (with its line from ``root``) or None.

    ``budget`` counts every candidate move generated (duplicates included), as
    ``budget.nodes``; the pass stops within one position's move list of its
    ``max_nodes``, or at its deadline. With ``max_depth`` the pass gives up rather than
    look at lines longer than that (a known line bounds a re-search: each level of the
    beam is one action deeper, so the first win is the pass's shortest).

    ``targets`` maps position keys (``position_key``) to a distance: a position met at a
    depth below its distance is a shortcut, and ``hits`` keeps the one that saves most as
    ``[Shortcut]``.

    ``cuts[0]`` counts the positions the pass dropped unexpanded (past the beam's width, or
    sideways moves the progress rule left out): a pass that returns None with nothing cut
    and the budget not spent has searched every position reachable from ``root`` under the
    pruned move list, so the position has no win (``api.exhaust``). ``progress=False`` drops
    the progress rule, for such a search of everything.

    ``goals`` maps position keys to positions known to be won (``goals.Goals.keyed``): the
    first one met ends the pass, its position returned (not itself won) and the goal put in
    ``reached``, whose caller finishes the line (``goals.finish``).

    ``lost``: keys of positions known to be lost (the ``seen`` of an earlier pass over
    everything reachable from a position of the same deal, which found no win): met as if
    seen already, so they are not searched again. ``seen``: a list the pass adds the keys of
    every position it met to (``lost``'s included) when it ends for want of positions to
    expand; left as it was otherwise."""
    keys = list(goals) if goals else None
    status, line, end, goal, nodes, timed_out, cut, hit = _core.beam_pass(
        root.cols,
        root.down,
        root.dealt,
        root.removed,
        stock,
        width,
        w,
        budget.max_nodes,
        budget.nodes,
        max(0.0, budget.deadline - time.perf_counter()),
        max_depth=-1 if max_depth is None else max_depth,
        progress=progress,
        targets=targets if hits is not None else None,
        best_saving=hits[0].saving if hits else 0,
        goals=keys,
        deal_over_gap=type(stock) is GapStock,  # the table rule rides on the stock
        lost=lost,
        seen=seen,
    )
    budget.nodes = nodes
    if timed_out:
        budget.timed_out = True
    if cuts is not None:
        cuts[0] += cut
    if hit is not None and hits is not None:
        hits[:] = [Shortcut(*hit)]
    if end is None:
        return None
    if status == "goal":
        assert goals is not None and keys is not None and reached is not None
        reached.append(goals[keys[goal]])
    cols, down, dealt, removed = end
    return Node(cols, down, dealt, removed, line)
