"""What every metric module uses: whether metrics are on, each label set's child looked up
once, and every label value from a bounded set.

prometheus-client's ``labels()`` turns each value into a string, takes the metric's lock and
looks the child up on every call; on the action path that is per request. ``Children`` keeps
the children by their values' tuple, so after the first request of a label set a figure
costs one dict lookup and the write itself.

A label never holds what a client chooses (a player, a game, a token, an address, a raw
path): each value comes from a closed set (``bounded``), so the number of series stays
what the code allows whatever is sent.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Generic, TypeVar

from django.conf import settings
from prometheus_client import disable_created_metrics

# The `_created` series the text format adds beside every counter and histogram: none (no
# rule or panel reads them; multiprocess mode has none either).
disable_created_metrics()

OTHER = "other"
M = TypeVar("M")


def measuring() -> bool:
    """Metrics are on: METRICS_TOKEN is set (without it nobody could read them)."""
    return bool(settings.METRICS_TOKEN)


class Children(Generic[M]):
    """The children of one labelled metric, by their label values."""

    def __init__(self, metric: M) -> None:
        self.metric = metric
        self._children: dict[tuple[str, ...], M] = {}

    def labels(self, *values: str) -> M:
        child = self._children.get(values)
        if child is None:  # two threads may both get here: labels() gives both the same child
            metric: Any = self.metric
            child = self._children[values] = metric.labels(*values)
        return child


def bounded(value: object, allowed: Collection[str], other: str = OTHER) -> str:
    """``value`` as a label if it is one of ``allowed``, else ``other``."""
    text = str(value)
    return text if text in allowed else other
