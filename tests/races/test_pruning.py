"""What grows for ever is pruned: stream tickets once used or expired, and tables left open
and unused (never raced at, no event and nobody's stream for RACE_TABLE_IDLE_SECONDS). Beat
runs the task; without a broker the serving process's own sweep does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from races import services
from races.models import Presence, Seat, StreamTicket, Table, TableEvent
from races.services import races_prune, ticket_issue, ticket_redeem
from races.tasks import prune_races
from tests.games.api.helpers import ok
from tests.races.conftest import open_table, post, start_race

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def test_used_and_expired_tickets_are_pruned_live_ones_kept(racers):
    (alice, a), _ = racers(2)
    code = open_table([a])["code"]
    used = ticket_issue(player=alice, code=code)
    ticket_redeem(key=used.key, code=code)
    expired = ticket_issue(player=alice, code=code)
    StreamTicket.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    live = ticket_issue(player=alice, code=code)

    assert races_prune()["tickets"] == 2
    assert list(StreamTicket.objects.values_list("pk", flat=True)) == [live.pk]


def _age(code: str, by: timedelta) -> None:
    table = Table.objects.get(code=code)
    Table.objects.filter(pk=table.pk).update(created_at=table.created_at - by)
    for event in TableEvent.objects.filter(table=table):
        TableEvent.objects.filter(pk=event.pk).update(created_at=event.created_at - by)
    for p in Presence.objects.filter(table=table):
        Presence.objects.filter(pk=p.pk).update(seen_at=p.seen_at - by)


def test_tables_left_open_and_unused_are_pruned(settings, racers, stock_pool):
    settings.RACE_TABLE_IDLE_SECONDS = 7 * 24 * 3600
    stock_pool(1, 1)
    (alice, a), (bob, b) = racers(2)
    abandoned = open_table([a, b])["code"]
    services.ticket_issue(player=alice, code=abandoned)
    services.presence_open(table_id=Table.objects.get(code=abandoned).pk, player=bob)
    recent = open_table([a])["code"]  # opened a week ago, but someone sat down today
    raced = start_race([a, b])["code"]  # raced at: its results are kept
    for code in (abandoned, recent, raced):
        _age(code, 8 * DAY)
    ok(post(b, recent, "sit"))

    assert prune_races() == {"tickets": 0, "tables": 1}  # beat's task (the ticket is live)
    assert set(Table.objects.values_list("code", flat=True)) == {recent, raced}
    assert not Seat.objects.filter(table__code=abandoned).exists()
    assert not TableEvent.objects.filter(table__code=abandoned).exists()
    assert races_prune() == {"tickets": 0, "tables": 0}


def test_pruning_is_on_beat_and_in_the_process_without_a_broker(settings, monkeypatch):
    schedule = {e["task"]: e["schedule"] for e in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["races.tasks.prune_races"] == django_settings.RACE_PRUNE_SECONDS
    assert "races.tasks.sweep_presence" in schedule
    # No broker (`make run`): the serving process's own sweep prunes once a period.
    from spider_api import sweeps

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.RACE_PRUNE_SECONDS = 3600
    pruned: list[object] = []
    monkeypatch.setattr(sweeps, "races_prune", lambda now=None: pruned.append(now))
    monkeypatch.setattr(sweeps, "_last_run", {})
    clock = [1000.0]
    monkeypatch.setattr(sweeps.time, "monotonic", lambda: clock[0])
    sweeps.sweep_due()  # the process starts
    clock[0] += 1800
    sweeps.sweep_due()
    assert pruned == []
    clock[0] += 1800
    sweeps.sweep_due()  # one period after the start
    sweeps.sweep_due()
    assert len(pruned) == 1
