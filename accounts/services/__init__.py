"""Writes to accounts, by what they do. Each public function is one transaction.

- ``registration``: registering, a guest (with its first game dealt), a guest's name, a
  guest claimed as an account.
- ``tokens``: a device's sign-in, personal access tokens, one token revoked, and every
  token of a player revoked at once (``revoke_tokens``).
- ``passwords``: the password rules, a change, a reset by email, the email itself.
- ``deletion``: deleting an account (its results kept under a tombstone name).

Their errors are accounts.errors; the limits they hold a player to, accounts.limits.
"""

from accounts.services.deletion import account_delete
from accounts.services.passwords import (
    SEND_PASSWORD_RESET_TASK,
    password_change,
    password_reset_confirm,
    password_reset_request,
    password_reset_send,
    user_update,
)
from accounts.services.registration import (
    GuestPlaying,
    guest_rename,
    user_claim,
    user_guest_create,
    user_guest_create_playing,
    user_register,
)
from accounts.services.tokens import (
    IssuedToken,
    device_token_issue,
    personal_token_create,
    revoke_tokens,
    token_delete,
    token_obtain,
    token_revoke,
)

__all__ = [
    "SEND_PASSWORD_RESET_TASK",
    "GuestPlaying",
    "IssuedToken",
    "account_delete",
    "device_token_issue",
    "guest_rename",
    "password_change",
    "password_reset_confirm",
    "password_reset_request",
    "password_reset_send",
    "personal_token_create",
    "revoke_tokens",
    "token_delete",
    "token_obtain",
    "token_revoke",
    "user_claim",
    "user_guest_create",
    "user_guest_create_playing",
    "user_register",
    "user_update",
]
