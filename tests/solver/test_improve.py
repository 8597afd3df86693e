"""Improving a known winning line with wider searches (``games.solver.improve``, the daily
challenge's par): the result still wins through the engine, is never longer, is the same for
the same budget, and an improvement stopped early is still a win."""

from __future__ import annotations

from functools import cache

import pytest

from games.engine import Action, deal_layout, replay
from games.solver import SolverBug, SolveResult, improve, solve

# 2-suit seed 1: vetting's line is 125 actions; one width-64 round from the start finds 96.
SUITS, SEED, NODES = 2, 1, 300_000


@cache
def vetted() -> SolveResult:
    result = solve(deal_layout(SUITS, SEED), max_nodes=4_000_000)
    assert result.won
    return result


@cache
def improved() -> SolveResult:
    return improve(deal_layout(SUITS, SEED), vetted().line, max_nodes=NODES)


def test_a_wider_search_finds_a_much_shorter_line_that_wins() -> None:
    before, after = vetted(), improved()
    assert after.won and after.par is not None and before.par is not None
    assert after.par <= before.par - 10, (before.par, after.par)
    assert after.found_par == before.par
    assert replay(deal_layout(SUITS, SEED), after.line).won
    assert 0 < after.nodes <= NODES + 200  # the budget, give or take one position's moves
    assert not after.timed_out


def test_the_same_budget_gives_the_same_line() -> None:
    again = improve(deal_layout(SUITS, SEED), vetted().line, max_nodes=NODES)
    assert [a.to_json() for a in again.line] == [a.to_json() for a in improved().line]


def test_a_budget_too_small_for_a_pass_keeps_the_line() -> None:
    before = vetted()
    result = improve(deal_layout(SUITS, SEED), before.line, max_nodes=1_000)
    assert result.won
    assert result.par is not None and before.par is not None and result.par <= before.par
    assert replay(deal_layout(SUITS, SEED), result.line).won


def test_stopped_by_the_clock_it_still_returns_a_winning_line() -> None:
    before = vetted()
    result = improve(deal_layout(SUITS, SEED), before.line, max_nodes=10_000_000, max_seconds=0.3)
    assert result.timed_out
    assert result.par is not None and before.par is not None and result.par <= before.par
    assert replay(deal_layout(SUITS, SEED), result.line).won


def test_a_line_that_does_not_win_is_refused() -> None:
    line = vetted().line
    with pytest.raises(SolverBug):
        improve(deal_layout(SUITS, SEED), line[:-1], max_nodes=10_000)
    with pytest.raises(SolverBug):
        improve(deal_layout(SUITS, SEED + 1), line, max_nodes=10_000)  # another deal's line
    with pytest.raises(SolverBug):
        improve(deal_layout(SUITS, SEED), [Action("deal")] * 6, max_nodes=10_000)
