"""A race game's analysis waits for the race's end: the others play the same deal
(docs/rules.md#after-the-game-the-analysis)."""

from __future__ import annotations

import pytest

from games.models import Analysis
from tests.games.api.helpers import CARD_TOKEN, game_url, ok, refused
from tests.races.conftest import post, start_race
from tests.races.test_race_api import WIN2

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inline(settings) -> None:
    settings.ANALYSIS_IN_THREAD = False


def test_never_for_a_race_before_it_ends(racers, django_capture_on_commit_callbacks):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    mine = f"{game_url(games[alice.username])}/analysis"
    ok(post(a, code, "resign"))  # Alice's game is over, the race runs on
    body = refused(a.post(mine), 409, "race_in_progress")
    assert set(body) == {"code", "detail"} and not CARD_TOKEN.search(str(body))
    refused(c.post(mine), 404, "not_found")
    refused(c.get(mine), 404, "not_found")
    refused(b.post(f"{game_url(games[bob.username])}/analysis"), 409, "game_in_progress")
    assert Analysis.objects.count() == 0
    ok(post(b, code, "resign"))  # Carol is left alone: she wins, the race is over
    with django_capture_on_commit_callbacks(execute=True):
        ok(c.post(mine), 202)  # laid open: anyone at the table may ask
    assert ok(a.get(mine))["status"] == "done"
