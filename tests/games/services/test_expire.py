"""Idle games expire: lost (counted) if they had an action, discarded if not. The service,
the Celery task and the management command."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from games import tasks
from games.models import Game, PlayerStats
from games.services import games_expire_idle
from tests.games.api.helpers import (
    act,
    game_record,
    game_url,
    new_game,
    ok,
    player_url,
    pooled_layout_deal,
    resign_url,
)

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
# Two 1-suit columns; any move of the lone Ace into an empty column is an action.
POSITION = ["|Ks", "|As"]


@pytest.fixture
def start(make_user, auth_client):
    """``start(actions=0)``: a new player's game, with that many actions taken now."""

    def make(actions: int = 0):
        client = auth_client(make_user())
        pooled_layout_deal(POSITION)
        gid = new_game(client, 1)["id"]
        for n in range(actions):
            ok(act(client, gid, "move", from_=1 + n % 2, to=2 - n % 2))
        return client, gid

    return make


def test_idle_games_end_lost_or_are_discarded(start, clock):
    t0 = clock.now
    idle_played = start(actions=1)
    idle_unplayed = start()
    clock.advance(seconds=2.5 * 3600)
    recent_played = start(actions=2)
    recent_unplayed = start()
    over = start(actions=1)
    ok(over[0].post(resign_url(over[1])))
    over_before = game_record(over[1])
    recent_before = [game_record(g[1]) for g in (recent_played, recent_unplayed)]
    clock.advance(seconds=1800)

    ended = games_expire_idle(idle=HOUR)

    assert ended == 2
    client, gid = idle_played
    body = ok(client.get(game_url(gid)))
    assert (body["status"], body["end_reason"]) == ("lost", "expired")
    assert body["finished_at"] == clock.now.isoformat().replace("+00:00", "Z")
    assert body["elapsed_ms"] == (clock.now - t0).total_seconds() * 1000
    assert body["deal"] is not None  # over: public, like any finished game
    stats = next(s for s in ok(client.get(player_url(_username(gid))))["stats"] if s["suits"] == 1)
    assert (stats["played"], stats["current_loss_streak"]) == (1, 1)
    assert not Game.objects.filter(pk=idle_unplayed[1]).exists()
    assert PlayerStats.objects.count() == 2  # the expired game and the resigned one
    assert [game_record(g[1]) for g in (recent_played, recent_unplayed)] == recent_before
    assert game_record(over[1]) == over_before

    clock.advance(seconds=60)
    assert games_expire_idle(idle=HOUR) == 0  # safe to run again


def _username(game_id):
    return Game.objects.select_related("player").get(pk=game_id).player.username


def test_idle_means_longer_than_the_limit(start, clock):
    _, gid = start(actions=1)

    assert games_expire_idle(idle=HOUR, now=clock.now + HOUR) == 0
    assert Game.objects.get(pk=gid).status == "in_progress"
    assert games_expire_idle(idle=HOUR, now=clock.now + HOUR + timedelta(milliseconds=1)) == 1
    assert Game.objects.get(pk=gid).end_reason == "expired"


def test_the_last_action_not_the_creation_counts(start, clock):
    client, gid = start(actions=1)
    clock.advance(seconds=3 * 3600)
    ok(act(client, gid, "undo"))
    clock.advance(seconds=1800)

    assert games_expire_idle(idle=HOUR) == 0
    assert Game.objects.get(pk=gid).status == "in_progress"


def test_every_idle_game_ends_however_small_the_batch(start, clock):
    games = [start(actions=n % 2)[1] for n in range(5)]
    clock.advance(seconds=2 * 3600)

    assert games_expire_idle(idle=HOUR, batch=2) == 5

    assert not Game.objects.filter(pk__in=games, status="in_progress").exists()
    assert Game.objects.filter(pk__in=games, end_reason="expired").count() == 2


def test_the_task_uses_the_configured_idle_time(start, clock, settings):
    settings.GAME_IDLE_EXPIRY_SECONDS = 600
    _, gid = start(actions=1)
    clock.advance(seconds=599)
    assert tasks.expire_idle_games.delay().get() == 0

    clock.advance(seconds=2)

    assert tasks.expire_idle_games.delay().get() == 1
    assert Game.objects.get(pk=gid).end_reason == "expired"


def test_the_command_expires_with_the_configured_or_given_idle_time(start, clock, settings):
    settings.GAME_IDLE_EXPIRY_SECONDS = 24 * 3600
    _, played = start(actions=1)
    _, unplayed = start()
    clock.advance(seconds=7200)
    out = StringIO()

    call_command("expire_games", stdout=out)
    assert out.getvalue().strip() == "ended 0 idle games"
    call_command("expire_games", "--idle", "3600", stdout=out)

    assert out.getvalue().strip().endswith("ended 2 idle games")
    assert Game.objects.get(pk=played).end_reason == "expired"
    assert not Game.objects.filter(pk=unplayed).exists()


def test_without_a_broker_the_serving_process_expires_idle_games(
    start, clock, settings, monkeypatch
):
    """`make run` has no beat: its process's own sweep (spider_api.sweeps) expires idle games
    every 15 minutes, the first time 15 minutes after the process starts."""
    from django.conf import settings as django_settings

    from spider_api import sweeps

    schedule = {e["task"]: e["schedule"] for e in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert (
        sweeps.HOUSEKEEPING["expire_idle_games"][1]() == schedule["games.tasks.expire_idle_games"]
    )
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.GAME_IDLE_EXPIRY_SECONDS = 600
    _, gid = start(actions=1)
    monkeypatch.setattr(sweeps, "_last_run", {})
    monotonic = [5000.0]
    monkeypatch.setattr(sweeps.time, "monotonic", lambda: monotonic[0])
    sweeps.sweep_due()  # the process starts
    clock.advance(seconds=3600)  # long idle, but the sweep's period has not passed
    sweeps.sweep_due()
    assert Game.objects.get(pk=gid).status == Game.Status.IN_PROGRESS

    monotonic[0] += 15 * 60
    sweeps.sweep_due()

    assert Game.objects.get(pk=gid).end_reason == "expired"


def test_with_a_broker_the_serving_process_leaves_housekeeping_to_beat(
    start, clock, settings, monkeypatch
):
    from spider_api import sweeps

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.GAME_IDLE_EXPIRY_SECONDS = 600
    _, gid = start(actions=1)
    monkeypatch.setattr(sweeps, "_last_run", {})
    monotonic = [5000.0]
    monkeypatch.setattr(sweeps.time, "monotonic", lambda: monotonic[0])
    sweeps.sweep_due()
    clock.advance(seconds=3600)
    monotonic[0] += 3 * 3600
    sweeps.sweep_due()

    assert Game.objects.get(pk=gid).status == Game.Status.IN_PROGRESS
