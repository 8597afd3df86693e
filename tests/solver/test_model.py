"""The solver's compact model (games/solver/model.py) is held to the engine: every step
gives the position ``Board.push`` gives, turns over the same cards and removes the same
runs, deals and runs completed by a deal included; the checked step refuses exactly what
the engine refuses; the hints' step agrees with the public view wherever no card is turned.
Under the table rule deal_over_gap too: endgames with fewer than ten cards on the table,
empty columns and deals left, where the deal may go over the gaps.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import DEAL, Board, IllegalAction, Layout, Move, public_view
from games.engine.cards import RUN_LENGTH, full_deck, parse_card
from games.engine.layout import COLUMNS
from games.solver import model, solve
from games.solver.model import Position
from tests.engine.conftest import position
from tests.engine.test_properties import starts

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JOIN_FIRST = 3  # of every 4 picks, 3 prefer a move that joins a suit (runs get completed)


@st.composite
def near_runs(draw: st.DrawFn) -> str:
    """A layout where the first deal completes runs: some columns show King..2 of a suit
    (over face-down cards or not) and the deal brings their Aces; the other cards lie
    shuffled over the other columns and the rest of the stock."""
    suits = draw(st.sampled_from([1, 2, 4]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = full_deck(suits)
    runs = [deck[i : i + RUN_LENGTH][::-1] for i in range(0, len(deck), RUN_LENGTH)]
    rng.shuffle(runs)
    near = draw(st.integers(1, 3))
    targets = rng.sample(range(COLUMNS), near)
    rest = [c for run in runs[near:] for c in run]
    rng.shuffle(rest)
    del rest[: draw(st.integers(0, 10))]  # a partial layout: fewer cards, shorter games
    first_deal = [0] * COLUMNS
    columns: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())] * COLUMNS
    for k, col in enumerate(targets):
        first_deal[col] = runs[k][-1]  # the Ace
        under = tuple(rest.pop() for _ in range(draw(st.integers(0, 3))))
        columns[col] = (under, tuple(runs[k][:-1]))
    for col in range(COLUMNS):
        if col not in targets:
            first_deal[col] = rest.pop()
            pile = [rest.pop() for _ in range(rng.randint(1, 4))]
            down = rng.randint(0, len(pile) - 1)
            columns[col] = (tuple(pile[:down]), tuple(pile[down:]))
    more = 10 * rng.randint(0, len(rest) // 20)
    stock = tuple(first_deal) + tuple(rest[:more])
    others = [col for col in range(COLUMNS) if col not in targets]
    for card in rest[more:]:  # the cards left over go face up onto the other columns
        col = rng.choice(others)
        columns[col] = (columns[col][0], (*columns[col][1], card))
    return Layout(suits, tuple(columns), stock).notation()


@st.composite
def gap_endgames(draw: st.DrawFn) -> str:
    """A game under deal_over_gap near its end: 0 to 14 cards on the table (often fewer
    than ten) over a few columns, some face down, the others empty, one to three deals left
    in the stock, and the runs the rest of the deck made removed."""
    suits = draw(st.sampled_from([1, 2, 4]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = full_deck(suits)
    runs = [deck[i : i + RUN_LENGTH][::-1] for i in range(0, len(deck), RUN_LENGTH)]
    rng.shuffle(runs)
    deals = draw(st.integers(1, 3))
    table = draw(st.integers(0, 14))
    kept = -(-(table + 10 * deals) // RUN_LENGTH)  # whole runs to cut the cards from
    removed = tuple(run[0] >> model.SUIT_SHIFT for run in runs[kept:])
    cards = [c for run in runs[:kept] for c in run]
    if draw(st.booleans()):  # runs in order: deals that complete them, moves that join
        cards = cards[: table + 10 * deals]
    else:
        rng.shuffle(cards)
    del cards[table + 10 * deals :]
    on_table, stock = cards[:table], cards[table:]
    columns: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())] * COLUMNS
    piles = rng.sample(range(COLUMNS), draw(st.integers(1, 4)))
    for n, card in enumerate(on_table):
        i = piles[n % len(piles)]
        columns[i] = ((), (*columns[i][1], card))
    for i in piles:  # some cards face down under the last one
        up = columns[i][1]
        down = rng.randint(0, max(0, len(up) - 1))
        columns[i] = (up[:down], up[down:])
    layout = Layout(suits, tuple(columns), tuple(stock), removed, deal_over_gap=True)
    return layout.notation()


def compact(board: Board) -> Position:
    return tuple(map(tuple, board.cols)), tuple(board.down), board.dealt


def pick(board: Board, choice: int) -> Move | None:
    actions = board.legal_actions()
    if not actions or board.won:
        return None
    if choice % (JOIN_FIRST + 1):
        cols = board.cols
        joins = [
            m
            for m in actions
            if m == DEAL or (cols[m[1]] and cols[m[1]][-1] == cols[m[0]][-m[2]] + 1)
        ]
        actions = joins or actions
    return actions[choice // (JOIN_FIRST + 1) % len(actions)]


def play_agreeing(start: str, picks: list[int]) -> Board:
    """Play ``picks`` from ``start`` on a Board and in the model, checking every step."""
    board = Board(Layout.parse(start))
    stock = model.stock_of(board)
    for choice in picks:
        move = pick(board, choice)
        if move is None:
            break
        before = compact(board)
        pos, removed = model.push(before, move, stock)
        assert model.step(before, move, stock) == pos
        outcome = board.play(move)  # the checked path: check_move / check_deal, then push
        assert pos == compact(board), f"{board.notation()} after {move}"
        assert sorted(model.turned(before, pos)) == sorted(outcome.turned)
        assert removed == len(outcome.runs_removed)
        assert model.won(pos, stock) == board.won
    return board


@SETTINGS
@given(start=starts(), picks=st.lists(st.integers(0, 2**16), min_size=10, max_size=80))
def test_every_step_agrees_with_the_engine(start: str, picks: list[int]) -> None:
    play_agreeing(start, picks)


@SETTINGS
@given(start=near_runs(), picks=st.lists(st.integers(0, 2**16), max_size=40))
def test_runs_completed_by_a_deal_agree_with_the_engine(start: str, picks: list[int]) -> None:
    board = Board(Layout.parse(start))
    assert board.can_deal()
    before = compact(board)
    pos, removed = model.push(before, DEAL, tuple(board.stock))
    outcome = board.play(DEAL)
    assert removed == len(outcome.runs_removed) >= 1
    assert pos == compact(board)
    assert sorted(model.turned(before, pos)) == sorted(outcome.turned)
    play_agreeing(board.layout().notation(), picks)


@SETTINGS
@given(
    start=starts(),
    picks=st.lists(st.integers(0, 2**16), max_size=40),
    tries=st.lists(st.tuples(st.integers(-1, 10), st.integers(-1, 10), st.integers(0, 14))),
)
def test_the_checked_step_refuses_what_the_engine_refuses(
    start: str, picks: list[int], tries: list[Move]
) -> None:
    board = play_agreeing(start, picks)
    if board.won:
        return
    pos = compact(board)
    stock = model.stock_of(board)
    for move in [*tries, DEAL]:
        if move[0] < 0 and move != DEAL:
            continue  # not an action the model names
        try:
            if move == DEAL:
                board.check_deal()
            else:
                board.check_move(*move)
        except IllegalAction:
            legal = False
        else:
            legal = True
        assert (model.step(pos, move, stock) is not None) == legal, move
    assert model.can_deal(pos[0], pos[2], stock) == board.can_deal()


@SETTINGS
@given(start=gap_endgames(), picks=st.lists(st.integers(0, 2**16), max_size=30))
def test_every_step_under_deal_over_gap_agrees_with_the_engine(
    start: str, picks: list[int]
) -> None:
    board = Board(Layout.parse(start))
    assert board.deal_over_gap
    if board.cards_on_table() < 10 and not board.won:
        assert board.can_deal()  # a deal over the gaps, whatever the table
    play_agreeing(start, picks)


@SETTINGS
@given(
    start=gap_endgames(),
    picks=st.lists(st.integers(0, 2**16), max_size=30),
    tries=st.lists(st.tuples(st.integers(-1, 10), st.integers(-1, 10), st.integers(0, 14))),
)
def test_the_checked_step_under_deal_over_gap_refuses_what_the_engine_refuses(
    start: str, picks: list[int], tries: list[Move]
) -> None:
    test_the_checked_step_refuses_what_the_engine_refuses.hypothesis.inner_test(  # type: ignore[attr-defined]
        start, picks, tries
    )


@SETTINGS
@given(start=gap_endgames(), picks=st.lists(st.integers(0, 2**16), max_size=30))
def test_the_search_moves_under_deal_over_gap_are_every_legal_action(
    start: str, picks: list[int]
) -> None:
    """Where the deal may go over the gaps the columns are not alike (stock card i lands on
    column i): the search tries every legal action there, the deal included."""
    board = play_agreeing(start, picks)
    pos = compact(board)
    moves = model.search_moves(*pos, model.stock_of(board))
    if board.can_deal() and not all(board.cols):
        assert sorted(moves) == sorted(board.legal_actions())
    else:
        assert set(moves) <= set(board.legal_actions())
        assert (DEAL in moves) == board.can_deal()


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
