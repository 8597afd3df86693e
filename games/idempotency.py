"""``Idempotency-Key`` for POSTs: a retried request is answered from the first result and
applied once.

Keys are scoped to the player. The player's row is locked while a keyed request runs, so
two copies of one request arriving together are answered one after the other: the second
finds the first's stored answer. Only successful (2xx) answers are stored, in the same
transaction as the change they describe; a refused request leaves no trace and may be
retried. The same key with a different body is refused with 422 ``idempotency_key_reused``.

Answers are kept for IDEMPOTENCY_WINDOW_SECONDS (24 h by default): past it a key is forgotten
(the same key is a new request), and ``idempotent_requests_prune`` (a beat task) deletes them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from base.errors import DomainError
from games.errors import CommittedRefusal, IdempotencyKeyReused
from games.models import IdempotentRequest

if TYPE_CHECKING:
    from accounts.models import User


HEADER: Final = "Idempotency-Key"
MAX_KEY_LENGTH: Final = 255

Answer = tuple[int, dict[str, Any]]


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path} {canonical}".encode()).hexdigest()


def run_idempotent(
    *,
    player: User,
    key: str | None,
    request_fingerprint: Callable[[], str],
    produce: Callable[[], Answer],
) -> tuple[Answer, bool]:
    """Run ``produce`` once per (player, key); returns (answer, replayed). The request's
    fingerprint is computed only when there is a key to check it against."""
    if key is None:
        return produce(), False
    if not key or len(key) > MAX_KEY_LENGTH:
        raise DomainError(
            "bad_idempotency_key", f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters.", 400
        )
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=player.pk).first()
        stored = IdempotentRequest.objects.filter(player=player, key=key).first()
        if stored is not None and stored.created_at < _window_start(timezone.now()):
            stored.delete()  # past the window: forgotten, so this is a new request
            stored = None
        this_request = request_fingerprint()
        if stored is not None:
            if stored.fingerprint != this_request:
                raise IdempotencyKeyReused()
            return (stored.status, stored.body), True
        try:
            status, body = produce()
        except CommittedRefusal as exc:  # its change commits with this transaction; not kept
            return (exc.status, exc.as_dict()), False
        if 200 <= status < 300:
            IdempotentRequest.objects.create(
                player=player, key=key, fingerprint=this_request, status=status, body=body
            )
        return (status, body), False


def _window_start(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.IDEMPOTENCY_WINDOW_SECONDS)


def idempotent_requests_prune(*, now: datetime | None = None, batch: int = 5000) -> int:
    """Delete the stored answers older than the window, in short batches (each its own
    statement, so live requests are never held up for long). Safe to run twice or from two
    workers at once. Returns how many were deleted."""
    cutoff = _window_start(now or timezone.now())
    deleted = 0
    while True:
        ids = list(
            IdempotentRequest.objects.filter(created_at__lt=cutoff).values_list("pk", flat=True)[
                :batch
            ]
        )
        if not ids:
            return deleted
        deleted += IdempotentRequest.objects.filter(pk__in=ids).delete()[0]
