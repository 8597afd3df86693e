"""Race rules inside the game service (registered for games of kind `race`, games.kinds).

The game service calls these with the racer's Game row locked; each takes the Table row
lock next (Game -> Table, the one lock order; see races.services).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.engine import Board
from games.models import Game
from games.rows import Statement
from races import rows, selectors, services
from races.errors import HintsNotAllowed, RaceNotStarted, UndoNotAllowed
from spider_api.errors import DomainError


def _refused(exc: DomainError) -> DomainError:
    """On the game endpoints a race refusal is a rule refusal (422, like undo's)."""
    return DomainError(exc.code, exc.detail, 422)


class RacePolicy:
    def lock_for_act(self, *, game_id: Any, player_id: int) -> Game | None:
        found = rows.game_for_act(game_id=game_id, player_id=player_id)
        if found is None:
            return None
        game, read = found
        game._race_read = read  # type: ignore[attr-defined]  # for before_act
        return game

    def before_act(self, *, game: Game, action_type: str, now: datetime) -> None:
        read = game.__dict__.pop("_race_read", None)  # locked with the game: no second read
        if action_type == "undo":
            raise UndoNotAllowed()
        if game.started_at is not None and now < game.started_at:
            raise _refused(RaceNotStarted())
        try:  # kept on the instance for after_act, in the same transaction
            game._race = services.racer_check_act(game=game, now=now, read=read)  # type: ignore[attr-defined]
        except DomainError as exc:
            raise _refused(exc) from None

    def before_write(self, *, game: Game, board: Board, now: datetime) -> list[Statement]:
        table, race, racer = game._race  # type: ignore[attr-defined]
        return services.racer_acting(table=table, race=race, racer=racer, board=board, now=now)

    def after_act(self, *, game: Game, board: Board, now: datetime) -> None:
        table, race, racer = game._race  # type: ignore[attr-defined]
        services.racer_acted(table=table, race=race, racer=racer, game=game, now=now)

    def before_hint(self, *, game: Game) -> None:
        raise HintsNotAllowed()

    def deal_secret(self, *, game: Game) -> bool:
        return selectors.race_running_for_game(game_id=game.pk)

    def resign(self, *, game: Game, now: datetime) -> None:
        # Refused as POST /races/{code}/resign refuses it, same code and status (409):
        # docs/rules.md#countdown.
        services.racer_resign_game(game=game, now=now)
