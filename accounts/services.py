"""Writes to accounts: registering a user, a guest and its claim, API tokens (sign-in per
device, personal access tokens, revocation), passwords (change, reset by email), the email,
and deleting an account.

Every token is an `ApiToken` row (accounts.models); revoking one deletes it, and the token cache
of this process forgets its user at once (`base.authentication.forget_user`, on the model
signals); other web processes within TOKEN_CACHE_SECONDS.
"""

from __future__ import annotations

import importlib
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from celery import current_app
from django.apps import apps
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from accounts.devices import device_label, unique_name
from accounts.models import ApiToken, User
from base import tokens
from base.account_signals import account_erasing
from base.authentication import forget_user
from base.errors import DomainError
from games.deals import deal_for_new_game
from games.models import Game, IdempotentRequest
from games.pool import PoolEmpty
from games.services import game_create_prepare, game_start, games_end_for_player

log = logging.getLogger(__name__)

# A player's sign-ins: signing in on one more device than this signs out the one used least
# recently, so no one can pile up rows by inventing device names.
MAX_DEVICE_TOKENS = 20
MAX_PERSONAL_TOKENS = 50
PERSONAL_TOKEN_MAX_DAYS = 365
DEVICE_NAME_MAX_LENGTH = 64
SEND_PASSWORD_RESET_TASK = "accounts.tasks.send_password_reset"
# At most one reset email per address per this many seconds, whoever asks and from where.
PASSWORD_RESET_EMAIL_INTERVAL = 60


class UsernameTaken(DomainError):
    code, detail, status = "username_taken", "That username is taken; choose another.", 409


class InvalidCredentials(DomainError):
    code, detail, status = "invalid_credentials", "Wrong username or password.", 401


class NotAGuest(DomainError):
    code, detail, status = "not_a_guest", "This account is already claimed: it has a name.", 409


class TooManyTokens(DomainError):
    code, status = "too_many_tokens", 409
    detail = f"You have {MAX_PERSONAL_TOKENS} personal access tokens: revoke one first."


class TokenNotFound(DomainError):
    code, detail, status = "not_found", "No such token of yours.", 404


class ResetLinkInvalid(DomainError):
    code, status = "reset_link_invalid", 400
    detail = "This reset link is wrong, used or expired; ask for a new one."


@dataclass(frozen=True)
class IssuedToken:
    """A token just made, with its secret: the only time the secret is known."""

    token: ApiToken
    secret: str


def _issue(*, user: User, kind: str, name: str, scope: str, expires: Any) -> IssuedToken:
    prefix = tokens.DEVICE_PREFIX if kind == ApiToken.Kind.DEVICE else tokens.PERSONAL_PREFIX
    secret = tokens.make_secret(prefix)
    token = ApiToken.objects.create(
        user=user,
        kind=kind,
        name=name,
        scope=scope,
        key_hash=tokens.secret_hash(secret),
        expires=expires,
    )
    return IssuedToken(token=token, secret=secret)


def device_token_expiry() -> Any:
    """A device token's expiry from now; it slides with use (base.authentication)."""
    return timezone.now() + timedelta(days=settings.FIRST_PARTY_TOKEN_DAYS)


@transaction.atomic
def device_token_issue(
    *, user: User, device: str | None = None, user_agent: str = ""
) -> IssuedToken:
    """The device's new token, replacing the one it had. Unnamed, it is named from the
    User-Agent of the sign-in ("Chrome on Android", accounts.devices), unique among the
    player's devices. The user's row is locked, so two sign-ins of one device at once leave
    one token."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    devices = ApiToken.objects.filter(user=user, kind=ApiToken.Kind.DEVICE)
    name = device or unique_name(
        device_label(user_agent), set(devices.values_list("name", flat=True))
    )
    devices.filter(name=name).delete()
    recent = (F("last_used").desc(nulls_last=True), F("created").desc())
    surplus = devices.order_by(*recent).values_list("pk", flat=True)
    stale = list(surplus[MAX_DEVICE_TOKENS - 1 :])
    if stale:
        ApiToken.objects.filter(pk__in=stale).delete()
    return _issue(
        user=user, kind=ApiToken.Kind.DEVICE, name=name, scope="", expires=device_token_expiry()
    )


def _checked_password(password: str, user: User, field: str = "password") -> None:
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({field: exc.messages}) from None


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
    _checked_password(password, user)
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
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_guest:
        raise NotAGuest()
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise UsernameTaken()
    user.username = username
    _checked_password(password, user)
    user.set_password(password, keep_token=token)
    user.is_guest = False
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "password", "is_guest"])
    except IntegrityError:  # claimed by a concurrent request since the check above
        raise UsernameTaken() from None
    return user


@transaction.atomic
def token_obtain(
    *, username: str, password: str, device: str | None = None, user_agent: str = ""
) -> IssuedToken:
    """A new first-party token for ``device`` (unnamed: named from ``user_agent``),
    replacing the one that device had. Raises InvalidCredentials."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise InvalidCredentials()
    assert isinstance(user, User)
    # The password checked must still be the password once the row is locked: a new one
    # committed meanwhile revoked every token, and this one must not outlive it.
    locked = User.objects.select_for_update().filter(pk=user.pk).values_list("password", flat=True)
    if locked.first() != user.password:
        raise InvalidCredentials()
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return device_token_issue(user=user, device=device, user_agent=user_agent)


@transaction.atomic
def personal_token_create(
    *, user: User, name: str, scopes: list[str], expires_in_days: int
) -> IssuedToken:
    """A personal access token with ``scopes`` (base.scopes.SCOPES names) for
    ``expires_in_days`` (1 to PERSONAL_TOKEN_MAX_DAYS). Raises TooManyTokens."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # the count below holds
    mine = ApiToken.objects.filter(user=user, kind=ApiToken.Kind.PERSONAL)
    if mine.count() >= MAX_PERSONAL_TOKENS:
        raise TooManyTokens()
    return _issue(
        user=user,
        kind=ApiToken.Kind.PERSONAL,
        name=name,
        scope=" ".join(sorted(set(scopes))),
        expires=timezone.now() + timedelta(days=expires_in_days),
    )


def token_delete(*, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s tokens by id. Raises TokenNotFound (another's is none)."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenNotFound()


def token_revoke(*, token: Any) -> None:
    """Sign out: revoke the token a request came with (ours, or an OAuth access token)."""
    token.revoke()


def _oauth_models() -> list[Any]:
    """django-oauth-toolkit's token models, when it is installed: refresh tokens first (each
    points at an access token), then access tokens, ID tokens and authorization codes."""
    if not apps.is_installed("oauth2_provider"):
        return []
    dot = importlib.import_module("oauth2_provider.models")
    return [
        dot.get_refresh_token_model(),
        dot.get_access_token_model(),
        dot.get_id_token_model(),
        dot.get_grant_model(),
    ]


def _sessions_end(user: User) -> int:
    """End the user's Django sessions (the admin's: the API uses none). Sessions are not
    indexed by user, so the live ones are read; only staff ever have one."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()
    return len(ended)


def revoke_tokens(user: User, keep: Any = None) -> None:
    """Revoke every token of ``user`` but ``keep`` (a token in use, or None): device and
    personal tokens, OAuth tokens when django-oauth-toolkit is installed, and end their
    Django sessions. Seen at once by this process, by the others within TOKEN_CACHE_SECONDS."""
    with transaction.atomic():
        mine = ApiToken.objects.filter(user=user)
        if isinstance(keep, ApiToken):
            mine = mine.exclude(pk=keep.pk)
        mine.delete()
        for model in _oauth_models():
            theirs = model.objects.filter(user=user)
            if isinstance(keep, model):
                theirs = theirs.exclude(pk=keep.pk)
            theirs.delete()
        _sessions_end(user)
        # Forgotten now and again at the commit: a request of this process in between could
        # still read the rows as they were.
        transaction.on_commit(lambda: forget_user(user.pk))
    forget_user(user.pk)


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
    _checked_password(new_password, user, "new_password")
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
    if not cache.add(f"password-reset:{tokens.secret_hash(normalized)}", 1, 60):
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        password_reset_send(email=email)
        return
    try:
        current_app.send_task(SEND_PASSWORD_RESET_TASK, args=(email,))
    except Exception as exc:  # the broker is down: the player asks again
        log.warning("could not queue a password reset mail: %s", exc)


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
    _checked_password(new_password, user, "new_password")
    user.set_password(new_password)
    user.save(update_fields=["password"])
    return user


def _refuse_reserved(username: str) -> None:
    # A deleted account's tombstone name (docs/rules.md#deleting-an-account) is nobody's.
    if username.lower().startswith(TOMBSTONE_PREFIX):
        raise ValidationError(
            {"username": [f"A username may not start with {TOMBSTONE_PREFIX!r}."]}
        )


class WrongPassword(DomainError):
    code, detail, status = "wrong_password", "The password is wrong.", 403


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


@transaction.atomic
def guest_rename(*, user: User, username: str) -> User:
    """A guest chooses the name it plays (and races) under, checked as a username is
    (``user_register``); it stays a guest, unranked, and may claim the account later under
    this name or another. Raises NotAGuest (a claimed account keeps its name), UsernameTaken,
    or ValidationError."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_guest:
        raise NotAGuest()
    _refuse_reserved(username)
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise UsernameTaken()
    user.username = username
    user.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save(update_fields=["username"])
    except IntegrityError:  # taken by a concurrent request since the check above
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
