"""The races' figures: races running (read from the database when a web process is
scraped), the event streams a stream process holds open (read from its memory when it is
scraped), and how late events reach it.

The delivery lag is from an event's time (the action's, stamped in its transaction) to its
arrival at a stream process that has a stream of that table open: the commit, the Redis
fan-out and the process's event loop, what a racer waits for over the stream's own network.
It is measured once per event and process, not per stream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

from django.db.models import Count
from prometheus_client import Histogram
from prometheus_client.core import GaugeMetricFamily

from base.metrics.core import measuring
from races.models import Race

DELIVERY_LAG = Histogram(
    "spider_race_event_delivery_lag_seconds",
    "From a table event's time to its arrival at a stream process with a stream of that "
    "table open.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
_AT = '"at":"'


def event_arrived(body: str) -> None:
    """A live event reached this process's streams (``body``: its encoded text)."""
    if not measuring():
        return
    start = body.find(_AT)  # the top level's `at` comes before its `data` (races.events)
    end = body.find('"', start + len(_AT)) if start >= 0 else -1
    if end < 0:
        return
    try:
        at = datetime.fromisoformat(body[start + len(_AT) : end])
    except ValueError:
        return
    DELIVERY_LAG.observe(max(0.0, time.time() - at.timestamp()))


class RacesRunning:
    """Races by status (countdown, racing), read when scraped."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        live = (Race.Status.COUNTDOWN, Race.Status.RACING)
        counts = dict(
            Race.objects.filter(status__in=live)
            .values("status")
            .annotate(n=Count("id"))
            .values_list("status", "n")
        )
        family = GaugeMetricFamily(
            "spider_races", "Races under way, by status (read when scraped).", labels=["status"]
        )
        for status in live:
            family.add_metric([status], counts.get(status, 0))
        yield family


class StreamsOpen:
    """The event streams this process holds open (races.hub), read when it is scraped."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from races.hub import HUB

        yield GaugeMetricFamily(
            "spider_race_streams_open",
            "Race event streams this stream process holds open.",
            value=HUB.streams,
        )
