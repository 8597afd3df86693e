"""Per-player, per-suit-mode statistics, updated in the transaction that ends a game."""

from __future__ import annotations

from games.models import Game, PlayerStats


def record_game_end(game: Game) -> PlayerStats:
    """Fold one finished game into its player's statistics for its suit mode.

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
        row.fastest_win_ms = _min(row.fastest_win_ms, game.elapsed_ms)
        row.fewest_actions_win = _min(row.fewest_actions_win, game.actions)
        row.best_score = max(row.best_score or 0, game.score)
    else:
        row.current_loss_streak += 1
        row.worst_loss_streak = max(row.worst_loss_streak, row.current_loss_streak)
        row.current_win_streak = 0  # a lost game ends the win streak
    row.save()
    return row


def _min(current: int | None, new: int | None) -> int | None:
    if new is None:
        return current
    return new if current is None else min(current, new)
