"""How a game ends (``game_finish``: its result, the player's statistics, the signals, a
win's coins), and who ends one besides its player: the kind's owner (``game_conclude``, a
race's end) and an account being deleted (``games_end_for_player``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from games.models import Game, PlayerStats
from games.rewards import CoinAward, game_reward
from games.services.lookups import day_closed_on
from games.signals import game_finished, game_won

if TYPE_CHECKING:
    from accounts.models import User


def game_finish(game: Game, status: str, reason: str, now: datetime) -> CoinAward | None:
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


@transaction.atomic
def game_conclude(*, game_id: Any, won: bool, reason: str, now: datetime) -> Game | None:
    """End a game its kind's owner decided (a race's end): won or lost for ``reason``.
    A game already over is left alone (safe to call twice); returns the game if it ended."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.over:
        return None
    status = Game.Status.WON if won else Game.Status.LOST
    game_finish(game, status, reason, now)
    return game


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
        closed = day_closed_on(game, now)
        reason = Game.EndReason.DAY_CLOSED if closed else Game.EndReason.RESIGNED
        game_finish(game, Game.Status.LOST, reason, now)
        ended += 1
    return ended
