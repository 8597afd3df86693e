"""Positions already known to be won, as goals a search may stop at.

Searching one game's positions one after another (the analysis, games/solver/analysis.py),
the wins found so far say more than "this position can be won": every position along a
winning line can be won by the rest of that line. A later search that reaches one of them
has found a win too, however far the beam would still have had to go, so the search from a
position a little past a known win (a move the player could have taken back, moves made
in another order) ends as soon as it meets that win's way, where a fresh search could miss
it within its budget.

A goal is kept in the compact model's terms (every column with its face-down cards, and
how many stock cards are left), so it fits any search of the same game: the stock still
to come is the same suffix of the deal's stock whichever position the search starts from.
Its key is worked out per search (``keyed``), the way the search keys its own positions
(``search.position_key``), so a goal is met by one lookup per new position. Once the
stock is out the search's key does not see the columns' order, so a goal met there may
have its columns in another order: ``finish`` puts the rest of its line into the
search's column numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import DEAL, Action, Board, Layout, Move, apply_action

from .model import Column
from .search import Node, position_key


@dataclass(frozen=True, slots=True)
class Goal:
    cols: tuple[Column, ...]  # every card, bottom to top
    down: tuple[int, ...]  # face-down cards per column
    stock_left: int  # stock cards still to deal
    rest: tuple[Action, ...]  # a win from here, replayed from the line it came from


class Goals:
    """The positions known to be won in one game, each with a win from it (the shortest
    known)."""

    def __init__(self) -> None:
        self._goals: dict[tuple[tuple[Column, ...], tuple[int, ...], int], Goal] = {}

    def __len__(self) -> int:
        return len(self._goals)

    def add(self, layout: Layout, line: Sequence[Action]) -> None:
        """Every position along ``line``, a win of ``layout`` (as the solver returns them:
        replayed already), with the rest of the line from it. Replayed here through the
        engine's checked path once more; a line that does not win adds nothing."""
        board = Board(layout)
        actions = tuple(line)
        along = []
        for k, action in enumerate(actions):
            cols = tuple(tuple(c) for c in board.cols)
            along.append(Goal(cols, tuple(board.down), len(board.stock) - board.dealt, actions[k:]))
            apply_action(board, action)
        if not board.won:
            return
        for goal in along:
            place = (goal.cols, goal.down, goal.stock_left)
            known = self._goals.get(place)
            if known is None or len(known.rest) > len(goal.rest):
                self._goals[place] = goal

    def keyed(self, stock_len: int) -> dict[int, Goal]:
        """The goals a search with ``stock_len`` stock cards to come can meet, by the key
        it gives a position (``search.position_key``)."""
        out: dict[int, Goal] = {}
        for goal in self._goals.values():
            dealt = stock_len - goal.stock_left
            if dealt < 0:
                continue  # a position from before a deal this search's root has made
            out[position_key(goal.cols, goal.down, dealt, stock_len)] = goal
        return out


def columns_map(node: Node, goal: Goal) -> list[int] | None:
    """Where each of the goal's columns is in ``node`` (the same position, its columns in
    any order once the stock is out), or None if ``node`` is not the goal's position (two
    positions whose keys collide)."""
    if node.cols == goal.cols and node.down == goal.down:
        return list(range(len(goal.cols)))
    if goal.stock_left:
        return None  # the key sees column order while cards are left to deal
    free: dict[tuple[Column, int], list[int]] = {}
    for i, (c, d) in enumerate(zip(node.cols, node.down, strict=True)):
        free.setdefault((c, d), []).append(i)
    where = []
    for c, d in zip(goal.cols, goal.down, strict=True):
        spots = free.get((c, d))
        if not spots:
            return None
        where.append(spots.pop(0))
    return where


def finish(where: list[int], goal: Goal) -> list[Move]:
    """The rest of the goal's win as the search's moves, in its column numbers
    (``columns_map``)."""
    out = []
    for action in goal.rest:
        src, dst, count = move = action.as_move
        out.append(move if move == DEAL else (where[src], where[dst], count))
    return out
