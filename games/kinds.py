"""Rules that depend on a game's kind, for kinds owned by apps above games (races).

games knows nothing of those apps: an app registers a policy for its kind at start-up
(``AppConfig.ready``) and the game service consults it with the game row locked. A kind with
no policy (casual, daily) plays by the plain rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.engine import Board
    from games.models import Game
    from games.rows import Statement


class KindPolicy(Protocol):
    def before_act(self, *, game: Game, action_type: str, now: datetime) -> None:
        """Raise a DomainError to refuse the action (nothing is written)."""

    def before_write(self, *, game: Game, board: Board, now: datetime) -> Sequence[Statement]:
        """The action is applied on ``board`` and about to be written: the kind's own writes
        to send with it (in its one statement on PostgreSQL; games.rows)."""

    def after_act(self, *, game: Game, board: Board, now: datetime) -> None:
        """The action is applied and saved; same transaction."""

    def before_hint(self, *, game: Game) -> None:
        """Raise a DomainError to refuse the hint."""

    def resign(self, *, game: Game, now: datetime) -> None:
        """Resign this game the kind's way (in the caller's transaction); the game service
        then ends the game (lost, resigned)."""

    def deal_secret(self, *, game: Game) -> bool:
        """True while the deal of this game, over as it is, must stay hidden (a race still
        running: the others play the same deal)."""


_POLICIES: dict[str, KindPolicy] = {}


def register_policy(kind: str, policy: KindPolicy) -> None:
    _POLICIES[kind] = policy


def policy_for(kind: str) -> KindPolicy | None:
    return _POLICIES.get(kind)


def deal_secret(game: Game) -> bool:
    """A game that is over shows its deal, log and positions to all, unless its kind says the
    deal is still secret."""
    policy = _POLICIES.get(game.kind)
    return policy is not None and policy.deal_secret(game=game)
