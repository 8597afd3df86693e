"""A third-party client generated from the live schema plays a whole game.

openapi-python-client (run as its CLI, as a client developer would) generates a Python client
from `/api/schema/` of a running server, with no warning; the test then registers, starts a
game from the vetted pool, asks for a hint and sends its action back as it is, runs into a
version conflict, plays the deal's winning line to the end, and reads the public log, the
leaderboard (with its ETag) and the player's page, each through the generated code only.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from games.models import Deal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PACKAGE = "spider_generated_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


def generate(schema_url: str, where: Path) -> ModuleType:
    """Generate the client package from the schema at ``schema_url``; import it."""
    schema = where / "schema.json"
    schema.write_bytes(httpx.get(schema_url, params={"format": "json"}).raise_for_status().content)
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code is used, not kept
    run = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(schema),
            "--config",
            str(config),
            "--meta",
            "none",
            "--output-path",
            str(where / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower() and "error" not in output.lower(), output
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


@pytest.fixture
def generated(live_server, tmp_path):
    client = generate(f"{live_server.url}/api/schema/", tmp_path)
    yield client
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _module(package: ModuleType, name: str) -> ModuleType:
    return importlib.import_module(f"{package.__name__}.{name}")


def test_a_generated_client_plays_a_whole_game(live_server, generated, stock_pool):
    (deal,) = stock_pool(1, 1)
    api = lambda name: _module(generated, f"api.{name}")  # noqa: E731
    models = _module(generated, "models")
    anonymous = generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    # Register: a public endpoint takes the plain client.
    registered = api("auth.auth_register").sync(
        client=anonymous,
        body=models.UserRegisterRequest(username="gina", password="correct horse battery"),
    )
    assert isinstance(registered, models.UserRegister)
    me = generated.AuthenticatedClient(
        base_url=live_server.url, token=registered.token, raise_on_unexpected_status=True
    )

    game = api("games.games_create").sync(
        client=me, body=models.GameCreateRequest(suits=models.SuitsEnum.VALUE_1)
    )
    assert isinstance(game, models.GameState)
    assert game.status == models.GameStatusEnum.IN_PROGRESS and game.deal is None
    act = api("games.games_act")

    # A hint is sent back as it is, then undone: the position is the deal's again.
    hint = api("games.games_hint").sync(game.id, client=me)
    assert isinstance(hint, models.Hint) and isinstance(hint.action, models.ActionRequest)
    played = act.sync(game.id, client=me, body=hint.action)
    assert isinstance(played, models.ActedGameState) and played.version == hint.version + 1
    undo = models.ActionRequest(type_=models.PlayerActionTypeEnum.UNDO, version=played.version)
    state = act.sync(game.id, client=me, body=undo)
    assert isinstance(state, models.ActedGameState)

    # A stale version: 409 with the current state, parsed as such.
    stale = models.ActionRequest(type_=models.PlayerActionTypeEnum.DEAL, version=0)
    conflict = act.sync(game.id, client=me, body=stale)
    assert isinstance(conflict, models.VersionConflictError)
    assert conflict.code == "version_conflict" and conflict.game.version == state.version

    # The deal's winning line, action by action, each conditional on the version.
    for step in Deal.objects.get(pk=deal.pk).solver_line:
        body = models.ActionRequest.from_dict({**step, "version": state.version})
        state = act.sync(game.id, client=me, body=body)
        assert isinstance(state, models.ActedGameState), state
    assert state.status == models.GameStatusEnum.WON
    assert state.end_reason == models.EndReasonEnum.WON and state.runs_removed == 8

    # Public reads with the plain client: the game with its seed, its log, the boards.
    finished = api("games.games_read").sync(game.id, client=anonymous)
    assert isinstance(finished, models.GameState) and finished.deal.seed == str(deal.seed)
    log = api("games.games_log").sync(game.id, client=anonymous)
    assert isinstance(log, models.GameLog)
    assert [entry.type_ for entry in log.actions[:3]] == ["hint", "move", "undo"]
    board = api("leaderboard.leaderboard").sync_detailed(
        client=anonymous, suits=models.SuitsEnum.VALUE_1
    )
    assert isinstance(board.parsed, models.Board) and board.parsed.has_next is False
    again = api("leaderboard.leaderboard").sync_detailed(
        client=anonymous, suits=models.SuitsEnum.VALUE_1, if_none_match=board.headers["ETag"]
    )
    assert again.status_code == 304
    page = api("games.games_list").sync(client=me)
    assert isinstance(page, models.GamePage) and [g.id for g in page.results] == [game.id]
    player = api("players.players_read").sync("gina", client=anonymous)
    assert isinstance(player, models.PlayerPublic)
    assert [m.wins for m in player.stats if m.suits == models.SuitsEnum.VALUE_1] == [1]
    health = api("operations.health").sync_detailed(client=anonymous)
    assert isinstance(health.parsed, models.Health)
