"""The custom user model, in place from the first migration as Django recommends."""

from typing import ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower

username_validator = RegexValidator(
    r"^[A-Za-z0-9_-]{3,30}\Z",
    "A username is 3 to 30 letters, digits, '_' or '-'.",
    code="invalid_username",
)


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        # Usernames are unique regardless of case, so logging in ignores case too.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player. Usernames are public (leaderboards, /players/{username}): URL-safe ASCII,
    unique regardless of case, so "Alice" and "alice" cannot both exist."""

    username = models.CharField(
        "username",
        max_length=30,
        unique=True,
        validators=[username_validator],
        help_text="3 to 30 letters, digits, '_' or '-'; unique regardless of case.",
        error_messages={"unique": "That username is taken."},
    )

    # A guest plays at once, without signing up (docs/rules.md#guests): unranked games, no
    # coins, no leaderboard; claiming the account (a username and password) ends it.
    is_guest = models.BooleanField(
        default=False, help_text="Plays without having signed up; games unranked."
    )

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="That username is taken.",
            )
        ]

    def __str__(self) -> str:
        return self.username
