"""The engine as the solver tests' oracle: a ``Board`` plays, and what the solver computes
is held to what the board did.

Shared by the solver's tests: the solver's position of a board (``compact``), the move a
choice picks (joins preferred, so runs get completed), the engine's own word on whether an
action is legal (``allows``) and on which moves exist (``assert_search_moves``), and the
Hypothesis strategies of starts the rules are hard on (a deal that completes runs, endgames
under deal_over_gap; the engine's tests make the others: ``starts``).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine import DEAL, Board, IllegalAction, Layout, Move
from games.engine.cards import RUN_LENGTH, full_deck
from games.engine.layout import COLUMNS
from games.solver import model
from games.solver.model import Position
from tests.engine.test_properties import starts

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JOIN_FIRST = 3  # of every 4 picks, 3 prefer a move that joins a suit (runs get completed)


def shuffled_runs(draw: st.DrawFn) -> tuple[int, random.Random, list[list[int]]]:
    """A suit mode, a seeded shuffle, and its deck's runs (each King down to Ace) in the
    order that shuffle gives."""
    suits = draw(st.sampled_from([1, 2, 4]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = full_deck(suits)
    runs = [deck[i : i + RUN_LENGTH][::-1] for i in range(0, len(deck), RUN_LENGTH)]
    rng.shuffle(runs)
    return suits, rng, runs


@st.composite
def near_runs(draw: st.DrawFn) -> str:
    """A layout where the first deal completes runs: some columns show King..2 of a suit
    (over face-down cards or not) and the deal brings their Aces; the other cards lie
    shuffled over the other columns and the rest of the stock."""
    suits, rng, runs = shuffled_runs(draw)
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
    suits, rng, runs = shuffled_runs(draw)
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


# Starts of either table rule: a deal or a run-rich layout, or an endgame under
# deal_over_gap; a test over both gets the examples two tests would (TWO_KINDS).
either_rule = st.one_of(starts(), gap_endgames())
TWO_KINDS = settings(SETTINGS, max_examples=2 * SETTINGS.max_examples)


def compact(board: Board) -> Position:
    """``board`` as the solver's full-information position ``(cols, down, dealt)``."""
    return tuple(map(tuple, board.cols)), tuple(board.down), board.dealt


def pick(board: Board, choice: int) -> Move | None:
    """The move or deal ``choice`` names on ``board`` (mostly one that joins a suit), or
    None when the game is won or stuck."""
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


def played(start: str, choices: list[int]) -> Board:
    """The board after the engine alone plays ``choices`` (``pick``) from ``start``."""
    board = Board(Layout.parse(start))
    for choice in choices:
        move = pick(board, choice)
        if move is None:
            break
        board.play(move)
    return board


def allows(board: Board, move: Move) -> bool:
    """Whether the engine's checked path (``check_move`` / ``check_deal``) takes ``move``."""
    try:
        if move == DEAL:
            board.check_deal()
        else:
            board.check_move(*move)
    except IllegalAction:
        return False
    return True


def assert_search_moves(board: Board, moves: list[Move]) -> None:
    """``moves`` are what a search may try on ``board`` (``model.search_moves``): legal
    actions only, the deal last exactly when it is legal; and where the deal may go over an
    empty column (the columns no longer alike) every legal action."""
    legal = board.legal_actions()
    if board.can_deal() and not all(board.cols):
        assert sorted(moves) == sorted(legal)
    else:
        assert set(moves) <= set(legal)
    assert (DEAL in moves) == board.can_deal()
    assert DEAL not in moves[:-1]
