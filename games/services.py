"""The only code that changes games. Each function is one transaction.

Writes to one game are serialised by a row lock (``SELECT ... FOR UPDATE``) on the Game,
then checked against the rules by the engine, then written as the new snapshot plus one
``Action`` row in the same transaction: the snapshot and the log cannot disagree.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import kinds, rows
from games import metrics as game_metrics
from games.daily import daily_closed
from games.deals import (
    deal_choice_check,
    deal_for_new_game,
    deal_from_layout,
    deal_from_seed,
    deal_layout_parse,
    deal_vet_ahead,
)
from games.engine import DEAL, Board, EngineError, IllegalAction, Outcome, dump, load
from games.engine import Action as EngineAction
from games.errors import (
    AnalysisQueueFull,
    AnalysisQuota,
    DayClosed,
    GameNotFound,
    GameOver,
    VersionConflict,
    rule_error,
)
from games.models import Action, Analysis, Deal, Game, PlayerStats
from games.presenters import game_state
from games.rewards import CoinAward, game_reward
from games.selectors import analysable_game, analysis_of_game, game_get_readable
from games.signals import game_finished, game_won
from games.solver import SolverBug, polish
from games.solver.analysis import (
    ANALYSIS_VERSION,
    AnalysisBudget,
    ComputedAnalysis,
    analyse,
    final_line,
)
from games.solver.hint import Hint, VisiblePosition, board_hints, no_hint_reason
from games.visibility import deal_out

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A player's action as the API received it (already type-checked)."""

    type: str  # "move" | "deal" | "undo"
    src: int | None = None
    dst: int | None = None
    count: int | None = None


@dataclass(slots=True)
class ActResult:
    game: Game
    board: Board
    outcome: Outcome
    applied: dict[str, Any]  # the action as logged (a move resolved to from/to/count)
    coins: CoinAward | None = None  # set when this action won the game


# -- creating -------------------------------------------------------------------------------
def game_create_prepare(
    *,
    suits: int | None = None,
    replay_of: str | None = None,
    seed: int | None = None,
    layout: dict[str, Any] | None = None,
) -> None:
    """The slow part of ``game_create``, done first and outside any transaction or lock (the
    player's row lock included): for a fresh deal with the pool empty, vet one now."""
    if suits is not None and replay_of is None and seed is None and layout is None:
        deal_vet_ahead(suits=suits)


@transaction.atomic
def game_create(
    *,
    player: User,
    suits: int | None = None,
    replay_of: str | None = None,
    seed: int | None = None,
    layout: dict[str, Any] | None = None,
    deal_over_gap: bool = False,
) -> Game:
    """Start a casual game: a new deal of ``suits``, the deal of game ``replay_of`` again,
    or (staff only) a chosen ``seed`` or ``layout``; under the table rule ``deal_over_gap``
    if asked (docs/rules.md#deal-over-a-gap: any deal, for a deal won under the standard
    rules is won under it too).

    The player's casual game in progress, if any, ends first: lost as abandoned if it has an
    action, simply discarded if not. The player row lock serialises two creations at once.
    A fresh deal comes from the pool at once (call ``game_create_prepare`` first: it vets one
    when the pool is empty, without holding the lock).
    """
    User.objects.select_for_update().filter(pk=player.pk).first()
    deal_choice_check(player=player, seed=seed, layout=layout)
    staff_made = seed is not None or layout is not None

    source_game: Game | None = None
    if replay_of is not None:
        source_game = game_get_readable(viewer=player, game_id=replay_of)
        # Its deal must be out (games.visibility): a daily's not before its day closes, a
        # race game's not before its race ends. A casual game of one's own: at any time.
        if source_game.kind != Game.Kind.CASUAL and not deal_out(source_game):
            raise GameNotFound()
        deal = source_game.deal
    elif layout is not None:
        deal = deal_from_layout(layout=deal_layout_parse(suits=suits or 0, layout=layout))
    elif seed is not None:
        assert suits is not None
        deal = deal_from_seed(suits=suits, seed=seed)
    else:
        assert suits is not None
        deal = deal_for_new_game(suits=suits)

    discarded = _end_casual_game_in_progress(player, timezone.now())
    if source_game is not None and source_game.pk == discarded:
        source_game = None  # replaying the untouched game just discarded: no row to link
    return game_start(
        player=player,
        deal=deal,
        replay_of=source_game,
        staff_made=staff_made,
        rankable=replay_of is None,
        deal_over_gap=deal_over_gap,
    )


@transaction.atomic
def game_create_practice(*, player: User, deal: Deal) -> Game:
    """Start a casual game on ``deal``, chosen by the caller (a closed daily challenge's, see
    ``leaderboard.services.daily_practice``): it never ranks. As with ``game_create``, the
    player's casual game in progress ends first."""
    User.objects.select_for_update().filter(pk=player.pk).first()
    _end_casual_game_in_progress(player, timezone.now())
    return game_start(player=player, deal=deal, rankable=False)


def game_start(
    *,
    player: User,
    deal: Deal,
    kind: str = Game.Kind.CASUAL,
    daily_date: date | None = None,
    replay_of: Game | None = None,
    staff_made: bool = False,
    rankable: bool = True,
    deal_over_gap: bool = False,
) -> Game:
    """Create the Game row for ``deal`` (inside the caller's transaction), under the table
    rule ``deal_over_gap`` or the standard rules: fixed from here on.

    It is ranked only on a vetted deal, not staff-made, not a replay, never on a deal the
    player has seen before, never for a guest (docs/rules.md#guests), and only if the caller
    allows it (``rankable``).
    """
    staff_made = staff_made or deal.staff_made
    seen_before = replay_of is not None or Game.objects.filter(player=player, deal=deal).exists()
    game = Game(
        player=player,
        deal=deal,
        suits=deal.suits,
        kind=kind,
        daily_date=daily_date,
        replay_of=replay_of,
        staff_made=staff_made,
        deal_over_gap=deal_over_gap,
        ranked=rankable
        and deal.vetted
        and not staff_made
        and not seen_before
        and not getattr(player, "is_guest", False),
    )
    _store(game, Board(game.layout()))
    game.save(force_insert=True)
    return game


def _end_casual_game_in_progress(player: User, now: datetime) -> UUID | None:
    """End the player's casual game in progress; returns the id of a game discarded."""
    current = (
        Game.objects.select_for_update()
        .filter(player=player, kind=Game.Kind.CASUAL, status=Game.Status.IN_PROGRESS)
        .first()
    )
    if current is None:
        return None
    if current.actions == 0:
        discarded = current.pk
        current.delete()  # no action taken: simply discarded
        return discarded
    _finish(current, Game.Status.LOST, Game.EndReason.ABANDONED, now)
    return None


# -- playing --------------------------------------------------------------------------------
def game_act(
    *, player: User, game_id: str, action: ActionRequest, expected_version: int | None = None
) -> ActResult:
    """Apply one move, deal or undo. A refused action raises and changes nothing, except
    on a daily attempt whose day has closed: that ends it (lost) before it is refused."""
    with game_metrics.ActionCounted() as counted:  # applied, or refused with its code
        with transaction.atomic():
            game, read = _locked_for_act(player, game_id)
            counted.suits = game.suits
            now = timezone.now()
            if not _day_closed_on(game, now):
                return _act(game, action, expected_version, now, read)
            _finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
        raise DayClosed()


def _day_closed_on(game: Game, now: datetime) -> bool:
    """A daily attempt still in progress past its day's close (docs/rules.md#daily-challenge).
    From the row alone (kind, status, daily_date): no query on the action path."""
    return game.kind == Game.Kind.DAILY and not game.over and daily_closed(game.daily_date, now)


def _act(
    game: Game, action: ActionRequest, expected_version: int | None, now: datetime, read: object
) -> ActResult:
    # A kind with rules of its own (races: races.policy, no undo, not before the start) checks
    # the action first, and hands back its turn: the action's later steps, kept here.
    policy = kinds.policy_for(game.kind)
    turn = None
    if policy is not None:
        turn = policy.before_act(game=game, action_type=action.type, now=now, read=read)
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(expected_version, game_state(game))
    if game.over:
        raise GameOver()
    board = load(game.snapshot)
    try:
        if action.type == "undo":
            outcome = board.undo()
            applied: dict[str, Any] = {"type": "undo"}
        elif action.type == "deal":
            outcome = board.play(DEAL)
            applied = {"type": "deal"}
        else:
            assert action.src is not None
            move = board.resolve_move(action.src, action.dst, action.count)
            outcome = board.play(move)
            applied = {"type": "move", "from": move[0], "to": move[1], "count": move[2]}
    except IllegalAction as exc:
        raise rule_error(exc) from None

    game.version += 1
    entry = Action(
        game=game,
        seq=game.version,
        kind=applied["type"],
        src=applied.get("from"),
        dst=applied.get("to"),
        count=applied.get("count"),
        created_at=now,
    )
    if game.started_at is None:
        game.started_at = now  # the clock starts at the first action
    game.last_action_at = now
    _store(game, board)
    # A kind's own writes (a race's event) go in the same statement as the action's.
    also = turn.before_write(game=game, board=board, now=now) if turn is not None else ()
    rows.action_write(game=game, entry=entry, also=also)  # the log row and the new state
    coins = None
    if board.won:
        coins = _finish(game, Game.Status.WON, Game.EndReason.WON, now)
    if turn is not None:
        turn.after_act(game=game, board=board, now=now)
    return ActResult(game=game, board=board, outcome=outcome, applied=applied, coins=coins)


@dataclass(frozen=True, slots=True)
class HintResult:
    game: Game
    hint: Hint | None  # None: nothing useful to suggest at this n
    reason: str
    n: int
    alternatives: int  # how many useful suggestions there are in all


HINT_SEARCH_TRIES = 3
# The ranked hints of a position, cached (the Django cache: Redis with CACHE_URL) so asking
# again, or for the next n, costs no second search. The key is the game and its position
# (its action count, which every move, deal and undo raises and a hint does not, and the
# position's visible key): an entry is never served for another position, and a hint
# entry in the log leaves the position as it was. Deterministic (a node budget), so a hit
# answers what a search would have; a miss (evicted, Redis down) only searches again.
HINT_CACHE_SECONDS = 15 * 60
_HINT_CACHE_TAG = "hint2"  # bump when the ranking changes, so no entry outlives its code


def game_hint(
    *, player: User, game_id: str, n: int = 0, expected_version: int | None = None
) -> HintResult:
    """The n-th best suggestion for the player's game, seen from the player's side only.

    A hint served counts on the game (``hints``; no longer perfect) and is logged. Asking
    the same n again straight away is answered the same and counted once, so a retried
    request costs nothing more.

    The search runs without the game row lock (it takes far longer than an action): it reads
    the game, searches, then locks the row and writes only if the game is still at the
    version searched; if an action came in between, it searches again.
    """
    for attempt in range(HINT_SEARCH_TRIES):
        game = Game.objects.filter(pk=game_id, player=player).first()
        if game is None:
            raise GameNotFound()
        if _day_closed_on(game, timezone.now()):
            game_close_day(game_id=game.pk)
            raise DayClosed()
        _check_playable(game, expected_version)
        searched = _hint_search(game, n)
        with transaction.atomic():
            locked = _locked_own_game(player, game_id)
            _check_playable(locked, expected_version)
            if locked.version == game.version or attempt == HINT_SEARCH_TRIES - 1:
                if locked.version != game.version:  # busy game: search under the lock
                    searched = _hint_search(locked, n)
                return _hint_record(locked, searched)
    raise AssertionError("unreachable")  # the last try always returns


def _check_playable(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(expected_version, game_state(game))
    if game.over:
        raise GameOver()
    policy = kinds.policy_for(game.kind)
    if policy is not None:
        policy.before_hint(game=game)  # races: no hints


def _hint_search(game: Game, n: int) -> HintResult:
    """Rank the suggestions for ``game``'s position (no lock, no write), or take them from
    the cache."""
    board = load(game.snapshot)
    level = settings.HINT_LEVEL  # the entry names its level: one never answers for another
    key = f"{_HINT_CACHE_TAG}:{level}:{game.pk}:{board.actions}:{board.visible_key()}"
    cached = cache.get(key)
    if cached is not None:
        found = [Hint(*fields) for fields in cached]
        game_metrics.hint_looked_up(game.suits, None)
    else:
        # From the public view only, never back to a position this game has been in.
        cpu = time.thread_time()
        found = board_hints(board, level=level)
        game_metrics.hint_looked_up(game.suits, time.thread_time() - cpu)
        entry = [(h.action, h.reason, h.score, h.chance, h.sample) for h in found]
        cache.set(key, entry, HINT_CACHE_SECONDS)
    if n >= len(found):
        visible = VisiblePosition.from_board(board)
        reason = (
            no_hint_reason(visible, last_move=board.last_move, deal_over_gap=board.deal_over_gap)
            if not found
            else f"no further suggestion: there are {len(found)}"
        )
        return HintResult(game, None, reason, n, len(found))
    return HintResult(game, found[n], found[n].reason, n, len(found))


def _hint_record(game: Game, searched: HintResult) -> HintResult:
    """Count and log a hint served on the locked ``game`` (once for the same n in a row)."""
    if searched.hint is not None:
        last = Action.objects.filter(game=game).order_by("-seq").first()
        if last is None or last.kind != Action.Kind.HINT or last.count != searched.n:
            board = load(game.snapshot)
            board.note_hint()
            game.version += 1
            Action.objects.create(
                game=game,
                seq=game.version,
                kind=Action.Kind.HINT,
                count=searched.n,
                created_at=timezone.now(),
            )
            _store(game, board)
            game.save()
    return HintResult(game, searched.hint, searched.reason, searched.n, searched.alternatives)


def game_resign(*, player: User, game_id: str) -> Game:
    with transaction.atomic():
        game, _ = _locked_for_act(player, game_id)
        now = timezone.now()
        if not _day_closed_on(game, now):
            if game.over:
                raise GameOver()
            policy = kinds.policy_for(game.kind)
            if policy is not None:
                policy.resign(game=game, now=now)  # a race: out of it (the others race on)
            _finish(game, Game.Status.LOST, Game.EndReason.RESIGNED, now)
            return game
        _finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    raise DayClosed()


@transaction.atomic
def games_end_for_player(*, player: User) -> int:
    """End the player's casual and daily games in progress, resigned (a daily one past its day
    closes as the day's sweep would): their account is being deleted
    (docs/rules.md#deleting-an-account). Race games are left to the race (the races app
    resigns them). Returns how many ended."""
    now = timezone.now()
    games = Game.objects.select_for_update().filter(
        player=player,
        status=Game.Status.IN_PROGRESS,
        kind__in=(Game.Kind.CASUAL, Game.Kind.DAILY),
    )
    ended = 0
    for game in games.order_by("created_at"):
        closed = _day_closed_on(game, now)
        reason = Game.EndReason.DAY_CLOSED if closed else Game.EndReason.RESIGNED
        _finish(game, Game.Status.LOST, reason, now)
        ended += 1
    return ended


@transaction.atomic
def game_close_day(*, game_id: Any, now: datetime | None = None) -> bool:
    """End a daily attempt whose day has closed: lost, nothing earned, no leaderboard
    (docs/rules.md#daily-challenge). Safe to call twice; True if it ended it."""
    now = now or timezone.now()
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or not _day_closed_on(game, now):
        return False
    _finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    return True


def games_close_past_days(*, now: datetime | None = None, batch: int = 500) -> int:
    """The sweep at the daily close: end every daily attempt still in progress whose UTC day
    has closed. Each batch its own short transaction, SKIP LOCKED (an action in flight ends
    it itself), safe to run twice or from two workers at once. Returns how many ended."""
    now = now or timezone.now()
    today = now.astimezone(UTC).date()
    ended = 0
    while True:
        with transaction.atomic():
            due = list(
                Game.objects.select_for_update(skip_locked=True)
                .filter(kind=Game.Kind.DAILY, status=Game.Status.IN_PROGRESS)
                .filter(daily_date__lt=today)
                .order_by("created_at")[:batch]
            )
            for game in due:
                _finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
            ended += len(due)
        if len(due) < batch:
            return ended


@transaction.atomic
def game_conclude(*, game_id: Any, won: bool, reason: str, now: datetime) -> Game | None:
    """End a game its kind's owner decided (a race's end): won or lost for ``reason``.
    A game already over is left alone (safe to call twice); returns the game if it ended."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.over:
        return None
    status = Game.Status.WON if won else Game.Status.LOST
    _finish(game, status, reason, now)
    return game


def games_expire_idle(*, idle: timedelta, now: datetime | None = None, batch: int = 500) -> int:
    """End every game idle for longer than ``idle``: lost if it had an action, discarded if
    not. Each game is its own short transaction, so this is safe next to live play and to
    run twice or from two workers at once (SKIP LOCKED). Returns how many games ended."""
    now = now or timezone.now()
    cutoff = now - idle
    ended = 0
    while True:
        with transaction.atomic():
            stale = list(
                Game.objects.select_for_update(skip_locked=True)
                .filter(status=Game.Status.IN_PROGRESS, created_at__lt=cutoff)
                .exclude(last_action_at__gte=cutoff)
                .exclude(kind=Game.Kind.RACE)  # a race ends its games itself
                .order_by("created_at")[:batch]
            )
            for game in stale:
                if game.actions == 0:
                    game.delete()
                else:
                    _finish(game, Game.Status.LOST, Game.EndReason.EXPIRED, now)
            ended += len(stale)
        if len(stale) < batch:
            return ended


# -- shared steps ---------------------------------------------------------------------------
def _store(game: Game, board: Board) -> None:
    """Copy the board into the row: the snapshot and the counters queries use."""
    game.snapshot = dump(board)
    game.actions = board.actions
    game.undos = board.undos
    game.hints = board.hints
    game.runs_removed = board.runs_removed
    game.score = board.score
    game.perfect = board.perfect


def _finish(game: Game, status: str, reason: str, now: datetime) -> CoinAward | None:
    """End the game: its result saved, then announced to the features that subscribe
    (games/signals.py), all in the caller's transaction. A win's coins are paid here rather
    than by a receiver because the winning answer reports them (returned)."""
    game.status = status
    game.end_reason = reason
    game.finished_at = now
    # The clock stops at the win or the loss (docs/rules.md#clock), whatever ended the game.
    # (A race game resigned in the countdown has started_at ahead of now: 0, not negative.)
    elapsed = (now - game.started_at).total_seconds() if game.started_at else 0
    game.elapsed_ms = max(0, int(elapsed * 1000))
    if not game.staff_made and game.kind != Game.Kind.RACE:  # races keep their own stats
        player_stats_record(game=game)
    game.save()  # receivers see, and may refer to, the final row
    coins = None
    if status == Game.Status.WON:
        game_won.send(sender=Game, game=game)
        coins = game_reward(game=game, now=now)  # the win's reward, in this transaction
    game_finished.send(sender=Game, game=game)
    return coins


def player_stats_record(*, game: Game) -> PlayerStats:
    """Fold one finished game into its player's statistics for its suit mode (in the
    transaction that ends it).

    The stats row is locked, so two games of one player ending at once (a casual and a
    daily game) cannot lose an update.
    """
    PlayerStats.objects.get_or_create(player_id=game.player_id, suits=game.suits)
    row = PlayerStats.objects.select_for_update().get(player_id=game.player_id, suits=game.suits)
    row.played += 1
    if game.status == Game.Status.WON:
        row.wins += 1
        row.current_win_streak += 1
        row.best_win_streak = max(row.best_win_streak, row.current_win_streak)
        row.current_loss_streak = 0
        row.fastest_win_ms = _least(row.fastest_win_ms, game.elapsed_ms)
        row.fewest_actions_win = _least(row.fewest_actions_win, game.actions)
        row.best_score = max(row.best_score or 0, game.score)
    else:
        row.current_loss_streak += 1
        row.worst_loss_streak = max(row.worst_loss_streak, row.current_loss_streak)
        row.current_win_streak = 0  # a lost game ends the win streak
    row.save()
    return row


def _least(current: int | None, new: int | None) -> int | None:
    if new is None:
        return current
    return new if current is None else min(current, new)


def _locked_for_act(player: User, game_id: str) -> tuple[Game, object]:
    """As _locked_own_game; a game whose kind has a policy (a race) is locked by the policy,
    with what its rules read, in one statement once this process knows the game's kind.
    Returns the game and that read (None if the policy did not lock it), for its policy."""
    known = kinds.known_policy(game_id)
    locked = known.lock_for_act(game_id=game_id, player_id=player.pk) if known else None
    if locked is not None:
        return locked
    game = _locked_own_game(player, game_id)
    kinds.remember_kind(game_id, game.kind)
    return game, None


def _locked_own_game(player: User, game_id: str) -> Game:
    # Only the game row is locked and read: its deal is loaded lazily, once the game is over.
    game = rows.game_for_update(game_id=game_id, player_id=player.pk)
    if game is None:
        raise GameNotFound()
    return game


__all__ = [
    "ActResult",
    "ActionRequest",
    "game_act",
    "game_close_day",
    "game_conclude",
    "games_end_for_player",
    "game_create",
    "game_create_prepare",
    "game_hint",
    "game_start",
    "game_resign",
    "games_close_past_days",
    "games_expire_idle",
]


# -- post-game analyses (docs/rules.md#after-the-game-the-analysis) ---------------------------
# Asking for one (``analysis_request``, one transaction: the game must be one the player may
# see and over with nothing of its deal still secret; one row per game, ever, the unique game
# key deciding between two requests at once; a new one passes the quotas and is queued after
# the commit), reading it (``analysis_read``: an older version's result is run again, a run
# whose message was lost queued again), and running it (``analysis_run``, the worker's, via
# games.tasks.analyse_game: claims the pending row, replays the log, searches with
# games.solver.analysis within the settings' node budgets, and stores the result or
# ``failed`` with a reason). The work runs on the Celery queue ``ANALYSIS_QUEUE`` (never the
# pool's), or without a broker in a thread of this process, like the pool's fill.

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
# While the broker is down, publishing is not tried again for this long (a read re-queues).
_PUBLISH_BACKOFF_SECONDS = 10.0


_publish_down_until = 0.0


def queue_analysis(analysis_id: int) -> None:
    """Run the analysis: a task on the analysis queue with a broker; without one (the
    zero-setup run) a thread of this process, or inline where ANALYSIS_IN_THREAD is off."""
    global _publish_down_until
    if settings.CELERY_TASK_ALWAYS_EAGER:
        if settings.ANALYSIS_IN_THREAD:
            threading.Thread(target=_run_in_background, args=(analysis_id,), daemon=True).start()
        else:
            analysis_run(analysis_id=analysis_id)
        return
    if time.monotonic() < _publish_down_until:
        return
    try:
        current_app.send_task(ANALYSE_TASK, args=(analysis_id,), queue=settings.ANALYSIS_QUEUE)
    except Exception as exc:  # the broker is down: the analysis waits; a read queues it again
        _publish_down_until = time.monotonic() + _PUBLISH_BACKOFF_SECONDS
        log.warning("could not queue analysis %s, the broker is unavailable: %s", analysis_id, exc)


def _run_in_background(analysis_id: int) -> None:
    try:
        analysis_run(analysis_id=analysis_id)
    except Exception:  # a background helper must never take the process down
        log.exception("in-process analysis %s failed", analysis_id)
        analysis_fail(analysis_id=analysis_id, reason="error")
    finally:
        connection.close()
