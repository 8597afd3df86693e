"""The account services' errors, in the API's one error shape (base.errors.DomainError)."""

from __future__ import annotations

from accounts.limits import MAX_PERSONAL_TOKENS
from base.errors import DomainError


class UsernameTaken(DomainError):
    code, detail, status = "username_taken", "That username is taken; choose another.", 409


class InvalidCredentials(DomainError):
    code, detail, status = "invalid_credentials", "Wrong username or password.", 401


class NotAGuest(DomainError):
    code, detail, status = "not_a_guest", "This account is already claimed: it has a name.", 409


class TooManyTokens(DomainError):
    code, status = "too_many_tokens", 409
    detail = f"You have {MAX_PERSONAL_TOKENS} personal access tokens: revoke one first."


class TokenNotFound(DomainError):
    code, detail, status = "not_found", "No such token of yours.", 404


class ResetLinkInvalid(DomainError):
    code, status = "reset_link_invalid", 400
    detail = "This reset link is wrong, used or expired; ask for a new one."


class WrongPassword(DomainError):
    code, detail, status = "wrong_password", "The password is wrong.", 403
