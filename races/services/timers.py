"""The race timers: the countdown, the time limit, the RACE_RECONNECT_SECONDS a racer has to
come back. Each deadline is a column (``Race.starts_at``, ``Race.ends_at``, the game's last
action, ``Presence.seen_at``) checked under the table lock, by every write at the table
(``run_due``) and by the sweep (``races_tick``: beat, and every stream process): a sweep
lost or late ends a race exactly as an on-time one would."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.engine import load
from games.presenters import iso
from races import presenters
from races.events import EventKind, event_emit
from races.models import Presence, Race, Racer, Table
from races.services.endings import race_finish, race_settle, racer_out
from races.services.lookups import RUNNING


def run_due(table: Table, race: Race, now: datetime) -> None:
    """Whatever is due at ``now`` for this race (the table lock is held)."""
    if race.status == Race.Status.COUNTDOWN and now >= race.starts_at:
        race.status = Race.Status.RACING
        race.save(update_fields=["status"])
        table.status = Table.Status.RACING
        table.save(update_fields=["status"])
        data = {"race": race.number, "started_at": iso(race.starts_at)}
        event_emit(table=table, kind=EventKind.STARTED, data=data, now=now)
    if race.status == Race.Status.RACING and race.ends_at is not None and now >= race.ends_at:
        _finish_on_time(table, race)


def _finish_on_time(table: Table, race: Race) -> None:
    """The clock ran out: most runs removed wins, then most cards turned, then fewest
    actions; racers equal on all three share a draw. (No action is taken after ends_at, so
    the state now is the state at ends_at, whenever this runs.)"""
    racing = list(race.racers.filter(state=Racer.State.RACING).select_related("game", "player"))
    assert race.ends_at is not None

    def rank(r: Racer) -> tuple[int, int, int]:
        c = presenters.counts(load(r.game.snapshot), r)
        return (c["runs_removed"], c["turned"], -c["actions"])

    best = max((rank(r) for r in racing), default=None)
    top = [r for r in racing if rank(r) == best]
    if len(top) == 1:
        race_finish(table, race, race.ends_at, winners=top, reason=Race.EndReason.TIME)
    else:
        race_finish(table, race, race.ends_at, draw=top, reason=Race.EndReason.TIME)


def table_tick(*, table_id: int, now: datetime | None = None) -> None:
    """Everything due at one table: the cards turning over, the time limit, racers gone for
    too long. Idempotent: every check is against the rows, under the table lock."""
    now = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        race = Race.objects.filter(table=table).order_by("-number").first()
        if race is None or race.status not in RUNNING:
            return
        run_due(table, race, now)
        if race.status != Race.Status.RACING:
            return
        for racer in _gone(race, now):
            if race.status != Race.Status.RACING:
                break
            racer.refresh_from_db(fields=["state"])
            if racer.state == Racer.State.RACING:
                racer_out(table, race, racer, Racer.OutReason.GONE, now)


def _gone(race: Race, now: datetime) -> list[Racer]:
    """Racers with neither an open stream nor an action for RACE_RECONNECT_SECONDS."""
    cutoff = now - timedelta(seconds=settings.RACE_RECONNECT_SECONDS)
    if race.starts_at > cutoff:
        return []
    candidates = list(
        race.racers.filter(state=Racer.State.RACING)
        .filter(Q(game__last_action_at__isnull=True) | Q(game__last_action_at__lt=cutoff))
        .select_related("player")
    )
    presences = {
        p.player_id: p
        for p in Presence.objects.filter(
            table_id=race.table_id, player_id__in=[r.player_id for r in candidates]
        )
    }
    gone = []
    for racer in candidates:
        p = presences.get(racer.player_id)
        if p is not None and (presenters.connected(p, now) or p.seen_at >= cutoff):
            continue
        gone.append(racer)
    return gone


def races_tick(*, now: datetime | None = None) -> int:
    """The sweep (Celery beat, and every stream process once a second): runs every timer
    that is due, and closes the games of finished races. Returns the tables looked at.
    The queries find only what is due, so an idle sweep costs three index reads."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.RACE_RECONNECT_SECONDS)
    due = set(
        Race.objects.filter(
            Q(status=Race.Status.COUNTDOWN, starts_at__lte=now)
            | Q(status=Race.Status.RACING, ends_at__lte=now)
        ).values_list("table_id", flat=True)
    )
    seen = Presence.objects.filter(
        table_id=OuterRef("race__table_id"), player_id=OuterRef("player_id"), seen_at__gte=cutoff
    )
    due.update(
        Racer.objects.filter(
            state=Racer.State.RACING,
            race__status=Race.Status.RACING,
            race__starts_at__lte=cutoff,
        )
        .filter(Q(game__last_action_at__isnull=True) | Q(game__last_action_at__lt=cutoff))
        .exclude(Exists(seen))
        .values_list("race__table_id", flat=True)
    )
    for table_id in due:
        table_tick(table_id=table_id, now=now)
    for race_id in Race.objects.filter(status=Race.Status.FINISHED, settled=False).values_list(
        "pk", flat=True
    ):
        race_settle(race_id=race_id)
    return len(due)
