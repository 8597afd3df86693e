"""Deleting an account (docs/rules.md#deleting-an-account): the password confirmed, the games
in progress ended, every credential revoked, the personal data erased and the results kept
under a tombstone name."""

from __future__ import annotations

import secrets

from django.db import transaction

from accounts.errors import WrongPassword
from accounts.models import User
from accounts.services.tokens import revoke_tokens
from base.account_signals import account_erasing
from games.models import IdempotentRequest
from games.services import games_end_for_player

TOMBSTONE_PREFIX = "deleted-"


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
    revoke_tokens(user)  # every kind: sign-ins, personal, apps' (and the sessions)
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
