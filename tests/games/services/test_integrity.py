"""manage.py verify_games and the admin check: a game's log rebuilds its stored state."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.integrity import replay_problem
from games.models import Action, Game
from tests.games.api.helpers import act, new_game, ok

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(stock_pool, player_client):
    stock_pool(1, 1)
    game = new_game(player_client, 1)
    ok(act(player_client, game["id"], "deal"))
    ok(act(player_client, game["id"], "undo"))
    ok(act(player_client, game["id"], "deal"))
    return Game.objects.get(pk=game["id"])


def test_an_honest_game_replays_exactly(played, capsys):
    assert replay_problem(played) is None
    call_command("verify_games")
    assert "checked 1 games: 0 inconsistent" in capsys.readouterr().out


@pytest.mark.parametrize(
    "tamper, problem",
    [
        (lambda g: Game.objects.filter(pk=g.pk).update(score=900), "counters"),
        (lambda g: Game.objects.filter(pk=g.pk).update(version=2), "version 2"),
        (lambda g: Action.objects.filter(game=g, seq=2).delete(), "gaps"),
        (lambda g: Action.objects.filter(game=g, seq=2).update(kind="deal"), "snapshot"),
        (lambda g: Game.objects.filter(pk=g.pk).update(status="won"), "status"),
    ],
    ids=["score", "version", "gap", "log-edited", "status"],
)
def test_a_tampered_game_is_reported(played, tamper, problem, capsys):
    tamper(played)
    played.refresh_from_db()

    assert problem in replay_problem(played)
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "1 inconsistent" in capsys.readouterr().out
