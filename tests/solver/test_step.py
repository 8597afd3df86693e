"""The solver's two steps, the Python model's (games/solver/model.py: the shortening, the
carried wins and the hints step through it) and the native core's (games/solver/native: the
searches), held to the engine's ``Board.push`` by the same tests: every step gives the
position the engine gives, turns over the same cards and removes the same runs, deals and
runs completed by a deal included; the checked step refuses exactly what the engine
refuses; the moves a search tries are legal, the deal last exactly when it is legal (every
legal action where the deal may go over a gap); and the core tries the model's moves in the
model's order. Under the table rule deal_over_gap too: endgames with fewer than ten cards on
the table, empty columns and deals left, where the deal may go over the gaps.

What only one side has is in its own module: the hints' step and ``can_deal`` in
test_model.py; the core's key, its search under the deal over a gap and its answer to bad
input in test_core.py. ``make sanitize`` runs this module against the core built with the
sanitizers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import DEAL, Board, Layout, Move
from games.solver import _core, model
from games.solver.model import Position
from tests.engine.test_properties import starts
from tests.solver.oracle import (
    SETTINGS,
    TWO_KINDS,
    allows,
    assert_search_moves,
    compact,
    either_rule,
    gap_endgames,
    near_runs,
    pick,
)

Stock = tuple[int, ...]
# Actions to try on a position: sources and destinations one past either end included.
tries = st.lists(st.tuples(st.integers(-1, 10), st.integers(-1, 10), st.integers(0, 14)))


class Stepped(NamedTuple):
    pos: Position
    turned: list[tuple[int, int]]  # (column, card) of each card turned face up
    removed: int  # runs completed


@dataclass(frozen=True)
class Side:
    """One of the solver's steps, as the tests call it (the table rule rides on the stock:
    ``model.stock_of`` gives a ``GapStock`` under deal_over_gap)."""

    step: Callable[[Position, Move, Stock], Stepped | None]  # checked: None where refused
    moves: Callable[[Position, Stock], list[Move]]  # what a search tries
    won: Callable[[Position, Stock], bool]
    # What it raises for what is not a move at all (a column 10, a count 0); () if nothing.
    not_a_move: tuple[type[Exception], ...]


def model_step(pos: Position, move: Move, stock: Stock) -> Stepped | None:
    after = model.step(pos, move, stock)
    if after is None:
        return None
    pushed, removed = model.push(pos, move, stock)
    assert pushed == after  # the searches' unchecked step is the checked one
    return Stepped(after, model.turned(pos, after), removed)


def core_step(pos: Position, move: Move, stock: Stock) -> Stepped | None:
    cols, down, dealt = pos
    gap = type(stock) is model.GapStock
    out = _core.step(cols, down, dealt, tuple(stock), move, deal_over_gap=gap)
    if out is None:
        return None
    cols, down, dealt, turned, removed = out
    return Stepped((cols, down, dealt), turned, removed)


def core_moves(pos: Position, stock: Stock) -> list[Move]:
    cols, down, dealt = pos
    return _core.moves(cols, down, dealt, tuple(stock), deal_over_gap=type(stock) is model.GapStock)


MODEL = Side(
    step=model_step,
    moves=lambda pos, stock: model.search_moves(*pos, stock),
    won=model.won,
    not_a_move=(),
)
CORE = Side(
    step=core_step,
    moves=core_moves,
    won=lambda pos, stock: _core.won(*pos, tuple(stock)),
    not_a_move=(ValueError,),
)
SIDES = pytest.mark.parametrize("side", [MODEL, CORE], ids=["model", "core"])


def play_agreeing(side: Side, start: str, picks: list[int]) -> Board:
    """Play ``picks`` from ``start`` on a Board and through ``side``, checking every step
    and every move list."""
    board = Board(Layout.parse(start))
    stock = model.stock_of(board)
    for choice in picks:
        before = compact(board)
        assert_search_moves(board, side.moves(before, stock))
        move = pick(board, choice)
        if move is None:
            break
        stepped = side.step(before, move, stock)
        outcome = board.play(move)  # the checked path: check_move / check_deal, then push
        assert stepped is not None, f"{board.notation()} refused {move}"
        assert stepped.pos == compact(board), f"{board.notation()} after {move}"
        assert sorted(stepped.turned) == sorted(outcome.turned)
        assert stepped.removed == len(outcome.runs_removed)
        assert side.won(stepped.pos, stock) == board.won
    return board


@SIDES
@SETTINGS
@given(start=starts(), picks=st.lists(st.integers(0, 2**16), min_size=10, max_size=80))
def test_every_step_agrees_with_the_engine(side: Side, start: str, picks: list[int]) -> None:
    play_agreeing(side, start, picks)


@SIDES
@SETTINGS
@given(start=near_runs(), picks=st.lists(st.integers(0, 2**16), max_size=40))
def test_runs_completed_by_a_deal_agree_with_the_engine(
    side: Side, start: str, picks: list[int]
) -> None:
    board = Board(Layout.parse(start))
    assert board.can_deal()
    before = compact(board)
    stepped = side.step(before, DEAL, model.stock_of(board))
    outcome = board.play(DEAL)
    assert stepped is not None
    assert stepped.removed == len(outcome.runs_removed) >= 1
    assert stepped.pos == compact(board)
    assert sorted(stepped.turned) == sorted(outcome.turned)
    play_agreeing(side, board.layout().notation(), picks)


@SIDES
@SETTINGS
@given(start=gap_endgames(), picks=st.lists(st.integers(0, 2**16), max_size=30))
def test_every_step_under_deal_over_gap_agrees_with_the_engine(
    side: Side, start: str, picks: list[int]
) -> None:
    board = Board(Layout.parse(start))
    assert board.deal_over_gap
    if board.cards_on_table() < 10 and not board.won:
        assert board.can_deal()  # a deal over the gaps, whatever the table
    board = play_agreeing(side, start, picks)
    stock = model.stock_of(board)
    assert (side.step(compact(board), DEAL, stock) is not None) == board.can_deal()


@SIDES
@TWO_KINDS
@given(start=either_rule, picks=st.lists(st.integers(0, 2**16), max_size=40), moves=tries)
def test_the_checked_step_refuses_what_the_engine_refuses(
    side: Side, start: str, picks: list[int], moves: list[Move]
) -> None:
    """Under either table rule."""
    board = play_agreeing(side, start, picks)
    if board.won:
        return
    pos = compact(board)
    stock = model.stock_of(board)
    for move in [*moves, DEAL]:
        if move[0] < 0 and move != DEAL:
            continue  # not an action the solver names
        try:
            accepted = side.step(pos, move, stock) is not None
        except side.not_a_move:
            accepted = False
        assert accepted == allows(board, move), move


@TWO_KINDS
@given(start=either_rule, picks=st.lists(st.integers(0, 2**16), max_size=80))
def test_the_core_tries_the_models_moves_in_the_models_order(start: str, picks: list[int]) -> None:
    """The same list, not only the same set: both searches then go the same way."""
    board = Board(Layout.parse(start))
    stock = model.stock_of(board)
    for choice in picks:
        pos = compact(board)
        assert CORE.moves(pos, stock) == MODEL.moves(pos, stock)
        move = pick(board, choice)
        if move is None:
            break
        board.play(move)
