"""The native core's own API (games/solver/native, ``games.solver._core``): its position
key, the deal over a gap and a search under it, and its answer to anything malformed
handed to it: ValueError with a message, never a crash (the fuzz tests below; make
sanitize runs this file against a build with AddressSanitizer and UBSan). Its step and
move list are held to the engine beside the Python model's in tests/solver/test_step.py."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine import DEAL, Board, Layout
from games.engine.cards import make_card
from games.engine.deal import deal_layout
from games.solver import _core
from tests.engine.test_properties import starts
from tests.solver.oracle import SETTINGS, played


# -- the key --------------------------------------------------------------------------------
def test_the_key_sees_column_order_only_while_cards_remain_in_the_stock() -> None:
    s = [make_card(0, r) for r in range(1, 14)]
    cols = [(s[12], s[11]), (s[3],), *[(s[k],) for k in range(2, 10)]]
    swapped = [cols[1], cols[0], *cols[2:]]
    down = [1] + [0] * 9
    swapped_down = [0, 1] + [0] * 8
    assert _core.key(cols, down, 0, 10) != _core.key(swapped, swapped_down, 0, 10)
    assert _core.key(cols, down, 10, 10) == _core.key(swapped, swapped_down, 10, 10)
    # The face-down count and the deals made are part of it.
    assert _core.key(cols, down, 10, 10) != _core.key(cols, [0] * 10, 10, 10)
    assert _core.key(cols, down, 10, 20) != _core.key(cols, down, 20, 20)


@SETTINGS
@given(
    start=starts(),
    picks=st.lists(st.integers(0, 2**16), max_size=40),
    pair=st.tuples(st.integers(0, 9), st.integers(0, 9)),
)
def test_a_column_swap_changes_the_key_while_cards_remain_in_the_stock(
    start: str, picks: list[int], pair: tuple[int, int]
) -> None:
    """Every swap, not most: a key summed from column hashes that mix the index in weakly
    (Python's tuple hash) calls about a quarter of such swaps the same position."""
    board = played(start, picks)
    i, j = pair
    cols = [tuple(c) for c in board.cols]
    down = list(board.down)
    if (cols[i], down[i]) == (cols[j], down[j]):
        return
    swapped, swapped_down = list(cols), list(down)
    swapped[i], swapped[j] = cols[j], cols[i]
    swapped_down[i], swapped_down[j] = down[j], down[i]
    n = len(board.stock)
    same = _core.key(cols, down, board.dealt, n) == _core.key(swapped, swapped_down, board.dealt, n)
    assert same == (board.dealt == n)


# -- the deal over a gap (a per-game rule) --------------------------------------------------
def test_the_deal_over_a_gap_is_allowed_only_with_fewer_than_ten_cards_on_the_table() -> None:
    s = [make_card(0, r) for r in range(1, 14)]
    h = [make_card(1, r) for r in range(1, 14)]
    few = [(s[12], s[11]), (h[3],), (), (), (), (), (), (), (), (h[5],)]  # four cards
    stock = tuple(h[:10])
    down = [1] + [0] * 9
    assert _core.step(few, down, 0, stock, DEAL) is None
    assert DEAL not in _core.moves(few, down, 0, stock)
    stepped = _core.step(few, down, 0, stock, DEAL, deal_over_gap=True)
    assert stepped is not None
    cols, new_down, dealt, turned, removed = stepped
    assert cols == tuple((*few[i], stock[i]) for i in range(10))
    assert (tuple(new_down), dealt, turned, removed) == (tuple(down), 10, [], 0)
    assert _core.moves(few, down, 0, stock, deal_over_gap=True)[-1] == DEAL
    # Ten cards on the table could fill every column: the gap still blocks the deal.
    many = [(*s[:9],), (h[3],), (), (), (), (), (), (), (), ()]
    assert _core.step(many, [0] * 10, 0, stock, DEAL, deal_over_gap=True) is None
    # The stock out: no deal, whatever the rule.
    assert _core.step(few, down, 10, stock, DEAL, deal_over_gap=True) is None


# -- bad input: ValueError, never a crash ---------------------------------------------------
junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=12) | st.lists(inner, max_size=12).map(tuple),
    max_leaves=40,
)
small = st.integers(-3, 300)
WEIGHTS = (5, 4, 3, 3, 40, 1, 0)


@st.composite
def near_positions(draw: st.DrawFn) -> tuple[Any, Any, Any, Any, Any]:
    """A real position (cols, down, dealt, stock, a move), then a few of its parts replaced
    by something near or far from valid: a card out of range, a count negative or too big,
    a column too many or too few, a column index 10."""
    board = Board(Layout.parse(draw(starts())))
    parts: list[Any] = [
        [list(c) for c in board.cols],
        list(board.down),
        board.dealt,
        list(board.stock),
        list(draw(st.sampled_from(board.legal_actions() or [DEAL]))),
    ]
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, 4))
        part = parts[k]
        how = draw(st.integers(0, 3))
        if how == 0 or not isinstance(part, list) or not part:
            parts[k] = draw(junk | small)
        elif how == 1:  # one element replaced
            part[draw(st.integers(0, len(part) - 1))] = draw(junk | small)
        elif how == 2:  # one element more
            part.append(draw(small | junk))
        else:  # inside a column: one card replaced
            inner = part[draw(st.integers(0, len(part) - 1))]
            if isinstance(inner, list) and inner:
                inner[draw(st.integers(0, len(inner) - 1))] = draw(small)
    return (parts[0], parts[1], parts[2], parts[3], parts[4])


def call_every_function(cols: Any, down: Any, dealt: Any, stock: Any, move: Any) -> None:
    """Each bound function returns or raises ValueError: nothing else."""
    calls = [
        lambda: _core.step(cols, down, dealt, stock, move),
        lambda: _core.step(cols, down, dealt, stock, move, deal_over_gap=True),
        lambda: _core.moves(cols, down, dealt, stock),
        lambda: _core.moves(cols, down, dealt, stock, deal_over_gap=True),
        lambda: _core.won(cols, down, dealt, stock),
        lambda: _core.key(cols, down, dealt, stock if isinstance(stock, int) else 50),
        lambda: _core.score(cols, down, dealt, 0, 50, move),
        lambda: _core.beam_pass(cols, down, dealt, 0, stock, 4, WEIGHTS, 500, 0, 5.0),
        lambda: _core.beam_pass(
            cols,
            down,
            dealt,
            0,
            stock,
            8,
            WEIGHTS,
            500,
            0,
            5.0,
            max_depth=3,
            progress=False,
            targets={1: 3},
            goals=[2, 3],
            lost={4, 5},
            seen=[],
        ),
        # The pass's own arguments garbled, the position's as given.
        lambda: _core.beam_pass(cols, down, dealt, dealt, stock, move, down, dealt, 0, 1.0),
        lambda: _core.beam_pass(
            cols, down, dealt, 0, stock, 2, WEIGHTS, 100, 0, 1.0, targets=move, goals=down
        ),
        lambda: _core.beam_pass(cols, down, dealt, 0, stock, 2, WEIGHTS, 100, 0, 1.0, lost=move),
        lambda: _core.beam_pass(cols, down, dealt, 0, stock, 2, WEIGHTS, 100, 0, 1.0, seen=down),
    ]
    for call in calls:
        try:
            call()
        except ValueError as exc:
            assert str(exc)  # a message that says what is wrong


@SETTINGS
@given(parts=near_positions())
def test_malformed_positions_raise_value_error(parts: tuple[Any, ...]) -> None:
    call_every_function(*parts)


@SETTINGS
@given(cols=junk, down=junk, dealt=junk | small, stock=junk, move=junk)
def test_garbage_raises_value_error(
    cols: Any, down: Any, dealt: Any, stock: Any, move: Any
) -> None:
    call_every_function(cols, down, dealt, stock, move)


def test_the_messages_say_what_is_wrong() -> None:
    board = Board(deal_layout(2, 1))
    cols = [list(c) for c in board.cols]
    down = list(board.down)
    stock = list(board.stock)
    cases: list[tuple[tuple[Any, ...], str]] = [
        ((cols[:9], down, 0, stock, DEAL), "10 columns"),
        ((cols, down, 0, stock, (0, 10, 1)), "destination"),
        ((cols, down, 0, stock, (0, 1, -1)), "count"),
        ((cols, [-1, *down[1:]], 0, stock, DEAL), "face-down count"),
        ((cols, down, -10, stock, DEAL), "dealt"),
        (([[99], *cols[1:]], down, 0, stock, DEAL), "not a card"),
        ((cols, down, 0, stock, (-1, 3, 0)), "the deal is"),
        ((cols, down, 0, stock[:7], DEAL), "multiple of 10"),
        ((cols, down, 0, "stock", DEAL), "list or tuple"),
    ]
    for args, words in cases:
        try:
            _core.step(*args)
        except ValueError as exc:
            assert words in str(exc), (words, str(exc))
        else:
            raise AssertionError(f"no ValueError for {words}")


def test_a_search_under_the_deal_over_a_gap_finds_the_win_only_that_rule_allows() -> None:
    """Three cards on the table, seven columns empty, the last ten cards in the stock: no
    way to fill every column, so no deal and no win under the usual rule (a search of
    every position says so); with the deal over a gap the deal is allowed, and the win the
    search finds replays step by step under that rule."""
    s = [make_card(0, r) for r in range(1, 14)]
    cols = [(s[12],), (s[11],), (s[10],), (), (), (), (), (), (), ()]  # Ks, Qs, Js
    down = [0] * 10
    stock = tuple(s[9::-1])  # Ts 9s ... As: one onto each column
    weights = (5, 4, 3, 3, 40, 1, 0)
    args = (cols, down, 0, 0, stock, 1 << 40, weights, 2_000_000, 0, 60.0)
    status, line, *_, cuts, _ = _core.beam_pass(*args, progress=False)
    assert (status, line, cuts) == ("none", [], 0)
    status, line, *_ = _core.beam_pass(*args, progress=False, deal_over_gap=True)
    assert status == "won" and DEAL in line
    at: tuple[Any, Any, int] = (cols, down, 0)
    for move in line:
        stepped = _core.step(at[0], at[1], at[2], stock, move, deal_over_gap=True)
        assert stepped is not None, move
        at = stepped[:3]
    assert _core.won(at[0], at[1], at[2], stock)
