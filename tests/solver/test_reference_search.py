"""The native core's beam pass is the pass games/solver/search.py documents: on real deals,
with each heuristic, narrow and wider beams, bounded depth and the progress rule off, it
returns the same line, spends the same positions and cuts the same as a slow reference
written from the docstring (tests/solver/reference_search.py)."""

from __future__ import annotations

import pytest

import games.solver.api as api
from games.engine import Board, Layout, deal_layout
from games.solver import search
from tests.solver import reference_search
from tests.solver.oracle import compact


def both(board: Board, width: int, w: search.Weights, max_nodes: int, **kw: object):
    stock = tuple(board.stock)
    start = compact(board)
    removed = len(board.removed)
    ref = reference_search.beam_pass(start, removed, stock, width, w, max_nodes, **kw)  # type: ignore[arg-type]
    budget = search.Budget(max_nodes, 600.0)
    cuts = [0]
    root = search.root_node(board.cols, board.down, board.dealt, removed)
    node = search.beam_pass(root, stock, width, budget, w, cuts=cuts, **kw)  # type: ignore[arg-type]
    core = reference_search.Outcome(None if node is None else node.line(), budget.nodes, cuts[0])
    return core, ref


@pytest.mark.slow
@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("k", range(3))
def test_the_core_pass_is_the_documented_pass(suits: int, k: int) -> None:
    w = api.HEURISTICS[k]
    for seed, width in ((k + 1, 8), (k + 7, 24)):
        core, ref = both(Board(deal_layout(suits, seed)), width, w, 12_000)
        assert core == ref, (suits, seed, width)


def test_a_bounded_pass_and_a_pass_without_the_progress_rule_agree_too() -> None:
    board = Board(deal_layout(2, 4))
    for kw in ({"max_depth": 30}, {"progress": False}):
        core, ref = both(board, 16, api.HEURISTICS[1], 10_000, **kw)
        assert core == ref, kw


@pytest.mark.parametrize(
    ("text", "wins"),
    [
        ("1 |KsQsJsTs9s8s7s6s5s4s/|3s/2s|As/|/|/|/|/|/|/| - -", True),
        # Two 3s and two 2s, no Ace's run to finish: lost, and the search says so.
        ("1 |KsQsJsTs9s8s7s6s5s4s/|3s/3s|2s/|As/|2s/|/|/|/|/| - -", False),
    ],
)
def test_an_endgame_searched_to_the_end_agrees(text: str, wins: bool) -> None:
    """Every position searched (exhaust's pass): the same win or none, positions, cuts."""
    board = Board(Layout.parse(text))
    core, ref = both(board, api.UNBOUNDED, search.DEFAULT_WEIGHTS, 100_000, progress=False)
    assert core == ref
    assert (core.line is not None) == wins and core.cuts == 0
