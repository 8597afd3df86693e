"""A client generated from the schema plays a game for real with a personal access token:
the way a third-party developer starts (docs/api.md, "Accounts and tokens"). The
generated code runs in its own process against a live server; the database says what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from accounts.services import personal_token_create
from base.scopes import GAME_PLAY, PROFILE_READ, RACE_PLAY
from games.models import Game
from races.models import Table
from tests.games.api.helpers import NEAR_WIN, pooled_layout_deal
from tests.generated_client import generate_client

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PLAY = """\
import json, os, sys

from spider_generated_client import AuthenticatedClient
from spider_generated_client.api.auth import me
from spider_generated_client.api.games import games_act, games_create, games_read
from spider_generated_client.api.races import races_open
from spider_generated_client.models import (
    ActedGameState, ActionRequest, GameCreateRequest, GameState, PlayerActionTypeEnum, SuitsEnum,
    TableOpenRequest,
)

client = AuthenticatedClient(base_url=os.environ["BASE_URL"], token=os.environ["TOKEN"])
out = {}
profile = me.sync_detailed(client=client)
out["me"] = [profile.status_code, json.loads(profile.content).get("username")]
game = games_create.sync(client=client, body=GameCreateRequest(suits=SuitsEnum.VALUE_1))
assert isinstance(game, GameState), game
acted = games_act.sync(
    game.id, client=client,
    body=ActionRequest(type_=PlayerActionTypeEnum.MOVE, from_=1, to=0, version=game.version),
)
assert isinstance(acted, ActedGameState), acted
read = games_read.sync(game.id, client=client)
assert isinstance(read, GameState), read
out["game"] = [str(game.id), read.status.value, read.version]
race = races_open.sync_detailed(client=client, body=TableOpenRequest(suits=SuitsEnum.VALUE_1))
out["race"] = [race.status_code, json.loads(race.content).get("code")]
print(json.dumps(out))
"""


def test_a_generated_client_plays_a_game_with_a_personal_access_token(
    tmp_path, live_server, make_user
):
    generate_client(tmp_path)
    (tmp_path / "play.py").write_text(PLAY)
    player = make_user("pat_player")
    token = personal_token_create(
        user=player, name="my bot", scopes=[GAME_PLAY, PROFILE_READ], expires_in_days=30
    ).secret
    pooled_layout_deal(NEAR_WIN)  # one move from a win

    run = subprocess.run(
        [sys.executable, "play.py"],
        cwd=tmp_path,
        env={**os.environ, "BASE_URL": live_server.url, "TOKEN": token},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["me"] == [200, "pat_player"]
    game_id, status, version = out["game"]
    game = Game.objects.get(pk=game_id)
    assert (game.player_id, game.status, game.actions) == (player.pk, Game.Status.WON, 1)
    assert (status, version) == ("won", 1)
    # The token was not given race:play: a race is refused for scope, and none was made.
    assert out["race"] == [403, "insufficient_scope"]
    assert not Table.objects.exists()
    personal = player.api_tokens.get(kind="personal")
    assert RACE_PLAY not in personal.scope.split() and personal.last_used is not None
