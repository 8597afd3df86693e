"""games.signals: features above the games app (the leaderboard, coins, races) hear of a
game's end inside the transaction that ends it, without the games app importing them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Action, Game
from games.services import ActionRequest
from games.signals import game_finished, game_won
from leaderboard.models import LeaderboardEntry
from tests.games.api.helpers import NEAR_WIN, pooled_layout_deal

pytestmark = pytest.mark.django_db

WINNING_MOVE = ActionRequest("move", 1, 0)  # the As onto the run above it: every card is gone


@pytest.fixture
def heard() -> Iterator[list[tuple[str, Any]]]:
    """Connect a receiver to both signals, as a feature would; record what it saw."""
    calls: list[tuple[str, Any]] = []

    def on_won(*, sender: Any, game: Game, **kwargs: Any) -> None:
        saved = Game.objects.get(pk=game.pk)  # the row already holds the result
        calls.append(("won", (sender, saved.status, connection.in_atomic_block)))

    def on_finished(*, sender: Any, game: Game, **kwargs: Any) -> None:
        saved = Game.objects.get(pk=game.pk)
        calls.append(("finished", (saved.status, saved.end_reason, connection.in_atomic_block)))

    game_won.connect(on_won, dispatch_uid="test.on_won")
    game_finished.connect(on_finished, dispatch_uid="test.on_finished")
    yield calls
    game_won.disconnect(dispatch_uid="test.on_won")
    game_finished.disconnect(dispatch_uid="test.on_finished")


def _near_win_game(player: Any) -> Game:
    pooled_layout_deal(NEAR_WIN)
    return services.game_create(player=player, suits=1)


def test_a_win_is_announced_once_inside_the_winning_transaction(player, heard):
    game = _near_win_game(player)

    services.game_act(player=player, game_id=str(game.pk), action=WINNING_MOVE)

    assert heard == [
        ("won", (Game, Game.Status.WON, True)),
        ("finished", (Game.Status.WON, Game.EndReason.WON, True)),
    ]
    # The leaderboard subscribes the same way (LeaderboardConfig.ready).
    assert LeaderboardEntry.objects.filter(game=game).count() == 1


def test_a_loss_is_announced_as_finished_only(player, heard):
    game = _near_win_game(player)

    services.game_resign(player=player, game_id=str(game.pk))

    assert heard == [("finished", (Game.Status.LOST, Game.EndReason.RESIGNED, True))]


def test_a_receiver_that_fails_rolls_the_win_back(player):
    game = _near_win_game(player)

    def refuse(**kwargs: Any) -> None:
        raise RuntimeError("the reward could not be written")

    game_won.connect(refuse, dispatch_uid="test.refuse")
    try:
        with pytest.raises(RuntimeError):
            services.game_act(player=player, game_id=str(game.pk), action=WINNING_MOVE)
    finally:
        game_won.disconnect(dispatch_uid="test.refuse")

    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.version == 0
    assert not Action.objects.filter(game=game).exists()
    assert not LeaderboardEntry.objects.exists()
