"""The race timers fire in one uvicorn process with no broker and no beat (`make run`),
with nobody acting and nobody holding a stream: the process's loop starts with the server
(spider_api.asgi answers the lifespan startup), not with the first stream (a
time-limited race once stayed `racing` past its deadline, and a started race read
`countdown`).

A real uvicorn process on the test database; this test process opens and starts the race,
then only reads the rows.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game
from races.models import Presence, Race
from tests.ops.procs import wait_for
from tests.races.conftest import open_table, post
from tests.races.streams import stream_server
from tests.races.test_timers import SLOW

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.slow]


@pytest.mark.parametrize("lifespan", ["on", "off"])  # off: from the first request (a probe)
def test_a_race_starts_and_ends_on_time_with_nobody_acting_or_connected(
    racers, tmp_path, settings, lifespan
):
    settings.RACE_COUNTDOWN_SECONDS = 2
    (alice, a), (bob, b) = racers(2)
    # As `make run`: one process, events in memory (no Redis), no broker, timers every 1 s.
    with stream_server(
        tmp_path,
        lifespan=lifespan,
        RACE_EVENTS_REDIS_URL="",
        CELERY_BROKER_URL="",
        RACE_TICK_SECONDS="1",
    ):
        table = open_table([a, b], layout=SLOW, time_limit_s=60)
        ok = post(a, table["code"], "start")
        assert ok.status_code == 200, ok.content
        race = Race.objects.get()
        assert race.status == "countdown"
        # The 60 s limit, brought forward to 2 s after the cards turn over (the test's only
        # write; the server's loop reads the deadline from the row, as it always does).
        Race.objects.filter(pk=race.pk).update(ends_at=race.starts_at + timedelta(seconds=2))

        wait_for("the cards to turn over", lambda: Race.objects.get().status != "countdown", 15)
        wait_for("the race to end on time", lambda: Race.objects.get().settled, 15)

    race = Race.objects.get()
    assert (race.status, race.end_reason, race.result) == ("finished", "time", "draw")
    assert not Presence.objects.filter(streams__gt=0).exists()  # nobody was connected
    assert set(Game.objects.filter(kind="race").values_list("status", flat=True)) == {"lost"}
