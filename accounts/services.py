"""Writes to accounts: registering a user, a guest and its claim, handing out API tokens, and
deleting an account."""

import secrets

from django.apps import apps
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import User
from games.models import IdempotentRequest
from games.services import games_end_for_player
from spider_api.account_signals import account_erasing
from spider_api.errors import DomainError


class UsernameTaken(DomainError):
    code, detail, status = "username_taken", "That username is taken; choose another.", 409


class InvalidCredentials(DomainError):
    code, detail, status = "invalid_credentials", "Wrong username or password.", 401


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """Create a user and their API token (`user.auth_token`).

    Raises UsernameTaken if the name exists in any case, and ValidationError if the username
    is malformed or the password fails AUTH_PASSWORD_VALIDATORS.
    """
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken()
    user = User(username=username)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # registered by a concurrent request since the check above
        raise UsernameTaken() from None
    Token.objects.create(user=user)
    return user


class NotAGuest(DomainError):
    code, detail, status = "not_a_guest", "This account is already claimed: it has a name.", 409


GUEST_PREFIX = "guest-"


@transaction.atomic
def user_guest_create() -> User:
    """A guest (docs/rules.md#guests): a player with a made-up name, no password and a token,
    so a first visit plays at once. Its games are never ranked (see ``game_start``)."""
    for _ in range(3):  # 40 random bits: a clash is a freak, but never a 500
        user = User(username=GUEST_PREFIX + secrets.token_hex(5), is_guest=True)
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            continue
        Token.objects.create(user=user)
        return user
    raise UsernameTaken()


@transaction.atomic
def user_claim(*, user: User, username: str, password: str) -> User:
    """Turn guest ``user`` into an ordinary account named ``username``: same token, same
    games (they stay unranked, as they were played). Raises NotAGuest, UsernameTaken, or
    ValidationError as ``user_register`` does."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_guest:
        raise NotAGuest()
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise UsernameTaken()
    user.username = username
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.is_guest = False
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "password", "is_guest"])
    except IntegrityError:  # claimed by a concurrent request since the check above
        raise UsernameTaken() from None
    return user


@transaction.atomic
def token_obtain(*, username: str, password: str) -> Token:
    """The user's API token, created on first use. Raises InvalidCredentials."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise InvalidCredentials()
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    token, _ = Token.objects.get_or_create(user=user)
    return token


def _refuse_reserved(username: str) -> None:
    # A deleted account's tombstone name (docs/rules.md#deleting-an-account) is nobody's.
    if username.lower().startswith(TOMBSTONE_PREFIX):
        raise ValidationError(
            {"username": [f"A username may not start with {TOMBSTONE_PREFIX!r}."]}
        )


class WrongPassword(DomainError):
    code, detail, status = "wrong_password", "The password is wrong.", 403


TOMBSTONE_PREFIX = "deleted-"
# Other apps' credentials of a player, deleted with the account when they are installed: the
# personal access and device tokens, OAuth2 tokens and grants (docs/rules.md#deleting-an-account).
CREDENTIAL_MODELS = (
    "accounts.ApiToken",
    "oauth2_provider.AccessToken",
    "oauth2_provider.RefreshToken",
    "oauth2_provider.Grant",
    "oauth2_provider.IDToken",
)


@transaction.atomic
def account_delete(*, user: User, password: str = "") -> str:
    """Delete ``user``'s account (docs/rules.md#deleting-an-account): confirm the password
    (a guest has none), end the games in progress, revoke every credential, erase the
    personal data and keep the results under a tombstone name, which is returned. Raises
    WrongPassword."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_guest and not user.check_password(password):
        raise WrongPassword()
    old_username = user.username
    tombstone = _free_tombstone()
    games_end_for_player(player=user)  # a race's game: the races app resigns it (a receiver)
    account_erasing.send(sender=User, user=user, old_username=old_username, tombstone=tombstone)
    Token.objects.filter(user=user).delete()
    for label in CREDENTIAL_MODELS:
        try:
            model = apps.get_model(label)
        except LookupError:  # that app is not installed
            continue
        model._default_manager.filter(user=user).delete()
    IdempotentRequest.objects.filter(player=user).delete()  # stored answers, tokens and all
    user.username = tombstone
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = user.is_guest = False
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    return tombstone


def _free_tombstone() -> str:
    while True:  # 40 random bits: a clash is a freak, and one more draw settles it
        name = TOMBSTONE_PREFIX + secrets.token_hex(5)
        if not User.objects.filter(username__iexact=name).exists():
            return name
