"""The only code that changes games. Each function is one transaction.

Writes to one game are serialised by a row lock (``SELECT ... FOR UPDATE``) on the Game,
then checked against the rules by the engine, then written as the new snapshot plus one
``Action`` row in the same transaction: the snapshot and the log cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import kinds, rows, stats
from games.daily import daily_closed
from games.deals import (
    deal_choice_check,
    deal_for_new_game,
    deal_from_layout,
    deal_from_seed,
    deal_layout_parse,
    deal_vet_ahead,
)
from games.engine import DEAL, Board, IllegalAction, Outcome, dump, load
from games.errors import DayClosed, GameNotFound, GameOver, VersionConflict, rule_error
from games.models import Action, Deal, Game
from games.presenters import game_state
from games.rewards import CoinAward, game_reward
from games.selectors import game_get_readable
from games.signals import game_finished, game_won
from games.solver.hint import Hint, VisiblePosition, board_hints, no_hint_reason
from games.visibility import deal_out

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()


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


def _end_casual_game_in_progress(player: User, now: datetime) -> Any:
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
    with transaction.atomic():
        game = _locked_for_act(player, game_id)
        now = timezone.now()
        if not _day_closed_on(game, now):
            return _act(game, action, expected_version, now)
        _finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    raise DayClosed()


def _day_closed_on(game: Game, now: datetime) -> bool:
    """A daily attempt still in progress past its day's close (docs/rules.md#daily-challenge).
    From the row alone (kind, status, daily_date): no query on the action path."""
    return game.kind == Game.Kind.DAILY and not game.over and daily_closed(game.daily_date, now)


def _act(
    game: Game, action: ActionRequest, expected_version: int | None, now: datetime
) -> ActResult:
    policy = kinds.policy_for(game.kind)  # races: races.policy (no undo, not before the start)
    if policy is not None:
        policy.before_act(game=game, action_type=action.type, now=now)
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
    also = policy.before_write(game=game, board=board, now=now) if policy is not None else ()
    rows.action_write(game=game, entry=entry, also=also)  # the log row and the new state
    coins = None
    if board.won:
        coins = _finish(game, Game.Status.WON, Game.EndReason.WON, now)
    if policy is not None:
        policy.after_act(game=game, board=board, now=now)
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
    else:
        # From the public view only, never back to a position this game has been in.
        found = board_hints(board, level=level)
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
        game = _locked_for_act(player, game_id)
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
        stats.record_game_end(game)
    game.save()  # receivers see, and may refer to, the final row
    coins = None
    if status == Game.Status.WON:
        game_won.send(sender=Game, game=game)
        coins = game_reward(game=game, now=now)  # the win's reward, in this transaction
    game_finished.send(sender=Game, game=game)
    return coins


def _locked_for_act(player: User, game_id: str) -> Game:
    """As _locked_own_game; a game whose kind has a policy (a race) is locked by the policy,
    with what its rules read, in one statement once this process knows the game's kind."""
    known = kinds.known_policy(game_id)
    game = known.lock_for_act(game_id=game_id, player_id=player.pk) if known else None
    if game is None:
        game = _locked_own_game(player, game_id)
        kinds.remember_kind(game_id, game.kind)
    return game


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
