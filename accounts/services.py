"""Writes to accounts: registering a user and handing out their API token."""

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import User
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
