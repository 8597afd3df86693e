"""Starting games: a casual game (a new deal, a replay, or staff's chosen deal), a practice
game on a chosen deal, and the Game row of any kind (``game_start``, which the daily
challenge and the races call too). The player's casual game in progress ends first."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.deals import (
    deal_choice_check,
    deal_for_new_game,
    deal_from_layout,
    deal_from_seed,
    deal_layout_parse,
    deal_vet_ahead,
)
from games.engine import Board
from games.errors import GameNotFound
from games.models import Deal, Game
from games.selectors import game_get_readable
from games.services.endings import game_finish
from games.services.lookups import game_store
from games.visibility import deal_out

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()


def game_create_prepare(
    *,
    suits: int | None = None,
    replay_of: str | None = None,
    seed: int | None = None,
    layout: dict[str, Any] | None = None,
) -> None:
    """The slow part of ``game_create``, done first and outside any transaction or lock (the
    player's row lock included): for a fresh deal with the pool empty, vet one now."""
    if suits is not None and replay_of is None and seed is None and layout is None:
        deal_vet_ahead(suits=suits)


@transaction.atomic
def game_create(
    *,
    player: User,
    suits: int | None = None,
    replay_of: str | None = None,
    seed: int | None = None,
    layout: dict[str, Any] | None = None,
    deal_over_gap: bool = False,
) -> Game:
    """Start a casual game: a new deal of ``suits``, the deal of game ``replay_of`` again,
    or (staff only) a chosen ``seed`` or ``layout``; under the table rule ``deal_over_gap``
    if asked (docs/rules.md#deal-over-a-gap: any deal, for a deal won under the standard
    rules is won under it too).

    The player's casual game in progress, if any, ends first: lost as abandoned if it has an
    action, simply discarded if not. The player row lock serialises two creations at once.
    A fresh deal comes from the pool at once (call ``game_create_prepare`` first: it vets one
    when the pool is empty, without holding the lock).
    """
    User.objects.select_for_update().filter(pk=player.pk).first()
    deal_choice_check(player=player, seed=seed, layout=layout)
    staff_made = seed is not None or layout is not None

    source_game: Game | None = None
    if replay_of is not None:
        source_game = game_get_readable(viewer=player, game_id=replay_of)
        # Its deal must be out (games.visibility): a daily's not before its day closes, a
        # race game's not before its race ends. A casual game of one's own: at any time.
        if source_game.kind != Game.Kind.CASUAL and not deal_out(source_game):
            raise GameNotFound()
        deal = source_game.deal
    elif layout is not None:
        deal = deal_from_layout(layout=deal_layout_parse(suits=suits or 0, layout=layout))
    elif seed is not None:
        assert suits is not None
        deal = deal_from_seed(suits=suits, seed=seed)
    else:
        assert suits is not None
        deal = deal_for_new_game(suits=suits)

    discarded = _end_casual_game_in_progress(player, timezone.now())
    if source_game is not None and source_game.pk == discarded:
        source_game = None  # replaying the untouched game just discarded: no row to link
    return game_start(
        player=player,
        deal=deal,
        replay_of=source_game,
        staff_made=staff_made,
        rankable=replay_of is None,
        deal_over_gap=deal_over_gap,
    )


@transaction.atomic
def game_create_practice(*, player: User, deal: Deal) -> Game:
    """Start a casual game on ``deal``, chosen by the caller (a closed daily challenge's, see
    ``leaderboard.services.daily_practice``): it never ranks. As with ``game_create``, the
    player's casual game in progress ends first."""
    User.objects.select_for_update().filter(pk=player.pk).first()
    _end_casual_game_in_progress(player, timezone.now())
    return game_start(player=player, deal=deal, rankable=False)


def game_start(
    *,
    player: User,
    deal: Deal,
    kind: str = Game.Kind.CASUAL,
    daily_date: date | None = None,
    replay_of: Game | None = None,
    staff_made: bool = False,
    rankable: bool = True,
    deal_over_gap: bool = False,
) -> Game:
    """Create the Game row for ``deal`` (inside the caller's transaction), under the table
    rule ``deal_over_gap`` or the standard rules: fixed from here on.

    It is ranked only on a vetted deal, not staff-made, not a replay, never on a deal the
    player has seen before, never for a guest (docs/rules.md#guests), and only if the caller
    allows it (``rankable``).
    """
    staff_made = staff_made or deal.staff_made
    seen_before = replay_of is not None or Game.objects.filter(player=player, deal=deal).exists()
    game = Game(
        player=player,
        deal=deal,
        suits=deal.suits,
        kind=kind,
        daily_date=daily_date,
        replay_of=replay_of,
        staff_made=staff_made,
        deal_over_gap=deal_over_gap,
        ranked=rankable
        and deal.vetted
        and not staff_made
        and not seen_before
        and not getattr(player, "is_guest", False),
    )
    game_store(game, Board(game.layout()))
    game.save(force_insert=True)
    return game


def _end_casual_game_in_progress(player: User, now: datetime) -> UUID | None:
    """End the player's casual game in progress; returns the id of a game discarded."""
    current = (
        Game.objects.select_for_update()
        .filter(player=player, kind=Game.Kind.CASUAL, status=Game.Status.IN_PROGRESS)
        .first()
    )
    if current is None:
        return None
    if current.actions == 0:
        discarded = current.pk
        current.delete()  # no action taken: simply discarded
        return discarded
    game_finish(current, Game.Status.LOST, Game.EndReason.ABANDONED, now)
    return None
