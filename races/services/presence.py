"""Who is at a table: the streams each player holds open (``Presence``), and the `gone` and
`back` events the table's log shows for a seated player.

Presence changes are debounced: a seated player's `gone` is written by ``presence_sweep``
only once they have been away for RACE_GONE_GRACE_SECONDS (a reload, a dropped connection
that comes back at once, writes nothing), and a `back` only when the log shows them away
(after a `gone`, or before it ever showed them connected). ``Presence.log_present`` is what
the log shows."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from races import presenters
from races.events import EventKind, event_emit
from races.models import Presence, Table
from races.services.lookups import seat_data, seat_number


@transaction.atomic
def presence_open(*, table_id: int, player: User, now: datetime | None = None) -> int:
    """A stream of ``player`` opened: connected (``back`` for a seated player the log shows
    away)."""
    now = now or timezone.now()
    table = Table.objects.select_for_update().get(pk=table_id)
    presence, _ = Presence.objects.get_or_create(
        table=table, player=player, defaults={"seen_at": now}
    )
    live = presenters.streaming(presence, now)
    presence.streams = (presence.streams if live else 0) + 1  # stale counts: a dead process
    presence.seen_at = now
    seat = seat_number(table, player)
    if seat is not None and not presence.log_present:
        presence.log_present = True
        event_emit(table=table, kind=EventKind.BACK, data=seat_data(seat, player), now=now)
    presence.save(update_fields=["streams", "seen_at", "log_present"])
    return presence.pk


@transaction.atomic
def presence_close(*, presence_id: int, now: datetime | None = None) -> None:
    """A stream closed. No event now: ``presence_sweep`` writes the `gone` if the player is
    still away once the grace is over."""
    now = now or timezone.now()
    presence = Presence.objects.select_related("player").filter(pk=presence_id).first()
    if presence is None:
        return
    table = Table.objects.select_for_update().get(pk=presence.table_id)
    presence = Presence.objects.select_related("player").get(pk=presence_id)
    live = presenters.streaming(presence, now)
    presence.streams = max(0, presence.streams - 1)
    presence.seen_at = now
    if live and presence.streams == 0 and seat_number(table, presence.player) is not None:
        # Seated and shown connected (a watcher who sat down holding the stream, too): the
        # log owes a `gone` if they stay away.
        presence.log_present = True
    presence.save(update_fields=["streams", "seen_at", "log_present"])


def presence_sweep(*, now: datetime | None = None) -> int:
    """Write the `gone` of every seated player the log shows connected who has been away
    for the grace (their last stream closed RACE_GONE_GRACE_SECONDS ago, or its process
    stopped refreshing it). Idempotent; each table in its own short transaction. Returns
    the `gone` events written."""
    fixed = now is not None
    now = now or timezone.now()
    grace = now - timedelta(seconds=settings.RACE_GONE_GRACE_SECONDS)
    stale = now - timedelta(seconds=settings.RACE_PRESENCE_STALE_SECONDS)
    owed = Presence.objects.filter(log_present=True).filter(
        Q(streams__lte=0, seen_at__lt=grace) | Q(streams__gt=0, seen_at__lt=stale)
    )
    written = 0
    for presence_id, table_id in owed.values_list("pk", "table_id"):
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=table_id)
            # Each event stamped when it is written: a pass over many tables takes a while,
            # and a table's events must not go back in time (a progress event written
            # meanwhile is stamped later than the pass's start).
            at = now if fixed else timezone.now()
            presence = Presence.objects.select_related("player").get(pk=presence_id)
            if not presence.log_present or presenters.connected(presence, at):
                continue  # back meanwhile, or written by another sweep
            presence.log_present = False
            presence.save(update_fields=["log_present"])
            seat = seat_number(table, presence.player)
            if seat is not None:
                data = seat_data(seat, presence.player)
                event_emit(table=table, kind=EventKind.GONE, data=data, now=at)
                written += 1
    return written


def presence_heartbeat(*, presence_ids: list[int], now: datetime | None = None) -> None:
    """The stream process says its streams are still open (a dead one stops saying it)."""
    if presence_ids:
        Presence.objects.filter(pk__in=presence_ids).update(seen_at=now or timezone.now())
