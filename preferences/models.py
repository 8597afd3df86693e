"""A player's settings for the clients: how the cards look and sound, how a tap moves, and
the table rule the client asks for when it starts a game.

Kept with the account (guests too: a guest is a player with a token), so they follow the
player to every device. A player who never changed one has no row: the defaults apply.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlayerSettings(models.Model):
    class Look(models.TextChoices):
        FELT = "felt", "Felt"  # the lit green felt of the web client
        CLASSIC = "classic", "Classic"  # flat dark-green baize, red card backs

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="client_settings"
    )
    four_colours = models.BooleanField(
        default=False,
        help_text="Four suit colours; off: spades and clubs black, hearts and diamonds red.",
    )
    look = models.CharField(max_length=16, choices=Look.choices, default=Look.FELT)
    one_tap = models.BooleanField(
        default=True, help_text="A tap on a card moves it to the best place."
    )
    sound = models.BooleanField(default=False, help_text="Short sounds for moves and wins.")
    deal_over_gap = models.BooleanField(
        default=False,
        help_text="New games under GameLake's end game, the table rule deal_over_gap.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "player settings"
        verbose_name_plural = "player settings"

    def __str__(self) -> str:
        return f"settings of player {self.player_id}"
