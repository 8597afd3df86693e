"""A client generated from the schema (openapi-python-client, as a client developer runs it)
types every public read as taking the plain `Client`, and every operation that needs a token as
taking only an `AuthenticatedClient`: mypy --strict checks a caller of each against the
generated code."""

from __future__ import annotations

import subprocess

import pytest

from tests.generated_client import BIN, PACKAGE, generate_client

pytestmark = pytest.mark.slow

PUBLIC_CALLS = """\
from datetime import date
from uuid import UUID

from spider_generated_client import AuthenticatedClient, Client
from spider_generated_client.api.auth import auth_register, auth_token
from spider_generated_client.api.daily import daily_leaderboard, daily_read
from spider_generated_client.api.games import games_log, games_position, games_read
from spider_generated_client.api.leaderboard import leaderboard, leaderboard_game
from spider_generated_client.api.operations import health
from spider_generated_client.api.players import players_places, players_races, players_read
from spider_generated_client.models import SuitsEnum

anonymous = Client(base_url="http://127.0.0.1:8000")
game = UUID(int=1)
daily_read.sync(client=anonymous)
daily_leaderboard.sync(date(2026, 12, 1), client=anonymous)
games_read.sync(game, client=anonymous)
games_log.sync(game, client=anonymous)
games_position.sync(game, 0, client=anonymous)
leaderboard.sync(client=anonymous, suits=SuitsEnum.VALUE_1)
leaderboard_game.sync(game, client=anonymous)
players_read.sync("gina", client=anonymous)
players_places.sync("gina", client=anonymous)
players_races.sync("gina", client=anonymous)
health.sync_detailed(client=anonymous)
auth_register.sync_detailed
auth_token.sync_detailed
# With a token the same reads type-check too (the token adds the caller's own details).
me = AuthenticatedClient(base_url="http://127.0.0.1:8000", token="t")
players_read.sync("gina", client=me)
"""

PRIVATE_CALLS = """\
from spider_generated_client import Client
from spider_generated_client.api.auth import me
from spider_generated_client.api.games import games_list

anonymous = Client(base_url="http://127.0.0.1:8000")
me.sync(client=anonymous)
games_list.sync(client=anonymous)
"""


def test_public_reads_take_a_plain_client_and_the_others_a_token(tmp_path):
    generate_client(tmp_path)
    (tmp_path / "public_calls.py").write_text(PUBLIC_CALLS)
    (tmp_path / "private_calls.py").write_text(PRIVATE_CALLS)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")

    check = subprocess.run(
        [
            str(BIN / "mypy"),
            "--config-file",
            "mypy.ini",
            "--no-incremental",
            PACKAGE,
            "public_calls.py",
            "private_calls.py",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    errors = [line for line in check.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if not e.startswith("private_calls.py")], check.stdout
    refused = {int(line.split(":")[1]) for line in errors}
    assert refused == {6, 7}, check.stdout  # me and games_list need an AuthenticatedClient
