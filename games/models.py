"""Deals, games, the append-only action log and per-suit-mode statistics.

Models hold data and constraints only; every write goes through games/services.py.
"""

from __future__ import annotations

import uuid
from typing import cast

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.engine import Action as EngineAction
from games.engine import Layout, deal_layout
from games.engine.actions import ActionKind

SUIT_CHOICES = [(1, "1 suit"), (2, "2 suits"), (4, "4 suits")]
_TWO_64 = 1 << 64
_TWO_63 = 1 << 63


def seed_to_db(seed: int) -> int:
    """Seeds are unsigned 64-bit; PostgreSQL's bigint is signed: store two's complement."""
    return seed - _TWO_64 if seed >= _TWO_63 else seed


def seed_from_db(value: int) -> int:
    return value + _TWO_64 if value < 0 else value


class Deal(models.Model):
    """A starting position: a (suits, seed) deal under DEAL_VERSION, or a staff layout."""

    class Source(models.TextChoices):
        POOL = "pool"  # pre-generated and vetted by the solver
        STAFF_SEED = "staff_seed"
        STAFF_LAYOUT = "staff_layout"

    class State(models.TextChoices):
        POOLED = "pooled"
        DEALT = "dealt"
        REJECTED = "rejected"

    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    seed_db = models.BigIntegerField(null=True, blank=True, db_column="seed")
    deal_version = models.PositiveSmallIntegerField()
    layout_notation = models.TextField(blank=True, default="")
    source = models.CharField(max_length=16, choices=Source.choices)
    state = models.CharField(max_length=12, choices=State.choices, default=State.DEALT)
    vetted = models.BooleanField(default=False)
    solver_line = models.JSONField(null=True, blank=True)
    par = models.PositiveIntegerField(null=True, blank=True)
    solver_nodes = models.BigIntegerField(null=True, blank=True)
    solver_ms = models.PositiveIntegerField(null=True, blank=True)
    # Positions the wider search of ``deal_improve_line`` spent on ``solver_line`` (the
    # daily challenge's par); null while it has not run.
    improved_nodes = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["suits", "seed_db", "deal_version"],
                condition=Q(seed_db__isnull=False),
                name="deal_unique_seed",
            ),
            models.CheckConstraint(
                condition=Q(seed_db__isnull=False) | ~Q(layout_notation=""),
                name="deal_has_seed_or_layout",
            ),
        ]
        indexes = [models.Index(fields=["suits", "state"], name="deal_pool_idx")]

    def __str__(self) -> str:
        return f"{self.suits}-suit deal {self.seed if self.seed is not None else 'layout'}"

    @property
    def seed(self) -> int | None:
        return None if self.seed_db is None else seed_from_db(self.seed_db)

    @seed.setter
    def seed(self, value: int | None) -> None:
        self.seed_db = None if value is None else seed_to_db(value)

    def layout(self) -> Layout:
        """The starting layout, with every card: for the server's eyes only."""
        if self.layout_notation:
            return Layout.parse(self.layout_notation)
        assert self.seed is not None
        return deal_layout(self.suits, self.seed)

    @property
    def staff_made(self) -> bool:
        return self.source in (self.Source.STAFF_SEED, self.Source.STAFF_LAYOUT)


class Game(models.Model):
    """One player's game on one deal: the snapshot of its Board plus queryable counters."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        WON = "won"
        LOST = "lost"

    class EndReason(models.TextChoices):
        WON = "won"
        RESIGNED = "resigned"
        ABANDONED = "abandoned"
        EXPIRED = "expired"
        RACE_OVER = "race_over"  # a race game the race's end closed (its result is the race's)
        RACE_WON = "race_won"  # the race won without clearing the board (last left, on time)
        DAY_CLOSED = "day_closed"  # a daily attempt still in progress when its UTC day closed

    class Kind(models.TextChoices):
        CASUAL = "casual"
        DAILY = "daily"
        RACE = "race"  # one racer's table in a race (the races app); never ranked

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.CASUAL)
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, blank=True, default="")
    # A game is ranked when it may enter a leaderboard: a vetted deal, not staff-made, not a
    # replay of a deal the player has seen.
    ranked = models.BooleanField(default=False)
    staff_made = models.BooleanField(default=False)  # a staff seed or layout: no stats, no ranking
    daily_date = models.DateField(null=True, blank=True)  # the daily challenge it is played on
    # The table rule deal_over_gap (docs/rules.md#deal-over-a-gap), fixed when it is dealt.
    deal_over_gap = models.BooleanField(default=False)

    snapshot = models.JSONField()  # games.engine.snapshot.dump(board): never sent to clients
    version = models.PositiveIntegerField(default=0)  # log entries applied
    actions = models.PositiveIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    runs_removed = models.PositiveSmallIntegerField(default=0)
    score = models.PositiveIntegerField(default=500)
    perfect = models.BooleanField(default=False)

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # the first action
    last_action_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    elapsed_ms = models.PositiveBigIntegerField(null=True, blank=True)  # set when it ends

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status="in_progress", kind="casual"),
                name="one_casual_game_in_progress",
            ),
            # One ranked attempt per player and day; one daily game in progress at a time.
            models.UniqueConstraint(
                fields=["player", "daily_date"],
                condition=Q(kind="daily", ranked=True),
                name="one_ranked_daily_attempt",
            ),
            models.UniqueConstraint(
                fields=["player", "daily_date"],
                condition=Q(kind="daily", status="in_progress"),
                name="one_daily_game_in_progress",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "status", "-created_at"], name="game_player_status_idx"),
            # The idle sweep's: games in progress by age. Not on last_action_at, which every
            # action writes: a column in an index makes each action's UPDATE write every index
            # (no HOT update); the sweep reads last_action_at from the few rows this finds.
            models.Index(
                fields=["created_at"],
                condition=Q(status="in_progress"),
                name="game_in_progress_age_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.id} ({self.suits} suits, {self.status})"

    @property
    def over(self) -> bool:
        return self.status != self.Status.IN_PROGRESS

    def layout(self) -> Layout:
        """The game's start, every card (for the server's eyes only): its deal under its
        table rule. What a replay of its log starts from."""
        return self.deal.layout().under_rules(deal_over_gap=self.deal_over_gap)


class Action(models.Model):
    """The append-only log: entry ``seq`` (1-based) took the game from version seq-1 to seq."""

    class Kind(models.TextChoices):
        MOVE = "move"
        DEAL = "deal"
        UNDO = "undo"
        HINT = "hint"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices)
    src = models.PositiveSmallIntegerField(null=True, blank=True)
    dst = models.PositiveSmallIntegerField(null=True, blank=True)
    # A move: cards moved. A hint: which alternative was asked for (n).
    count = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq")]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"

    def engine_action(self) -> EngineAction:
        """This entry as the engine's action, to replay the log (the kinds are the engine's)."""
        return EngineAction(cast(ActionKind, self.kind), self.src, self.dst, self.count)


class PlayerStats(models.Model):
    """Per player and suit mode, updated in the transaction that ends each game."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats"
    )
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    current_win_streak = models.PositiveIntegerField(default=0)
    best_win_streak = models.PositiveIntegerField(default=0)
    current_loss_streak = models.PositiveIntegerField(default=0)
    worst_loss_streak = models.PositiveIntegerField(default=0)
    fastest_win_ms = models.PositiveBigIntegerField(null=True, blank=True)
    fewest_actions_win = models.PositiveIntegerField(null=True, blank=True)
    best_score = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "suits"], name="stats_unique_mode")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.suits}-suit stats"

    @property
    def win_rate(self) -> float:
        return round(self.wins / self.played, 4) if self.played else 0.0


class IdempotentRequest(models.Model):
    """A POST answered under an ``Idempotency-Key``: a retry gets this stored answer."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="idempotency_unique_key")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]  # pruning

    def __str__(self) -> str:
        return f"{self.player_id} {self.key}"


class Analysis(models.Model):
    """The post-game analysis of one finished game (docs/rules.md#after-the-game-the-analysis):
    at most one per game, ever; written by games/services.py, computed by a worker."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    # Who asked first (their quota paid for it); null once that account is gone.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=200, blank=True, default="")  # why it failed
    result = models.JSONField(null=True, blank=True)  # games.solver.analysis's dict
    nodes = models.BigIntegerField(default=0)  # solver positions spent
    seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # a worker took it
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The quotas' counts: pending ones overall, and one player's recent ones.
            models.Index(
                fields=["created_at"], condition=Q(status="pending"), name="analysis_pending_idx"
            ),
            models.Index(fields=["requested_by", "created_at"], name="analysis_player_idx"),
        ]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"
