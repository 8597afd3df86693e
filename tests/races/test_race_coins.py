"""A race win pays coins as docs/rules.md#coins says: 10 times the mode, no perfect bonus, and
only the winner; a race on a staff-fixed deal pays nothing."""

from __future__ import annotations

import pytest

from coins.models import CoinEntry
from tests.games.api.helpers import NEAR_WIN, act, ok, pooled_layout_deal
from tests.races.conftest import NEAR_WIN_LAYOUT, start_race

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("suits", "base"), [(1, 10), (2, 20), (4, 40)])
def test_a_race_win_pays_ten_times_the_mode_without_a_bonus(racers, suits, base):
    pooled_layout_deal(NEAR_WIN, suits=suits)  # the race's vetted deal comes from the pool
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], suits=suits)
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}

    body = ok(act(b, games[bob.username], "move", from_=1, to=0))

    assert body["status"] == "won" and body["perfect"]  # perfect, yet no bonus in a race
    assert body["coins"]["eligible"] is True
    assert (body["coins"]["base"], body["coins"]["bonus"], body["coins"]["earned"]) == (
        base,
        0,
        base,
    )
    entry = CoinEntry.objects.get()
    assert (entry.kind, entry.amount, entry.player_id) == ("race", base, bob.pk)


def test_a_race_on_a_staff_fixed_deal_pays_nothing(racers):
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], layout=NEAR_WIN_LAYOUT)
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}

    body = ok(act(b, games[bob.username], "move", from_=1, to=0))

    assert body["status"] == "won"
    assert body["coins"]["eligible"] is False and body["coins"]["earned"] == 0
    assert not CoinEntry.objects.exists()
