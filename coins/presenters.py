"""Coin figures as plain response dicts (documented by coins/serializers.py)."""

from __future__ import annotations

from typing import Any

from coins.rules import DAILY_CAP
from coins.selectors import CoinSummary
from coins.services import CoinAward


def summary_json(summary: CoinSummary) -> dict[str, Any]:
    return {
        "balance": summary.balance,
        "earned_today": summary.earned_today,
        "left_today": summary.left_today,
        "daily_limit": DAILY_CAP,
    }


def award_json(award: CoinAward) -> dict[str, Any]:
    return {
        "eligible": award.eligible,
        "base": award.base,
        "bonus": award.bonus,
        "earned": award.earned,
        "cut": award.cut,
        "balance": award.balance,
        "earned_today": award.earned_today,
        "left_today": award.left_today,
        "daily_limit": DAILY_CAP,
    }
