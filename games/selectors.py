"""Read-side queries for games and statistics."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.utils import timezone

from base.errors import DomainError
from games.engine import Action as EngineAction
from games.engine import Board, apply_action, public_view
from games.errors import GameNotFound, NoAnalysis
from games.models import Action, Analysis, Game, PlayerStats
from games.presenters import action_json as presenters_action_json
from games.presenters import elapsed_ms, iso
from games.visibility import deal_out, game_visibility

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()

BEST_WINS = 5


def game_get_readable(*, viewer: User | AnonymousUser, game_id: Any) -> Game:
    """A game ``viewer`` may read (games.visibility): their own at any time, anyone's once
    it is over and its deal is out. Anything else is indistinguishable from a game that
    does not exist (404)."""
    game = Game.objects.select_related("deal").filter(pk=game_id).first()
    if game is None or not game_visibility(game=game, viewer=viewer).readable:
        raise GameNotFound()
    return game


def game_position(*, viewer: User | AnonymousUser, game_id: Any, step: int) -> dict[str, Any]:
    """The public position after the first ``step`` log entries of a finished game (0: the
    start), as its player saw it: face-down cards only as counts.

    Only for games that are over, and readable by ``viewer`` (anyone's once public): while a
    game runs, its earlier positions are the owner's business and nobody else's, and the
    replay would need the hidden cards of the live deal.
    """
    game = game_get_readable(viewer=viewer, game_id=game_id)
    if not game.over:
        raise DomainError("game_in_progress", "Positions are served once the game is over.", 409)
    if not game_visibility(game=game, viewer=viewer).positions:
        # A race game before its cards turn over, even one over already: nobody sees a card.
        raise DomainError("race_not_started", "The cards have not turned over yet.", 409)
    log = list(game_log(game=game))
    if step > len(log):
        raise DomainError(
            "no_such_step", f"The log has {len(log)} entries; ask 0..{len(log)}.", 404
        )
    board = Board(game.layout())
    for entry in log[:step]:
        kind: Any = entry.kind
        apply_action(board, EngineAction(kind, entry.src, entry.dst, entry.count))
    view = public_view(board)
    return {
        "game": str(game.id),
        "step": step,
        "steps": len(log),
        "action": presenters_action_json(log[step - 1]) if step else None,
        "columns": view["columns"],
        "deals_left": view["deals_left"],
        "runs_removed": view["runs_removed"],
        "removed_suits": view["removed_suits"],
        "score": view["score"],
        "actions": view["actions"],
        "won": view["won"],
        "deal_over_gap": game.deal_over_gap,
    }


def games_of_player(*, player: User, status: str | None = None) -> QuerySet[Game]:
    games = Game.objects.filter(player=player).order_by("-created_at")
    if status:
        games = games.filter(status=status)
    return games.defer("snapshot")


def game_log(*, game: Game) -> QuerySet[Action]:
    return Action.objects.filter(game=game).order_by("seq")


def player_stats(*, player: User) -> list[dict[str, Any]]:
    """Statistics per suit mode (1, 2, 4), including the five best wins."""
    rows = {row.suits: row for row in PlayerStats.objects.filter(player=player)}
    result = []
    for suits in (1, 2, 4):
        row = rows.get(suits) or PlayerStats(player=player, suits=suits)
        # Race games count apart (races' own stats), as in PlayerStats: a race won on time
        # or as the last one left did not clear its board (docs/rules.md#statistics).
        best = (
            Game.objects.filter(
                player=player, suits=suits, status=Game.Status.WON, staff_made=False
            )
            .exclude(kind=Game.Kind.RACE)
            .order_by("-score", "elapsed_ms", "finished_at")
            .only("id", "score", "actions", "elapsed_ms", "finished_at", "perfect", "started_at")[
                :BEST_WINS
            ]
        )
        result.append(
            {
                "suits": suits,
                "played": row.played,
                "wins": row.wins,
                "win_rate": row.win_rate,
                "current_win_streak": row.current_win_streak,
                "best_win_streak": row.best_win_streak,
                "current_loss_streak": row.current_loss_streak,
                "worst_loss_streak": row.worst_loss_streak,
                "fastest_win_ms": row.fastest_win_ms,
                "fewest_actions_win": row.fewest_actions_win,
                "best_score": row.best_score,
                "best_wins": [
                    {
                        "game": str(g.id),
                        "score": g.score,
                        "actions": g.actions,
                        "elapsed_ms": elapsed_ms(g),
                        "finished_at": iso(g.finished_at),
                        "perfect": g.perfect,
                    }
                    for g in best
                ],
            }
        )
    return result


def player_by_username(*, username: str) -> User:
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise DomainError("not_found", f"No player named {username!r}.", 404)
    return user


def player_finished_games(*, player: User, now: datetime | None = None) -> QuerySet[Game]:
    """A player's public game history, newest first: the games that are over and whose deal
    is out for everyone (games.visibility.deal_out), so each opens as a replay. A daily game
    shows once its day has closed; race games count apart (their races list them) and stay
    out, as does every game still in play."""
    now = now or timezone.now()
    closed_before = now.astimezone(UTC).date()  # a day closes when the next UTC day begins
    return (
        Game.objects.filter(player=player, status__in=(Game.Status.WON, Game.Status.LOST))
        .exclude(kind=Game.Kind.RACE)
        .exclude(kind=Game.Kind.DAILY, daily_date__gte=closed_before)
        .order_by("-created_at")
        .defer("snapshot")
    )


def analysable_game(*, viewer: User | AnonymousUser, game_id: Any) -> Game:
    """The game ``viewer`` may have analysed. 404 for a game they may not see (as for its
    log); 409 while anything of its deal is still secret: the solver sees every card."""
    game = game_get_readable(viewer=viewer, game_id=game_id)
    if not game.over:
        raise DomainError(
            "game_in_progress", "A game is analysed once it is over: finish or resign it.", 409
        )
    if deal_out(game):  # games.visibility: nothing of its deal is a shared secret any more
        return game
    if game.kind == Game.Kind.RACE:
        raise DomainError(
            "race_in_progress",
            "The race is still running: its deal is analysed once the race has ended.",
            409,
        )
    raise DomainError(  # a daily game before its day closes
        "daily_open",
        "The daily challenge's deal is analysed once its day has closed (00:00 UTC).",
        409,
    )


def analysis_of_game(*, viewer: User | AnonymousUser, game_id: Any) -> Analysis:
    """The analysis of a game ``viewer`` may see: 404 if the game is not theirs to see or
    none was asked for."""
    game = game_get_readable(viewer=viewer, game_id=game_id)
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        raise NoAnalysis()
    return analysis
