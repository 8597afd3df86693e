"""Shortening a solver line: what comes out still wins through the engine, never longer."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Board, Move, deal_layout, replay
from games.solver import solve
from games.solver.api import HEURISTICS, to_actions
from games.solver.search import Budget, beam_pass, root_node
from games.solver.shorten import (
    Pos,
    _local,
    _resolve_suffixes,
    positions,
    shorten,
    step,
    won,
)
from tests.solver.oracle import compact


def start_of(board: Board) -> tuple[Pos, tuple[int, ...]]:
    return compact(board), tuple(board.stock)


@cache
def found_line(suits: int, seed: int) -> tuple[Move, ...]:
    """The search's own line (no shortening) for a deal."""
    result = solve(deal_layout(suits, seed), max_nodes=400_000, shorten_ratio=0)
    assert result.won and result.found_par == result.par
    return tuple(a.as_move for a in result.line)


def shortened(suits: int, seed: int, line: list[Move], nodes: int = 300_000) -> list[Move]:
    start, stock = start_of(Board(deal_layout(suits, seed)))
    return shorten(start, line, stock, HEURISTICS, Budget(nodes, 60.0))


def assert_wins(suits: int, seed: int, line: list[Move]) -> None:
    assert replay(deal_layout(suits, seed), to_actions(line)).won


def test_the_compact_model_agrees_with_the_engine_on_a_whole_line() -> None:
    line = list(found_line(1, 1))
    board = Board(deal_layout(1, 1))
    start, stock = start_of(board)
    trail = positions(start, line, stock)
    assert trail is not None and won(trail[-1], stock)
    for move, pos in zip(line, trail[1:], strict=True):
        board.push(move)
        assert pos == compact(board)


def test_the_model_refuses_what_the_engine_refuses() -> None:
    board = Board(deal_layout(2, 5))
    start, stock = start_of(board)
    legal = set(board.legal_moves())
    for src in range(10):
        for dst in range(10):
            for count in range(1, 6):
                assert (step(start, (src, dst, count), stock) is not None) == (
                    (src, dst, count) in legal
                )


def test_a_line_that_does_not_win_comes_back_unchanged() -> None:
    line = list(found_line(1, 1))[:-3]
    assert shortened(1, 1, line) == line


def test_shortening_a_found_line_keeps_the_win_and_is_never_longer() -> None:
    for suits, seed in ((1, 2), (2, 1)):
        line = list(found_line(suits, seed))
        short = shortened(suits, seed, line)
        assert len(short) <= len(line)
        assert_wins(suits, seed, short)


def test_shortening_is_deterministic_for_a_node_budget() -> None:
    line = list(found_line(2, 1))
    assert shortened(2, 1, line, 50_000) == shortened(2, 1, line, 50_000)


def test_solve_returns_the_shortened_line_as_its_par() -> None:
    start = deal_layout(2, 3)
    result = solve(start, max_nodes=400_000)
    assert result.won and result.found_par is not None and result.par is not None
    assert result.par == len(result.line) <= result.found_par
    assert result.shorten_nodes > 0
    assert replay(start, result.line).won


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from([1, 2]),
    detours=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=6),
    budget=st.sampled_from([0, 2_000, 300_000]),
)
def test_detours_added_to_a_winning_line_are_taken_out(
    seed: int, detours: list[tuple[int, int]], budget: int
) -> None:
    """Pad a winning line with moves that go somewhere and come straight back (or park a
    run and take it on later): the shortened line wins and is no longer than the padding
    left out, whatever the budget."""
    line = list(found_line(1, seed))
    padded = list(line)
    for at, pick in detours:
        i = at % (len(padded) + 1)
        board = replay(deal_layout(1, seed), to_actions(padded[:i]))
        before = board.key()
        moves = board.legal_moves()
        if not moves:
            continue
        move = moves[pick % len(moves)]
        board.push(move)
        back = (move[1], move[0], move[2])
        if back not in board.legal_moves():
            continue
        board.push(back)
        if board.key() != before:
            continue  # the detour turned a card over: it changed the game
        padded[i:i] = [move, back]
    assert replay(deal_layout(1, seed), to_actions(padded)).won
    short = shortened(1, seed, padded, budget)
    assert len(short) <= len(line)
    assert_wins(1, seed, short)


def test_re_searching_ends_at_two_widths_keeps_its_cuts_on_the_line() -> None:
    """A wider re-search after a narrower one shortened the end: the cuts are the shorter
    line's (with stale cuts this budget indexed past the line's end: IndexError)."""
    line = list(found_line(1, 3))
    start, stock = start_of(Board(deal_layout(1, 3)))
    budget = Budget(600_000, 600.0)
    local = _local(start, line, stock, budget)
    short = _resolve_suffixes(start, local, stock, HEURISTICS, budget)
    assert len(short) <= len(local) <= len(line)
    assert len(short) < len(line)
    assert_wins(1, 3, short)


def test_a_re_search_bounded_by_the_end_it_may_replace_never_returns_a_longer_one() -> None:
    line = list(found_line(2, 1))
    start, stock = start_of(Board(deal_layout(2, 1)))
    trail = positions(start, line, stock)
    assert trail is not None
    cut = max(i + 1 for i, move in enumerate(line) if move[0] < 0)
    cols, down, dealt = trail[cut]
    for bound in (0, 5, len(line) - cut - 1):
        root = root_node(cols, down, dealt, 0)
        node = beam_pass(root, stock, 64, Budget(10**6, 600.0), HEURISTICS[0], bound)
        assert node is None or len(node.line()) <= bound
    assert bound > 5
