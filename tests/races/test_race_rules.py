"""Race rules a hostile player probed: a race win is a win of the winner's game
however it came, with its reward; `connected` counts a recent action; resigning in the
countdown is refused the same way on both endpoints; Play again is for the players who raced.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from coins.models import CoinEntry
from games.models import Game, PlayerStats
from races.models import Racer, TableEvent
from races.services import races_tick
from tests.games.api.helpers import (
    NEAR_WIN,
    act,
    game_url,
    ok,
    player_url,
    pooled_layout_deal,
    refused,
)
from tests.races.conftest import API, post, race_url, start_race

pytestmark = pytest.mark.django_db(transaction=True)

# Nobody can win at once: two face-down cards to turn over, then nothing more to do.
SLOW = ["|KsQsJsTs9s8s7s6s5s4s", "As|2s", "9s|3s"]


def _games(table):
    return {r["player"]: r["game"] for r in table["race"]["racers"]}


def _history(client, username):
    page = ok(client.get(f"{API}/games"))
    return {g["id"]: (g["status"], g["kind"]) for g in page["results"]}


# -- a race win is a win, with the race reward ----------------------------------
@pytest.mark.parametrize("suits", [1, 2])
def test_the_last_one_left_wins_their_game_and_the_race_reward(racers, suits):
    pooled_layout_deal(SLOW, suits=suits)  # a vetted deal from the pool: a reward is due
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], suits=suits)
    games = _games(table)
    ok(act(b, games[bob.username], "move", from_=2, to=0))  # Bob turns one card over

    body = ok(post(a, table["code"], "resign"))

    assert body["race"]["winner"] == bob.username and body["race"]["end_reason"] == "last_left"
    won = Game.objects.get(pk=games[bob.username])
    assert (won.status, won.end_reason) == ("won", "race_won")
    assert won.finished_at is not None and won.elapsed_ms is not None
    lost = Game.objects.get(pk=games[alice.username])
    assert (lost.status, lost.end_reason) == ("lost", "resigned")
    entry = CoinEntry.objects.get()
    assert (entry.player_id, entry.kind, entry.base, entry.bonus, entry.amount) == (
        bob.pk,
        "race",
        10 * suits,
        0,
        10 * suits,
    )
    # The winner's history shows the win.
    assert _history(b, bob.username)[games[bob.username]] == ("won", "race")
    assert ok(b.get(game_url(games[bob.username])))["status"] == "won"


def test_the_most_runs_at_the_time_wins_their_game_and_the_race_reward(racers):
    pooled_layout_deal(SLOW)
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], time_limit_s=60)
    games = _games(table)
    ok(act(b, games[bob.username], "move", from_=2, to=0))

    races_tick(now=timezone.now() + timedelta(seconds=61))

    won = Game.objects.get(pk=games[bob.username])
    assert (won.status, won.end_reason) == ("won", "race_won")
    assert Game.objects.get(pk=games[alice.username]).status == "lost"
    assert CoinEntry.objects.get().player_id == bob.pk
    races_tick(now=timezone.now() + timedelta(seconds=62))  # settled once: paid once
    assert CoinEntry.objects.count() == 1


def test_race_wins_stay_out_of_the_per_mode_statistics(racers, api_client):
    """Race games count apart (docs/rules.md#statistics): neither a race won on the board nor
    one won as the last one left enters PlayerStats or the five best wins."""
    pooled_layout_deal(NEAR_WIN)
    pooled_layout_deal(SLOW)
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b])
    ok(act(b, _games(table)[bob.username], "move", from_=1, to=0))  # won on the board
    table = ok(post(a, table["code"], "again"))
    races_tick()
    ok(post(a, table["code"], "resign"))  # Bob is the last one left
    assert Game.objects.filter(player=bob, kind="race", status="won").count() == 2

    stats = ok(api_client.get(player_url(bob.username)))["stats"]
    assert all(m["wins"] == 0 and m["best_wins"] == [] for m in stats), stats
    assert all(m["fastest_win_ms"] is None and m["best_score"] is None for m in stats)
    assert not PlayerStats.objects.filter(player=bob).exists()


# -- connected while holding the stream OR having acted in the last 60 s ---------
def test_a_racer_who_acted_recently_shows_connected_without_a_stream(racers, clock):
    pooled_layout_deal(SLOW)
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b])
    code = table["code"]
    ok(act(b, _games(table)[bob.username], "move", from_=2, to=0))

    def shown():
        body = ok(a.get(race_url(code)))
        seats = {s["player"]: s["connected"] for s in body["seats"]}
        racing = {r["player"]: r["connected"] for r in body["race"]["racers"]}
        return seats, racing

    clock.advance(seconds=59)
    seats, racing = shown()
    assert seats == {alice.username: False, bob.username: True}
    assert racing == {alice.username: False, bob.username: True}
    clock.advance(seconds=2)  # 61 s since Bob's action, and no stream
    seats, racing = shown()
    assert seats[bob.username] is False and racing[bob.username] is False


# -- resigning in the countdown: refused on both endpoints, 409 ------------------
def test_resigning_in_the_countdown_is_refused_alike_on_both_endpoints(racers, settings):
    settings.RACE_COUNTDOWN_SECONDS = 30
    pooled_layout_deal(SLOW)
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c])
    code = table["code"]
    games = _games(table)
    before = TableEvent.objects.count()

    refused(post(a, code, "resign"), 409, "race_not_started")
    refused(b.post(f"{game_url(games[bob.username])}/resign"), 409, "race_not_started")
    refused(
        b.post(f"{game_url(games[bob.username])}/resign", HTTP_IDEMPOTENCY_KEY="k1"),
        409,
        "race_not_started",
    )

    assert TableEvent.objects.count() == before  # nothing happened
    assert set(Racer.objects.values_list("state", flat=True)) == {"racing"}
    assert set(Game.objects.filter(kind="race").values_list("status", flat=True)) == {"in_progress"}


# -- Play again is for the players who raced --------------------------------------
def test_a_newcomer_cannot_sit_down_after_a_race_until_the_settings_change(racers):
    pooled_layout_deal(NEAR_WIN)
    pooled_layout_deal(NEAR_WIN)
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b])
    code = table["code"]
    ok(act(b, _games(table)[bob.username], "move", from_=1, to=0))  # Bob wins: finished

    refused(post(c, code, "sit"), 409, "table_busy")
    table = ok(post(a, code, "again"))
    assert sorted(r["player"] for r in table["race"]["racers"]) == sorted(
        [alice.username, bob.username]
    )
    assert sorted(s["player"] for s in table["seats"]) == sorted([alice.username, bob.username])

    races_tick()
    ok(post(a, code, "resign"))  # the second race is over: Bob is the last one left
    ok(post(a, code, "settings", {"suits": 1}))
    ok(post(c, code, "sit"))  # after the opener changed the settings: welcome
    assert {s["player"] for s in ok(c.get(race_url(code)))["seats"]} == {
        alice.username,
        bob.username,
        carol.username,
    }


def test_play_again_deals_only_the_players_who_raced(racers):
    """Even a seat that is not a racer's (written past the service) is not dealt in."""
    from races.models import Seat, Table

    pooled_layout_deal(NEAR_WIN)
    pooled_layout_deal(NEAR_WIN)
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b])
    ok(act(b, _games(table)[bob.username], "move", from_=1, to=0))
    Seat.objects.create(table=Table.objects.get(code=table["code"]), player=carol, seat=3)

    table = ok(post(a, table["code"], "again"))
    assert carol.username not in {r["player"] for r in table["race"]["racers"]}
    assert not Game.objects.filter(player=carol).exists()
