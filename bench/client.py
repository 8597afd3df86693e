"""What a client sees and may do, for the HTTP benches: legal moves from a game state's
face-up cards only (never the hidden cards, which the server does not send)."""

from __future__ import annotations

import random
from typing import Any

RANKS = "A23456789TJQK"


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def tail_run(cards: list[str]) -> int:
    """How many cards at the end of ``cards`` form one same-suit descending run."""
    k = 1
    while k < len(cards):
        upper, lower = cards[-k - 1], cards[-k]
        if upper[1] != lower[1] or rank(upper) != rank(lower) + 1:
            break
        k += 1
    return k if cards else 0


def visible_moves(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal move of the state, but a whole column into an empty one (pointless)."""
    cols = [c["cards"] for c in state["columns"]]
    empty = [i for i, c in enumerate(state["columns"]) if not c["cards"] and not c["hidden"]]
    moves = []
    for src, cards in enumerate(cols):
        k = tail_run(cards)
        if not k:
            continue
        low = rank(cards[-1])
        for dst, target in enumerate(cols):
            if dst == src:
                continue
            if target:
                t = rank(target[-1])
                if low < t <= low + k:
                    moves.append({"type": "move", "from": src, "to": dst, "count": t - low})
            elif dst in empty and k < len(cards) + state["columns"][src]["hidden"]:
                moves.append({"type": "move", "from": src, "to": dst, "count": k})
    return moves


def choose(
    state: dict[str, Any], rnd: random.Random, *, undo_rate: float, undo_when_stuck: bool
) -> dict[str, Any] | None:
    """A move a casual player might make: mostly legal visible moves, some undos and deals.
    None when there is nothing to do (the caller starts a new game)."""
    if state.get("can_undo") and rnd.random() < undo_rate:
        return {"type": "undo"}
    moves = visible_moves(state)
    can_deal = state["deals_left"] > 0 and all(c["cards"] for c in state["columns"])
    if can_deal and (not moves or rnd.random() < 0.04):
        return {"type": "deal"}
    if moves:
        return rnd.choice(moves)
    return {"type": "undo"} if undo_when_stuck and state.get("can_undo") else None
