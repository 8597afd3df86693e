"""Re-check ranked games: replay each from its deal and log through the engine and compare
with what the leaderboard says. Used by ``manage.py verify_leaderboard``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import Action as EngineAction
from games.engine import EngineError, replay
from games.models import Action
from leaderboard.models import LeaderboardEntry


@dataclass(frozen=True, slots=True)
class Mismatch:
    entry_id: int
    game_id: str
    problem: str


def log_actions(game_id: Any) -> list[EngineAction]:
    return [a.engine_action() for a in Action.objects.filter(game_id=game_id).order_by("seq")]


def verify_entries(entries: Iterator[LeaderboardEntry] | None = None) -> Iterator[Mismatch]:
    """Yield every entry whose game does not replay to a win with the entry's figures."""
    if entries is None:
        entries = LeaderboardEntry.objects.select_related("game__deal").order_by("id").iterator()
    for entry in entries:
        game = entry.game
        try:
            board = replay(game.layout(), log_actions(game.id))  # under its table rule
        except EngineError as exc:
            yield Mismatch(entry.id, str(game.id), f"log does not replay: {exc.code}: {exc.detail}")
            continue
        if not board.won:
            yield Mismatch(entry.id, str(game.id), "log does not end in a win")
            continue
        expected = (board.score, board.actions, board.perfect, board.hints)
        recorded = (entry.score, entry.actions, entry.perfect, entry.hints)
        if expected != recorded:
            yield Mismatch(
                entry.id,
                str(game.id),
                f"entry says score/actions/perfect/hints {recorded}, replay gives {expected}",
            )
        if not game.ranked or not game.deal.vetted or game.staff_made:
            yield Mismatch(entry.id, str(game.id), "game is not a ranked game on a vetted deal")
        if entry.deal_over_gap != game.deal_over_gap:
            yield Mismatch(entry.id, str(game.id), "entry's table rule is not the game's")
        if (entry.suits, entry.player_id) != (game.suits, game.player_id):
            yield Mismatch(entry.id, str(game.id), "entry's suit mode or player is not the game's")
