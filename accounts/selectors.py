"""Reads about accounts."""

from dataclasses import dataclass
from datetime import datetime

from accounts.models import User


@dataclass(frozen=True)
class UserProfile:
    """What `GET /api/v1/me` shows. The game service adds per-suit-mode stats here."""

    username: str
    date_joined: datetime
    is_staff: bool


def user_profile(*, user: User) -> UserProfile:
    return UserProfile(username=user.username, date_joined=user.date_joined, is_staff=user.is_staff)
