"""The documented shapes of coin figures in responses (built as dicts by coins/presenters.py)."""

from __future__ import annotations

from rest_framework import serializers

from coins.rules import COINS_PER_SUIT, DAILY_CAP


class CoinSummarySerializer(serializers.Serializer):
    balance = serializers.IntegerField(help_text="All coins earned: the ledger's sum.")
    earned_today = serializers.IntegerField(help_text="Coins credited this UTC day.")
    left_today = serializers.IntegerField(
        help_text=f"What the daily limit ({DAILY_CAP}) still allows this UTC day."
    )
    daily_limit = serializers.IntegerField(help_text="Coins a player may earn per UTC day.")


class CoinAwardSerializer(CoinSummarySerializer):
    eligible = serializers.BooleanField(
        help_text="False when this win earns nothing: a replay, a staff-made game or an "
        "unranked daily practice."
    )
    base = serializers.IntegerField(
        help_text=f"For the win: {COINS_PER_SUIT} x the suit mode (1, 2 or 4)."
    )
    bonus = serializers.IntegerField(
        help_text="Perfect win (no undo, no hint): the base again. Never in a race."
    )
    earned = serializers.IntegerField(help_text="Credited: base + bonus - cut.")
    cut = serializers.IntegerField(help_text="What the daily limit cut: lost, not carried over.")
