"""The request's player, typed: ``request.user`` is a player or AnonymousUser; a view whose
permission lets only players in (IsAuthenticated, the default) names it with ``player_of``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

if TYPE_CHECKING:
    from accounts.models import User
else:
    User = get_user_model()


def player_of(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):  # only if a view let anyone in and still asks: 401
        raise NotAuthenticated()
    return user
