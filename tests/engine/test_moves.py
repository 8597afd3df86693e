"""Moves: the strict lift and the loose place (docs/rules.md#moves), table-driven.

Each row is a position, a move and the expected verdict: ``None`` for legal, else the
error code. Every row is checked three ways: ``check_move``, ``play``, and membership in
``legal_moves`` — the search's generator and the player's checks must never disagree.
"""

from __future__ import annotations

import random

import pytest

from games.engine import DEAL, Board, IllegalAction, deal_layout
from tests.engine.conftest import board_of, refused, state

# (id, suits, columns, move, expected code or None)
MOVE_RULES = [
    # -- lift (strict) --------------------------------------------------------------------
    ("one face-up card lifts", 4, {0: "5h", 1: "6s"}, (0, 1, 1), None),
    ("a same-suit run lifts whole", 4, {0: "Kd|7s6s5s", 1: "8h"}, (0, 1, 3), None),
    ("a same-suit run lifts in part", 4, {0: "7s6s5s", 1: "6h"}, (0, 1, 1), None),
    ("mixed-suit stack: the same-suit tail lifts", 4, {0: "9h8s7s", 1: "9d"}, (0, 1, 2), None),
    ("mixed-suit stack: no more than the tail", 4, {0: "9h8s7s", 1: "Td"}, (0, 1, 3), "not_a_run"),
    ("off-suit pair does not lift", 4, {0: "8h7s", 1: "9d"}, (0, 1, 2), "not_a_run"),
    ("rank gap does not lift", 4, {0: "9s7s", 1: "Td"}, (0, 1, 2), "not_a_run"),
    ("ascending does not lift", 4, {0: "7s8s", 1: "8d"}, (0, 1, 2), "not_a_run"),
    ("equal ranks do not lift", 4, {0: "7s7s", 1: "8d"}, (0, 1, 2), "not_a_run"),
    ("no wraparound: Ace under King", 4, {0: "AsKs", 1: "2d"}, (0, 1, 2), "not_a_run"),
    ("a face-down card never lifts", 4, {0: "6s|5s", 1: "7d"}, (0, 1, 2), "face_down"),
    ("face-down even if it would join", 4, {0: "Qc8s|7s6s", 1: "9d"}, (0, 1, 3), "face_down"),
    ("more cards than the column holds", 4, {0: "5s", 1: "6d"}, (0, 1, 2), "bad_count"),
    ("count zero", 4, {0: "5s", 1: "6d"}, (0, 1, 0), "bad_count"),
    ("negative count", 4, {0: "5s", 1: "6d"}, (0, 1, -1), "bad_count"),
    ("count must be an int", 4, {0: "5s", 1: "6d"}, (0, 1, 1.0), "bad_count"),
    ("count must not be a bool", 4, {0: "5s", 1: "6d"}, (0, 1, True), "bad_count"),
    ("nothing to lift from an empty column", 4, {1: "6d"}, (0, 1, 1), "bad_count"),
    # -- place (loose) --------------------------------------------------------------------
    ("onto one rank higher, other suit", 4, {0: "5h", 1: "6c"}, (0, 1, 1), None),
    ("onto one rank higher, same suit", 4, {0: "5h", 1: "6h"}, (0, 1, 1), None),
    ("a mixed-suit destination is fine", 4, {0: "4d", 1: "7c6h5s"}, (0, 1, 1), None),
    ("onto two ranks higher", 4, {0: "5h", 1: "7h"}, (0, 1, 1), "rank_mismatch"),
    ("onto the same rank", 4, {0: "5h", 1: "5d"}, (0, 1, 1), "rank_mismatch"),
    ("onto one rank lower", 4, {0: "5h", 1: "4h"}, (0, 1, 1), "rank_mismatch"),
    ("a run whose first card does not fit", 4, {0: "7s6s", 1: "7h"}, (0, 1, 2), "rank_mismatch"),
    ("nothing onto an Ace: a 2", 4, {0: "2h", 1: "As"}, (0, 1, 1), "rank_mismatch"),
    ("nothing onto an Ace: a King", 4, {0: "Kh", 1: "Ah"}, (0, 1, 1), "rank_mismatch"),
    ("an Ace onto a 2", 4, {0: "Ad", 1: "2c"}, (0, 1, 1), None),
    ("an Ace into an empty column", 4, {0: "Qc|Ad"}, (0, 5, 1), None),
    ("a King into an empty column", 4, {0: "3c|Kh"}, (0, 9, 1), None),
    ("a King onto a Queen? no", 4, {0: "Kh", 1: "Qh"}, (0, 1, 1), "rank_mismatch"),
    ("a King onto a King? no", 4, {0: "Kh", 1: "Kd"}, (0, 1, 1), "rank_mismatch"),
    ("a King-led run into an empty column", 2, {0: "Ah|KsQsJs"}, (0, 3, 3), None),
    ("a King-led run onto anything? no", 2, {0: "KsQsJs", 1: "As"}, (0, 1, 3), "rank_mismatch"),
    ("any card into an empty column", 4, {0: "5h"}, (0, 1, 1), None),
    ("part of a run into an empty column", 4, {0: "7s6s5s"}, (0, 1, 2), None),
    ("a whole column into an empty one", 4, {0: "7s6s5s"}, (0, 1, 3), None),
    # -- columns --------------------------------------------------------------------------
    ("source out of range", 4, {0: "5h", 1: "6s"}, (10, 1, 1), "bad_column"),
    ("negative source", 4, {0: "5h", 1: "6s"}, (-1, 1, 1), "bad_column"),
    ("destination out of range", 4, {0: "5h", 1: "6s"}, (0, 10, 1), "bad_column"),
    ("negative destination", 4, {0: "5h", 1: "6s"}, (0, -1, 1), "bad_column"),
    ("onto its own column", 4, {0: "5h", 1: "6s"}, (0, 0, 1), "bad_column"),
    ("column must be an int", 4, {0: "5h", 1: "6s"}, ("0", 1, 1), "bad_column"),
    ("column must not be a bool", 4, {0: "5h", 1: "6s"}, (0, True, 1), "bad_column"),
]


@pytest.mark.parametrize(
    ("suits", "cols", "move", "code"),
    [row[1:] for row in MOVE_RULES],
    ids=[row[0] for row in MOVE_RULES],
)
def test_move_rules(suits: int, cols: dict[int, str], move: tuple, code: str | None) -> None:
    board = board_of(suits, cols)
    before = state(board)
    if code is None:
        board.check_move(*move)
        assert move in board.legal_moves()
        n = move[2]
        lifted = board.cols[move[0]][-n:]
        board.play(move)
        assert board.cols[move[1]][-n:] == lifted
        assert board.actions == 1
    else:
        assert refused(lambda: board.check_move(*move)).code == code
        assert refused(lambda: board.play(move)).code == code
        if all(type(x) is int for x in move):  # (0, 1, True) == (0, 1, 1) in Python
            assert move not in board.legal_moves()
        assert state(board) == before


def test_legal_moves_are_listed_by_source_destination_count() -> None:
    # 0: 9h 8s 7s (tail run 8s7s)   1: 9d   2: empty   3: As   4: (Kh) 8c   rest empty
    board = board_of(4, {0: "9h8s7s", 1: "9d", 3: "As", 4: "Kh|8c"})
    moves = board.legal_moves()
    assert moves == sorted(moves)
    expected = (
        [(0, 1, 2), (0, 4, 1), (4, 1, 1)]
        + [(0, dst, k) for dst in (2, 5, 6, 7, 8, 9) for k in (1, 2)]
        + [(1, dst, 1) for dst in (2, 5, 6, 7, 8, 9)]
        + [(3, dst, 1) for dst in (2, 5, 6, 7, 8, 9)]
        + [(4, dst, 1) for dst in (2, 5, 6, 7, 8, 9)]
    )
    assert moves == sorted(expected)
    assert board.legal_actions() == moves  # an empty column blocks the deal


def test_legal_actions_end_with_the_deal_when_it_is_allowed() -> None:
    board = Board(deal_layout(2, 11))
    assert board.legal_actions()[-1] == DEAL
    assert board.legal_actions()[:-1] == board.legal_moves()


def test_a_move_turns_the_card_beneath_face_up() -> None:
    board = board_of(4, {0: "Qc3d|5h", 1: "6s"})
    assert board.down[0] == 2
    outcome = board.play((0, 1, 1))
    assert board.down[0] == 1
    assert board.face_up(0) == [board.cols[0][-1]]
    assert outcome.turned == [(0, board.cols[0][1])]
    assert outcome.to_json()["turned"] == [{"column": 0, "card": "3d"}]


def test_a_move_that_leaves_face_up_cards_turns_nothing() -> None:
    board = board_of(4, {0: "Qc|9h5h", 1: "6s"})
    outcome = board.play((0, 1, 1))
    assert board.down[0] == 1
    assert outcome.turned == []
    assert outcome.score_change == -1


def test_tail_run_counts_only_face_up_joined_cards() -> None:
    board = board_of(4, {0: "8s|7s6s5s", 1: "9h8s7s", 2: "5d", 3: "9h|Qc"})
    assert [board.tail_run(i) for i in range(5)] == [3, 2, 1, 1, 0]


def _mid_game_boards(count: int) -> list[Board]:
    boards = []
    for seed in range(count):
        rng = random.Random(seed)
        board = Board(deal_layout((1, 2, 4)[seed % 3], seed))
        for _ in range(rng.randrange(0, 60)):
            actions = board.legal_actions()
            if not actions:
                break
            board.push(rng.choice(actions))
        boards.append(board)
    return boards


@pytest.mark.parametrize("board", _mid_game_boards(12))
def test_legal_moves_is_exactly_what_check_move_allows(board: Board) -> None:
    allowed = set()
    for src in range(10):
        for dst in range(10):
            for count in range(1, 14):
                try:
                    board.check_move(src, dst, count)
                except IllegalAction:
                    continue
                allowed.add((src, dst, count))
    assert set(board.legal_moves()) == allowed
    assert len(board.legal_moves()) == len(allowed)  # no duplicates


# -- the search's pruned list ---------------------------------------------------------------
def _pruned(cols: dict[int, str], *, deal_pending: bool) -> set[tuple[int, int, int]]:
    from games.engine.moves import pruned_moves

    board = board_of(2, cols)
    return set(pruned_moves(board.cols, board.down, deal_pending=deal_pending))


def test_pruned_moves_split_runs_into_an_empty_column_only_when_a_deal_needs_it() -> None:
    # Two runs with nothing under them and eight empty columns: whole runs cannot fill a
    # column, so with a deal to come every split into the first empty column is listed.
    cols = {0: "KsQsJs", 1: "9h8h"}
    splits = {(0, 2, 1), (0, 2, 2), (1, 2, 1)}
    assert _pruned(cols, deal_pending=True) >= splits
    assert not _pruned(cols, deal_pending=False) & splits
    # With as many runs over other cards as empty columns, whole moves fill them all.
    full = {i: "5h" if i < 6 else "6h" for i in range(2, 9)} | {0: "4hKsQsJs", 1: "Ts|9h8h"}
    assert (0, 9, 3) in _pruned(full, deal_pending=True)
    assert (0, 9, 1) not in _pruned(full, deal_pending=True)
    # Every move listed is legal.
    board = board_of(2, cols)
    assert _pruned(cols, deal_pending=True) <= set(board.legal_moves())


def _pruned_by_the_rules(
    cols: list[list[int]], down: list[int], hidden: list[int] | None, deal_pending: bool
) -> list[tuple[int, int, int]]:
    """``pruned_moves`` as its docstring states it: a filter of ``legal_moves``, in the
    order the search expands them (per source: onto cards by destination, then the whole
    run into the first empty column; the splits into it last)."""
    from games.engine.moves import legal_moves

    empties = [i for i, c in enumerate(cols) if not c]
    first = empties[0] if empties else -1
    onto, into, splits = [], [], []
    for src, dst, cnt in legal_moves(cols, down):
        c = cols[src]
        run = 1
        while len(c) - run > down[src] and c[-run - 1] == c[-run] + 1:
            run += 1
        if cols[dst]:
            if cnt == run or cols[dst][-1] >> 4 == c[-1] >> 4:
                onto.append((src, dst, cnt))
        elif dst == first and cnt == run and (len(c) > run or (hidden and hidden[src])):
            into.append((src, dst, cnt))
        elif dst == first and cnt < run:
            splits.append((src, dst, cnt))
    out = []
    for src in range(len(cols)):
        out += [m for m in onto if m[0] == src] + [m for m in into if m[0] == src]
    if deal_pending and len(empties) > len(into):
        out += splits
    return out


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_pruned_moves_is_the_rules_filter_of_legal_moves_in_order(suits: int) -> None:
    # The search's order is part of its determinism (ties go to the earlier move), so the
    # list must match move for move, not only as a set. Random play reaches empty columns,
    # runs to split and buried cards; ``hidden`` stands for the hints' face-down counts.
    from games.engine.moves import pruned_moves

    rng = random.Random(suits)
    checked = 0
    for seed in range(1, 13):
        board = Board(deal_layout(suits, seed))
        for _ in range(250):
            cols = [list(c) for c in board.cols]
            down = list(board.down)
            hidden = [rng.randint(0, 1) for _ in cols]
            for pending in (False, True):
                for hide in (None, hidden):
                    want = _pruned_by_the_rules(cols, down, hide, pending)
                    assert pruned_moves(cols, down, hide, deal_pending=pending) == want
                    checked += 1
            actions = board.legal_actions()
            if not actions:
                break
            board.push(rng.choice(actions))
    assert checked > 1000
