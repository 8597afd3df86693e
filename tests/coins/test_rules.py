"""The amounts of docs/rules.md#coins, as pure functions (no database)."""

import pytest

from coins.rules import DAILY_CAP, Reward, capped, reward_for


@pytest.mark.parametrize(("suits", "base"), [(1, 10), (2, 20), (4, 40)])
@pytest.mark.parametrize("kind", ["casual", "daily"])
def test_a_ranked_win_pays_ten_times_the_mode_and_as_much_again_if_perfect(suits, base, kind):
    common = {"suits": suits, "kind": kind, "ranked": True, "staff_made": False}

    assert reward_for(perfect=False, **common) == Reward(base=base, bonus=0)
    assert reward_for(perfect=True, **common) == Reward(base=base, bonus=base)


@pytest.mark.parametrize(("suits", "base"), [(1, 10), (2, 20), (4, 40)])
def test_a_race_win_pays_ten_times_the_mode_and_never_a_bonus(suits, base):
    # A race game has no undo and no hint, so it always looks perfect: still no bonus.
    for ranked in (True, False):
        reward = reward_for(suits=suits, kind="race", perfect=True, ranked=ranked, staff_made=False)
        assert reward == Reward(base=base, bonus=0)


@pytest.mark.parametrize("kind", ["casual", "daily", "race"])
def test_staff_made_games_earn_nothing(kind):
    assert reward_for(suits=4, kind=kind, perfect=True, ranked=False, staff_made=True) is None


@pytest.mark.parametrize("kind", ["casual", "daily"])
def test_an_unranked_win_earns_nothing(kind):
    # A replay, a deal seen before, an unranked daily practice: Game.ranked is False.
    assert reward_for(suits=4, kind=kind, perfect=True, ranked=False, staff_made=False) is None


def test_an_unknown_kind_earns_nothing():
    assert reward_for(suits=1, kind="tutorial", perfect=True, ranked=True, staff_made=False) is None


@pytest.mark.parametrize(
    ("total", "earned_today", "credited", "cut"),
    [
        (80, 0, 80, 0),
        (80, 120, 80, 0),  # lands exactly on the cap
        (80, 160, 40, 40),
        (80, 200, 0, 80),
        (10, 199, 1, 9),
    ],
)
def test_the_cap_credits_what_is_left_and_cuts_the_rest(total, earned_today, credited, cut):
    assert DAILY_CAP == 200
    assert capped(total, earned_today) == (credited, cut)
