"""Beat's heartbeat as /health reads it: when the worker last ran the task beat sends every
BEAT_HEARTBEAT_SECONDS (spider_api.health), and the age past which it is stale. Read from
the broker's Redis when a web process is scraped; nothing without a broker (no beat)."""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from prometheus_client.core import GaugeMetricFamily

from spider_api import health


class BeatHeartbeat:
    def collect(self) -> Iterator[GaugeMetricFamily]:
        url = health.broker_url()
        if url is None:
            return
        last = health.heartbeat_at(url)
        yield GaugeMetricFamily(
            "spider_beat_heartbeat_timestamp_seconds",
            "When beat's heartbeat task last ran (Unix time; 0: never), as /health reads it.",
            value=last or 0.0,
        )
        yield GaugeMetricFamily(
            "spider_beat_stale_after_seconds",
            "BEAT_STALE_SECONDS: /health calls beat stale past this age of its heartbeat.",
            value=settings.BEAT_STALE_SECONDS,
        )
