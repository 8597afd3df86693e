"""Race rules inside the game service (registered for games of kind `race`, games.kinds).

The game service calls these with the racer's Game row locked; each takes the Table row
lock next (Game -> Table, the one lock order; see races.services).

A racer's action, step by step: ``lock_for_act`` locks the game and the table and reads the
race and the racer in one statement (races/rows.py; once this process knows the game is a
race's) into a ``RaceTurn``; its ``before_act`` (or the policy's, which reads them itself)
refuses what the race forbids and returns the turn checked; the game service applies the
action, then calls the turn's ``before_write`` (the ``progress`` event, written with the
action) and ``after_act`` (a win ends the race).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from base.errors import DomainError
from games.engine import Board
from games.models import Game
from games.rows import Statement
from races import presenters, rows, selectors
from races.errors import HintsNotAllowed, NotRacing, RaceNotStarted, RaceOver, UndoNotAllowed
from races.events import EventKind, event_statements
from races.models import Race, Racer, Table
from races.services.endings import draw_decline, race_finish, racer_out
from races.services.timers import run_due


@dataclass(frozen=True, slots=True)
class RaceTurn:
    """One action of a racer: its table (row locked), race and racer. As ``lock_for_act``
    reads them it is not yet checked (its ``before_act`` checks it and returns it, allowed);
    the game service holds the checked turn for the action's later steps."""

    table: Table
    race: Race
    racer: Racer

    def before_act(self, *, game: Game, action_type: str, now: datetime) -> RaceTurn:
        """As ``RacePolicy.before_act``, on the table, race and racer read with the game row
        (``lock_for_act``): no second read."""
        return _before_act(game, action_type, now, self)

    def before_write(self, *, game: Game, board: Board, now: datetime) -> Sequence[Statement]:
        """Just before the action is written: a draw on offer is turned down (its event
        first), and the ``progress`` event is returned to be written in the action's own
        statement."""
        if self.race.draw_accepted:  # any action turns a draw on offer down
            draw_decline(self.table, self.race, self.racer, "action", now)
        progress = presenters.progress_json(self.racer, board)
        return event_statements(table=self.table, kind=EventKind.PROGRESS, data=progress, now=now)

    def after_act(self, *, game: Game, board: Board, now: datetime) -> None:
        if game.status == Game.Status.WON:  # the first win committed ends the race
            race_finish(self.table, self.race, now, winners=[self.racer], reason=Race.EndReason.WON)


class RacePolicy:
    def lock_for_act(self, *, game_id: Any, player_id: int) -> tuple[Game, RaceTurn] | None:
        found = rows.game_for_act(game_id=game_id, player_id=player_id)
        if found is None:
            return None
        game, (table, race, racer) = found
        return game, RaceTurn(table, race, racer)  # not yet checked: its before_act does

    def before_act(self, *, game: Game, action_type: str, now: datetime) -> RaceTurn:
        return _before_act(game, action_type, now, None)

    def before_hint(self, *, game: Game) -> None:
        raise HintsNotAllowed()

    def deal_secret(self, *, game: Game) -> bool:
        return selectors.race_running_for_game(game_id=game.pk)

    def resign(self, *, game: Game, now: datetime) -> None:
        # Refused as POST /races/{code}/resign refuses it, same code and status (409):
        # docs/rules.md#countdown.
        turn = _turn_checked(game, now, None)
        if turn.race.status == Race.Status.COUNTDOWN:
            raise RaceNotStarted()
        racer_out(turn.table, turn.race, turn.racer, Racer.OutReason.RESIGNED, now)


def _before_act(game: Game, action_type: str, now: datetime, read: RaceTurn | None) -> RaceTurn:
    """What the race forbids refused (an undo, an action before the cards turn over, or as
    ``_turn_checked`` refuses), as a rule refusal (422); else the racer's turn."""
    if action_type == "undo":
        raise UndoNotAllowed()
    if game.started_at is not None and now < game.started_at:
        raise _refused(RaceNotStarted())
    try:
        return _turn_checked(game, now, read)
    except DomainError as exc:
        raise _refused(exc) from None


def _turn_checked(game: Game, now: datetime, read: RaceTurn | None) -> RaceTurn:
    """The racer's turn, if the race allows one at ``now``: whatever was due run first (the
    cards turned over, the time up), then refused if the race is over or the racer out.
    ``read``: the table, race and racer read with the game row, else read here (the table
    row locked, with the racer and the race as committed once the lock is held, in one
    round trip: races/rows.py)."""
    if read is None:
        found = rows.racer_for_act(game_id=game.pk)
        if found is None:  # a race game is always created with its racer
            raise RaceOver()
        read = RaceTurn(*found)
    run_due(read.table, read.race, now)
    if read.race.status == Race.Status.FINISHED:
        raise RaceOver()
    if read.race.ends_at is not None and now >= read.race.ends_at:
        raise RaceOver(detail="The time is up: the race is over.")
    if read.racer.state != Racer.State.RACING:
        raise NotRacing(detail="You are out of this race: the others race on.")
    return read


def _refused(exc: DomainError) -> DomainError:
    """On the game endpoints a race refusal is a rule refusal (422, like undo's)."""
    return DomainError(exc.code, exc.detail, 422)
