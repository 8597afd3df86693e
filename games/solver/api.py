"""The public entry point: ``solve(layout, max_nodes=..., max_seconds=...)``."""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Final, Literal

from games.engine import DEAL, Action, Board, Layout, Move, replay

from .goals import Goal, Goals, columns_map, finish
from .model import start as model_start
from .model import stock_of
from .search import (
    ALT_WEIGHTS,
    DEFAULT_WEIGHTS,
    TAIL_WEIGHTS,
    Budget,
    Node,
    Weights,
    beam_pass,
    root_node,
)
from .shorten import deepen, shorten

DEFAULT_MAX_NODES: Final = 2_000_000
# No seconds given: the cap is derived from the node budget (``seconds_cap``).
DEFAULT_MAX_SECONDS: Final[float | None] = None
# The derived seconds cap assumes no slower than this many positions a second: several
# times below a loaded 2-core machine's rate (the shortening, in Python, about 60 000 to
# 160 000; the native core's search some millions), so on any machine
# short of a stall the node budget, not the clock, ends a search and the result is
# reproducible (a 4-suit deal used to be lost to a 120 s cap when the machine was busy).
MIN_NODES_PER_SECOND: Final = 5_000
# Beam widths (per deal group) of the successive passes, each tried with every heuristic
# of HEURISTICS in turn; after the last width, the width grows x4 while the budget lasts.
WIDTHS: Final = (8, 24, 64, 160, 400, 1000)
WIDTH_GROWTH: Final = 4
MAX_WIDTH: Final = 1 << 20  # about a million (the budget ends the passes long before)
HEURISTICS: Final = (DEFAULT_WEIGHTS, ALT_WEIGHTS, TAIL_WEIGHTS)
# The search's heuristics per suit mode. With four suits empty columns are the room to sort
# suits in: at 3 the narrow passes lose more four-suit deals and the search costs about
# twice as much, so it searches with 8 there and leaves the rest to the shortening, which
# re-searches with HEURISTICS (figures: bench/NOTES.md).
SEARCH_HEURISTICS: Final = {4: tuple(w._replace(empty=8) for w in HEURISTICS)}
# A pass gives up below this many actions per card left (on the table and in the stock): a
# beam that never dies out (a few cards, empty columns and a deal to come: positions that
# fill every column score worse than those that empty one, so the beam never deals) would
# otherwise spend the whole budget in its first, narrowest pass. A full deal's lines are
# far shorter than 4 x 104 (found lines: about 100 to 250), so deals search as before
# (seeds 1..30 at 1 and 2 suits, 1..20 at 4: the same result and positions).
PASS_DEPTH_PER_CARD: Final = 4
# ``exhaust``'s beam width: no bound (every position found is expanded).
UNBOUNDED: Final = 1 << 62
# Shortening a found line (``shorten.py``) may generate this many positions per position
# the search generated to find it (so a deal costs at most about twice the search), and at
# least SHORTEN_MIN_NODES. 0: no shortening.
SHORTEN_RATIO: Final = 1.0
# Per suit mode where it differs: a four-suit search is the slowest, and at 1.0 the deal cost
# 3.0x the search alone where the bound is 2x (0.5: 2.2x; 0.25: 1.8x, par 165 for 154 at 1.0;
# seeds 1..30, bench/NOTES.md).
SHORTEN_RATIOS: Final = {4: 0.25}
SHORTEN_MIN_NODES: Final = 20_000
# ``improve`` (the daily challenge's par): the beam widths of its passes over the whole line,
# each with every heuristic, and the share of its budget kept for polishing what they leave.
# At 2 suits one width-64 round of three passes (some 700 000 positions) cut seeds 1..6 from
# a median 118 to 103; width 200 after it took 2.4 million more for about one action
# (bench/NOTES.md).
IMPROVE_WIDTHS: Final = (64, 200)
IMPROVE_MAX_NODES: Final = 4_000_000
IMPROVE_POLISH_SHARE: Final = 0.1
SECONDS_DIGITS: Final = 3  # a result's seconds, to the millisecond


class SolverBug(AssertionError):
    """A line the search called a win does not replay to a win: never returned."""


@dataclass(slots=True)
class SolveResult:
    status: Literal["won", "unknown"]
    line: list[Action] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    timed_out: bool = False  # the seconds cap stopped the search (result not reproducible)
    widths: list[int] = field(default_factory=list)  # beam widths tried, in order
    found_par: int | None = None  # the line's length as the search found it, before shortening
    shorten_nodes: int = 0  # positions the shortening generated (not in ``nodes``)
    # "unknown" only: a pass searched every position reachable under the pruned move list
    # (which loses no win) and met no win, so the layout cannot be won. False says nothing.
    exhausted: bool = False
    # ``exhaust`` given ``lost``, when ``exhausted``: the keys of every position it searched
    # (``lost``'s included), each lost (``search.beam_pass``'s ``seen``).
    lost_keys: list[int] = field(default_factory=list)

    @property
    def par(self) -> int | None:
        return len(self.line) if self.status == "won" else None

    @property
    def won(self) -> bool:
        return self.status == "won"

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "par": self.par,
            "nodes": self.nodes,
            "seconds": round(self.seconds, SECONDS_DIGITS),
            "timed_out": self.timed_out,
            "exhausted": self.exhausted,
            "line": [a.to_json() for a in self.line],
        }


def to_actions(moves: list[tuple[int, int, int]]) -> list[Action]:
    return [Action("deal") if m == DEAL else Action.move(*m) for m in moves]


def verify(layout: Layout, line: list[Action]) -> None:
    """Replay ``line`` through the engine's checked path; raise SolverBug unless it wins."""
    try:
        board = replay(layout, line)
    except Exception as exc:  # an illegal action is a solver bug, whatever its type
        raise SolverBug(f"solver line does not replay: {exc}") from exc
    if not board.won:
        raise SolverBug("solver line replays but does not win")


def solve(
    layout: Layout,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    widths: tuple[int, ...] = WIDTHS,
    heuristics: tuple[Weights, ...] | None = None,
    shorten_ratio: float | None = None,
    goals: Goals | None = None,
) -> SolveResult:
    """Search for a winning line of ``layout`` with every card known.

    ``max_nodes`` is the primary, deterministic budget: positions generated (every
    candidate move counts, duplicates included); the search stops within one position's
    move list of it; the shortening of a found line may generate up to ``shorten_ratio``
    (None: SHORTEN_RATIOS for the suit mode, else SHORTEN_RATIO) times what the search
    generated on top. ``max_seconds`` is a safety cap only (None:
    ``seconds_cap``, derived from the node budget): when it stops the search first, the
    result depends on the machine's speed and is no longer reproducible (``timed_out``
    says so). A ``won`` result's line has been replayed through ``games.engine.replay``
    and wins; ``unknown`` means no win was found in the budget,
    not that the deal is unwinnable, unless ``exhausted`` says a pass searched every
    reachable position (small endgames; see ``exhaust`` for a search that aims to).
    ``heuristics`` (None: SEARCH_HEURISTICS for the
    layout's suit mode, else HEURISTICS) are the search's; the shortening re-searches with
    them when given, else with HEURISTICS. ``goals``: positions of the same game known to
    be won (``goals.Goals``); a pass that meets one has found a win (its line there, then
    the goal's).
    """
    t0 = time.perf_counter()
    board = Board(layout)
    result = SolveResult("unknown")
    if board.won:
        result.status = "won"
        result.seconds = time.perf_counter() - t0
        return result
    stock = stock_of(board)  # under the layout's table rule
    if shorten_ratio is None:
        shorten_ratio = SHORTEN_RATIOS.get(layout.suits, SHORTEN_RATIO)
    polishing = heuristics or HEURISTICS
    if heuristics is None:
        heuristics = SEARCH_HEURISTICS.get(layout.suits, HEURISTICS)
    root = root_node(board.cols, board.down, board.dealt, len(board.removed))
    if max_seconds is None:
        max_seconds = seconds_cap(int(max_nodes * (1 + shorten_ratio)))
    budget = Budget(max_nodes, max_seconds)
    cards = sum(len(c) for c in board.cols) + len(stock) - board.dealt
    depth = PASS_DEPTH_PER_CARD * cards
    keyed = goals.keyed(len(stock)) if goals else None
    for width, k in _schedule(widths, len(heuristics)):
        if budget.spent():
            break
        result.widths.append(width)
        cuts = [0]
        reached: list[object] = []
        node = beam_pass(
            root,
            stock,
            width,
            budget,
            heuristics[k],
            depth,
            cuts=cuts,
            goals=keyed,
            reached=reached,
        )
        moves = _line_to(node, reached, cuts)
        if moves is None and not cuts[0] and not budget.spent():
            result.exhausted = True  # nothing was left out: a wider pass finds no more
            break
        if moves is not None:
            result.found_par = len(moves)
            if shorten_ratio > 0:
                polish = Budget(
                    max(SHORTEN_MIN_NODES, int(shorten_ratio * budget.nodes)),
                    max(0.0, budget.deadline - time.perf_counter()),
                )
                start = (root.cols, root.down, board.dealt)
                moves = shorten(start, moves, stock, polishing, polish)
                result.shorten_nodes = polish.nodes
            line = to_actions(moves)
            verify(layout, line)
            result.status = "won"
            result.line = line
            break
    result.nodes = budget.nodes
    result.timed_out = budget.timed_out and result.status != "won"
    result.seconds = time.perf_counter() - t0
    return result


def exhaust(
    layout: Layout,
    *,
    max_nodes: int,
    max_seconds: float | None = None,
    goals: Goals | None = None,
    lost: Collection[int] | None = None,
) -> SolveResult:
    """Try to settle ``layout`` for certain: one breadth-first pass over every position
    reachable under the pruned move list (no beam width, no progress rule), within
    ``max_nodes`` positions. ``won`` (the shortest win, replayed through the engine), or
    ``unknown`` with ``exhausted`` when every reachable position was searched and none is
    a win (the layout is lost), or ``unknown`` alone when the budget ran out first. Only
    small positions (an endgame, a stuck table) fit; memory grows with the positions kept,
    so keep ``max_nodes`` to a few hundred thousand. ``goals`` as in ``solve`` (the win is
    then the first found, not the shortest).

    ``lost``: keys of positions of the same deal known to be lost (``lost_keys`` of earlier
    proofs), not searched again: a position whose moves lead only to them and to positions
    this search exhausts is lost too, so proofs of the positions of one game, the later
    first, each cost little more than what the later ones did not search. When ``lost`` is
    given and the layout is proved lost, ``lost_keys`` holds the keys to give the next."""
    t0 = time.perf_counter()
    board = Board(layout)
    result = SolveResult("unknown")
    if board.won:
        result.status = "won"
        return result
    stock = stock_of(board)  # under the layout's table rule
    root = root_node(board.cols, board.down, board.dealt, len(board.removed))
    budget = Budget(max_nodes, seconds_cap(max_nodes) if max_seconds is None else max_seconds)
    cuts = [0]
    reached: list[object] = []
    seen: list[int] | None = None if lost is None else []
    node = beam_pass(
        root,
        stock,
        UNBOUNDED,
        budget,
        DEFAULT_WEIGHTS,
        progress=False,
        cuts=cuts,
        goals=goals.keyed(len(stock)) if goals else None,
        reached=reached,
        lost=lost,
        seen=seen,
    )
    moves = _line_to(node, reached, cuts)
    if moves is not None:
        result.line = to_actions(moves)
        verify(layout, result.line)
        result.status = "won"
    else:
        result.exhausted = not cuts[0] and not budget.spent()
        if result.exhausted and seen is not None:
            result.lost_keys = seen
    result.nodes = budget.nodes
    result.timed_out = budget.timed_out and result.status != "won"
    result.seconds = time.perf_counter() - t0
    return result


def polish(layout: Layout, line: list[Action], *, max_nodes: int) -> tuple[list[Action], int]:
    """``line``, a win of ``layout``, shortened (``shorten.shorten``) within ``max_nodes``
    positions and replayed through the engine, and the positions spent; raises SolverBug if
    ``line`` does not win."""
    verify(layout, line)
    start, stock = model_start(layout)
    budget = Budget(max_nodes, seconds_cap(max_nodes))
    moves = shorten(start, [a.as_move for a in line], stock, HEURISTICS, budget)
    shorter = to_actions(moves)
    if len(shorter) >= len(line):
        return list(line), budget.nodes
    verify(layout, shorter)
    return shorter, budget.nodes


def improve(
    layout: Layout,
    line: list[Action],
    *,
    max_nodes: int = IMPROVE_MAX_NODES,
    max_seconds: float | None = None,
    widths: tuple[int, ...] = IMPROVE_WIDTHS,
) -> SolveResult:
    """A winning line of ``layout`` no longer than ``line`` (one of its winning lines, such
    as the one vetting found): the whole line searched again with wider beams, each pass
    bounded by the best line so far (``shorten.deepen``). Anytime: whatever stops it (the
    node budget, deterministic; the seconds cap, a safety net as in ``solve``), the result
    is the shortest line found so far, replayed through the engine. ``found_par`` is the
    given line's length. Raises SolverBug if ``line`` is not a win of ``layout``."""
    t0 = time.perf_counter()
    verify(layout, line)
    start, stock = model_start(layout)
    moves = [a.as_move for a in line]
    if max_seconds is None:
        max_seconds = seconds_cap(max_nodes)
    budget = Budget(max_nodes, max_seconds)
    reserve = int(max_nodes * IMPROVE_POLISH_SHARE)
    best = deepen(start, moves, stock, HEURISTICS, widths, budget, reserve)
    result = SolveResult("won", nodes=budget.nodes, found_par=len(line), widths=list(widths))
    result.line = to_actions(best) if len(best) < len(line) else list(line)
    verify(layout, result.line)
    result.timed_out = budget.timed_out
    result.seconds = time.perf_counter() - t0
    return result


def _line_to(node: Node | None, reached: list[object], cuts: list[int]) -> list[Move] | None:
    """The winning line a pass ended with: to its won node, or to a goal it met and on with
    the goal's win; None when it found neither, or met a goal only by a key collision (the
    pass then counts as cut short, so it proves nothing)."""
    if node is None:
        return None
    moves = node.line()
    if not reached:
        return moves
    goal = reached[0]
    assert isinstance(goal, Goal)
    where = columns_map(node, goal)
    if where is None:
        cuts[0] += 1
        return None
    return moves + finish(where, goal)


def seconds_cap(max_nodes: int) -> float:
    """The seconds cap of a solve given none: ``max_nodes`` at MIN_NODES_PER_SECOND."""
    return 10.0 + max_nodes / MIN_NODES_PER_SECOND


def _schedule(widths: tuple[int, ...], heuristics: int) -> Iterator[tuple[int, int]]:
    """(width, heuristic index) of each pass: every width with every heuristic, then the
    last width x4, x16, ... (``WIDTH_GROWTH``, up to ``MAX_WIDTH``)."""
    width = 0
    for width in widths:
        for k in range(heuristics):
            yield width, k
    while width < MAX_WIDTH:
        width *= WIDTH_GROWTH
        for k in range(heuristics):
            yield width, k
