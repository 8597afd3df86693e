"""Who may manage an account: its first-party sign-ins only (the web client's device tokens),
never a token handed to a script or an app (a personal access token, an OAuth token): such a
token must not mint tokens, change the password or the email (a way to take the account), or
sign the player out everywhere.

A check each account-management view calls, until the scope permission (built on
django-oauth-toolkit's TokenHasScope) says it in one place.
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request

from base.errors import DomainError


class FirstPartyOnly(DomainError):
    code, status = "first_party_only", 403
    detail = "Only a first-party sign-in (POST /auth/token) may do this, not an app's token."


def require_first_party(request: Request) -> Any:
    """The request's token, if it is a first-party sign-in; else FirstPartyOnly."""
    token = request.auth
    if not getattr(token, "is_first_party", False):
        raise FirstPartyOnly()
    return token
