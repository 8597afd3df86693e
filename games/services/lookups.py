"""What the game services share about one game's row: the player's game locked
(``locked_own_game``), a daily attempt past its close told from the row alone
(``day_closed_on``), and a board copied back into the row (``game_store``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from games import rows
from games.daily import daily_closed
from games.engine import Board, dump
from games.errors import GameNotFound
from games.models import Game

if TYPE_CHECKING:
    from accounts.models import User


def locked_own_game(player: User, game_id: str) -> Game:
    # Only the game row is locked and read: its deal is loaded lazily, once the game is over.
    game = rows.game_for_update(game_id=game_id, player_id=player.pk)
    if game is None:
        raise GameNotFound()
    return game


def day_closed_on(game: Game, now: datetime) -> bool:
    """A daily attempt still in progress past its day's close (docs/rules.md#daily-challenge).
    From the row alone (kind, status, daily_date): no query on the action path."""
    return game.kind == Game.Kind.DAILY and not game.over and daily_closed(game.daily_date, now)


def game_store(game: Game, board: Board) -> None:
    """Copy the board into the row: the snapshot and the counters queries use."""
    game.snapshot = dump(board)
    game.actions = board.actions
    game.undos = board.undos
    game.hints = board.hints
    game.runs_removed = board.runs_removed
    game.score = board.score
    game.perfect = board.perfect
