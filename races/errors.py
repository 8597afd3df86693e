"""The races service's errors, in the API's one error shape (base.errors.DomainError)."""

from __future__ import annotations

from base.errors import DomainError


class TableNotFound(DomainError):
    code, detail, status = "not_found", "No table has this invite code.", 404


class TableFull(DomainError):
    code, detail, status = "table_full", "All four seats are taken; you may watch.", 409


class AlreadySeated(DomainError):
    code, detail, status = "already_seated", "You are already seated at this table.", 409


class NotSeated(DomainError):
    code, detail, status = "not_seated", "You are not seated at this table.", 409


class NotOpener(DomainError):
    code, detail, status = "not_opener", "Only the player who opened the table may do this.", 403


class TableBusy(DomainError):
    code, status = "table_busy", 409
    detail = "A race is on at this table: wait until it is over."


class NotReady(DomainError):
    code, status = "not_ready", 409
    detail = "Start needs at least one other seated player, and every one of them ready."


class NoRace(DomainError):
    code, detail, status = "no_race", "No race is running at this table.", 409


class NotRacing(DomainError):
    code, detail, status = "not_racing", "You are not racing in this race (any more).", 409


class RaceNotStarted(DomainError):
    code, detail, status = "race_not_started", "The cards have not turned over yet.", 409


class RaceOver(DomainError):
    code, detail, status = "race_over", "The race is over: no further action is possible.", 409


class UndoNotAllowed(DomainError):
    code, detail, status = "undo_not_allowed", "There is no undo in a race.", 422


class HintsNotAllowed(DomainError):
    code, detail, status = "hints_not_allowed", "There are no hints in a race.", 422


class BadTicket(DomainError):
    code, status = "invalid_ticket", 401
    detail = "This stream ticket is unknown, used or expired: get a new one."


class TooManyStreams(DomainError):
    """A player at RACE_STREAMS_PER_PLAYER open streams opens one more (races/stream.py)."""

    code, status = "too_many_streams", 429
    detail = "You hold as many event streams open as a player may; close one first."

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            extra={"retry_after": retry_after}, headers={"Retry-After": str(retry_after)}
        )
