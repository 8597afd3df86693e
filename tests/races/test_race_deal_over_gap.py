"""A race table's table rule deal_over_gap (docs/rules.md#deal-over-a-gap): chosen when the
table opens or in its settings, shown on the table and its race, and every racer's game is
dealt under it."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games.api.helpers import act, layout_json, ok, refused
from tests.races.conftest import open_table, post, race_url, start_race

pytestmark = pytest.mark.django_db(transaction=True)

# K Q J of spades and T..A in the stock: a deal over the nine gaps, then nine moves win.
ENDGAME = layout_json(["|KsQsJs"], stock="Ts9s8s7s6s5s4s3s2sAs")


def test_racers_deal_over_the_gaps_at_a_table_under_the_rule(racers):
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], layout=ENDGAME, deal_over_gap=True)
    assert table["deal_over_gap"] is True and table["race"]["deal_over_gap"] is True
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    assert Game.objects.get(pk=games[bob.username]).deal_over_gap
    state = ok(act(a, games[alice.username], "deal"))
    assert state["deal_over_gap"] is True and state["deals_left"] == 0
    for src in range(1, 10):
        state = ok(act(a, games[alice.username], "move", from_=src, to=0))
    assert state["status"] == "won"
    laid = ok(b.get(race_url(table["code"])))["race"]["laid_open"]
    assert laid["deal"]["layout"].endswith(" deal_over_gap")


def test_the_settings_choose_the_rule_and_a_bad_value_is_refused(racers):
    (_, a), (_, b) = racers(2)
    table = open_table([a, b], layout=ENDGAME)
    assert table["deal_over_gap"] is False
    code = table["code"]
    refused(post(a, code, "settings", {"suits": 1, "deal_over_gap": "yes"}), 400, "invalid")
    assert ok(a.get(race_url(code)))["deal_over_gap"] is False
    changed = ok(post(a, code, "settings", {"suits": 1, "deal_over_gap": True}))
    assert changed["deal_over_gap"] is True
    assert post(b, code, "ready").status_code == 200
    started = ok(post(a, code, "start"))
    game = started["race"]["racers"][0]["game"]
    assert Game.objects.get(pk=game).deal_over_gap


def test_a_standard_table_refuses_the_deal_over_a_gap(racers):
    (alice, a), (_, b) = racers(2)
    table = start_race([a, b], layout=ENDGAME)
    game = {r["player"]: r["game"] for r in table["race"]["racers"]}[alice.username]
    refused(act(a, game, "deal"), 422, "empty_column_blocks_deal")
