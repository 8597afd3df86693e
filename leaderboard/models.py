"""The daily challenge and the leaderboard entries of ranked wins."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import SUIT_CHOICES, Deal, Game


class DailyChallenge(models.Model):
    """One vetted 2-suit deal per UTC day, the same for everyone.

    ``commitment`` = SHA-256 of ``commitment_text(...)``: public from the moment the challenge
    exists; the seed and the nonce are revealed once the day has closed, so anyone can check
    that the deal was fixed in advance (see leaderboard/commitment.py).
    """

    date = models.DateField(unique=True)
    deal = models.OneToOneField(Deal, on_delete=models.PROTECT, related_name="daily")
    nonce = models.CharField(max_length=32)  # hex; secret until the day closes
    commitment = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"daily {self.date}"


class LeaderboardEntry(models.Model):
    """A ranked win, written in the transaction that wins the game; its score is the
    engine's. Denormalised so each board is one index range scan."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="leaderboard_entry")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    username = models.CharField(max_length=150)
    suits = models.PositiveSmallIntegerField(choices=SUIT_CHOICES)
    score = models.PositiveIntegerField()
    actions = models.PositiveIntegerField()
    elapsed_ms = models.PositiveBigIntegerField()
    finished_at = models.DateTimeField()
    perfect = models.BooleanField()
    hints = models.PositiveIntegerField(default=0)
    daily_date = models.DateField(null=True, blank=True)  # set when it ranks on a daily board
    # The game's table rule (docs/rules.md#leaderboards: shown on each entry, ranked together).
    deal_over_gap = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(
                "suits",
                models.F("score").desc(),
                "elapsed_ms",
                "finished_at",
                "id",
                name="lb_all_time_idx",
            ),
            models.Index("suits", "finished_at", name="lb_period_idx"),
            # The newest entry of a board (its cache marker) in one index probe.
            models.Index("suits", "id", name="lb_suits_newest_idx"),
            models.Index(
                "daily_date",
                "id",
                condition=Q(daily_date__isnull=False),
                name="lb_daily_newest_idx",
            ),
            models.Index(
                "daily_date",
                models.F("score").desc(),
                "elapsed_ms",
                "finished_at",
                "id",
                condition=Q(daily_date__isnull=False),
                name="lb_daily_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} {self.score} ({self.suits} suits)"


class DailyResult(models.Model):
    """A player's ranked daily attempt once it has ended (won, lost, or closed with its day):
    one row per player and day, written in the transaction that ends the game. What the
    streaks, the standing and the calendar read (docs/rules.md#streaks)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    won = models.BooleanField()  # won before its day closed: it ranks on the day's board
    score = models.PositiveIntegerField()
    actions = models.PositiveIntegerField()
    elapsed_ms = models.PositiveBigIntegerField()
    runs = models.PositiveSmallIntegerField()  # runs completed, for the share's picture

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "date"], name="one_daily_result_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.date} {'won' if self.won else 'lost'} {self.score}"


class DayScoreCount(models.Model):
    """How many of a day's ended ranked attempts have each (won, score): the day's standing,
    place and distribution read from a few hundred rows whatever the number of players."""

    date = models.DateField()
    won = models.BooleanField()
    score = models.PositiveIntegerField()
    players = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "won", "score"], name="day_score_count_key")
        ]

    def __str__(self) -> str:
        return f"{self.date} {'won' if self.won else 'lost'} {self.score}: {self.players}"


class DailyStreak(models.Model):
    """A player's runs of consecutive UTC days with a ranked daily attempt (``played_*``) and
    with a ranked daily win (``won_*``): the run ending on its ``*_last`` day and the longest.
    Which of them is current depends on today (``leaderboard.streaks.current``)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    played_run = models.PositiveIntegerField(default=0)
    played_last = models.DateField(null=True, blank=True)
    played_best = models.PositiveIntegerField(default=0)
    won_run = models.PositiveIntegerField(default=0)  # 0 once a later day was lost
    won_last = models.DateField(null=True, blank=True)
    won_best = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.player_id}: played {self.played_run}, won {self.won_run}"
