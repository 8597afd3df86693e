"""The game service's errors, in the API's one error shape (base.errors.DomainError)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from base.errors import DomainError
from games.engine import EngineError
from games.engine import errors as engine_errors
from games.presenters import game_state

if TYPE_CHECKING:
    from games.models import Game


class GameNotFound(DomainError):
    code, detail, status = "not_found", "No such game (or it is not yours).", 404


class GameOver(DomainError):
    code, detail, status = "game_over", "The game is over: no further action is possible.", 422


class CommittedRefusal(DomainError):
    """A refusal whose change stands: the service committed it before refusing (an
    Idempotency-Key's wrapper answers it rather than rolling its transaction back)."""


class DayClosed(CommittedRefusal):
    """docs/rules.md#daily-challenge: an action on a daily attempt after its day closed ends
    it, lost, and is refused as any action on a finished game is."""

    code, status = "game_over", 422
    detail = (
        "The daily challenge's day has closed (00:00 UTC): this attempt ended as lost, and "
        "no further action is possible."
    )


class VersionConflict(DomainError):
    """The request's ``version`` is not the game's: answered with the game's state, as its
    player sees it (the presenter's), to decide again from."""

    code, status = "version_conflict", 409

    def __init__(self, expected: int, game: Game) -> None:
        super().__init__(
            detail=f"The game is at version {game.version}, not {expected}: "
            "refresh the state and decide again.",
            extra={"game": game_state(game)},
        )


class StaffOnly(DomainError):
    code, status = "staff_only", 403


class IdempotencyKeyReused(DomainError):
    code, status = "idempotency_key_reused", 422
    detail = "This Idempotency-Key was already used for a different request."


def rule_error(exc: EngineError, status: int = 422) -> DomainError:
    """An engine refusal as the API says it: the engine's code and sentence, unchanged."""
    return DomainError(exc.code, exc.detail, status)


# Every code the rules engine refuses an action with (games.engine.errors), as the API passes
# them on (422, `rule_error`).
RULE_CODES: tuple[str, ...] = tuple(
    value
    for name, value in vars(engine_errors).items()
    if name.isupper() and isinstance(value, str)
)
# The race rules' refusals on a race game's own endpoints (races.errors, registered through
# games.kinds: games does not import races).
RACE_RULE_CODES = ("undo_not_allowed", "race_not_started", "race_over", "not_racing")
# The codes a refused layout (staff only) is answered with: 400, `rule_error(status=400)`.
LAYOUT_CODES = ("bad_layout", "bad_card", "bad_suits")


# -- post-game analyses ------------------------------------------------------------------------
class AnalysisLimit(DomainError):
    """429: past a limit; ``Retry-After`` says when asking again may pass."""

    status = 429

    def __init__(self, detail: str, retry_after: int) -> None:
        retry_after = max(1, retry_after)
        super().__init__(
            detail=detail,
            extra={"retry_after": retry_after},
            headers={"Retry-After": str(retry_after)},
        )


class AnalysisQuota(AnalysisLimit):
    """The player's own limits: analyses waiting, or asked for in 24 hours."""

    code = "analysis_quota"


class AnalysisQueueFull(AnalysisLimit):
    """Every player's analyses waiting: the global cap."""

    code = "analysis_queue_full"


class NoAnalysis(DomainError):
    code, status = "no_analysis", 404
    detail = "Nobody has asked for this game's analysis yet: POST to ask for it."
