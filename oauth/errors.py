"""The apps API's own errors, in the API's one error shape (base.errors.DomainError)."""

from __future__ import annotations

from base.errors import DomainError


class AuthorizationRefused(DomainError):
    code, status = "invalid_authorization_request", 400
    detail = "This authorization request is not valid."
