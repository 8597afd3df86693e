"""A player's apps when their account is deleted (base.account_signals)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oauth import services

if TYPE_CHECKING:
    from accounts.models import User


def erase_apps(sender: Any, user: User, **kwargs: Any) -> None:
    """The apps the player registered go with the account, and with them every code and
    token other players gave them: nobody is left answerable for an app whose owner is gone,
    so no app outlives its owner (docs/rules.md#deleting-an-account)."""
    services.apps_delete_all(user=user)
