"""The game's own figures (docs/operations.md, "Metrics and alerts"): actions applied and
refused, games started and ended, hints and analyses with their CPU time, and the vetted
pool (its depth per mode, read when a web process is scraped; each deal's vetting; new
games refused for an empty pool).

Counted where they happen: the web processes (actions, hints, games), the worker (the pool's
fills, the analyses, the games its sweeps end). A game's start and end are counted once its
transaction commits (a rolled-back game never happened). Every label is bounded: the suit
mode, the game's kind, an end reason, a refusal's code, never a player or a game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily

from base.errors import DomainError
from base.metrics.core import OTHER, Children, bounded, measuring
from base.metrics.sources import register_state
from games.engine import SUIT_MODES
from games.models import Game
from games.signals import game_finished

ACTIONS = Children(
    Counter(
        "spider_game_actions_total",
        "Player actions (moves, deals, undos) by suit mode and result: applied, or the "
        "error code it was refused with.",
        ["suits", "result"],
    )
)
STARTED = Children(
    Counter(
        "spider_games_started_total",
        "Games started, by suit mode and kind (casual, daily, race).",
        ["suits", "kind"],
    )
)
ENDED = Children(
    Counter(
        "spider_games_ended_total",
        "Games ended, by suit mode, kind, result (won, lost, given_up) and end reason.",
        ["suits", "kind", "result", "reason"],
    )
)
HINT_LOOKUPS = Children(
    Counter(
        "spider_hint_lookups_total",
        "Hint rankings looked up, by suit mode and source (search: the solver ran; cache: "
        "a ranking kept from an earlier request).",
        ["suits", "source"],
    )
)
HINT_CPU = Children(
    Histogram(
        "spider_hint_cpu_seconds",
        "CPU time of one hint search (a cache miss), by suit mode.",
        ["suits"],
        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0),
    )
)
ANALYSES = Children(
    Counter(
        "spider_analyses_total",
        "Post-game analyses run, by suit mode and status (done, failed).",
        ["suits", "status"],
    )
)
ANALYSIS_CPU = Children(
    Histogram(
        "spider_analysis_cpu_seconds",
        "CPU time of one post-game analysis, by suit mode.",
        ["suits"],
        buckets=(0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
    )
)
VETTING = Children(
    Histogram(
        "spider_pool_vet_seconds",
        "Time to vet one deal for the pool (the solver, then the par's search), by suit mode "
        "and verdict (pooled: proved winnable; rejected: not proved, never dealt).",
        ["suits", "verdict"],
        buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
    )
)
POOL_EMPTY = Children(
    Counter(
        "spider_pool_empty_total",
        "Deals asked of an empty pool (a new game or race answered 503 pool_empty), by suit mode.",
        ["suits"],
    )
)

_CODE = re.compile(r"[a-z][a-z_]{0,39}")  # every refusal's code is a short snake_case word
_GIVEN_UP = {Game.EndReason.RESIGNED, Game.EndReason.ABANDONED}
_REASONS = frozenset(Game.EndReason.values)
_KINDS = frozenset(Game.Kind.values)
_MODES = frozenset(str(mode) for mode in SUIT_MODES)


def suits_label(suits: object) -> str:
    return bounded(suits, _MODES, "unknown")


class ActionCounted:
    """Around one action (``with ActionCounted() as counted:``, ``counted.suits`` set once the
    game is read): on leaving, applied, or refused with its error's code. An error that is
    no refusal (the database down) is the HTTP figures' to count."""

    suits: int | None = None

    def __enter__(self) -> ActionCounted:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not measuring():
            return
        if exc is None:
            result = "applied"
        elif isinstance(exc, DomainError):
            result = exc.code if _CODE.fullmatch(exc.code) else OTHER
        else:
            return
        ACTIONS.labels(suits_label(self.suits), result).inc()


def hint_looked_up(suits: int, cpu_seconds: float | None) -> None:
    """A hint's ranking: searched (its CPU time) or from the cache (None)."""
    if not measuring():
        return
    mode = suits_label(suits)
    HINT_LOOKUPS.labels(mode, "cache" if cpu_seconds is None else "search").inc()
    if cpu_seconds is not None:
        HINT_CPU.labels(mode).observe(cpu_seconds)


def analysis_ran(suits: int, status: str, cpu_seconds: float | None) -> None:
    if not measuring():
        return
    mode = suits_label(suits)
    ANALYSES.labels(mode, "done" if status == "done" else "failed").inc()
    if cpu_seconds is not None:
        ANALYSIS_CPU.labels(mode).observe(cpu_seconds)


def deal_vetted(suits: int, pooled: bool, seconds: float) -> None:
    if measuring():
        verdict = "pooled" if pooled else "rejected"
        VETTING.labels(suits_label(suits), verdict).observe(seconds)


def pool_found_empty(suits: int) -> None:
    if measuring():
        POOL_EMPTY.labels(suits_label(suits)).inc()


def _result(game: Game) -> str:
    if game.status == Game.Status.WON:
        return "won"
    return "given_up" if game.end_reason in _GIVEN_UP else "lost"


def _started(sender: Any, instance: Game, created: bool = False, **_: Any) -> None:
    if created and measuring():
        child = STARTED.labels(suits_label(instance.suits), _kind(instance))
        transaction.on_commit(child.inc)


def _ended(sender: Any, game: Game, **_: Any) -> None:
    if measuring():
        reason = game.end_reason if game.end_reason in _REASONS else OTHER
        child = ENDED.labels(suits_label(game.suits), _kind(game), _result(game), reason)
        transaction.on_commit(child.inc)


def _kind(game: Game) -> str:
    return game.kind if game.kind in _KINDS else OTHER


class PoolDepth:
    """The vetted deals ready per suit mode (what /health reports), read when scraped, and
    the marks it is held to."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from games.pool import pool_levels

        levels = pool_levels()
        deals = GaugeMetricFamily(
            "spider_pool_deals",
            "Vetted deals ready in the pool, by suit mode (read when scraped).",
            labels=["suits"],
        )
        for suits, level in sorted(levels.items()):
            deals.add_metric([str(suits)], level)
        yield deals
        yield GaugeMetricFamily(
            "spider_pool_low_water_deals",
            "POOL_LOW_WATER: below it a mode's pool is refilled.",
            value=settings.POOL_LOW_WATER,
        )
        yield GaugeMetricFamily(
            "spider_pool_target_deals",
            "POOL_TARGET: a fill stops when a mode's pool holds this many.",
            value=settings.POOL_TARGET,
        )


def connect() -> None:
    """From the games app's ready()."""
    post_save.connect(_started, sender=Game, weak=False, dispatch_uid="games.metrics.started")
    game_finished.connect(_ended, weak=False, dispatch_uid="games.metrics.ended")
    register_state(PoolDepth())
