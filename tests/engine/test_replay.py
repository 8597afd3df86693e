"""Replay: a game rebuilt from its deal and its action log equals the live game."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    DEAL,
    Action,
    Board,
    IllegalAction,
    LayoutError,
    apply_action,
    deal_layout,
    replay,
)
from tests.engine.conftest import board_of

RUN = "KsQsJsTs9s8s7s6s5s4s3s2sAs"


def play_randomly(board: Board, rng: random.Random, steps: int) -> list[Action]:
    """Play ``steps`` random actions (moves, deals, undos, hints) as a player; return the log."""
    log: list[Action] = []
    for _ in range(steps):
        if board.won:
            break
        roll = rng.random()
        if roll < 0.15 and board.can_undo:
            action = Action("undo")
        elif roll < 0.18:
            action = Action("hint")
        else:
            actions = board.legal_actions()
            if not actions:
                break
            move = rng.choice(actions)
            action = Action("deal") if move == DEAL else Action.move(*move)
        apply_action(board, action)
        log.append(action)
    return log


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_replay_equals_the_live_game(suits: int) -> None:
    for seed in range(5):
        start = deal_layout(suits, seed)
        board = Board(start)
        log = play_randomly(board, random.Random(seed), 200)
        replayed = replay(start, log)
        assert replayed == board
        assert replayed.notation() == board.notation()


def test_replay_through_json() -> None:
    start = deal_layout(2, 99)
    board = Board(start)
    log = play_randomly(board, random.Random(1), 150)
    wire = [a.to_json() for a in log]
    assert replay(start, [Action.from_json(d) for d in wire]) == board


def test_replay_of_nothing_is_the_deal() -> None:
    start = deal_layout(4, 42)
    assert replay(start, []) == Board(start)


def test_replay_covers_runs_and_the_clearing_undo() -> None:
    start = board_of(2, {0: "5hKs|" + RUN[2:], 1: "Kh", 2: "Qh"}).layout()
    log = [Action.move(2, 3, 1), Action.move(0, 4, 12), Action("undo"), Action("hint")]
    live = Board(start)
    for action in log:
        apply_action(live, action)
    board = replay(start, log)
    assert board == live
    assert board.runs_removed == 1 and not board.can_undo and board.hints == 1


def test_a_log_the_rules_refuse_does_not_replay() -> None:
    start = deal_layout(1, 3)
    with pytest.raises(IllegalAction) as info:
        replay(start, [Action("undo")])
    assert info.value.code == "nothing_to_undo"
    with pytest.raises(IllegalAction) as info:
        replay(start, [Action.move(0, 0, 1)])
    assert info.value.code == "bad_column"
    deals = [Action("deal")] * 6
    with pytest.raises(IllegalAction) as info:
        replay(start, deals)
    assert info.value.code == "stock_empty"


def test_action_json() -> None:
    assert Action.move(3, 7, 2).to_json() == {"type": "move", "from": 3, "to": 7, "count": 2}
    assert Action("deal").to_json() == {"type": "deal"}
    for action in (Action.move(3, 7, 2), Action("deal"), Action("undo"), Action("hint")):
        assert Action.from_json(action.to_json()) == action
    assert Action("deal").as_move == DEAL
    assert Action.move(1, 2, 3).as_move == (1, 2, 3)


@pytest.mark.parametrize("data", [{"type": "shuffle"}, {}, {"type": None}])
def test_unknown_action_types_are_refused(data: dict) -> None:
    with pytest.raises(LayoutError) as info:
        Action.from_json(data)
    assert info.value.code == "bad_action"


@pytest.mark.parametrize("action", [Action("undo"), Action("hint"), Action("move", 1, None, 2)])
def test_only_moves_and_deals_are_moves(action: Action) -> None:
    with pytest.raises(LayoutError) as info:
        _ = action.as_move
    assert info.value.code == "bad_action"
