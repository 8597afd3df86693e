"""Snapshots: ``load(dump(board)) == board``, through JSON, and refusals of anything else."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import DEAL, SNAPSHOT_VERSION, Board, LayoutError, deal_layout, dump, load
from games.engine.board import DealRecord
from tests.engine.conftest import board_of

RUN = "KsQsJsTs9s8s7s6s5s4s3s2sAs"


def through_json(board: Board) -> Board:
    return load(json.loads(json.dumps(dump(board))))


def boards() -> list[Board]:
    fresh = Board(deal_layout(2, 17))
    dealt = Board(deal_layout(4, 3))
    dealt.play(DEAL)
    dealt.play(dealt.legal_moves()[0])
    dealt.note_hint()
    run = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"})
    run.play((1, 0, 1))
    undone = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"})
    undone.play((1, 0, 1))
    undone.undo()
    deal_runs = board_of(
        2,
        ["Qs|" + RUN[:-2], RUN[:-2]] + [f"{r}h" for r in "3456789T"],
        stock="AsAs" + "2h" * 4 + "Jh" * 4,
    )
    deal_runs.play(DEAL)
    cleared = board_of(2, {0: "5hKs|" + RUN[2:], 1: "Kh", 2: "Qh"})
    cleared.play((0, 4, 12))
    cleared.undo()  # the undo completes a run: history cleared
    return [fresh, dealt, run, undone, deal_runs, cleared]


@pytest.mark.parametrize(
    "board", boards(), ids=["fresh", "dealt", "run", "undone", "deal-runs", "cleared"]
)
def test_round_trip(board: Board) -> None:
    assert load(dump(board)) == board
    assert through_json(board) == board
    assert dump(through_json(board)) == dump(board)


def test_a_loaded_board_plays_on_identically() -> None:
    for board in boards():
        twin = through_json(board)
        if board.won:
            continue
        for step in range(5):
            actions = board.legal_actions()
            if not actions:
                break
            action = actions[step * 7 % len(actions)]
            board.push(action)
            twin.push(action)
            assert twin == board
            assert twin.key() == board.key()
        while board.can_undo and not board.won:
            board.undo()
            twin.undo()
            assert twin == board


def test_the_shape() -> None:
    board = board_of(2, {0: "9h5h|" + RUN[:-2], 1: "8h|As"}, stock="2h" * 4 + "3h" * 4 + "4h4h")
    board.play((1, 0, 1))
    data = dump(board)
    assert data["v"] == SNAPSHOT_VERSION == 1
    assert data["suits"] == 2
    assert data["cols"][:3] == ["9h|5h", "|8h", "|"]
    assert data["stock"] == "2h" * 4 + "3h" * 4 + "4h4h" and data["dealt"] == 0
    assert data["removed"] == "s"
    assert (data["actions"], data["undos"], data["hints"]) == (1, 0, 0)
    # the move: column 1 turned the 8h ("^"); column 0 removed a spade run and turned 5h
    assert data["stack"] == [[1, 0, 1, "^", "s^"]]


def test_the_shape_of_a_deal_record() -> None:
    board = board_of(
        2,
        ["Qs|" + RUN[:-2], RUN[:-2]] + [f"{r}h" for r in "3456789T"],
        stock="AsAs" + "2h" * 4 + "Jh" * 4,
    )
    board.play(DEAL)
    assert dump(board)["stack"] == [[-1, -1, 0, [[0, "s^"], [1, "s"]], ""]]


def test_the_undo_stack_holds_typed_records_that_survive_a_snapshot() -> None:
    board = board_of(
        2,
        ["Qs|" + RUN[:-2], RUN[:-2]] + [f"{r}h" for r in "3456789T"],
        stock="AsAs" + "2h" * 4 + "Jh" * 4,
    )
    board.play(DEAL)
    board.play((2, 1, 1))  # the 2h dealt onto the 3h, into the column the deal emptied
    deal, move = board._stack
    assert deal == DealRecord(settled=((0, ((0,), True)), (1, ((0,), False))))
    assert move == (2, 1, 1, None, None)  # (src, dst, cards, settled_src, settled_dst)
    again = load(dump(board))._stack
    assert again == board._stack
    assert [type(r) for r in again] == [DealRecord, tuple]
    assert board.last_move == (2, 1, 1) and board.pop() == (2, 1, 1)
    assert board.last_move == DEAL and board.pop() == DEAL


def _broken(**changes: object) -> dict:
    data = copy.deepcopy(dump(Board(deal_layout(1, 1))))
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "bad_snapshot"),
        ({}, "bad_snapshot"),
        (_broken(v=2), "bad_snapshot"),
        (_broken(suits=None), "bad_snapshot"),
        (_broken(cols=["|As"] * 9), "bad_snapshot"),
        (_broken(removed="x"), "bad_snapshot"),
        (_broken(dealt="ten"), "bad_snapshot"),
        (_broken(stack=[[1, 2]]), "bad_snapshot"),
        (_broken(stack=[[-1, -1, 0, [[0, ""]], ""]]), "bad_snapshot"),  # a deal that did nothing
        (_broken(cols=["|Zz"] * 10), "bad_card"),
        (_broken(stock="A"), "bad_card"),
    ],
)
def test_bad_snapshots_are_refused(data: object, code: str) -> None:
    with pytest.raises(LayoutError) as info:
        load(data)  # type: ignore[arg-type]
    assert info.value.code == code
