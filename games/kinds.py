"""Rules that depend on a game's kind, for kinds owned by apps above games (races).

games knows nothing of those apps: an app registers a policy for its kind at start-up
(``AppConfig.ready``) and the game service consults it with the game row locked. A kind with
no policy (casual, daily) plays by the plain rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.engine import Board
    from games.models import Game
    from games.rows import Statement


class KindTurn(Protocol):
    """A kind's part in one action its policy allowed (races.policy.RaceTurn: the racer's
    table, race and racer, locked and checked). ``before_act`` returns it; the game service
    holds it for that action alone and calls its later steps, so nothing rides on the row."""

    def before_write(self, *, game: Game, board: Board, now: datetime) -> Sequence[Statement]:
        """The action is applied on ``board`` and about to be written: the kind's own writes
        to send with it (in its one statement on PostgreSQL; games.rows)."""

    def after_act(self, *, game: Game, board: Board, now: datetime) -> None:
        """The action is applied and saved; same transaction."""


class KindRead(Protocol):
    """What a kind's policy read with the game row lock (``KindPolicy.lock_for_act``; races:
    a RaceTurn, its table, race and racer, not yet checked). The game service asks it to
    check the action, as the policy's ``before_act`` would, without reading them again."""

    def before_act(self, *, game: Game, action_type: str, now: datetime) -> KindTurn:
        """As ``KindPolicy.before_act``, on what was read with the lock."""


class KindPolicy(Protocol):
    def lock_for_act(self, *, game_id: Any, player_id: int) -> tuple[Game, KindRead] | None:
        """Lock the player's game row, and what the kind's rules read, in one statement
        (asked once this process knows the game's kind): the game, and that read, which
        checks the action itself (``KindRead.before_act``); None: not found that way."""

    def before_act(self, *, game: Game, action_type: str, now: datetime) -> KindTurn:
        """Check the action against the kind's rules, reading what they need; raise a
        DomainError to refuse it (nothing is written), else return the turn that carries the
        action's later steps."""

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


# The kind of games seen with a policy, by id (a game's kind never changes), so the next
# action on one is locked by its policy in one statement. Bounded: the oldest go first.
_KNOWN_KINDS: dict[str, str] = {}
_KNOWN_MAX = 20_000


def known_policy(game_id: Any) -> KindPolicy | None:
    kind = _KNOWN_KINDS.get(str(game_id))
    return _POLICIES.get(kind) if kind is not None else None


def remember_kind(game_id: Any, kind: str) -> None:
    if kind in _POLICIES:
        if len(_KNOWN_KINDS) >= _KNOWN_MAX:
            del _KNOWN_KINDS[next(iter(_KNOWN_KINDS))]
        _KNOWN_KINDS[str(game_id)] = kind


def deal_secret(game: Game) -> bool:
    """A game that is over shows its deal, log and positions to all, unless its kind says the
    deal is still secret."""
    policy = _POLICIES.get(game.kind)
    return policy is not None and policy.deal_secret(game=game)
