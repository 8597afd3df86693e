"""The custom user model, in place from the first migration as Django recommends, and the API
tokens that act for a user."""

from typing import Any, ClassVar

from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from base.scopes import SCOPES

NOT_CHANGED: Any = object()  # User._password_changed_keeping when the password is as it was

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

    # A new password (or none) ends every token and session of the user, whoever sets it: the
    # admin, `set_password` anywhere, a reset. The post_save handler in AccountsConfig.ready
    # acts on this mark: NOT_CHANGED, or the token to keep (None: keep none). A service that
    # changes the password in a request keeps the token of that request.
    _password_changed_keeping: Any = NOT_CHANGED

    def set_password(self, raw_password: str | None, *, keep_token: Any = None) -> None:
        super().set_password(raw_password)
        self._password_changed_keeping = keep_token

    def set_unusable_password(self) -> None:
        super().set_unusable_password()
        self._password_changed_keeping = None

    def check_password(self, raw_password: str) -> bool:
        """Django's, except that a hash upgraded at sign-in is not a new password: it must not
        sign the player out everywhere (Django's own `password_changed` agrees)."""

        def upgrade(raw: str) -> None:
            AbstractUser.set_password(self, raw)
            self._password = None
            self.save(update_fields=["password"])

        return check_password(raw_password, self.password, upgrade)

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


class ApiToken(models.Model):
    """A secret that acts for its user at the API (`Authorization: Bearer <secret>`).

    ``device`` tokens are first-party sign-ins (`POST /auth/token`, register, guest): one per
    device name, every scope, an expiry that slides with use. ``personal`` tokens (PATs) are
    made by the player for a script or an app, with the scopes and the expiry chosen then.
    Only the secret's SHA-256 is kept (base.tokens). Revoking is deleting the row.

    ``scope``, ``is_valid``, ``allow_scopes`` and ``is_expired`` read as django-oauth-toolkit's
    AccessToken does, so a permission built on DOT's ``TokenHasScope`` treats both alike.
    """

    class Kind(models.TextChoices):
        DEVICE = "device", "Device (first-party sign-in)"
        PERSONAL = "personal", "Personal access token"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name = models.CharField(max_length=64, help_text="The device's name, or the token's.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    scope = models.TextField(
        blank=True, help_text="Space-separated scopes (a personal token's); a device's: all."
    )
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(
        null=True, blank=True, help_text="Written at most once a minute per web process."
    )
    expires = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "name"],
                condition=models.Q(kind="device"),
                name="accounts_apitoken_one_per_device",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.name}"

    @property
    def is_first_party(self) -> bool:
        """The web client's (or another first-party client's) sign-in: may manage the account."""
        return self.kind == self.Kind.DEVICE

    @property
    def scopes(self) -> list[str]:
        return list(SCOPES) if self.is_first_party else self.scope.split()

    def is_expired(self) -> bool:
        return timezone.now() >= self.expires

    def allow_scopes(self, scopes: Any) -> bool:
        if not scopes or self.is_first_party:
            return True
        return set(scopes) <= set(self.scope.split())

    def is_valid(self, scopes: Any = None) -> bool:
        return not self.is_expired() and self.allow_scopes(scopes)

    def revoke(self) -> None:
        self.delete()
