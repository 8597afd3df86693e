"""A player's data as NDJSON (``GET /me/export``): one JSON object per line, each with a
``type``, read in bounded chunks while the download streams (no list of every game is ever
held), and showing nothing the player may not see (games.visibility: a game in progress
keeps its face-down cards, stock order and seed to itself, as ``GET /games/{id}`` does).

The lines, in order: ``export`` (what this is), ``profile``, every ``game`` oldest first
with its whole ``log``, every ``coins`` ledger entry, then what the apps above accounts add
through ``base.account_signals.account_export`` (the leaderboard's ``leaderboard``
entries with their daily places, the races' ``race`` results, the ``settings`` if any).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, cast

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from base.account_signals import account_export
from coins.models import CoinEntry
from coins.presenters import summary_json
from coins.selectors import coins_summary
from games.models import Action, Game
from games.presenters import action_json, game_state, iso
from games.selectors import player_stats
from games.visibility import game_visibility

FORMAT = 1  # the export's shape; a change that drops or renames a field bumps it
GAMES_CHUNK = 50  # games (and their logs) read per query: with one log, the bound on memory
ROWS_CHUNK = 1000  # ledger rows per query
BYTES_CHUNK = 64 * 1024  # lines joined into one write of the download


def export_lines(*, user: User) -> Iterator[dict[str, Any]]:
    now = timezone.now()
    yield {"type": "export", "format": FORMAT, "exported_at": iso(now)}
    yield {
        "type": "profile",
        "username": user.username,
        "email": user.email or None,
        "date_joined": iso(user.date_joined),
        "last_login": iso(user.last_login),
        "is_guest": user.is_guest,
        "stats": player_stats(player=user),
        "coins": summary_json(coins_summary(player_id=user.pk, now=now)),
    }
    yield from _games(user)
    yield from _coins(user)
    for _receiver, lines in account_export.send(sender=User, user=user):
        yield from cast(Iterable[dict[str, Any]], lines)


def ndjson_chunks(lines: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """The lines as UTF-8 NDJSON, a few lines per chunk (one write each, not one per line)."""
    buffer: list[bytes] = []
    size = 0
    for line in lines:
        data = json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        buffer.append(data)
        size += len(data)
        if size >= BYTES_CHUNK:
            yield b"".join(buffer)
            buffer, size = [], 0
    if buffer:
        yield b"".join(buffer)


def _games(user: User) -> Iterator[dict[str, Any]]:
    # Keyset pages (created_at, id), not a server-side cursor: each page is a query of its
    # own, so the download holds no transaction or cursor open between writes, also behind a
    # transaction-mode pooler.
    games = Game.objects.filter(player=user).select_related("deal").order_by("created_at", "id")
    after: Game | None = None
    while True:
        page = games
        if after is not None:
            page = page.filter(
                Q(created_at__gt=after.created_at) | Q(created_at=after.created_at, id__gt=after.id)
            )
        chunk = list(page[:GAMES_CHUNK])
        if not chunk:
            return
        logs: dict[Any, list[dict[str, Any]]] = {game.id: [] for game in chunk}
        for entry in Action.objects.filter(game_id__in=logs.keys()).order_by("game_id", "seq"):
            logs[entry.game_id].append(action_json(entry))
        for game in chunk:
            yield _game_line(game, user, logs[game.id])
        after = chunk[-1]


def _game_line(game: Game, user: User, log: list[dict[str, Any]]) -> dict[str, Any]:
    seen = game_visibility(game=game, viewer=user)
    state = game_state(game)  # face-up cards only; the seed once the deal is out
    if not seen.cards:  # a race's countdown: not even its player sees a card yet
        log = []
    return {"type": "game", **state, "log": log}


def _coins(user: User) -> Iterator[dict[str, Any]]:
    last = 0
    while True:
        chunk = list(CoinEntry.objects.filter(player=user, id__gt=last).order_by("id")[:ROWS_CHUNK])
        if not chunk:
            return
        for entry in chunk:
            yield {
                "type": "coins",
                "game": str(entry.game_id),
                "day": entry.day.isoformat(),
                "suits": entry.suits,
                "kind": entry.kind,
                "base": entry.base,
                "bonus": entry.bonus,
                "cut": entry.cut,
                "amount": entry.amount,
                "at": iso(entry.created_at),
            }
        last = chunk[-1].id
