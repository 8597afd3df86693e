"""Known wins as goals of a search (games/solver/goals.py): a search that meets a position
along a known win has found a win, in its own column numbers, replayed through the engine;
a goal never turns a position that is not one into a win."""

from __future__ import annotations

import pytest

from games.engine import Action, Board, Layout, deal_layout, replay
from games.solver import exhaust, solve
from games.solver.api import _line_to
from games.solver.goals import Goal, Goals, columns_map
from games.solver.search import root_node


def won_deal() -> tuple[Layout, list[Action]]:
    start = deal_layout(1, 3)
    found = solve(start, max_nodes=300_000, shorten_ratio=0)
    assert found.won
    return start, found.line


def position_after(start: Layout, line: list[Action]) -> Layout:
    return replay(start, line).layout()


def test_every_position_along_a_win_is_a_goal_with_the_rest_of_it() -> None:
    start, line = won_deal()
    goals = Goals()
    goals.add(start, line)
    assert len(goals) == len(line)  # one per position before the win, none repeated
    for goal in list(goals._goals.values())[:: max(1, len(line) // 10)]:
        done = len(line) - len(goal.rest)
        assert tuple(goal.rest) == tuple(line[done:])
        replayed = replay(start, line[:done])
        assert (tuple(tuple(c) for c in replayed.cols), tuple(replayed.down)) == (
            goal.cols,
            goal.down,
        )
        assert replay(replayed.layout(), list(goal.rest)).won


def test_a_line_that_does_not_win_adds_no_goal() -> None:
    start, line = won_deal()
    goals = Goals()
    goals.add(start, line[: len(line) // 2])
    assert len(goals) == 0


def test_a_search_that_meets_a_known_win_has_won_where_it_would_not_have() -> None:
    """From one action before a known win's position, a budget of one expansion finds no
    win alone, and with the goal the win: its move to the goal, then the goal's line."""
    start, line = won_deal()
    k = len(line) // 3
    before = position_after(start, line[: k - 1])
    goals = Goals()
    goals.add(position_after(start, line[:k]), line[k:])
    alone = solve(before, max_nodes=60, shorten_ratio=0, widths=(8,))
    assert not alone.won
    found = solve(before, max_nodes=60, shorten_ratio=0, widths=(8,), goals=goals)
    assert found.won and replay(before, found.line).won
    assert found.line[-(len(line) - k) :] == line[k:]
    proof = exhaust(before, max_nodes=60, goals=goals)
    assert proof.won and replay(before, proof.line).won


def test_with_the_stock_out_a_goal_is_met_in_any_column_order() -> None:
    """Once the stock is dealt the search's keys do not see column order: the goal's line
    is put into the search's column numbers, and it wins there."""
    start, line = won_deal()
    last_deal = max(i for i, a in enumerate(line) if a.kind == "deal")
    at = last_deal + 1 + (len(line) - last_deal - 1) // 2
    board = replay(start, line[:at])
    goal_layout = board.layout()
    goals = Goals()
    goals.add(goal_layout, line[at:])
    order = [3, 1, 4, 0, 9, 2, 6, 5, 8, 7]
    shuffled = Layout(
        suits=goal_layout.suits,
        columns=tuple(goal_layout.columns[i] for i in order),
        stock=goal_layout.stock,
        removed=goal_layout.removed,
    )
    found = solve(shuffled, max_nodes=1, shorten_ratio=0, goals=goals)
    assert found.won and len(found.line) == len(line) - at  # the goal's win, renumbered
    assert found.line != line[at:] and replay(shuffled, found.line).won


def test_a_key_that_collides_is_no_win() -> None:
    """A goal whose key a position shares without being that position: no line, and the
    pass counts as cut short (it proved nothing)."""
    start, line = won_deal()
    board = Board(start)
    node = root_node(board.cols, board.down, board.dealt, 0)
    other = replay(start, line[:5])
    goal = Goal(
        tuple(tuple(c) for c in other.cols), tuple(other.down), len(other.stock), tuple(line[5:])
    )
    assert columns_map(node, goal) is None
    cuts = [0]
    assert _line_to(node, [goal], cuts) is None and cuts == [1]


@pytest.mark.parametrize("suits", [2, 4])
def test_goals_leave_a_search_that_meets_none_as_it_was(suits: int) -> None:
    """Goals from another deal: the search spends and finds exactly what it does without."""
    start = deal_layout(suits, 11)
    other, line = won_deal()
    goals = Goals()
    goals.add(other, line)
    plain = solve(start, max_nodes=40_000, shorten_ratio=0)
    with_goals = solve(start, max_nodes=40_000, shorten_ratio=0, goals=goals)
    assert (plain.status, plain.nodes, plain.line) == (
        with_goals.status,
        with_goals.nodes,
        with_goals.line,
    )
