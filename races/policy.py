"""Race rules inside the game service (registered for games of kind `race`, games.kinds).

The game service calls these with the racer's Game row locked; each takes the Table row
lock next (Game -> Table, the one lock order; see races.services).
"""

from __future__ import annotations

from datetime import datetime

from games.engine import Board
from games.models import Game
from races import services
from races.errors import HintsNotAllowed, RaceNotStarted, UndoNotAllowed


class RacePolicy:
    def before_act(self, *, game: Game, action_type: str, now: datetime) -> None:
        if action_type == "undo":
            raise UndoNotAllowed()
        if game.started_at is not None and now < game.started_at:
            raise RaceNotStarted()
        # Kept on the instance for after_act, in the same transaction.
        game._race = services.racer_check_act(game=game, now=now)  # type: ignore[attr-defined]

    def after_act(self, *, game: Game, board: Board, now: datetime) -> None:
        table, race, racer = game._race  # type: ignore[attr-defined]
        services.racer_acted(table=table, race=race, racer=racer, game=game, board=board, now=now)

    def before_hint(self, *, game: Game) -> None:
        raise HintsNotAllowed()

    def resign(self, *, game: Game, now: datetime) -> None:
        if game.started_at is not None and now < game.started_at:
            raise RaceNotStarted()
        services.racer_resign_game(game=game, now=now)
