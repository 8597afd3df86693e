"""Actions a player takes, as the engine, the log and the wire name them.

Inside the engine a move is a plain ``(src, dst, count)`` tuple and a deal is ``DEAL``: the
solver creates millions of them, so they stay as cheap as Python allows. ``Action`` is the
richer, self-describing form that the log stores and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from .errors import LayoutError

Move = tuple[int, int, int]
DEAL: Final[Move] = (-1, -1, 0)

ActionKind = Literal["move", "deal", "undo", "hint"]
KINDS: Final = ("move", "deal", "undo", "hint")


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game's log. Moves are stored resolved: ``src``, ``dst`` and ``count``
    are always concrete, so a replay never depends on how a destination was chosen."""

    kind: ActionKind
    src: int | None = None
    dst: int | None = None
    count: int | None = None

    @classmethod
    def move(cls, src: int, dst: int, count: int) -> Action:
        return cls("move", src, dst, count)

    @property
    def as_move(self) -> Move:
        if self.kind == "deal":
            return DEAL
        if self.kind != "move" or self.src is None or self.dst is None or self.count is None:
            raise LayoutError("bad_action", f"{self} is not a move or a deal")
        return (self.src, self.dst, self.count)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "move":
            return {"type": "move", "from": self.src, "to": self.dst, "count": self.count}
        return {"type": self.kind}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        kind = data.get("type")
        if kind == "move":
            return cls.move(int(data["from"]), int(data["to"]), int(data["count"]))
        if kind in KINDS:
            return cls(kind)
        raise LayoutError("bad_action", f"unknown action type {kind!r}")
