"""The daily challenges' task vets a deal itself when the pool is empty, even where a request
may not (vetting on a request off in production): a worker's time is its own."""

from __future__ import annotations

import pytest

from games import pool
from leaderboard.models import DailyChallenge
from leaderboard.tasks import create_daily_challenges
from tests.games.conftest import QUICK_SEEDS

pytestmark = pytest.mark.django_db


def test_the_daily_task_vets_with_request_vetting_off(settings, monkeypatch) -> None:
    settings.POOL_SYNC_VET_SECONDS = 0  # production's default
    settings.POOL_AUTOFILL = False
    monkeypatch.setattr(pool, "random_seeds", lambda: iter(QUICK_SEEDS[2]))

    days = create_daily_challenges()

    assert len(days) == 2 and DailyChallenge.objects.count() == 2
