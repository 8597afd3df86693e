"""The JSON shapes of tables, races and event data, as plain dicts (serializers.py declares
the same shapes for the schema).

Nothing here shows a racer's cards while a race runs: of each racer only counts (runs
removed, cards turned face up, moves, deals). When the race is over, ``laid_open`` shows
every table, every log and the seed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.engine import Board, load
from games.models import Action, Game
from games.presenters import action_json, iso
from races.models import Presence, Race, Racer, Seat, Table


def streaming(presence: Presence | None, now: datetime) -> bool:
    """Holding the stream open, as the stream process's heartbeat last said."""
    if presence is None or presence.streams <= 0:
        return False
    return presence.seen_at >= now - timedelta(seconds=settings.RACE_PRESENCE_STALE_SECONDS)


def connected(presence: Presence | None, now: datetime) -> bool:
    """Holding the stream open, or away for less than RACE_GONE_GRACE_SECONDS since the last
    one closed (a reload is not a departure): what the table's `gone`/`back` events say."""
    if presence is None:
        return False
    if presence.streams > 0:
        return streaming(presence, now)
    return presence.seen_at >= now - timedelta(seconds=settings.RACE_GONE_GRACE_SECONDS)


def shown_connected(
    presence: Presence | None, last_action_at: datetime | None, now: datetime
) -> bool:
    """What the table shows as ``connected`` (docs/rules.md#connection): holding the stream
    open, or having acted in the last RACE_RECONNECT_SECONDS."""
    if last_action_at is not None and last_action_at >= now - timedelta(
        seconds=settings.RACE_RECONNECT_SECONDS
    ):
        return True
    return connected(presence, now)


def counts(board: Board, racer: Racer) -> dict[str, int]:
    """What the others may know of a racer's table: counts, never cards."""
    deals = board.dealt // 10
    return {
        "runs_removed": board.runs_removed,
        "turned": racer.hidden_at_start - sum(board.down),
        "moves": board.actions - deals,
        "deals": deals,
        "actions": board.actions,
        "score": board.score,
    }


def progress_json(racer: Racer, board: Board) -> dict[str, Any]:
    return {"seat": racer.seat, "player": racer.player.username, **counts(board, racer)}


def seat_json(
    seat: Seat, presence: Presence | None, now: datetime, last_action_at: datetime | None = None
) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "player": seat.player.username,
        "ready": seat.ready,
        "connected": shown_connected(presence, last_action_at, now),
        "score": {"wins": seat.wins, "draws": seat.draws},
    }


def racer_json(
    racer: Racer, game: Game, presence: Presence | None, now: datetime
) -> dict[str, Any]:
    return {
        "seat": racer.seat,
        "player": racer.player.username,
        "state": racer.state,
        "out_reason": racer.out_reason or None,
        "connected": shown_connected(presence, game.last_action_at, now),
        "game": str(game.id),
        **counts(load(game.snapshot), racer),
    }


def race_json(
    race: Race, racers: list[Racer], presences: dict[int, Presence], now: datetime
) -> dict[str, Any]:
    by_id = {r.player_id: r.player.username for r in racers}
    winners = [r.player.username for r in racers if r.state == Racer.State.WON]
    over = race.status == Race.Status.FINISHED
    return {
        "number": race.number,
        "status": race.status,
        "suits": race.suits,
        "time_limit_s": race.time_limit_s,
        "deal_over_gap": race.deal_over_gap,
        "starts_at": iso(race.starts_at),
        "ends_at": iso(race.ends_at),
        "finished_at": iso(race.finished_at),
        "result": race.result or None,
        "end_reason": race.end_reason or None,
        "winner": winners[0] if winners else None,
        "draw_offer": (
            {"accepted": [by_id[p] for p in race.draw_accepted if p in by_id]}
            if race.draw_accepted
            else None
        ),
        "racers": [racer_json(r, r.game, presences.get(r.player_id), now) for r in racers],
        # The same rule as the racers' games (games.visibility, through RacePolicy's
        # deal_secret): the deal is a shared secret until the race is over.
        "laid_open": laid_open(race, racers) if over else None,
    }


def laid_open(race: Race, racers: list[Racer]) -> dict[str, Any]:
    """Every table, every log and the seed: shown to all once the race is over."""
    deal = race.deal
    logs: dict[Any, list[dict[str, Any]]] = {r.game_id: [] for r in racers}
    for entry in Action.objects.filter(game_id__in=list(logs)).order_by("game_id", "seq"):
        logs[entry.game_id].append(action_json(entry))
    return {
        "deal": {
            "suits": deal.suits,
            "seed": str(deal.seed) if deal.seed is not None else None,
            "deal_version": deal.deal_version,
            "vetted": deal.vetted,
            "layout": deal.layout().under_rules(deal_over_gap=race.deal_over_gap).notation(),
        },
        "tables": [
            {
                "seat": r.seat,
                "player": r.player.username,
                "game": str(r.game_id),
                "position": load(r.game.snapshot).notation(),
                "log": logs[r.game_id],
            }
            for r in racers
        ],
    }


def table_json(table: Table, now: datetime) -> dict[str, Any]:
    """The whole table: the first event of every stream and the answer of GET /races/{code}."""
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("seat"))
    presences = {p.player_id: p for p in Presence.objects.filter(table=table)}
    seated = {s.player_id for s in seats}
    race = Race.objects.filter(table=table).select_related("deal").order_by("-number").first()
    race_body = None
    acted: dict[int, datetime | None] = {}  # the current race's racers' last actions
    if race is not None:
        racers = list(
            Racer.objects.filter(race=race).select_related("player", "game").order_by("seat")
        )
        race_body = race_json(race, racers, presences, now)
        acted = {r.player_id: r.game.last_action_at for r in racers}
    return {
        "code": table.code,
        "suits": table.suits,
        "time_limit_s": table.time_limit_s,
        "deal_over_gap": table.deal_over_gap,
        "opener": table.opener.username,
        "status": table.status,
        "seq": table.seq,
        "staff_deal": table.staff_seed is not None or table.staff_layout is not None,
        "seats": [
            seat_json(s, presences.get(s.player_id), now, acted.get(s.player_id)) for s in seats
        ],
        "watchers": sum(
            1 for p in presences.values() if p.player_id not in seated and connected(p, now)
        ),
        "race": race_body,
        "match": {
            "wins": {s.player.username: s.wins for s in seats},
            "draws": {s.player.username: s.draws for s in seats},
        },
    }
