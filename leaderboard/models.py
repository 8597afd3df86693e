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
