"""Rollouts (games/solver/native/rollout.cpp, the hint level ``rollout``): the look-ahead's
best hints played on in worlds drawn from the cards not in view. Fair (only what the player
sees goes in: the same visible position gets the same hints and chances, whatever is
hidden), deterministic, bounded, and the chance said in words only where the sample
supports it. Anything malformed handed to the core raises ValueError (make sanitize runs
this file against a build with AddressSanitizer and UBSan)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Board, Layout, deal_layout
from games.solver import _core, hint
from games.solver.hint import (
    CHANCE_MIN_WORLDS,
    ROLLOUT_CANDIDATES,
    ROLLOUT_MAX_STEPS,
    ROLLOUT_PLAYOUT_MOVES,
    ROLLOUT_WORLDS,
    Hint,
    VisiblePosition,
    board_hints,
    hints,
)
from tests.solver.test_hint import _random_play, _remasked, positions


def visible(b: Board) -> VisiblePosition:
    return VisiblePosition.from_board(b)


def rollouts(v: VisiblePosition, candidates: list, **kw: Any) -> Any:
    args: dict[str, Any] = {
        "worlds": 8,
        "playout_moves": 200,
        "max_steps": 10**6,
        "max_seconds": 10.0,
    }
    args.update(kw)
    return _core.rollouts(
        v.cards,
        v.hidden,
        v.deals_left * 10,
        v.suits,
        v.removed,
        candidates,
        args["worlds"],
        args["playout_moves"],
        args["max_steps"],
        args["max_seconds"],
    )


# -- fair and deterministic ----------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_hidden_cards_cannot_change_a_rollout_hint(pos: tuple[int, int, int, int]) -> None:
    suits, seed, steps, r = pos
    rng = random.Random(r)
    b = _random_play(suits, seed, steps, rng)
    other = _remasked(b, rng)
    v, w = visible(b), visible(other)
    assert v == w
    last = b.last_move
    mine = hints(v, last_move=last, level="rollout")
    theirs = hints(w, last_move=last, level="rollout")
    assert mine == theirs  # every n: actions, reasons, scores, chances and samples
    assert [(h.chance, h.sample) for h in mine] == [(h.chance, h.sample) for h in theirs]


def test_the_same_position_gets_the_same_rollouts() -> None:
    b = _random_play(4, 77, 40, random.Random(1))
    v = visible(b)
    found = hints(v, level="default")[:3]
    first = rollouts(v, [h.move for h in found])
    assert first == rollouts(v, [h.move for h in found])
    assert hints(v, level="rollout") == hints(v, level="rollout")
    assert first[0] == 8 and len(first[3]) == len(found)


def test_rollouts_rank_the_look_aheads_best_moves_and_keep_the_rest() -> None:
    b = Board(deal_layout(2, 7))
    plain = hints(visible(b), level="default")
    rolled = hints(visible(b), level="rollout")
    k = ROLLOUT_CANDIDATES
    assert sorted(h.move for h in rolled[:k]) == sorted(h.move for h in plain[:k])
    assert [h.action for h in rolled[k:]] == [h.action for h in plain[k:]]
    assert all(h.sample == ROLLOUT_WORLDS for h in rolled[:k])
    assert all(h.chance is None and h.sample == 0 for h in rolled[k:])


def test_a_won_endgame_is_won_in_every_world() -> None:
    # 1 suit, six runs removed: every card in view but one face-down card, which can only
    # be the 2 not in view.
    cols = ["|KsQsJsTs9s8s7s6s5s4s3s", "2s|As", "|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"] + ["|"] * 6
    b = Board(Layout.parse(f"1 {'/'.join(cols)} - ssssss"))
    found = board_hints(b, level="rollout")
    assert found and found[0].chance == 1.0 and found[0].sample == ROLLOUT_WORLDS
    assert found[0].chance_sentence == f"won in all {ROLLOUT_WORLDS} ways the hidden cards may lie"


def test_a_made_up_layout_keeps_the_look_aheads_ranking() -> None:
    # Cards no deck of the suit mode holds: there are no cards not in view to draw from.
    b = Board(Layout.parse(f"4 {'/'.join(['|Kh6h', '9s|5h', '|Qd'] + ['|'] * 7)} - -"))
    assert board_hints(b, level="rollout") == board_hints(b, level="default")


# -- bounded ------------------------------------------------------------------------------
def test_no_world_is_started_past_the_step_bound() -> None:
    b = _random_play(1, 5, 30, random.Random(5))
    v = visible(b)
    cands = [h.move for h in hints(v, level="default")[:3]]
    worlds, steps, timed_out, _ = rollouts(v, cands, worlds=50, max_steps=1)
    assert worlds == 1 and not timed_out
    assert steps <= len(cands) * (200 + 1)
    full = rollouts(v, cands, worlds=50)
    assert full[0] == 50
    bounded = rollouts(v, cands, worlds=50, max_steps=full[1] // 2)
    assert bounded[0] < 50
    assert bounded[1] <= full[1] // 2 + len(cands) * 201
    assert rollouts(v, cands, worlds=0)[0] == 0


def test_a_hint_plays_at_most_its_bound() -> None:
    """Every hint's playouts stop within ROLLOUT_MAX_STEPS and one world more."""
    per_world = ROLLOUT_CANDIDATES * (ROLLOUT_PLAYOUT_MOVES + 1)
    for suits, seed, steps in ((1, 3, 0), (1, 11, 150), (2, 4, 60), (4, 9, 100)):
        v = visible(_random_play(suits, seed, steps, random.Random(seed)))
        cands = [h.move for h in hints(v, level="default")[:ROLLOUT_CANDIDATES]]
        if not cands:
            continue
        worlds, played, timed_out, _ = rollouts(
            v,
            cands,
            worlds=ROLLOUT_WORLDS,
            playout_moves=ROLLOUT_PLAYOUT_MOVES,
            max_steps=ROLLOUT_MAX_STEPS,
        )
        assert played <= ROLLOUT_MAX_STEPS + per_world
        assert 1 <= worlds <= ROLLOUT_WORLDS and not timed_out


def test_the_cpu_time_net_stops_new_worlds() -> None:
    v = visible(Board(deal_layout(1, 3)))
    cands = [h.move for h in hints(v, level="default")[:3]]
    worlds, _, timed_out, _ = rollouts(v, cands, worlds=10_000, max_seconds=0.0)
    assert worlds == 1 and timed_out


# -- the chance in words --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("chance", "sample", "sentence"),
    [
        (0.3, 20, "wins about 3 in 10 of the ways the hidden cards may lie"),
        (7 / 24, 24, "wins about 3 in 10 of the ways the hidden cards may lie"),
        (1 / 24, 24, "wins about 1 in 10 of the ways the hidden cards may lie"),
        (23 / 24, 24, "wins about 9 in 10 of the ways the hidden cards may lie"),
        (0.0, 24, "no win found in 24 ways the hidden cards may lie"),
        (1.0, 24, "won in all 24 ways the hidden cards may lie"),
    ],
)
def test_the_chance_in_the_players_words(chance: float, sample: int, sentence: str) -> None:
    assert Hint({"type": "deal"}, "deals", 0.0, chance, sample).chance_sentence == sentence


def test_no_chance_is_said_without_a_sample_that_supports_it(monkeypatch) -> None:
    assert Hint({"type": "deal"}, "deals", 0.0).chance_sentence is None
    v = visible(Board(deal_layout(4, 12)))
    assert all(h.chance is not None for h in hints(v, level="rollout")[:ROLLOUT_CANDIDATES])
    monkeypatch.setattr(hint, "ROLLOUT_WORLDS", CHANCE_MIN_WORLDS - 1)
    few = hints(v, level="rollout")
    assert few[0].sample == CHANCE_MIN_WORLDS - 1 and all(h.chance is None for h in few)
    # playouts cut short before the game's end: nothing said either
    monkeypatch.setattr(hint, "ROLLOUT_WORLDS", CHANCE_MIN_WORLDS)
    monkeypatch.setattr(hint, "ROLLOUT_PLAYOUT_MOVES", 2)
    assert all(h.chance is None for h in hints(v, level="rollout"))


# -- bad input: a clear ValueError, never a crash ---------------------------------------------
GOOD = visible(Board(deal_layout(2, 5)))
GOOD_ARGS: list[Any] = [
    GOOD.cards,
    GOOD.hidden,
    GOOD.deals_left * 10,
    GOOD.suits,
    GOOD.removed,
    [h.move for h in hints(GOOD, level="default")[:2]],
    4,
    50,
    10_000,
    1.0,
]


@pytest.mark.parametrize(
    ("at", "value", "words"),
    [
        (0, "KsQs", "cols must be a list or tuple"),
        (0, [[]] * 9, "10 columns"),
        (0, [[0]] + [[]] * 9, "not a card"),
        (0, [[17] * 200] + [[]] * 9, "too many cards"),
        (1, [1] * 11, "10 counts"),
        (1, [-1] * 10, "face-down count"),
        (1, [3] * 10, "do not fill"),
        (2, 15, "multiple of 10"),
        (2, 10**30, "stock_left"),
        (3, 3, "suit"),
        (4, [5], "removed run's suit"),
        (4, [0] * 9, "at most 8 runs"),
        (5, [(0, 0, 1)], "not a legal action"),
        (5, [(0, 1)], "(src, dst, count)"),
        (5, [(-1, -1, 1)], "the deal is"),
        (5, "deal", "candidates must be a list or tuple"),
        (6, -1, "worlds"),
        (6, 1.5, "worlds must be an int"),
        (7, None, "playout_moves must be an int"),
        (8, -5, "max_steps"),
        (9, "1", "max_seconds must be a number"),
    ],
)
def test_bad_input_raises_a_clear_value_error(at: int, value: Any, words: str) -> None:
    args = list(GOOD_ARGS)
    args[at] = value
    with pytest.raises(ValueError, match=re.escape(words)):
        _core.rollouts(*args)


def test_too_many_copies_of_a_card_in_view_is_refused() -> None:
    cols = [list(c) for c in GOOD.cards]
    cols[0] = [GOOD.cards[1][0]] * 5  # five of one card, where 2 suits hold four of each
    with pytest.raises(ValueError, match="do not fit the suit mode"):
        _core.rollouts(*[cols, (0, *GOOD.hidden[1:]), *GOOD_ARGS[2:5], [], *GOOD_ARGS[6:]])


junk = st.one_of(
    st.none(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.lists(st.integers(-3, 300), max_size=12),
    st.lists(st.lists(st.integers(-3, 300), max_size=14), max_size=11),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 9), junk, st.integers(0, 9), junk)
def test_fuzzed_input_raises_value_error_or_answers(a: int, x: Any, b: int, y: Any) -> None:
    args = list(GOOD_ARGS)
    args[a] = x
    args[b] = y
    try:
        worlds, steps, timed_out, outcomes = _core.rollouts(*args)
    except ValueError as e:
        assert str(e)
        return
    assert worlds >= 0 and steps >= 0 and isinstance(timed_out, bool)
    for wins, ended, score in outcomes:
        assert 0 <= wins <= ended <= worlds and score >= 0
