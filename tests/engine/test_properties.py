"""Property tests over random legal action sequences, in all three suit modes.

A game is a start (a seeded deal, or a hand-made "run-rich" layout where runs complete
often) and a list of integers that pick, step by step, among the legal moves, the deal and
the undo. Hypothesis shrinks a failure to a short game; its start is one line of notation.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    DEAL,
    MAX_SEED,
    Action,
    Board,
    Layout,
    apply_action,
    deal_layout,
    dump,
    load,
    public_view,
    replay,
)
from games.engine.cards import RUN_LENGTH, full_deck, suit_of
from games.engine.layout import run_cards
from tests.engine.conftest import refused

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MIN_STEPS, MAX_STEPS = 15, 80
UNDO_EVERY = 8  # a choice divisible by this is an undo (when one is possible) ...
JOIN = 1, 2, 3  # ... and one with these remainders prefers a move that joins a suit
HINT_EVERY = 61  # now and then a hint (it changes only a counter)


@st.composite
def run_rich_layouts(draw: st.DrawFn, suits: int) -> Layout:
    """A layout cut from the eight sorted runs: each run in one to three joined pieces,
    pieces stacked on random columns with some cards face down, up to two runs already
    removed, up to three pieces left out (a partial layout), a stock of 0..30 cards, and
    the table rule deal_over_gap on or off."""
    rng = draw(st.randoms(use_true_random=False))
    deck = full_deck(suits)
    runs = [deck[i : i + RUN_LENGTH][::-1] for i in range(0, len(deck), RUN_LENGTH)]
    rng.shuffle(runs)
    removed = tuple(suit_of(run[0]) for run in runs[: draw(st.integers(0, 2))])
    pieces = []
    for run in runs[len(removed) :]:
        cuts = sorted(rng.sample(range(1, RUN_LENGTH), rng.randint(0, 2)))
        bounds = [0, *cuts, RUN_LENGTH]
        pieces += [run[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    rng.shuffle(pieces)
    del pieces[: draw(st.integers(0, 3))]
    cards = [c for piece in pieces for c in piece]
    stock = cards[: 10 * draw(st.integers(0, min(3, len(cards) // 20)))]
    piles: list[list[int]] = [[] for _ in range(10)]
    table = cards[len(stock) :]
    at = 0
    for piece in pieces:  # the stock took whole pieces and part of one: skip what it took
        end = at + len(piece)
        if end > len(stock):
            piles[rng.randrange(10)].extend(cards[max(at, len(stock)) : end])
        at = end
    assert sum(map(len, piles)) == len(table)
    columns = []
    for pile in piles:
        down = rng.randint(0, max(0, len(pile) - 1)) // rng.choice([1, 3])
        columns.append((tuple(pile[:down]), tuple(pile[down:])))
    return Layout(suits, tuple(columns), tuple(stock), removed, draw(st.booleans()))


@st.composite
def starts(draw: st.DrawFn) -> str:
    """A starting position as one line of notation (so a failure reads as one line)."""
    suits = draw(st.sampled_from([1, 2, 4]))
    if draw(st.booleans()):
        return deal_layout(suits, draw(st.integers(0, MAX_SEED))).notation()
    return draw(run_rich_layouts(suits)).notation()


choices = st.lists(st.integers(0, 2**16), min_size=MIN_STEPS, max_size=MAX_STEPS)


def pick(board: Board, choice: int) -> Action | None:
    """The action ``choice`` names on ``board``, or None when there is none."""
    if board.won:
        return None
    if choice % HINT_EVERY == 0:
        return Action("hint")
    if choice % UNDO_EVERY == 0 and board.can_undo:
        return Action("undo")
    actions = board.legal_actions()
    if not actions:
        return Action("undo") if board.can_undo else None
    if choice % UNDO_EVERY in JOIN:
        cols = board.cols
        joins = [
            m
            for m in actions
            if m[0] >= 0 and cols[m[1]] and cols[m[1]][-1] == cols[m[0]][-m[2]] + 1
        ]
        actions = joins or actions
    move = actions[choice // UNDO_EVERY % len(actions)]
    return Action("deal") if move == DEAL else Action.move(*move)


@dataclass
class Game:
    start: Layout
    board: Board
    log: list[Action] = field(default_factory=list)


def play(start: str, picks: list[int], each: Callable[[Board, Action], None] | None = None) -> Game:
    """Play ``picks`` from ``start``; call ``each(board, action)`` before every action."""
    layout = Layout.parse(start)
    game = Game(layout, Board(layout))
    for choice in picks:
        action = pick(game.board, choice)
        if action is None:
            break
        if each is not None:
            each(game.board, action)
        apply_action(game.board, action)
        game.log.append(action)
    return game


def all_cards(board: Board) -> Counter[int]:
    cards = Counter(c for col in board.cols for c in col)
    cards.update(board.stock[board.dealt :])
    for suit in board.removed:
        cards.update(run_cards(suit))
    return cards


def check_invariants(board: Board) -> None:
    for i, col in enumerate(board.cols):
        assert 0 <= board.down[i] < len(col) or board.down[i] == 0 == len(col)
        up = col[board.down[i] :]
        assert not (
            len(up) >= RUN_LENGTH
            and up[-RUN_LENGTH] == up[-1] + RUN_LENGTH - 1
            and all(up[j] == up[j + 1] + 1 for j in range(-RUN_LENGTH, -1))
        ), "a completed run was left on the table"
    assert board.score == max(0, 500 - board.actions + 100 * board.runs_removed)
    assert board.won == (board.dealt == len(board.stock) and not any(board.cols))
    assert 0 <= board.dealt <= len(board.stock) and board.dealt % 10 == 0


@SETTINGS
@given(start=starts(), picks=choices)
def test_cards_are_conserved_and_invariants_hold(start: str, picks: list[int]) -> None:
    expected = Counter(Layout.parse(start).all_cards())

    def each(board: Board, action: Action) -> None:
        assert all_cards(board) == expected
        check_invariants(board)

    game = play(start, picks, each)
    assert all_cards(game.board) == expected
    check_invariants(game.board)


@SETTINGS
@given(start=starts(), picks=choices, seed=st.integers(0, 2**32))
def test_the_public_view_never_names_a_hidden_card(start: str, picks: list[int], seed: int) -> None:
    board = play(start, picks).board
    view = public_view(board)
    for i, column in enumerate(view["columns"]):
        assert column["hidden"] == board.down[i]
        assert len(column["cards"]) == len(board.cols[i]) - board.down[i]
    # Shuffle every hidden card (face down or in the stock): the view cannot tell.
    other = board.copy()
    hidden = [c for i, col in enumerate(board.cols) for c in col[: board.down[i]]]
    hidden += board.stock[board.dealt :]
    random.Random(seed).shuffle(hidden)
    for i, col in enumerate(other.cols):
        for j in range(other.down[i]):
            col[j] = hidden.pop()
    other.stock = other.stock[: other.dealt] + hidden
    assert json.dumps(public_view(other)) == json.dumps(view)


@SETTINGS
@given(start=starts(), picks=choices)
def test_replay_of_the_log_equals_the_live_state(start: str, picks: list[int]) -> None:
    game = play(start, picks)
    assert replay(game.start, game.log) == game.board
    wire = json.loads(json.dumps([a.to_json() for a in game.log]))
    assert replay(Layout.parse(game.start.notation()), map(Action.from_json, wire)) == game.board


@SETTINGS
@given(start=starts(), picks=choices)
def test_serialise_and_parse_round_trip(start: str, picks: list[int]) -> None:
    board = play(start, picks).board
    assert load(json.loads(json.dumps(dump(board)))) == board
    layout = board.layout()
    assert Layout.parse(layout.notation()) == layout
    assert Layout.from_json(layout.suits, json.loads(json.dumps(layout.to_json()))).columns == (
        layout.columns
    )
    fresh = Board(Layout.parse(board.notation()))
    assert (fresh.cols, fresh.down, fresh.removed) == (board.cols, board.down, board.removed)


@SETTINGS
@given(start=starts(), picks=choices, split=st.integers(min_value=0, max_value=200))
def test_a_game_reloaded_every_action_plays_as_one_kept_in_memory(
    start: str, picks: list[int], split: int
) -> None:
    """The service loads the snapshot, applies one action and dumps it again; a loaded
    board's history stays stored text until undos reach it. Played either way, every step
    gives the same board and the same snapshot."""
    kept = play(start, picks[:split]).board
    stored = dump(kept)
    for choice in picks[split:]:
        action = pick(kept, choice)
        if action is None:
            break
        apply_action(kept, action)
        board = load(json.loads(json.dumps(stored)))
        apply_action(board, action)
        stored = dump(board)
        assert stored == dump(kept)
        assert board == kept and board.last_move == kept.last_move


@SETTINGS
@given(start=starts(), picks=choices)
def test_undo_restores_everything_but_the_face_up_flags(start: str, picks: list[int]) -> None:
    def each(board: Board, action: Action) -> None:
        if action.kind not in ("move", "deal"):
            return
        trial = board.copy()
        trial.play(action.as_move)
        if trial.won:  # the game is over: nothing more, undo included
            assert refused(trial.undo).code == "game_over"
            return
        score_played = trial.score
        outcome = trial.undo()
        assert outcome.score_change == trial.score - score_played
        assert (trial.actions, trial.undos, trial.hints) == (
            board.actions + 2,
            board.undos + 1,
            board.hints,
        )
        if outcome.runs_removed:  # the undo itself completed a run (see Board.undo)
            assert not trial.can_undo
            assert trial.runs_removed == board.runs_removed + len(outcome.runs_removed)
            return
        assert trial.cols == board.cols
        assert (trial.stock, trial.dealt, trial.removed) == (
            board.stock,
            board.dealt,
            board.removed,
        )
        assert trial._stack == board._stack
        assert all(t <= b for t, b in zip(trial.down, board.down, strict=True))
        assert trial.score == max(0, 500 - trial.actions + 100 * trial.runs_removed)

    play(start, picks, each)


@SETTINGS
@given(start=starts(), picks=choices)
def test_push_pop_is_exact_and_legal_moves_are_legal(start: str, picks: list[int]) -> None:
    def each(board: Board, action: Action) -> None:
        for move in board.legal_moves():
            board.check_move(*move)
        if action.kind not in ("move", "deal"):
            return
        trial = board.copy()
        key = trial.key()
        trial.push(action.as_move)
        assert trial.pop() == action.as_move
        assert trial == board and trial.key() == key

    play(start, picks, each)


@SETTINGS
@given(start=starts(), picks=choices, seed=st.integers(0, 2**32))
def test_canonical_key_ignores_column_order_once_dealt(
    start: str, picks: list[int], seed: int
) -> None:
    board = play(start, picks).board
    other = board.copy()
    order = list(range(10))
    random.Random(seed).shuffle(order)
    other.cols = [board.cols[i] for i in order]
    other.down = [board.down[i] for i in order]
    same = other.cols == board.cols and other.down == board.down
    assert (other.key() == board.key()) == same
    if board.dealt == len(board.stock):
        assert other.canonical_key() == board.canonical_key()
    else:  # a deal would tell the columns apart
        assert (other.canonical_key() == board.canonical_key()) == same
    assert hash(board.key()) == hash(board.copy().key())
