"""The daily challenge is played under the standard rules (docs/rules.md#daily-challenge):
asking for the table rule deal_over_gap there is refused, and nothing is started."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Game
from leaderboard.services import daily_ensure
from tests.leaderboard.helpers import DAILY_PLAY


@pytest.mark.django_db
def test_the_daily_refuses_deal_over_gap_and_plays_the_standard_rules(
    auth_client, user, stock_pool
):
    stock_pool(2, 1)
    daily_ensure(day=timezone.now().date())
    client = auth_client(user)

    refused = client.post(DAILY_PLAY, {"deal_over_gap": True}, format="json")
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert body["code"] == "invalid"
    assert body["errors"]["deal_over_gap"] == [
        "The daily challenge is played under the standard rules: no deal_over_gap."
    ]
    assert not Game.objects.exists()  # no attempt used

    for sent in ({}, {"deal_over_gap": False}):
        played = client.post(DAILY_PLAY, sent, format="json")
        assert played.status_code in (200, 201), played.json()
        assert played.json()["deal_over_gap"] is False
    assert Game.objects.get().deal_over_gap is False
