"""Passwords: the rules a new one must pass, a change, a reset by email (asked, mailed by a
task, confirmed), and the email address the resets go to."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from accounts.errors import ResetLinkInvalid
from accounts.models import User
from base import tokens
from base.queueing import inline, queue_task

SEND_PASSWORD_RESET_TASK = "accounts.tasks.send_password_reset"
# At most one reset email per address per this many seconds, whoever asks and from where.
PASSWORD_RESET_EMAIL_INTERVAL = 60


def password_check(password: str, user: User, field: str = "password") -> None:
    """The password rules (AUTH_PASSWORD_VALIDATORS) for ``user``: a refusal is a
    ValidationError under ``field``."""
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({field: exc.messages}) from None


@transaction.atomic
def password_change(
    *, user: User, current_password: str, new_password: str, keep: Any = None
) -> None:
    """Set a new password, checked against the current one and the password rules; every
    other token and session ends (``keep``, the token in use, stays). Raises ValidationError
    (``current_password`` wrong, ``new_password`` refused)."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.check_password(current_password):
        raise ValidationError({"current_password": ["Wrong password."]})
    password_check(new_password, user, "new_password")
    user.set_password(new_password, keep_token=keep)
    user.save(update_fields=["password"])


def user_update(*, user: User, email: str) -> User:
    """Set (or, with "", remove) the player's email, where password resets are sent. An
    address may belong to several accounts: a reset mails each of them."""
    user.email = User.objects.normalize_email(email)
    user.save(update_fields=["email"])
    return user


def password_reset_request(*, email: str) -> None:
    """Mail a reset link to each active account with ``email`` that has a password; nothing
    when there is none, and the caller is answered the same either way (no way to learn
    which addresses have accounts). At most one mail per address per minute; the mail is a
    task, so the answer takes no longer when it is sent."""
    normalized = email.strip().lower()
    key = f"password-reset:{tokens.secret_hash(normalized)}"
    if not cache.add(key, 1, PASSWORD_RESET_EMAIL_INTERVAL):
        return
    # The broker down: no mail, and the player asks again.
    queue_task(
        SEND_PASSWORD_RESET_TASK,
        (email,),
        without_broker=inline(functools.partial(password_reset_send, email=email)),
    )


def password_reset_send(*, email: str) -> None:
    """Send the reset mails (Django's PasswordResetForm: its choice of accounts, active with
    a usable password, and its tokens) with a link to the web client's reset page. The link
    is made from WEB_CLIENT_URL, never from the request's Host (which a caller chooses)."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    web = settings.WEB_CLIENT_URL.rstrip("/")
    form.save(
        domain_override=urlsplit(web).netloc,
        subject_template_name="accounts/password_reset_subject.txt",
        email_template_name="accounts/password_reset_email.txt",
        extra_email_context={
            "reset_url": f"{web}/reset",
            "timeout_minutes": str(settings.PASSWORD_RESET_TIMEOUT // 60),
        },
        from_email=settings.DEFAULT_FROM_EMAIL,
    )


@transaction.atomic
def password_reset_confirm(*, uid: str, token: str, new_password: str) -> User:
    """Set the password of the account a reset link names, if the link is good (Django's
    PasswordResetTokenGenerator: it expires after PASSWORD_RESET_TIMEOUT and once the password
    or the last sign-in changes, so it works once). Every token and session of the account
    ends. Raises ResetLinkInvalid, or ValidationError for a refused password."""
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        raise ResetLinkInvalid() from None
    if not 0 < pk < 2**63:  # no query with an id no column holds (PostgreSQL: an error)
        raise ResetLinkInvalid()
    user = User.objects.select_for_update().filter(pk=pk, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, token):
        raise ResetLinkInvalid()
    password_check(new_password, user, "new_password")
    user.set_password(new_password)
    user.save(update_fields=["password"])
    return user
