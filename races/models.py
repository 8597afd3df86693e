"""Race tables, their seats, races, racers, the event log, presence and stream tickets.

Models hold data and constraints only; every write goes through races/services/. The
table row is the lock every change of a table (and of its racers' games) takes, and its
``seq`` numbers the table's events.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import SUIT_CHOICES, Deal, Game


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"  # players sit, stand, get ready
        COUNTDOWN = "countdown"  # dealt; the cards turn over at the race's starts_at
        RACING = "racing"
        FINISHED = "finished"  # the last race is over: again, or new settings

    code = models.CharField(max_length=16, unique=True)  # the invite code
    opener = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    time_limit_s = models.PositiveIntegerField(null=True, blank=True)
    # The table rule every race here is dealt under (docs/rules.md#deal-over-a-gap).
    deal_over_gap = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seq = models.PositiveIntegerField(default=0)  # the last event's sequence number
    # Staff only: every race at this table is dealt this seed or layout (tests, tutorials).
    staff_seed = models.BigIntegerField(null=True, blank=True)  # two's complement, as Deal
    staff_layout = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The pruning of tables left open and unused (races.services.tables_prune).
        indexes = [models.Index(fields=["status", "created_at"], name="table_idle_idx")]

    def __str__(self) -> str:
        return f"table {self.code} ({self.status})"


class Seat(models.Model):
    """A player sitting at a table, with their match score (kept while they stay)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()  # 0..3
    ready = models.BooleanField(default=False)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_unique_player"),
        ]
        ordering = ["table", "seat"]

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.seat}"


class Race(models.Model):
    class Status(models.TextChoices):
        COUNTDOWN = "countdown"
        RACING = "racing"
        FINISHED = "finished"

    class Result(models.TextChoices):
        WON = "won"
        DRAW = "draw"

    class EndReason(models.TextChoices):
        WON = "won"  # a racer won their game
        TIME = "time"  # the time limit
        DRAW = "draw"  # every racer still racing agreed
        LAST_LEFT = "last_left"  # the others resigned or were gone too long

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="races")
    number = models.PositiveIntegerField()  # 1, 2, ... at this table
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="+")
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    time_limit_s = models.PositiveIntegerField(null=True, blank=True)
    deal_over_gap = models.BooleanField(default=False)  # the table's rule when it was dealt
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.COUNTDOWN)
    starts_at = models.DateTimeField()  # the cards turn over
    ends_at = models.DateTimeField(null=True, blank=True)  # the time limit runs out
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=4, choices=Result.choices, blank=True, default="")
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, blank=True, default="")
    # Players (ids) who have accepted the draw on offer; empty: no offer.
    draw_accepted = models.JSONField(default=list)
    settled = models.BooleanField(default=False)  # every racer's Game has been ended

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="race_unique_number"),
        ]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="race_due_idx"),
            models.Index(fields=["settled", "status"], name="race_settle_idx"),
        ]

    def __str__(self) -> str:
        return f"race {self.table_id}#{self.number} ({self.status})"


class Racer(models.Model):
    class State(models.TextChoices):
        RACING = "racing"
        OUT = "out"  # resigned or gone too long: lost, the others race on
        WON = "won"
        LOST = "lost"
        DRAW = "draw"

    class OutReason(models.TextChoices):
        RESIGNED = "resigned"
        GONE = "gone"

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="racers")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="racer")
    state = models.CharField(max_length=8, choices=State.choices, default=State.RACING)
    out_reason = models.CharField(max_length=8, choices=OutReason.choices, blank=True, default="")
    hidden_at_start = models.PositiveSmallIntegerField()  # face-down cards when dealt

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="racer_unique_player"),
        ]
        ordering = ["race", "seat"]

    def __str__(self) -> str:
        return f"{self.race_id} racer {self.seat} ({self.state})"


class Presence(models.Model):
    """Who holds a table's event stream open: ``streams`` open now, refreshed at ``seen_at``
    by the stream process's heartbeat (a crashed process's streams go stale by themselves);
    with none open, ``seen_at`` is when the last one closed."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    streams = models.IntegerField(default=0)
    seen_at = models.DateTimeField()
    # The table's log shows this seated player connected (a `back`, or connected when they
    # sat down), so a `gone` is owed once they have been away for the grace.
    log_present = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="presence_unique_player"),
        ]
        indexes = [models.Index(fields=["log_present", "seen_at"], name="presence_owed_idx")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.player_id} streams={self.streams}"


class TableEvent(models.Model):
    """One change of a table, written in the transaction that made it; ``seq`` counts from 1
    per table with no gap, so a stream can resume from any point."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    data = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


class StreamTicket(models.Model):
    """A short-lived, single-use credential for a browser's EventSource (no headers there)."""

    key = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    expires_at = models.DateTimeField(db_index=True)  # pruned once past (or used)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ticket for {self.table_id}"


class RaceStats(models.Model):
    """A player's races per suit mode: their own mode in the stats, apart from casual play."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "suits"], name="racestats_unique_mode"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.suits}-suit races"
