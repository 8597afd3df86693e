"""Does a game's stored state agree with its log? The check behind ``manage.py verify_games``
and the admin's "Verify replay" action: replay the log from the deal through the engine and
compare with the snapshot, the version and the counters."""

from __future__ import annotations

from games.engine import EngineError, dump, replay
from games.models import Action, Game


def replay_problem(game: Game) -> str | None:
    """None if the game is consistent, else one sentence saying what is wrong."""
    log = list(Action.objects.filter(game=game).order_by("seq"))
    if [a.seq for a in log] != list(range(1, len(log) + 1)):
        return "its log has gaps"
    if game.version != len(log):
        return f"version {game.version} but {len(log)} log entries"
    try:
        board = replay(game.layout(), [a.engine_action() for a in log])
    except EngineError as exc:
        return f"its log does not replay: {exc.code}: {exc.detail}"
    if dump(board) != game.snapshot:
        return "its snapshot differs from the replay of its log"
    counters = (board.actions, board.undos, board.hints, board.runs_removed, board.score)
    stored = (game.actions, game.undos, game.hints, game.runs_removed, game.score)
    if counters != stored:
        return f"counters {stored} but the replay gives {counters}"
    if board.won != (game.status == Game.Status.WON):
        return f"status {game.status} but the replay {'is' if board.won else 'is not'} won"
    return None
