"""A player's action on their game (move, deal, undo: ``game_act``, the hot path) and their
resignation. Each is one transaction: the game row locked (with what its kind's rules read,
once this process knows its kind), the action checked by the engine, then the new snapshot
and one ``Action`` row written together, so the snapshot and the log cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from games import kinds, rows
from games.engine import DEAL, Board, IllegalAction, Outcome, load
from games.errors import DayClosed, GameOver, VersionConflict, rule_error
from games.models import Action, Game
from games.rewards import CoinAward
from games.services.endings import game_finish
from games.services.lookups import day_closed_on, game_store, locked_own_game

if TYPE_CHECKING:
    from accounts.models import User


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


def game_act(
    *, player: User, game_id: str, action: ActionRequest, expected_version: int | None = None
) -> ActResult:
    """Apply one move, deal or undo. A refused action raises and changes nothing, except
    on a daily attempt whose day has closed: that ends it (lost) before it is refused."""
    with transaction.atomic():
        game, read = _locked_for_act(player, game_id)
        now = timezone.now()
        if not day_closed_on(game, now):
            return _act(game, action, expected_version, now, read)
        game_finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    raise DayClosed()


def _act(
    game: Game,
    action: ActionRequest,
    expected_version: int | None,
    now: datetime,
    read: kinds.KindRead | None,
) -> ActResult:
    # A kind with rules of its own (races: races.policy, no undo, not before the start) checks
    # the action first, on what its policy read with the lock if it did, and hands back its
    # turn: the action's later steps, kept here.
    turn: kinds.KindTurn | None = None
    if read is not None:
        turn = read.before_act(game=game, action_type=action.type, now=now)
    elif (policy := kinds.policy_for(game.kind)) is not None:
        turn = policy.before_act(game=game, action_type=action.type, now=now)
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(expected_version, game)
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
    game_store(game, board)
    # A kind's own writes (a race's event) go in the same statement as the action's.
    also = turn.before_write(game=game, board=board, now=now) if turn is not None else ()
    rows.action_write(game=game, entry=entry, also=also)  # the log row and the new state
    coins = None
    if board.won:
        coins = game_finish(game, Game.Status.WON, Game.EndReason.WON, now)
    if turn is not None:
        turn.after_act(game=game, board=board, now=now)
    return ActResult(game=game, board=board, outcome=outcome, applied=applied, coins=coins)


def game_resign(*, player: User, game_id: str) -> Game:
    with transaction.atomic():
        game, _ = _locked_for_act(player, game_id)
        now = timezone.now()
        if not day_closed_on(game, now):
            if game.over:
                raise GameOver()
            policy = kinds.policy_for(game.kind)
            if policy is not None:
                policy.resign(game=game, now=now)  # a race: out of it (the others race on)
            game_finish(game, Game.Status.LOST, Game.EndReason.RESIGNED, now)
            return game
        game_finish(game, Game.Status.LOST, Game.EndReason.DAY_CLOSED, now)
    raise DayClosed()


def _locked_for_act(player: User, game_id: str) -> tuple[Game, kinds.KindRead | None]:
    """As locked_own_game; a game whose kind has a policy (a race) is locked by the policy,
    with what its rules read, in one statement once this process knows the game's kind.
    Returns the game and that read (None if the policy did not lock it)."""
    known = kinds.known_policy(game_id)
    locked = known.lock_for_act(game_id=game_id, player_id=player.pk) if known else None
    if locked is not None:
        return locked
    game = locked_own_game(player, game_id)
    kinds.remember_kind(game_id, game.kind)
    return game, None
