"""Timers fire with nobody acting, from the database: the sweep (the Celery task's function)
starts the race after the countdown, ends it when the time is up, and puts out a racer gone
for 60 s. Nothing is held in a worker's memory, so a worker killed while a timer was
pending changes nothing: the next sweep, in any process, finds the deadline passed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from races.models import Presence, Race, Racer, TableEvent
from races.services import presence_close, presence_open, presence_sweep
from races.tasks import sweep_races
from tests.games.api.helpers import act, ok, refused
from tests.races.conftest import open_table, post, race_url, start_race
from tests.races.test_race_api import WIN2

pytestmark = pytest.mark.django_db(transaction=True)

# Column 1 holds a face-down As under the 2s; column 2 a face-down 4s under the 3s of a
# second set... each racer can turn over one or two cards but nobody can win at once.
SLOW = {
    "columns": [
        {"down": [], "up": ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s"]},
        {"down": ["As"], "up": ["2s"]},
        {"down": ["9s"], "up": ["3s"]},
    ]
    + [{"down": [], "up": []}] * 7,
    "stock": [],
}


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def test_the_countdown_ends_by_itself(racers, settings):
    settings.RACE_COUNTDOWN_SECONDS = 3
    (_, a), (_, b) = racers(2)
    table = start_race([a, b], layout=WIN2)
    race = Race.objects.get()
    assert race.status == "countdown"
    sweep_races()  # too early: nothing happens
    assert Race.objects.get().status == "countdown"
    from races.services import races_tick

    races_tick(now=later(3.5))
    assert Race.objects.get().status == "racing"
    assert TableEvent.objects.filter(kind="started").count() == 1
    races_tick(now=later(4))  # idempotent
    assert TableEvent.objects.filter(kind="started").count() == 1
    assert table["code"]


def test_time_limit_ends_the_race_with_nobody_acting(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=SLOW, time_limit_s=60)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    # Bob turns two cards over, Alice one; Carol nothing.
    ok(act(b, games[bob.username], "move", from_=2, to=0))
    ok(act(b, games[bob.username], "move", from_=1, to=0))
    ok(act(a, games[alice.username], "move", from_=2, to=0))
    assert Race.objects.get().status == "racing"

    from races.services import races_tick

    races_tick(now=later(30))
    assert Race.objects.get().status == "racing"
    races_tick(now=later(61))  # as the beat's sweep would, with nobody acting
    race = Race.objects.get()
    assert race.status == "finished" and race.end_reason == "time"
    assert race.finished_at == race.ends_at
    body = ok(c.get(race_url(code)))
    assert body["race"]["winner"] == bob.username
    states = {r["player"]: r["state"] for r in body["race"]["racers"]}
    assert states == {alice.username: "lost", bob.username: "won", carol.username: "lost"}
    # The race's winner won their game (docs/rules.md#race-results), the others lost theirs.
    ended = {g.player.username: (g.status, g.end_reason) for g in Game.objects.filter(kind="race")}
    assert ended == {
        alice.username: ("lost", "race_over"),
        bob.username: ("won", "race_won"),
        carol.username: ("lost", "race_over"),
    }


def test_time_limit_tie_is_a_draw_for_the_best(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=SLOW, time_limit_s=60)
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(act(a, games[alice.username], "move", from_=2, to=0))
    ok(act(b, games[bob.username], "move", from_=2, to=0))
    from races.services import races_tick

    races_tick(now=later(61))
    states = dict(Racer.objects.values_list("player__username", "state"))
    assert states == {alice.username: "draw", bob.username: "draw", carol.username: "lost"}
    assert Race.objects.get().result == "draw"


def test_an_action_after_the_time_is_up_is_refused(racers, clock):
    (alice, a), (_, b) = racers(2)
    table = start_race([a, b], layout=SLOW, time_limit_s=60)
    game = table["race"]["racers"][0]["game"]
    clock.advance(seconds=61)
    refused(act(a, game, "move", from_=2, to=0), 422, "race_over")
    assert Game.objects.get(pk=game).actions == 0


def test_a_racer_gone_for_60_seconds_is_out_and_the_other_wins(racers):
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], layout=SLOW)
    race = Race.objects.get()
    # Alice holds her stream open (the heartbeat refreshes it); Bob never connects.
    pid = presence_open(table_id=race.table_id, player=alice)
    from races.services import presence_heartbeat, races_tick

    races_tick(now=later(30))
    assert Race.objects.get().status == "racing"
    presence_heartbeat(presence_ids=[pid], now=later(55))
    races_tick(now=later(61))
    race = Race.objects.get()
    assert race.status == "finished" and race.end_reason == "last_left"
    out = Racer.objects.get(player=bob)
    assert (out.state, out.out_reason) == ("out", "gone")
    assert Racer.objects.get(player=alice).state == "won"
    assert table["code"]


def test_coming_back_within_60_seconds_plays_on(racers):
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], layout=SLOW)
    race = Race.objects.get()
    for player in (alice, bob):
        presence_open(table_id=race.table_id, player=player)
    bob_presence = Presence.objects.get(player=bob)
    presence_close(presence_id=bob_presence.pk, now=later(1))  # Bob's connection drops
    presence_sweep(now=later(15))  # ... and stays away past the grace: his `gone`
    assert TableEvent.objects.filter(kind="gone").count() == 1
    from races.services import presence_heartbeat, races_tick

    alice_presence = Presence.objects.get(player=alice)
    presence_heartbeat(presence_ids=[alice_presence.pk], now=later(40))
    presence_open(table_id=race.table_id, player=bob, now=later(40))  # back in time
    assert TableEvent.objects.filter(kind="back").count() == 3
    presence_heartbeat(presence_ids=[alice_presence.pk, bob_presence.pk], now=later(60))
    races_tick(now=later(75))
    assert Race.objects.get().status == "racing"
    game = table["race"]["racers"][1]["game"]
    ok(act(b, game, "move", from_=2, to=0))


def test_acting_counts_as_connected(racers, clock):
    (alice, a), (bob, b) = racers(2)
    table = start_race([a, b], layout=SLOW)
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    clock.advance(seconds=50)
    ok(act(a, games[alice.username], "move", from_=2, to=0))
    from races.services import races_tick

    races_tick(now=clock.advance(seconds=15))  # 65 s: Bob gone, Alice acted 15 s ago
    assert Racer.objects.get(player=bob).state == "out"
    assert Racer.objects.get(player=alice).state == "won"


def test_a_read_writes_nothing_the_sweep_fires_the_timers(racers, settings, clock):
    settings.RACE_COUNTDOWN_SECONDS = 3
    (_, a), (_, b) = racers(2)
    table = open_table([a, b], layout=SLOW, time_limit_s=60)
    ok(post(a, table["code"], "start"))
    code = table["code"]
    clock.advance(seconds=70)  # the countdown and the time limit both passed
    before = list(TableEvent.objects.values_list("seq", "kind"))
    for client in (a, b):
        body = ok(client.get(race_url(code)))
        assert body["race"]["status"] == "countdown"  # as committed: reads change nothing
    assert list(TableEvent.objects.values_list("seq", "kind")) == before
    assert Race.objects.get().status == "countdown"
    sweep_races()  # the beat's sweep (the stream processes run the same every second)
    race = Race.objects.get()
    assert (race.status, race.end_reason, race.result) == ("finished", "time", "draw")
    kinds = list(TableEvent.objects.order_by("seq").values_list("kind", flat=True))
    assert kinds[len(before) :] == ["started", "finished"]


def test_a_racer_gone_for_60_seconds_is_out_and_the_others_race_on(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=SLOW)
    race = Race.objects.get()
    pids = [presence_open(table_id=race.table_id, player=p) for p in (alice, carol)]
    from races.services import presence_heartbeat, races_tick

    presence_heartbeat(presence_ids=pids, now=later(55))
    races_tick(now=later(61))
    assert Racer.objects.get(player=bob).state == "out"
    assert Race.objects.get().status == "racing"  # Alice and Carol race on
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(act(c, games[carol.username], "move", from_=2, to=0))
    refused(act(b, games[bob.username], "move", from_=2, to=0), 422, "not_racing")
