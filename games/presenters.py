"""The JSON shapes the API answers with, built as plain dicts on the hot path.

serializers.py declares the same shapes for the OpenAPI schema; a test checks that real
responses match the schema.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.engine import Action as EngineAction
from games.engine import Board, Layout, Outcome, apply_action, load, public_view
from games.models import Action, Analysis, Game
from games.visibility import before_cards_turn, deal_out


def iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def elapsed_ms(game: Game, now: datetime | None = None) -> int:
    """Server-measured time: from the first action to the end (or to now while it runs)."""
    if game.elapsed_ms is not None:
        return game.elapsed_ms
    if game.started_at is None:
        return 0
    return int(((now or timezone.now()) - game.started_at).total_seconds() * 1000)


def game_state(game: Game, board: Board | None = None) -> dict[str, Any]:
    """The authoritative state a client sees: never a face-down card, the stock order or,
    while the game runs, the seed."""
    board = board if board is not None else load(game.snapshot)
    view = public_view(board)
    if before_cards_turn(game):
        # A race's countdown (games.visibility): nobody sees a card before they all turn.
        view["columns"] = [
            {"hidden": c["hidden"] + len(c["cards"]), "cards": []} for c in view["columns"]
        ]
    state: dict[str, Any] = {
        "id": str(game.id),
        "suits": game.suits,
        "kind": game.kind,
        "status": game.status,
        "end_reason": game.end_reason or None,
        "score": view["score"],
        "actions": view["actions"],
        "version": game.version,
        "undos": view["undos"],
        "hints": view["hints"],
        "runs_removed": view["runs_removed"],
        "removed_suits": view["removed_suits"],
        "deals_left": view["deals_left"],
        "columns": view["columns"],
        "stuck": view["stuck"] and not game.over,
        "perfect": view["perfect"],
        "can_undo": view["can_undo"] and not game.over,
        "ranked": game.ranked,
        "replay_of": str(game.replay_of_id) if game.replay_of_id else None,
        "created_at": iso(game.created_at),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "elapsed_ms": elapsed_ms(game),
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "deal_over_gap": game.deal_over_gap,
        "deal": deal_info(game),
    }
    return state


def deal_info(game: Game) -> dict[str, Any] | None:
    """The deal's identity, revealed only once it is out (games.visibility): the game is
    over, and it is no daily before its day closes nor a race game before its race ends."""
    if not deal_out(game):
        return None
    deal = game.deal
    info: dict[str, Any] = {
        "suits": deal.suits,
        "seed": str(deal.seed) if deal.seed is not None else None,
        "deal_version": deal.deal_version,
        "vetted": deal.vetted,
        "layout": deal.layout_notation or None,
    }
    return info


def outcome_json(action: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    return {"action": action, **outcome.to_json()}


def action_json(entry: Action) -> dict[str, Any]:
    item: dict[str, Any] = {"seq": entry.seq, "type": entry.kind}
    if entry.kind == Action.Kind.MOVE:
        item.update({"from": entry.src, "to": entry.dst, "count": entry.count})
    elif entry.kind == Action.Kind.HINT:
        item["n"] = entry.count
    item["at"] = iso(entry.created_at)
    return item


def _chance_json(hint: Any) -> dict[str, Any] | None:
    """A hint's chance to win, where its sample supports saying it (else null)."""
    if hint is None or hint.chance is None:
        return None
    return {"wins": round(hint.chance, 3), "sample": hint.sample, "sentence": hint.chance_sentence}


def hint_json(result: Any) -> dict[str, Any]:
    return {
        # The body of POST /actions as it is, conditional on the position it was found for.
        "action": {**result.hint.action, "version": result.game.version} if result.hint else None,
        "reason": result.reason,
        "chance": _chance_json(result.hint),
        "n": result.n,
        "alternatives": result.alternatives,
        "hints": result.game.hints,
        "version": result.game.version,
    }


def game_summary(game: Game) -> dict[str, Any]:
    return {
        "id": str(game.id),
        "suits": game.suits,
        "kind": game.kind,
        "status": game.status,
        "end_reason": game.end_reason or None,
        "score": game.score,
        "actions": game.actions,
        "runs_removed": game.runs_removed,
        "perfect": game.perfect,
        "created_at": iso(game.created_at),
        "finished_at": iso(game.finished_at),
        "elapsed_ms": elapsed_ms(game),
        "deal_over_gap": game.deal_over_gap,
    }


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """A post-game analysis as the API shows it (the result only once done)."""
    return {
        "game": str(analysis.game_id),
        "status": analysis.status,
        "reason": analysis.reason,
        "requested_at": iso(analysis.created_at),
        "finished_at": iso(analysis.finished_at),
        "nodes": analysis.nodes,
        "seconds": analysis.seconds,
        "result": _analysis_result(analysis) if analysis.status == Analysis.Status.DONE else None,
    }


def _analysis_result(analysis: Analysis) -> dict[str, Any]:
    """The stored result, its solver line with the tables along it for the replay viewer
    (the client keeps no rules to replay it). An analysis exists only for a game whose deal
    is out (games.selectors.analysable_game: over, and no longer a race's or an open day's
    secret, which it stays), so these tables show nothing still hidden from anyone; face-
    down cards are counts all the same, as in the game's own replay."""
    result = dict(analysis.result or {})
    line = result.get("solver_line")
    if line:
        result["solver_line"] = {**line, "positions": line_positions(line)}
    return result


def line_positions(line: dict[str, Any]) -> list[dict[str, Any]]:
    """The public tables along a solver line: its start, then after each of its actions."""
    board = Board(Layout.parse(line["position"]))
    positions = [_line_position(board)]
    for action in line["actions"]:
        apply_action(board, EngineAction.from_json(action))
        positions.append(_line_position(board))
    return positions


def _line_position(board: Board) -> dict[str, Any]:
    view = public_view(board)
    return {k: view[k] for k in ("columns", "deals_left", "runs_removed", "removed_suits", "won")}
