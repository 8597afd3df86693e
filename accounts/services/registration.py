"""Becoming a player: registering (a name, a password, a first sign-in), a guest made up on
a first visit (with its first game dealt, in one request), a guest choosing its name, and a
guest claimed as an ordinary account."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.errors import NotAGuest, UsernameTaken
from accounts.models import User
from accounts.services.deletion import TOMBSTONE_PREFIX
from accounts.services.passwords import password_check
from accounts.services.tokens import IssuedToken, device_token_issue
from games.deals import deal_for_new_game
from games.models import Game
from games.pool import PoolEmpty
from games.services import game_create_prepare, game_start


@transaction.atomic
def user_register(
    *,
    username: str,
    password: str,
    email: str = "",
    device: str | None = None,
    user_agent: str = "",
) -> IssuedToken:
    """Create a user and a device token for them.

    Raises UsernameTaken if the name exists in any case, and ValidationError if the username
    is malformed or the password fails AUTH_PASSWORD_VALIDATORS.
    """
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken()
    user = User(username=username, email=email)
    password_check(password, user)
    user.set_password(password)
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # registered by a concurrent request since the check above
        raise UsernameTaken() from None
    return device_token_issue(user=user, device=device, user_agent=user_agent)


GUEST_PREFIX = "guest-"


@transaction.atomic
def user_guest_create(*, user_agent: str = "") -> IssuedToken:
    """A guest (docs/rules.md#guests): a player with a made-up name, no password and a device
    token, so a first visit plays at once. Its games are never ranked (see ``game_start``)."""
    for _ in range(3):  # 40 random bits: a clash is a freak, but never a 500
        user = User(username=GUEST_PREFIX + secrets.token_hex(5), is_guest=True)
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            continue
        return device_token_issue(user=user, device=None, user_agent=user_agent)
    raise UsernameTaken()


@transaction.atomic
def user_claim(*, user: User, username: str, password: str, token: Any = None) -> User:
    """Turn guest ``user`` into an ordinary account named ``username``: the token in use
    (``token``) and the games carry on (they stay unranked, as they were played). Raises
    NotAGuest, UsernameTaken, or ValidationError as ``user_register`` does."""
    user = _guest_renamed(user, username)
    password_check(password, user)
    user.set_password(password, keep_token=token)
    user.is_guest = False
    return _saved_under_name(user, ["username", "password", "is_guest"])


@transaction.atomic
def guest_rename(*, user: User, username: str) -> User:
    """A guest chooses the name it plays (and races) under, checked as a username is
    (``user_register``); it stays a guest, unranked, and may claim the account later under
    this name or another. Raises NotAGuest (a claimed account keeps its name), UsernameTaken,
    or ValidationError."""
    return _saved_under_name(_guest_renamed(user, username), ["username"])


def _guest_renamed(user: User, username: str) -> User:
    """The guest's row, locked, given ``username`` once it is free for it (NotAGuest,
    UsernameTaken, reserved names refused); not saved yet."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_guest:
        raise NotAGuest()
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise UsernameTaken()
    user.username = username
    return user


def _saved_under_name(user: User, fields: list[str]) -> User:
    """Validate and save a renamed guest: a concurrent request may have taken the name since
    the check (the unique index says so), which is UsernameTaken."""
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save(update_fields=fields)
    except IntegrityError:
        raise UsernameTaken() from None
    return user


@dataclass(frozen=True)
class GuestPlaying:
    issued: IssuedToken
    game: Game | None  # None: no deal to be had now (the pool empty); the client asks again


def user_guest_create_playing(*, suits: int, user_agent: str = "") -> GuestPlaying:
    """A guest with its first game of ``suits`` dealt (``game_create``, as `POST /games`
    deals it), so a first visit needs one round trip to show a table. The guest is made even
    when no deal can be had (the pool empty and none vetted in time): then no game."""
    game_create_prepare(suits=suits)  # a vetting, if any, before anything is locked
    issued = user_guest_create(user_agent=user_agent)
    try:
        # A new player: no game in progress to end, nothing to replay, no staff's choice of
        # deal (what game_create checks besides); the deal comes through the one door.
        with transaction.atomic():
            game = game_start(player=issued.token.user, deal=deal_for_new_game(suits=suits))
    except PoolEmpty:
        game = None
    return GuestPlaying(issued=issued, game=game)


def _refuse_reserved(username: str) -> None:
    # A deleted account's tombstone name (docs/rules.md#deleting-an-account) is nobody's.
    if username.lower().startswith(TOMBSTONE_PREFIX):
        raise ValidationError(
            {"username": [f"A username may not start with {TOMBSTONE_PREFIX!r}."]}
        )
