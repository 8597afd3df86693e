"""A known win carried to a later position of the same game (games/solver/transplant.py):
a replay, no search; what it returns always wins, and a lost position gets nothing."""

from __future__ import annotations

import json

import pytest

from games.engine import Action, IllegalAction, Layout, deal_layout, replay
from games.solver import exhaust, solve
from games.solver.analysis import final_line
from games.solver.transplant import carry
from tests.solver.test_analysis import LOSE, TRAP, WIN

M = Action.move


def _wins(layout: Layout, line: list[Action] | None) -> bool:
    return line is not None and replay(layout, line).won


@pytest.mark.parametrize(
    "played",
    [
        [M(0, 5, 1)],  # the win's own first move: it is skipped there
        [M(0, 6, 1)],  # the same card into another empty column
        [M(0, 9, 1)],
        [M(0, 5, 1), M(5, 0, 1)],  # a move and back
        [M(0, 5, 1), M(0, 6, 1), M(5, 6, 1)],  # two of its moves, then one of its own
    ],
    ids=["its-first-move", "another-empty-column", "the-last-column", "there-and-back", "own"],
)
def test_a_win_is_carried_past_moves_it_absorbs(played: list[Action]) -> None:
    start = Layout.parse(TRAP)
    later = replay(start, played).layout()
    line = carry(start, WIN, later)
    assert _wins(later, line)


def test_nothing_is_carried_to_a_lost_position() -> None:
    start = Layout.parse(TRAP)
    lost = replay(start, [LOSE]).layout()
    assert exhaust(lost, max_nodes=20_000).exhausted  # proved lost
    assert carry(start, WIN, lost) is None


def test_a_line_that_is_not_a_win_of_its_position_carries_nothing() -> None:
    start = Layout.parse(TRAP)
    later = replay(start, [M(0, 6, 1)]).layout()
    assert carry(start, WIN[:-1], later) is None  # one action short of the win
    assert carry(start, [M(2, 1, 1)] + WIN, later) is None  # an illegal first action


def test_a_deal_the_player_has_made_is_not_made_again() -> None:
    # After the five columns are filled, the player deals: the win's deal is theirs.
    start = Layout.parse(TRAP)
    later = replay(start, WIN[:6]).layout()
    line = carry(start, WIN, later)
    assert _wins(later, line)
    assert line is not None and Action("deal") not in line


def test_real_games_carried_wins_always_replay() -> None:
    """A real 2-suit game whose player plays the solver's win with pairs of moves swapped
    where they commute: from the start, the win is carried to positions along it that it
    never passes through, and every line carried wins there."""
    layout = deal_layout(2, 3)
    found = solve(layout, max_nodes=400_000, shorten_ratio=0)
    assert found.won
    log = list(found.line)
    swapped = 0
    for k in range(2, len(log) - 1, 5):
        a, b = log[k], log[k + 1]
        try:
            other = replay(layout, [*log[:k], b, a]).layout()
        except IllegalAction:  # the other order is not legal
            continue
        same = other == replay(layout, log[: k + 2]).layout()
        if same and a != b:
            log[k], log[k + 1] = b, a
            swapped += 1
    assert swapped
    line = final_line(layout, log)
    carried = 0
    for j in range(1, len(line.steps)):
        won = carry(layout, found.line, line.position(j))
        if won is not None:
            assert replay(line.position(j), won).won, json.dumps(j)
            carried += 1
    assert carried > len(line.steps) // 2
