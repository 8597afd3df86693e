"""The coin ledger: one append-only row per reward, and a per-day tally that serialises the cap.

This app sits below ``games`` in the layers: it imports nothing from the game service. Its
rows refer to ``games.Game`` by the model's label only (a foreign key, no Python import).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class CoinEntry(models.Model):
    """One reward, written in the transaction that wins its game: at most one per game.

    Append-only: a trigger (see the migration) refuses any UPDATE. ``base + bonus`` is what
    the win earned by the rules, ``amount`` what was credited and ``cut`` what the daily cap
    took (``amount + cut == base + bonus``). A player's balance is the sum of ``amount``.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coin_entries"
    )
    # RESTRICT: a rewarded game cannot be deleted on its own (only with its player).
    game = models.OneToOneField("games.Game", on_delete=models.RESTRICT, related_name="coin_entry")
    day = models.DateField(help_text="The UTC day of the win: the cap's day.")
    suits = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8)
    base = models.PositiveIntegerField()
    bonus = models.PositiveIntegerField()
    amount = models.PositiveIntegerField()
    cut = models.PositiveIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "coin entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(amount=F("base") + F("bonus") - F("cut")), name="coin_entry_adds_up"
            ),
        ]
        indexes = [models.Index(fields=["player", "day"], name="coin_entry_player_day_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} +{self.amount} for game {self.game_id}"

    def save(self, *args, **kwargs) -> None:
        # The ledger only grows; the database trigger is the backstop for raw updates.
        if not self._state.adding:
            raise ValueError("coin entries are append-only")
        super().save(*args, **kwargs)


class CoinDay(models.Model):
    """A player's credited coins on one UTC day: the row locked while a reward is written,
    so two wins at once cannot both pass the cap. ``verify_coins`` checks it against the
    ledger."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    earned = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "day"], name="coin_day_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.day}: {self.earned}"
