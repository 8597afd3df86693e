"""The accounts API's answers as plain dicts, in the shapes its serializers describe."""

from typing import Any

from accounts.models import ApiToken
from accounts.selectors import UserProfile
from accounts.services import IssuedToken


def signed_in_json(issued: IssuedToken) -> dict[str, Any]:
    """A first-party sign-in just made: its secret (shown this once) and when it expires."""
    return {
        "token": issued.secret,
        "expires": issued.token.expires,
        "device": issued.token.name,
    }


def token_json(token: ApiToken, *, current: bool) -> dict[str, Any]:
    """One of the player's tokens, never its secret; ``current``: the request's own."""
    return {
        "id": token.pk,
        "kind": token.kind,
        "name": token.name,
        "scopes": token.scopes,
        "created": token.created,
        "last_used": token.last_used,
        "expires": token.expires,
        "current": current,
    }


def profile_json(profile: UserProfile) -> dict[str, Any]:
    return {
        "username": profile.username,
        "email": profile.email,
        "date_joined": profile.date_joined,
        "is_staff": profile.is_staff,
        "is_guest": profile.is_guest,
        "stats": profile.stats,
        "coins": profile.coins,
    }
