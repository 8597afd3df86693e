"""The solver's compact model's own API (games/solver/model.py): ``can_deal`` says what the
engine says; the hints' step agrees with the public view wherever no card is turned; a run
that lifted cards uncover leaves the table in a search too. Its step and move list are held
to the engine beside the native core's in tests/solver/test_step.py.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine import DEAL, Board, Layout, public_view
from games.engine.cards import parse_card
from games.solver import model, solve
from tests.engine.conftest import position
from tests.engine.test_properties import starts
from tests.solver.oracle import SETTINGS, TWO_KINDS, compact, either_rule, pick


@TWO_KINDS
@given(start=either_rule, picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=40))
def test_can_deal_is_the_engines(start: str, picks: list[int]) -> None:
    """At every step of a game, under either table rule."""
    board = Board(Layout.parse(start))
    stock = model.stock_of(board)
    for choice in picks:
        cols, _, dealt = compact(board)
        assert model.can_deal(cols, dealt, stock) == board.can_deal()
        move = pick(board, choice)
        if move is None:
            break
        board.play(move)


@SETTINGS
@given(start=starts(), picks=st.lists(st.integers(0, 2**16), min_size=5, max_size=80))
def test_the_hints_step_agrees_with_the_public_view(start: str, picks: list[int]) -> None:
    """The hints see the face-up cards only: where a move turns no card over, their step
    gives the public view the engine shows after it; where it turns one over, that column
    ends in the unknown card, and its hidden count is one less."""
    board = Board(Layout.parse(start))
    for choice in picks:
        move = pick(board, choice)
        if move is None or move == DEAL:
            break
        view = public_view(board)
        cols = tuple(tuple(map(parse_card, c["cards"])) for c in view["columns"])
        hid = tuple(c["hidden"] for c in view["columns"])
        ncols, nhid, runs = model.visible_step(cols, hid, move)
        outcome = board.play(move)
        after = public_view(board)
        assert runs == len(outcome.runs_removed)
        turned = {col for col, _ in outcome.turned}
        for i, column in enumerate(after["columns"]):
            assert nhid[i] == column["hidden"]
            if i in turned:
                assert ncols[i] == (model.UNKNOWN,)
            else:
                assert ncols[i] == tuple(map(parse_card, column["cards"]))
        if turned:
            break  # the model's unknown card is not the engine's: the views part here


def test_a_run_the_lifted_cards_uncover_leaves_the_table() -> None:
    """A layout may bury a completed run under other cards; lifting them off uncovers it,
    and the rules remove it (``Board.push``). The solver's model does too, so it finds the
    one-move win here (its model used to keep the run on the table and find no win)."""
    run = "KsQsJsTs9s8s7s6s5s4s3s2sAs"
    start = Layout.parse(position(1, {0: run + "5s4s3s2sAs", 1: "KsQsJsTs9s8s7s6s"}))
    result = solve(start, max_nodes=10_000)
    assert result.won and result.par == 1
    assert [a.as_move for a in result.line] == [(0, 1, 5)]
