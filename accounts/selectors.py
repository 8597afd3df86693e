"""Reads about accounts."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accounts.models import ApiToken, User
from coins.presenters import summary_json
from coins.selectors import coins_summary
from games.selectors import player_stats


@dataclass(frozen=True)
class UserProfile:
    """What `GET /api/v1/me` shows. The game service adds per-suit-mode stats here."""

    username: str
    email: str
    date_joined: datetime
    is_staff: bool
    is_guest: bool
    stats: list[dict[str, Any]]
    coins: dict[str, Any]


def user_profile(*, user: User) -> UserProfile:
    return UserProfile(
        username=user.username,
        email=user.email,
        date_joined=user.date_joined,
        is_staff=user.is_staff,
        is_guest=user.is_guest,
        stats=player_stats(player=user),
        coins=summary_json(coins_summary(player_id=user.pk)),
    )


def api_tokens_of(*, user: User, kind: str | None = None) -> list[ApiToken]:
    """The player's tokens (never their secrets), newest first; only ``kind`` if given."""
    tokens = ApiToken.objects.filter(user=user).order_by("-created", "-pk")
    if kind is not None:
        tokens = tokens.filter(kind=kind)
    return list(tokens)
