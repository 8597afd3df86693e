"""Post-game analyses (docs/rules.md#after-the-game-the-analysis), and how they are queued.

Asking for one (``analysis_request``, one transaction: the game must be one the player may
see and over with nothing of its deal still secret; one row per game, ever, the unique game
key deciding between two requests at once; a new one passes the quotas and is queued after
the commit), reading it (``analysis_read``: an older version's result is run again, a run
whose message was lost queued again), and running it (``analysis_run``, the worker's, via
games.tasks.analyse_game: claims the pending row, replays the log, searches with
games.solver.analysis within the settings' node budgets, and stores the result or
``failed`` with a reason). The work runs on the Celery queue ``ANALYSIS_QUEUE`` (never the
pool's), or without a broker in a thread of this process, like the pool's fill.
"""

from __future__ import annotations

import functools
import logging
import time
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from base.queueing import in_thread, inline, queue_task
from games import metrics as game_metrics
from games.engine import Action as EngineAction
from games.engine import EngineError
from games.errors import AnalysisQueueFull, AnalysisQuota
from games.models import Action, Analysis, Game
from games.selectors import analysable_game, analysis_of_game
from games.solver import SolverBug, polish
from games.solver.analysis import (
    ANALYSIS_VERSION,
    AnalysisBudget,
    ComputedAnalysis,
    analyse,
    final_line,
)

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()

log = logging.getLogger(__name__)

# The Celery task that runs analysis_run (games/tasks.py), queued by name: the tasks call
# this module, so this module must not import them.
ANALYSE_TASK = "games.tasks.analyse_game"


# A pending analysis nobody has taken this long after it was asked for is queued again on a
# read (its message was lost: the broker was down when it was asked for).
REQUEUE_AFTER_SECONDS = 60


@transaction.atomic
def analysis_request(*, player: User, game_id: Any) -> tuple[Analysis, bool]:
    """The analysis of game ``game_id``, asked for by ``player``: the existing one (False),
    or a new one, queued after the commit (True)."""
    game = analysable_game(viewer=player, game_id=game_id)
    existing = Analysis.objects.filter(game=game).first()
    if existing is not None:
        return existing, False
    # The player's row lock serialises their own requests, so two cannot both pass a quota.
    User.objects.select_for_update().filter(pk=player.pk).first()
    existing = Analysis.objects.filter(game=game).first()
    if existing is not None:
        return existing, False
    _check_limits(player)
    try:
        with transaction.atomic():  # a savepoint: the constraint may refuse the row
            analysis = Analysis.objects.create(game=game, requested_by=player)
    except IntegrityError:  # another player asked for this game at the same moment
        return Analysis.objects.get(game=game), False
    transaction.on_commit(lambda: queue_analysis(analysis.pk))
    return analysis, True


def analysis_ask(*, player: User, game_id: Any) -> Analysis:
    """``analysis_request`` as the API answers it: the row read again once committed, since
    an inline run (no broker, no thread) may have finished it already."""
    analysis, _ = analysis_request(player=player, game_id=game_id)
    analysis.refresh_from_db()
    return analysis


def _check_limits(player: User) -> None:
    now = timezone.now()
    retry = settings.ANALYSIS_RETRY_AFTER_SECONDS
    pending = Analysis.objects.filter(status=Analysis.Status.PENDING)
    waiting = pending.filter(requested_by=player).count()
    if waiting >= settings.ANALYSIS_PLAYER_PENDING_MAX:
        raise AnalysisQuota(
            f"You have {waiting} analyses waiting; ask again once one is done.",
            retry,
        )
    day = now - timedelta(days=1)
    recent = Analysis.objects.filter(requested_by=player, created_at__gte=day)
    if recent.count() >= settings.ANALYSIS_PLAYER_DAILY_MAX:
        oldest = recent.order_by("created_at").values_list("created_at", flat=True).first()
        wait = int(((oldest or now) + timedelta(days=1) - now).total_seconds()) + 1
        raise AnalysisQuota(
            f"You have asked for {settings.ANALYSIS_PLAYER_DAILY_MAX} analyses in 24 hours, "
            "the most allowed.",
            wait,
        )
    if pending.count() >= settings.ANALYSIS_QUEUE_MAX:
        raise AnalysisQueueFull("Too many analyses are waiting; ask again shortly.", retry)


def analysis_read(*, viewer: User | AnonymousUser, game_id: Any) -> Analysis:
    """The analysis of a game ``viewer`` may see (404 if none was asked for), brought up to
    date: one made by an older version of the search is run again, and a pending one whose
    queued run was lost is queued again."""
    analysis = _redone_if_older(analysis_of_game(viewer=viewer, game_id=game_id))
    lost = timezone.now() - timedelta(seconds=REQUEUE_AFTER_SECONDS)
    if (
        analysis.status == Analysis.Status.PENDING
        and analysis.started_at is None
        and analysis.created_at < lost
    ):
        queue_analysis(analysis.pk)
    return analysis


def _redone_if_older(analysis: Analysis) -> Analysis:
    """An analysis made by an older version of the search is run again, once, and reads as
    pending meanwhile: its claims are not this version's (an older one named a turning
    point it had not proved). Nobody's quota pays for it."""
    version = (analysis.result or {}).get("version", 0)
    if analysis.status != Analysis.Status.DONE or version >= ANALYSIS_VERSION:
        return analysis
    redone = Analysis.objects.filter(pk=analysis.pk, status=Analysis.Status.DONE).update(
        status=Analysis.Status.PENDING,
        result=None,
        reason="",
        nodes=0,
        seconds=None,
        started_at=None,
        finished_at=None,
        created_at=timezone.now(),
    )
    if redone:
        transaction.on_commit(lambda: queue_analysis(analysis.pk))
    analysis.refresh_from_db()
    return analysis


def analysis_run(*, analysis_id: int) -> Analysis | None:
    """Compute a pending analysis and store it (the worker's task). Returns None when
    there is nothing to do: done already, or another worker holds it (a run older than the
    time limit is taken over: its worker died)."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ANALYSIS_TIME_LIMIT_SECONDS + 60)
    claimed = (
        Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.PENDING)
        .filter(Q(started_at__isnull=True) | Q(started_at__lt=stale))
        .update(started_at=now)
    )
    if not claimed:
        return None
    analysis = Analysis.objects.select_related("game__deal").get(pk=analysis_id)
    t0, cpu = time.perf_counter(), time.thread_time()
    try:
        computed = analysis_compute(game=analysis.game)
    except SolverBug as exc:  # a line that does not win is never stored
        log.error("analysis %s of game %s: solver bug: %s", analysis.pk, analysis.game_id, exc)
        game_metrics.analysis_ran(analysis.game.suits, "failed", time.thread_time() - cpu)
        return _fail(analysis, f"solver_bug: {exc}"[:200], time.perf_counter() - t0)
    except EngineError as exc:
        log.error("analysis %s: the log does not replay: %s", analysis.pk, exc)
        game_metrics.analysis_ran(analysis.game.suits, "failed", time.thread_time() - cpu)
        return _fail(analysis, f"log_does_not_replay: {exc.code}", time.perf_counter() - t0)
    game_metrics.analysis_ran(analysis.game.suits, "done", time.thread_time() - cpu)
    analysis.status = Analysis.Status.DONE
    analysis.result = computed.result
    analysis.nodes = computed.nodes
    analysis.seconds = round(computed.seconds, 3)
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["status", "result", "nodes", "seconds", "finished_at"])
    log.info(
        "analysed game %s: %d positions, %.1f s", analysis.game_id, computed.nodes, computed.seconds
    )
    return analysis


def analysis_fail(*, analysis_id: int, reason: str) -> None:
    """Mark a pending analysis failed (the task's time limit struck)."""
    failed = Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.PENDING).update(
        status=Analysis.Status.FAILED, reason=reason[:200], finished_at=timezone.now()
    )
    if failed:
        suits = Analysis.objects.filter(pk=analysis_id).values_list("game__suits", flat=True)
        game_metrics.analysis_ran(suits.first() or 0, "failed", None)


def _fail(analysis: Analysis, reason: str, seconds: float) -> Analysis:
    analysis.status = Analysis.Status.FAILED
    analysis.reason = reason
    analysis.seconds = round(seconds, 3)
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["status", "reason", "seconds", "finished_at"])
    return analysis


def analysis_budget(suits: int) -> AnalysisBudget:
    return AnalysisBudget(
        probe_nodes=settings.ANALYSIS_PROBE_MAX_NODES[suits],
        total_nodes=settings.ANALYSIS_MAX_NODES,
        proof_nodes=settings.ANALYSIS_PROOF_MAX_NODES,
    )


def analysis_compute(*, game: Game) -> ComputedAnalysis:
    """The analysis of a finished game from its deal and its log, under the game's table
    rule (no write)."""
    deal = game.deal
    entries = Action.objects.filter(game=game).order_by("seq")
    start = game.layout()
    line = final_line(start, [a.engine_action() for a in entries])
    vetted = [EngineAction.from_json(a) for a in deal.solver_line] if deal.solver_line else None
    par = deal.par
    spent = 0
    if vetted and game.deal_over_gap:
        # The par under the game's own rule: the deal's line (won under the standard rules,
        # so under deal_over_gap too) shortened where dealing over a gap saves actions, with
        # one search's worth of positions (counted with the analysis's).
        probe = settings.ANALYSIS_PROBE_MAX_NODES[game.suits]
        vetted, spent = polish(start, vetted, max_nodes=probe)
        par = len(vetted)
    found = analyse(line, budget=analysis_budget(game.suits), start_line=vetted, par=par)
    found.nodes += spent
    return found


# -- queueing ---------------------------------------------------------------------------------
def queue_analysis(analysis_id: int) -> None:
    """Run the analysis: a task on the analysis queue with a broker (fail-soft: while it is
    down the analysis waits, and a read queues it again); without one (the zero-setup run) a
    thread of this process, or inline where ANALYSIS_IN_THREAD is off."""
    run = functools.partial(analysis_run, analysis_id=analysis_id)
    queue_task(
        ANALYSE_TASK,
        (analysis_id,),
        queue=settings.ANALYSIS_QUEUE,
        without_broker=(
            in_thread(
                run,
                on_error=functools.partial(analysis_fail, analysis_id=analysis_id, reason="error"),
            )
            if settings.ANALYSIS_IN_THREAD
            else inline(run)
        ),
    )
