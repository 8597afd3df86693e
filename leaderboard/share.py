"""The spoiler-free share of a ranked daily attempt (docs/rules.md#streaks): the day, the suit
mode, won or not, time, actions, score, place or percentile, the streak and a row of marks,
one per run of the deal, filled for each run completed. No card, no move, no position."""

from __future__ import annotations

from datetime import date
from typing import Any, Final

RUNS_IN_A_DEAL: Final = 8
DONE, NOT_DONE = "🟩", "⬜"


def clock_text(ms: int) -> str:
    minutes, seconds = divmod(ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def share_text(
    *,
    day: date,
    suits: int,
    won: bool,
    elapsed_ms: int,
    actions: int,
    score: int,
    runs: int,
    standing: dict[str, Any],
    streak: int | None,
) -> str:
    """Lines of plain text: the same for anyone the player sends it to, and nothing in it
    helps to play the deal."""
    outcome = f"Won in {clock_text(elapsed_ms)}" if won else "Not won"
    place = f"Place {standing['place']} of {standing['players']}"
    if not standing["final"]:
        place += " so far"
    lines = [
        f"Spider daily {day.isoformat()} · {suits} suits",
        f"{outcome} · {actions} actions · score {score}",
        f"{place} · better than {standing['better_than_percent']}% of the day's players",
        DONE * min(runs, RUNS_IN_A_DEAL) + NOT_DONE * (RUNS_IN_A_DEAL - min(runs, RUNS_IN_A_DEAL)),
    ]
    if streak:
        lines.append(f"{streak} day{'s' if streak != 1 else ''} in a row")
    return "\n".join(lines)
