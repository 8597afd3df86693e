"""What a viewer may see of a game now (docs/rules.md#what-a-player-sees): the one policy
behind every answer that shows a game, its log, its positions, a replay of its deal, or a
race's laid-open tables. Endpoints ask it; none decides on its own.

- A running game is its player's only; of it they see the face-up cards and counts, never a
  face-down card, the stock order or the seed (``games.presenters.game_state``).
- A race game shows no card at all before the cards turn over (its ``started_at``), not even
  to its player, and not even once the game is over (a racer out before the start must not
  see the opening before the others).
- A game's deal (seed, layout; and so its replay) is out once the game is over, except while
  it is a shared secret: a daily game until its day closes, a race game until its race ends
  (the kind's policy says, games.kinds).
- Anyone may read a game, its log and its positions once it is over and its deal is out; its
  player may read their own at any time (positions: once it is over).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone

from games import kinds
from games.daily import daily_closed
from games.models import Game

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


@dataclass(frozen=True, slots=True)
class GameVisibility:
    readable: bool  # the game, its state and its log exist for this viewer (else 404)
    cards: bool  # face-up cards may show (false for everyone in a race's countdown)
    deal: bool  # the deal (seed, layout) is out: shown, and may be replayed
    positions: bool  # its positions step by step (a finished game, its cards showing)


def before_cards_turn(game: Game, now: datetime | None = None) -> bool:
    """A race game in its countdown: nobody sees a card yet (docs/rules.md#countdown)."""
    return (
        game.kind == Game.Kind.RACE
        and game.started_at is not None
        and (now or timezone.now()) < game.started_at
    )


def deal_out(game: Game, now: datetime | None = None) -> bool:
    """The game is over and its deal no longer a shared secret."""
    if not game.over:
        return False
    if game.kind == Game.Kind.DAILY and not daily_closed(game.daily_date, now):
        return False
    return not kinds.deal_secret(game)  # a race game: not before the race ends


def game_visibility(
    *, game: Game, viewer: User | AnonymousUser | None, now: datetime | None = None
) -> GameVisibility:
    now = now or timezone.now()
    owner = (
        viewer is not None
        and getattr(viewer, "is_authenticated", False)
        and game.player_id == viewer.pk
    )
    out = deal_out(game, now)
    readable = owner or out
    cards = readable and not before_cards_turn(game, now)
    return GameVisibility(readable=readable, cards=cards, deal=out, positions=cards and game.over)
