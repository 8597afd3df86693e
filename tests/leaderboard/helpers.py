"""Helpers shared by the leaderboard tests: play a deal's verified winning line, and build
leaderboard rows directly when only the board's order matters."""

from __future__ import annotations

import itertools
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from games import services
from games.engine import DEAL_VERSION
from games.models import Deal, Game, seed_to_db
from leaderboard.models import LeaderboardEntry

BOARD = "/api/v1/leaderboard"
DAILY = "/api/v1/daily"
DAILY_PLAY = "/api/v1/daily/play"
GAMES = "/api/v1/games"

_seeds = itertools.count(10_000_000)  # far from the quick seeds the pool uses


def daily_board(day: date) -> str:
    return f"/api/v1/daily/{day.isoformat()}/leaderboard"


def line_of(game_id: Any) -> list[dict[str, Any]]:
    """The solver's verified winning line for this game's deal."""
    line = Game.objects.select_related("deal").get(pk=game_id).deal.solver_line
    assert line, "the deal should carry a verified solver line"
    return line


def play_api(client: Any, game_id: Any, line: list[dict[str, Any]]) -> dict[str, Any]:
    """POST every action of ``line``; each must be accepted. Returns the last state."""
    body: dict[str, Any] = {}
    for n, action in enumerate(line):
        response = client.post(f"{GAMES}/{game_id}/actions", action, format="json")
        assert response.status_code == 200, (n, action, response.json())
        body = response.json()
    return body


def play_service(player: Any, game_id: Any, line: list[dict[str, Any]]) -> Game:
    """Play ``line`` through the game service (no HTTP): the same transactions, faster."""
    game = None
    for action in line:
        request = services.ActionRequest(
            type=action["type"],
            src=action.get("from"),
            dst=action.get("to"),
            count=action.get("count"),
        )
        game = services.game_act(player=player, game_id=str(game_id), action=request).game
    assert game is not None
    return game


def win_api(client: Any, game_id: Any) -> dict[str, Any]:
    body = play_api(client, game_id, line_of(game_id))
    assert body["status"] == "won", body["status"]
    return body


def bare_game(player: Any, suits: int, **fields: Any) -> Game:
    """A minimal Game row on a fresh deal (not playable: its snapshot is a stub)."""
    deal = Deal.objects.create(
        suits=suits,
        seed_db=seed_to_db(next(_seeds)),
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.DEALT,
        vetted=True,
    )
    fields.setdefault("status", Game.Status.WON)
    fields.setdefault("ranked", True)
    return Game.objects.create(player=player, deal=deal, suits=suits, snapshot={}, **fields)


def entry(
    player: Any,
    *,
    suits: int = 4,
    score: int = 1000,
    elapsed_ms: int = 60_000,
    finished_at: datetime | None = None,
    daily_date: date | None = None,
    actions: int | None = None,
) -> LeaderboardEntry:
    """A leaderboard row written directly (with its own Game row), for order and paging."""
    finished_at = finished_at or timezone.now()
    actions = actions if actions is not None else max(0, 1300 - score)
    game = bare_game(
        player,
        suits,
        score=score,
        actions=actions,
        elapsed_ms=elapsed_ms,
        finished_at=finished_at,
        kind=Game.Kind.DAILY if daily_date else Game.Kind.CASUAL,
        daily_date=daily_date,
    )
    return LeaderboardEntry.objects.create(
        game=game,
        player=player,
        username=player.username,
        suits=suits,
        score=score,
        actions=actions,
        elapsed_ms=elapsed_ms,
        finished_at=finished_at,
        perfect=False,
        daily_date=daily_date,
    )
