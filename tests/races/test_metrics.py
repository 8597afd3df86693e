"""The races' figures (races/metrics.py): races under way when a web process is scraped, the
streams a stream process holds open, and how late an event reaches it."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from races.events import EventKind, encode
from races.hub import HUB
from races.metrics import StreamsOpen
from tests.metrics.helpers import scrape, value
from tests.races.conftest import NEAR_WIN_LAYOUT, start_race

pytestmark = pytest.mark.django_db


def test_races_under_way_by_status(metrics_on, racers):
    clients = [client for _, client in racers(2)]
    before = scrape(Client())["spider_races"]
    start_race(clients, layout=NEAR_WIN_LAYOUT)
    after = scrape(Client())["spider_races"]
    assert after[(("status", "racing"),)] == before[(("status", "racing"),)] + 1
    assert (("status", "countdown"),) in after


def test_a_live_event_is_timed_once_per_process_and_streams_counted(metrics_on):
    def streams() -> float:
        [family] = StreamsOpen().collect()
        return family.samples[0].value

    async def deliver() -> None:
        subs = [HUB.subscribe("LAGTEST"), HUB.subscribe("LAGTEST")]
        try:
            assert streams() == 2
            at = timezone.now() - timedelta(milliseconds=300)
            HUB.deliver("LAGTEST", 1, encode(1, EventKind.READY, at, {"player": "x"}))
            HUB.deliver("NOBODY", 1, encode(1, EventKind.READY, at, {}))  # no stream here
            assert all(sub.queue.qsize() == 1 for sub in subs)
        finally:
            for sub in subs:
                HUB.unsubscribe(sub)
        assert streams() == 0

    count = value("spider_race_event_delivery_lag_seconds_count")
    fast = value("spider_race_event_delivery_lag_seconds_bucket", le="0.25")
    slow = value("spider_race_event_delivery_lag_seconds_bucket", le="0.5")
    asyncio.run(deliver())
    assert value("spider_race_event_delivery_lag_seconds_count") == count + 1
    assert value("spider_race_event_delivery_lag_seconds_bucket", le="0.25") == fast
    assert value("spider_race_event_delivery_lag_seconds_bucket", le="0.5") == slow + 1
