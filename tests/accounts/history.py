"""A player with a history, for the export and deletion tests: a ranked daily win (a place
on the day's board), a ranked casual win, a won race against another player, coins for all
three, and a casual game in progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from accounts.models import User
from leaderboard.services import daily_ensure
from tests.games.api.helpers import NEAR_WIN, act, new_game, ok, pooled_layout_deal
from tests.leaderboard.helpers import DAILY_PLAY, win_api
from tests.races.conftest import start_race


@dataclass
class History:
    player: User
    client: Any
    rival: User
    rival_client: Any
    daily_game: str
    casual_win: str
    race_game: str
    race_code: str
    in_progress: str


def build_history(make_user, auth_client, stock_pool, settings) -> History:
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RACE_EVENTS_REDIS_URL = ""
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0
    player, rival = make_user("alice"), make_user("bob")
    a, b = auth_client(player), auth_client(rival)

    stock_pool(2, 1)
    daily_ensure(day=timezone.now().date())
    daily = ok(a.post(DAILY_PLAY, {}, format="json"), 201)
    assert win_api(a, daily["id"])["ranked"]

    pooled_layout_deal(NEAR_WIN, suits=1)
    casual = new_game(a, 1)
    assert ok(act(a, casual["id"], "move", from_=1, to=0))["status"] == "won"

    pooled_layout_deal(NEAR_WIN, suits=1)
    table = start_race([a, b], suits=1)
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    assert ok(act(a, games["alice"], "move", from_=1, to=0))["status"] == "won"

    stock_pool(1, 1)
    running = new_game(a, 1)
    ok(act(a, running["id"], "deal"))  # an action taken: it ends, not discarded, on deletion
    return History(
        player, a, rival, b, daily["id"], casual["id"], games["alice"], table["code"], running["id"]
    )
