"""The only code that changes games, by what it does. Each public function is one
transaction (or, for a sweep, one per batch).

- ``creating``: a casual game (a new deal, a replay, staff's choice), a practice game, and
  the Game row of any kind (``game_start``, which the daily challenge and the races call).
- ``playing``: a player's move, deal or undo (``game_act``, the hot path) and resignation.
- ``hints``: the n-th best suggestion for the player's position, cached.
- ``endings``: how a game ends (result, statistics, signals, a win's coins), a game its
  kind's owner ends (``game_conclude``), the games of an account being deleted.
- ``expiry``: the games the clock ends: the daily close, the idle sweep.
- ``analyses``: the post-game analyses: asked for, read, run, queued.
- ``lookups``: what the others share about a game's row (locked, its day closed, the board
  stored back).

Writes to one game are serialised by a row lock (``SELECT ... FOR UPDATE``) on the Game,
then checked against the rules by the engine, then written as the new snapshot plus one
``Action`` row in the same transaction: the snapshot and the log cannot disagree.
"""

from games.services.analyses import (
    ANALYSE_TASK,
    analysis_ask,
    analysis_compute,
    analysis_fail,
    analysis_read,
    analysis_request,
    analysis_run,
)
from games.services.creating import (
    game_create,
    game_create_practice,
    game_create_prepare,
    game_start,
)
from games.services.endings import game_conclude, games_end_for_player
from games.services.expiry import game_close_day, games_close_past_days, games_expire_idle
from games.services.hints import HintResult, game_hint
from games.services.playing import ActionRequest, ActResult, game_act, game_resign

__all__ = [
    "ANALYSE_TASK",
    "ActResult",
    "ActionRequest",
    "HintResult",
    "analysis_ask",
    "analysis_compute",
    "analysis_fail",
    "analysis_read",
    "analysis_request",
    "analysis_run",
    "game_act",
    "game_close_day",
    "game_conclude",
    "game_create",
    "game_create_practice",
    "game_create_prepare",
    "game_hint",
    "game_resign",
    "game_start",
    "games_close_past_days",
    "games_end_for_player",
    "games_expire_idle",
]
