"""The chance as the player saw it (games/solver/chance.py): worlds drawn from exactly the
cards not in view, seeded by the visible position; undecided worlds counted apart."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, Board, Layout, apply_action, deal_layout
from games.engine.cards import make_card
from games.solver import solve
from games.solver.chance import (
    Chance,
    WorldBudget,
    estimate,
    estimate_moves,
    unseen_cards,
    visible_text,
    world_seed,
    worlds,
)

SMALL = WorldBudget(search_nodes=20_000, proof_nodes=5_000)
KING, FIVE = 13, 5


def played(suits: int, seed: int, steps: int) -> Layout:
    """A position reached by ``steps`` random legal actions from a seeded deal."""
    board = Board(deal_layout(suits, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        moves = board.legal_moves()
        if board.can_deal() and (not moves or rng.random() < 0.1):
            apply_action(board, Action("deal"))
        elif moves:
            apply_action(board, Action.move(*rng.choice(moves)))
    return board.layout()


def visible_cards(layout: Layout) -> list[tuple[int, ...]]:
    return [up for _, up in layout.columns]


positions = st.builds(
    played,
    st.sampled_from([1, 2, 4]),
    st.integers(1, 10_000),
    st.integers(0, 60),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(1, 5))
def test_a_world_keeps_every_visible_card_and_exactly_the_unseen_ones(layout, count):
    unseen = Counter(unseen_cards(layout))
    drawn = list(worlds(layout, count))
    assert len(drawn) == count
    for world in drawn:
        assert visible_cards(world) == visible_cards(layout)
        assert [len(d) for d, _ in world.columns] == [len(d) for d, _ in layout.columns]
        assert len(world.stock) == len(layout.stock)
        assert world.removed == layout.removed
        assert world.deal_over_gap == layout.deal_over_gap
        assert Counter(unseen_cards(world)) == unseen
        assert visible_text(world) == visible_text(layout)
        world.validate()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_the_worlds_depend_on_the_visible_position_alone(layout):
    # Another game that looks the same: the hidden cards lie elsewhere.
    other = next(worlds(layout, 1))
    assert world_seed(other) == world_seed(layout)
    assert list(worlds(other, 3)) == list(worlds(layout, 3))


def test_the_draw_is_not_the_same_world_each_time():
    layout = played(4, 7, 0)
    assert len({w.notation() for w in worlds(layout, 8)}) == 8


def test_same_visible_position_same_answer_whatever_lies_face_down():
    layout = played(2, 11, 40)
    other = next(worlds(layout, 1))
    assert other != layout or not unseen_cards(layout)
    first = estimate(layout, sample=6, budget=SMALL)
    assert first == estimate(layout, sample=6, budget=SMALL)  # repeatable
    assert first == estimate(other, sample=6, budget=SMALL)  # fair
    assert first.sample == 6
    assert first.won + first.lost + first.undecided == 6


def _two_suits_one_ace_each_hidden() -> Layout:
    """Spades K..2 over one hidden card, hearts K..2 over the other; the hidden cards are
    the two aces, in either order: won in every world (a run moves to an empty column)."""
    spades, hearts = 0, 1
    columns = [
        ((make_card(spades, 1),), tuple(make_card(spades, r) for r in range(KING, 1, -1))),
        ((make_card(hearts, 1),), tuple(make_card(hearts, r) for r in range(KING, 1, -1))),
    ] + [((), ())] * 8
    return Layout(2, tuple(columns))


def _stuck_over_hidden_cards() -> Layout:
    """Eight Kings and two Fives face up, each over a hidden card, no stock: no move in any
    world (no empty column, no Six), so lost in every one."""
    tops = [make_card(s, KING) for s in (0, 1) for _ in range(4)]
    tops += [make_card(0, FIVE), make_card(1, FIVE)]
    return Layout(2, tuple(((make_card(i % 2, 1 + i // 2),), (c,)) for i, c in enumerate(tops)))


def test_a_position_won_in_every_world_has_chance_one():
    layout = _two_suits_one_ace_each_hidden()
    assert len({w.notation() for w in worlds(layout, 8)}) == 2  # both ways the aces lie
    chance = estimate(layout, sample=8, budget=SMALL)
    assert chance == Chance(8, 0, 0, chance.nodes)
    assert chance.share == 1.0


def test_a_position_hopeless_in_every_world_has_chance_zero():
    layout = _stuck_over_hidden_cards()
    assert not Board(layout).legal_moves()
    chance = estimate(layout, sample=8, budget=SMALL)
    assert chance == Chance(0, 8, 0, chance.nodes)
    assert chance.share == 0.0


def test_an_undecided_world_is_neither_won_nor_lost():
    # A four-suit deal: a search of a few hundred positions settles no world.
    chance = estimate(deal_layout(4, 3), sample=4, budget=WorldBudget(300, 0))
    assert chance == Chance(0, 0, 4, chance.nodes)
    assert chance.share is None
    assert chance.to_json() == {"share": None, "won": 0, "lost": 0, "undecided": 4, "sample": 4}
    assert (chance.low, chance.high) == (0.0, 1.0)


def test_the_moves_are_weighed_in_the_same_worlds():
    layout = played(1, 5, 30)
    moves = [Action.move(*m) for m in Board(layout).legal_moves()[:2]]
    before, after, won = estimate_moves(layout, moves, sample=5, budget=SMALL)
    assert before == estimate(layout, sample=5, budget=SMALL)
    assert [c.sample for c in after] == [5] * len(moves)
    assert [sum(w) for w in won] == [c.won for c in after]
    # After a move a world is won only if it was won before it.
    assert all(c.won <= before.won + before.undecided for c in after)


def test_a_world_won_by_a_line_is_won_after_its_first_action_without_a_search():
    layout = _two_suits_one_ace_each_hidden()
    first = solve(next(worlds(layout, 1)), max_nodes=SMALL.search_nodes, shorten_ratio=0)
    assert first.won and first.line
    before, (after,), won = estimate_moves(layout, [first.line[0]], sample=1, budget=SMALL)
    assert before == Chance(1, 0, 0, before.nodes) and before.nodes > 0
    assert after == Chance(1, 0, 0, 0)  # the rest of the line wins: nothing searched
    assert won == [[True]]
