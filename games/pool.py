"""The pool of solver-vetted deals: filled ahead of demand, taken one deal per game.

* ``vet_seed`` plays a deal out with the full-information solver; a deal the solver wins is
  stored ``pooled`` with its verified winning line, searched again for a shorter one (its
  length is the par players are shown; POOL_PAR_MAX_NODES), one it cannot prove is stored
  ``rejected`` (the share rejected is a figure we watch) and is never dealt.
* ``pool_fill`` tops a suit mode's pool up to its target. Two fillers at once cannot store a
  seed twice: the row is inserted with the unique (suits, seed, deal_version) constraint
  deciding, and a conflict is simply skipped.
* ``pool_take`` hands one pooled deal to one caller: ``SELECT ... FOR UPDATE SKIP LOCKED``
  plus a compare-and-set on the state, so no deal goes to two players; an empty pool is
  ``PoolEmpty`` (503), never an unvetted deal. It is quick: it never solves.
* ``pool_vet_if_empty`` is the slow part, run before the caller takes any lock or opens a
  transaction: with the pool empty it vets fresh seeds for up to POOL_SYNC_VET_SECONDS, at
  most POOL_SYNC_VET_CONCURRENCY requests of a process at once (a request that finds them
  all busy answers 503 at once). POOL_SYNC_VET_SECONDS is 0 (off) by default where a worker
  refills the pool: seconds of solver CPU are then never spent on a request.

Every request that takes a pool deal (a new casual game, a race's start and ``again``) is
counted in the throttle scope ``pool`` (base.throttling.PoolThrottle), so one player
drains the pool no faster than its rate whichever way the deals are taken.
"""

from __future__ import annotations

import functools
import logging
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count

from base.errors import DomainError
from base.queueing import in_thread, queue_task
from games import metrics
from games.engine import DEAL_VERSION, SUIT_MODES, deal_layout
from games.models import Deal, seed_to_db
from games.solver import improve, solve

log = logging.getLogger(__name__)

# The Celery task that runs pool_fill (games/tasks.py). It is queued by name: the tasks call
# this module, so this module must not import them (dependencies run one way).
FILL_POOL_TASK = "games.tasks.fill_pool"


class PoolEmpty(DomainError):
    code, status = "pool_empty", 503
    detail = "No vetted deal is ready for this suit mode yet; retry shortly."

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            extra={"retry_after": retry_after}, headers={"Retry-After": str(retry_after)}
        )


@dataclass(frozen=True, slots=True)
class VetBudget:
    """What the solver may spend on one deal."""

    max_nodes: int
    max_seconds: float | None  # None: the solver's cap derived from the node budget

    @classmethod
    def from_settings(cls, suits: int) -> VetBudget:
        return cls(settings.POOL_SOLVER_MAX_NODES[suits], settings.POOL_SOLVER_MAX_SECONDS or None)


def random_seeds() -> Iterator[int]:
    while True:
        yield secrets.randbits(64)


def vet_seed(*, suits: int, seed: int, budget: VetBudget | None = None) -> Deal | None:
    """Solve deal (suits, seed) and store the verdict. Returns the stored Deal, or None when
    another filler stored this seed first (the constraint decided; nothing was written)."""
    budget = budget or VetBudget.from_settings(suits)
    if Deal.objects.filter(
        suits=suits, seed_db=seed_to_db(seed), deal_version=DEAL_VERSION
    ).exists():
        return None
    layout = deal_layout(suits, seed)
    started = time.perf_counter()
    result = solve(layout, max_nodes=budget.max_nodes, max_seconds=budget.max_seconds)
    line, par, searched = result.line, result.par, None
    if result.won and settings.POOL_PAR_MAX_NODES:
        # The par players are shown: the line searched again, as the daily's is.
        better = improve(
            layout,
            line,
            max_nodes=settings.POOL_PAR_MAX_NODES,
            max_seconds=settings.POOL_PAR_MAX_MS / 1000,
        )
        line, par, searched = better.line, better.par, better.nodes
    metrics.deal_vetted(suits, result.won, time.perf_counter() - started)
    deal = Deal(
        suits=suits,
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.POOLED if result.won else Deal.State.REJECTED,
        vetted=result.won,
        solver_line=[a.to_json() for a in line] if result.won else None,
        par=par,
        solver_nodes=result.nodes,
        solver_ms=int(result.seconds * 1000),
        improved_nodes=searched,
    )
    deal.seed = seed
    try:
        with transaction.atomic():
            deal.save(force_insert=True)
    except IntegrityError:
        return None  # a concurrent filler stored this seed first
    log.info(
        "vetted %s-suit seed %s: %s in %d nodes, %.2f s; par %s",
        suits,
        seed,
        deal.state,
        result.nodes,
        result.seconds,
        par,
    )
    return deal


def pool_level(*, suits: int) -> int:
    return Deal.objects.filter(suits=suits, state=Deal.State.POOLED).count()


def pool_levels() -> dict[int, int]:
    rows = (
        Deal.objects.filter(state=Deal.State.POOLED)
        .values("suits")
        .annotate(n=Count("id"))
        .values_list("suits", "n")
    )
    levels = dict.fromkeys(SUIT_MODES, 0)
    levels.update(dict(rows))
    return levels


def pool_fill(
    *,
    suits: int,
    target: int | None = None,
    max_seconds: float | None = None,
    seeds: Iterator[int] | None = None,
    budget: VetBudget | None = None,
) -> int:
    """Vet fresh deals until the pool of ``suits`` holds ``target`` deals (or time is up).
    Returns how many deals this call added to the pool."""
    target = settings.POOL_TARGET if target is None else target
    deadline = time.monotonic() + (max_seconds or settings.POOL_FILL_MAX_SECONDS)
    seeds = seeds or random_seeds()
    added = 0
    while pool_level(suits=suits) < target and time.monotonic() < deadline:
        seed = next(seeds, None)
        if seed is None:
            break
        deal = vet_seed(suits=suits, seed=seed, budget=budget)
        if deal is not None and deal.state == Deal.State.POOLED:
            added += 1
    return added


def pool_take(*, suits: int) -> Deal:
    """Hand out one vetted deal of ``suits`` from the pool, else PoolEmpty (a fill is asked
    for). Call inside a transaction; it never solves (see ``pool_vet_if_empty``)."""
    deal = _claim_pooled(suits)
    if deal is None:
        metrics.pool_found_empty(suits)
        kick_fill(suits)
        raise PoolEmpty(retry_after=settings.POOL_RETRY_AFTER_SECONDS)
    if pool_level(suits=suits) < settings.POOL_LOW_WATER:
        transaction.on_commit(lambda: kick_fill(suits))
    return deal


def pool_vet_if_empty(*, suits: int, max_seconds: float | None = None) -> None:
    """With no pooled deal of ``suits``, vet fresh seeds until one is pooled or the time is
    up. Seconds of solving: call it outside any transaction and before taking any lock, then
    ``pool_take`` (another caller may still win that deal).

    ``max_seconds`` None is a request's allowance: POOL_SYNC_VET_SECONDS (0: none at all),
    and only while fewer than POOL_SYNC_VET_CONCURRENCY requests of this process are vetting
    (else it returns at once, and ``pool_take`` answers 503 ``pool_empty``). A worker passes
    its own ``max_seconds`` and is not counted."""
    if _pooled(suits):
        return
    on_request = max_seconds is None
    seconds = settings.POOL_SYNC_VET_SECONDS if on_request else max_seconds
    if not seconds or seconds <= 0:
        return
    if on_request and not _REQUEST_VETTING.acquire():
        return  # another request of this process is solving: this one is not
    try:
        _vet_until_pooled(suits, time.monotonic() + seconds)
    finally:
        if on_request:
            _REQUEST_VETTING.release()


def _pooled(suits: int) -> bool:
    return Deal.objects.filter(suits=suits, state=Deal.State.POOLED).exists()


def _vet_until_pooled(suits: int, deadline: float) -> None:
    budget = VetBudget.from_settings(suits)
    for seed in random_seeds():
        left = deadline - time.monotonic()
        if left <= 0:
            return
        deal = vet_seed(
            suits=suits,
            seed=seed,
            budget=VetBudget(budget.max_nodes, min(budget.max_seconds or left, left)),
        )
        if deal is not None and deal.state == Deal.State.POOLED:
            return
        if _pooled(suits):  # a fill (or another request) stored one meanwhile
            return


class _Slots:
    """A non-blocking counting semaphore whose size is read from the settings at each
    acquire (POOL_SYNC_VET_CONCURRENCY), so a test or a reload changes it at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.active = 0

    def acquire(self) -> bool:
        with self._lock:
            if self.active >= settings.POOL_SYNC_VET_CONCURRENCY:
                return False
            self.active += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.active -= 1


# The requests of this process vetting a deal right now (a process-wide bound on the solver
# CPU that requests may spend, whatever the number of threads or players).
_REQUEST_VETTING = _Slots()


def _claim_pooled(suits: int) -> Deal | None:
    for _ in range(5):  # a lost compare-and-set race just means: try the next deal
        candidate = (
            Deal.objects.select_for_update(skip_locked=True)
            .filter(suits=suits, state=Deal.State.POOLED)
            .order_by("id")
            .first()
        )
        if candidate is None:
            return None
        if _claim(candidate):
            return candidate
    return None


def _claim(deal: Deal) -> bool:
    """Compare-and-set pooled -> dealt: True for the one caller that gets the deal."""
    claimed = Deal.objects.filter(pk=deal.pk, state=Deal.State.POOLED).update(
        state=Deal.State.DEALT
    )
    if claimed:
        deal.state = Deal.State.DEALT
    return bool(claimed)


# -- keeping the pool full -----------------------------------------------------------------
def kick_fill(suits: int) -> None:
    """Ask for the pool of ``suits`` to be topped up: a Celery task when a broker is set, a
    background thread of this process when not (the zero-setup run), or nothing when
    POOL_AUTOFILL is off (tests that fill explicitly). Fail-soft: a game must not fail because
    the broker is down (base.queueing)."""
    if not settings.POOL_AUTOFILL:
        return
    queue_task(
        FILL_POOL_TASK,
        (suits,),
        without_broker=in_thread(functools.partial(pool_fill, suits=suits)),
    )
