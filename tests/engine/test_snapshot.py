"""Snapshots: ``load(dump(board)) == board``, through JSON, and refusals of anything else."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import DEAL, SNAPSHOT_VERSION, Board, LayoutError, deal_layout, dump, load
from games.engine.records import DealRecord, Record, settled_text
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
    assert data["v"] == SNAPSHOT_VERSION == 2
    assert data["suits"] == 2
    assert data["cols"][:3] == ["9h|5h", "|8h", "|"]
    assert data["stock"] == "2h" * 4 + "3h" * 4 + "4h4h" and data["dealt"] == 0
    assert data["removed"] == "s"
    assert (data["actions"], data["undos"], data["hints"]) == (1, 0, 0)
    # the move: column 1 turned the 8h ("^"); column 0 removed a spade run and turned 5h
    assert data["stack"] == "101:^:s^"


def test_the_shape_of_a_deal_record() -> None:
    board = board_of(
        2,
        ["Qs|" + RUN[:-2], RUN[:-2]] + [f"{r}h" for r in "3456789T"],
        stock="AsAs" + "2h" * 4 + "Jh" * 4,
    )
    board.play(DEAL)
    assert dump(board)["stack"] == "D0s^,1s"


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
    again = load(dump(board)).history()
    assert again == board.history() == board._stack
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
        (_broken(v=3), "bad_snapshot"),
        (_broken(suits=None), "bad_snapshot"),
        (_broken(cols=["|As"] * 9), "bad_snapshot"),
        (_broken(removed="x"), "bad_snapshot"),
        (_broken(dealt="ten"), "bad_snapshot"),
        (_broken(stack=[[1, 2]]), "bad_snapshot"),  # version 2 stores a string
        (_broken(stack="372 "), "bad_snapshot"),
        (_broken(stack="372  372"), "bad_snapshot"),
        (_broken(stack="37123"), "bad_snapshot"),
        (_broken(stack="372\n"), "bad_snapshot"),
        (_broken(stack="37"), "bad_snapshot"),
        (_broken(stack="372:x"), "bad_snapshot"),
        (_broken(stack="372:::"), "bad_snapshot"),
        (_broken(stack="D0"), "bad_snapshot"),  # a deal lists only columns that settled
        (_broken(v=1, stack=[[1, 2]]), "bad_snapshot"),
        (_broken(v=1, stack=[[-1, -1, 0, [[0, ""]], ""]]), "bad_snapshot"),
        (_broken(cols=["|Zz"] * 10), "bad_card"),
        (_broken(stock="A"), "bad_card"),
    ],
)
def test_bad_snapshots_are_refused(data: object, code: str) -> None:
    with pytest.raises(LayoutError) as info:
        load(data).history()  # type: ignore[arg-type]  # records are parsed when reached
    assert info.value.code == code


def test_a_loaded_history_is_parsed_only_as_undos_reach_it() -> None:
    board = Board(deal_layout(2, 7))
    for step in range(40):
        actions = board.legal_actions()
        board.play(actions[step * 5 % len(actions)])
    loaded = load(dump(board))
    assert loaded._stack == [] and len(loaded._shelved.split(" ")) == 40
    loaded.play(loaded.legal_actions()[0])
    assert len(loaded._stack) == 1  # the new record only; the stored ones untouched
    loaded.undo()
    loaded.undo()  # reaches one stored record
    assert len(loaded._shelved.split(" ")) == 39
    board.undo()
    assert loaded.history() == board.history()
    assert loaded.last_move == board.last_move
    assert dump(loaded)["stack"] == dump(board)["stack"]


def test_version_1_snapshots_still_load_and_are_written_as_version_2() -> None:
    """Rows stored before version 2 hold the stack as lists; they play on unchanged."""
    for board in boards():
        data = dump(board)
        records = board.history()
        data["v"] = 1
        data["stack"] = [_v1(r) for r in records]
        old = load(json.loads(json.dumps(data)))
        assert old == board
        assert dump(old) == dump(board)


def _v1(record: Record) -> list[object]:
    if isinstance(record, DealRecord):
        return [-1, -1, 0, [[i, settled_text(s)] for i, s in record.settled], ""]
    src, dst, n, a, b = record
    return [src, dst, n, settled_text(a), settled_text(b)]


def test_an_undo_that_reaches_a_broken_record_is_refused_and_changes_nothing() -> None:
    board = Board(deal_layout(1, 1))
    board.play(board.legal_moves()[0])
    data = dump(board)
    data["stack"] = "D0 " + data["stack"]  # the oldest record is not one (a deal did nothing)
    loaded = load(data)
    loaded.undo()  # the newest record is sound
    before = dump(loaded)
    assert loaded.can_undo
    with pytest.raises(LayoutError) as info:
        loaded.undo()
    assert info.value.code == "bad_snapshot"
    assert dump(loaded) == before
