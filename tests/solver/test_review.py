"""The move review (games/solver/review.py): each action of a final line graded by the drop in
the chance as the player saw it, only where the sample tells the moves apart; bounded."""

from __future__ import annotations

import json

import pytest

from games.engine import Action, Board, Layout, apply_action, deal_layout
from games.engine.cards import make_card
from games.solver.analysis import final_line
from games.solver.chance import Chance, WorldBudget, worlds
from games.solver.hint import board_hints
from games.solver.review import (
    GRADES,
    REVIEW_CANDIDATES,
    ReviewBudget,
    grade_of,
    review,
    say_action,
    say_chance,
)

BUDGET = ReviewBudget(
    sample=8, world=WorldBudget(20_000, 5_000), total_nodes=1_500_000, max_seconds=60
)


def followed(suits: int, seed: int, actions: int) -> list[Action]:
    """The hint follower's first ``actions`` actions of a seeded deal."""
    board = Board(deal_layout(suits, seed))
    log = []
    for _ in range(actions):
        found = board_hints(board)
        if not found:
            break
        log.append(Action.from_json(found[0].action))
        apply_action(board, log[-1])
    return log


@pytest.mark.parametrize(
    ("best", "played", "wins", "grade"),
    [
        (Chance(20, 0, 0), Chance(4, 16, 0), (16, 0), "blunder"),
        (Chance(20, 0, 0), Chance(15, 5, 0), (5, 0), "mistake"),
        (Chance(20, 0, 0), Chance(17, 3, 0), (3, 0), None),  # 0.15: 3 worlds tell nothing
        (Chance(40, 0, 0), Chance(34, 6, 0), (6, 0), "inaccuracy"),
        (Chance(20, 0, 0), Chance(20, 0, 0), (0, 0), None),
        # 0.2 where only the worlds that differ one way count: a mistake ...
        (Chance(12, 8, 0), Chance(8, 12, 0), (4, 0), "mistake"),
        # ... but where they differ both ways, the sample cannot tell the moves apart.
        (Chance(12, 8, 0), Chance(8, 12, 0), (8, 4), None),
    ],
)
def test_grades_by_the_drop_where_the_sample_tells_the_moves_apart(best, played, wins, grade):
    drop, got = grade_of(best, played, wins)
    assert got == grade
    assert drop == pytest.approx(best.share - played.share, abs=1e-3)


def test_no_grade_where_undecided_worlds_could_close_the_gap():
    # 0.5 against 1.0 among the decided worlds, but 8 of 20 undecided either side.
    drop, grade = grade_of(Chance(12, 0, 8), Chance(6, 6, 8), (6, 0))
    assert (drop, grade) == (None, None)  # under MIN_DECIDED_SHARE decided: not read
    drop, grade = grade_of(Chance(17, 0, 3), Chance(9, 8, 3), (8, 0))
    assert drop == pytest.approx(1 - 9 / 17, abs=1e-3)
    assert grade == "mistake"  # worst case 17/20 - 12/20 = 0.25: a mistake, not a blunder


def test_the_thresholds_are_lichess_s():
    assert GRADES == (("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1))


def test_the_words():
    spades, hearts = 0, 1
    seven, eight = make_card(hearts, 7), make_card(spades, 8)
    layout = Layout(2, (((), (seven,)), ((), (eight,))) + (((), ()),) * 8)
    assert say_action(layout, Action.move(0, 1, 1)) == "moving the 7♥ to the 8♠"
    assert say_action(layout, Action.move(0, 2, 1)) == "moving the 7♥ to an empty column"
    assert say_action(layout, Action("deal")) == "dealing a new row"
    assert say_chance(Chance(3, 7, 0)) == "a win in about 3 of 10 ways the hidden cards could lie"
    assert say_chance(Chance(9, 1, 2)) == "a win in about 9 of 10 ways the hidden cards could lie"
    assert say_chance(Chance(0, 8, 0)) == "no win in any of the 8 ways the hidden cards could lie"
    assert say_chance(Chance(8, 0, 0)) == "a win in all 8 ways the hidden cards could lie"
    assert say_chance(Chance(0, 0, 8)) == (
        "not sure: the search ran out of budget in 8 of 8 ways the hidden cards could lie"
    )
    assert say_chance(Chance(9, 0, 11)).startswith("not sure: the search ran out of budget in 11")


def _reviewed(suits: int, seed: int, actions: int) -> dict:
    start = deal_layout(suits, seed)
    return review(final_line(start, followed(suits, seed, actions)), budget=BUDGET)


def test_a_review_is_bounded_repeatable_and_an_estimate():
    result = _reviewed(1, 3, 40)
    again = _reviewed(1, 3, 40)
    for r in (result, again):
        r.pop("seconds")
    assert result == again
    assert result["claim"] == "estimate"
    worst = BUDGET.position_cost(1 + REVIEW_CANDIDATES)
    assert result["nodes"] <= BUDGET.total_nodes + worst
    assert result["reviewed"] == len(result["moves"]) <= result["actions"] == 40
    # The estimate never speaks of the certain analysis's claims.
    text = json.dumps(result)
    for word in ("winnable", "turning_point", "last_win", "proved_loss"):
        assert word not in text
    for move in result["moves"]:
        assert move["sentence"].startswith(("This move left ", "After this move, not sure: "))
        for key in ("chance_before", "chance_after", "chance_best"):
            assert move[key]["sample"] == BUDGET.sample
        if move["grade"] is not None:
            assert move["better"] is not None
            assert move["drop"] >= dict(GRADES)[move["grade"]]
            assert move["better"]["words"] in move["sentence"]


def test_a_review_past_its_budget_says_so():
    tiny = ReviewBudget(sample=4, world=WorldBudget(5_000, 0), total_nodes=50_000, max_seconds=60)
    result = review(final_line(deal_layout(2, 4), followed(2, 4, 30)), budget=tiny)
    assert result["cut"] == "nodes"
    assert not result["complete"]
    assert result["nodes"] <= tiny.total_nodes + tiny.position_cost(1 + REVIEW_CANDIDATES)


def test_two_games_that_look_the_same_get_the_same_grade():
    start = deal_layout(2, 8)
    other = next(worlds(start, 1))  # the same table, the hidden cards elsewhere
    assert other.notation() != start.notation()
    log = followed(2, 8, 1)
    one = review(final_line(start, log), budget=BUDGET)
    two = review(final_line(other, log), budget=BUDGET)
    # The first action is judged from the first position alone: what both players saw.
    assert one["moves"][0] == two["moves"][0]
    assert one["chances"][0] == two["chances"][0]


def test_the_moves_are_graded_where_the_chance_dropped_first():
    from games.solver.review import _grading_order

    graph = {0: Chance(10, 0, 0), 10: Chance(10, 0, 0), 20: Chance(2, 8, 0), 30: Chance(0, 0, 10)}
    order = _grading_order(32, graph, deals=[15])
    # The stretch from 10 to 20 (1.0 down to 0.2): the deal's neighbours, then from its end.
    assert order[:10] == [16, 15, 14, 19, 18, 17, 13, 12, 11, 10]
    # Then the stretches with no drop (0 to 10) or a share at one end only (20 on: 30 has
    # none), from the end back.
    assert order[10:] == list(range(31, 19, -1)) + list(range(9, -1, -1))


def test_a_graded_position_counts_every_world_it_decided():
    from games.solver.review import grade_position

    start = deal_layout(2, 8)
    played = followed(2, 8, 1)[0]
    g = grade_position(start, played, budget=BUDGET, last_move=None)
    others = g.best.nodes if g.best_action is not None else 0
    # The hints' other candidates were searched too: counted, so the budget bounds them.
    assert g.nodes >= g.before.nodes + g.played.nodes + others
    assert g.nodes <= BUDGET.position_cost(1 + REVIEW_CANDIDATES)
