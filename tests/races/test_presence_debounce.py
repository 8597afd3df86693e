"""Presence changes are debounced: reconnecting does not flood the table's log. A seated
player's `gone` is written only once they have been away for RACE_GONE_GRACE_SECONDS, and a
`back` only when the log shows them away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from races.models import Presence, Table, TableEvent
from races.services import presence_close, presence_open, presence_sweep
from races.tasks import sweep_presence
from tests.games.api.helpers import ok
from tests.races.conftest import open_table, post, race_url

pytestmark = pytest.mark.django_db

_start = {"t0": timezone.now()}


@pytest.fixture(autouse=True)
def _t0() -> None:
    _start["t0"] = timezone.now()


def at(seconds: float):
    """``seconds`` after the test began."""
    return _start["t0"] + timedelta(seconds=seconds)


def presence_events(code: str) -> list[str]:
    kinds = TableEvent.objects.filter(table__code=code, kind__in=("gone", "back"))
    return list(kinds.order_by("seq").values_list("kind", flat=True))


def test_thirty_open_close_cycles_write_at_most_one_gone_back_pair(settings, racers):
    settings.RACE_GONE_GRACE_SECONDS = 10
    (alice, a), (bob, b) = racers(2)
    code = open_table([a, b])["code"]
    table = Table.objects.get(code=code)
    for i in range(30):  # 30 reconnects in 2.4 s, each sweep of a stream process between
        pid = presence_open(table_id=table.pk, player=bob, now=at(i * 0.08))
        presence_close(presence_id=pid, now=at(i * 0.08 + 0.04))
        presence_sweep(now=at(i * 0.08 + 0.06))
    assert presence_events(code) == ["back"]  # connected once, never away for the grace
    assert presence_sweep(now=at(2.4 + 5)) == 0  # still within the grace
    assert presence_sweep(now=at(2.4 + 11)) == 1  # away for good now
    assert presence_events(code) == ["back", "gone"]
    assert sweep_presence() == 0  # beat's task: nothing more owed


def test_a_back_only_after_a_gone(settings, racers):
    settings.RACE_GONE_GRACE_SECONDS = 10
    (alice, a), (bob, b) = racers(2)
    code = open_table([a, b])["code"]
    table = Table.objects.get(code=code)
    pid = presence_open(table_id=table.pk, player=bob, now=at(0))
    presence_close(presence_id=pid, now=at(1))
    presence_open(table_id=table.pk, player=bob, now=at(5))  # within the grace: nothing
    presence_close(presence_id=pid, now=at(6))
    presence_sweep(now=at(20))  # away for 14 s: gone
    presence_sweep(now=at(40))  # written once
    presence_open(table_id=table.pk, player=bob, now=at(50))  # back
    assert presence_events(code) == ["back", "gone", "back"]


def test_the_table_shows_connected_through_the_grace_as_the_log_does(settings, racers):
    settings.RACE_GONE_GRACE_SECONDS = 3600  # this test's clock is the real one
    (alice, a), (bob, b) = racers(2)
    code = open_table([a, b])["code"]
    table = Table.objects.get(code=code)
    pid = presence_open(table_id=table.pk, player=bob)
    presence_close(presence_id=pid)
    assert ok(a.get(race_url(code)))["seats"][1]["connected"] is True  # no `gone` yet
    settings.RACE_GONE_GRACE_SECONDS = 0
    assert presence_sweep() == 1
    assert ok(a.get(race_url(code)))["seats"][1]["connected"] is False
    assert presence_events(code) == ["back", "gone"]


def test_a_watcher_who_sits_down_and_leaves_is_gone_and_not_before(settings, racers):
    settings.RACE_GONE_GRACE_SECONDS = 10
    (alice, a), (bob, b) = racers(2)
    code = open_table([a])["code"]
    table = Table.objects.get(code=code)
    pid = presence_open(table_id=table.pk, player=bob, now=at(0))  # watching: no event
    ok(post(b, code, "sit"))  # the table read then shows Bob connected
    presence_close(presence_id=pid, now=at(1))
    assert presence_sweep(now=at(5)) == 0
    assert presence_sweep(now=at(12)) == 1
    assert presence_events(code) == ["gone"]
    assert Presence.objects.get(player=bob).log_present is False
