"""Guest play (docs/rules.md#guests) through the API: a guest plays at once, its games are
unranked (no coins, no leaderboard, no ranked daily attempt), and claiming the account keeps
the token and the games."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from coins.models import CoinEntry
from games.models import Game
from leaderboard.models import DailyChallenge, LeaderboardEntry
from tests.games.api.helpers import (
    ME_URL,
    NEAR_WIN,
    act,
    new_game,
    ok,
    pooled_layout_deal,
    refused,
)

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest"
CLAIM = "/api/v1/auth/claim"
PASSWORD = "a perfectly fine passphrase"


def guest_client() -> tuple[APIClient, dict[str, Any]]:
    client = APIClient()
    body = ok(client.post(GUEST), 201)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    return client, body


def test_a_guest_is_a_player_at_once_with_a_token():
    client, body = guest_client()

    assert body["is_guest"] is True
    assert body["username"].startswith("guest-")
    me = ok(client.get(ME_URL))
    assert (me["username"], me["is_guest"]) == (body["username"], True)
    assert not User.objects.get(username=body["username"]).has_usable_password()


def test_a_guest_win_on_a_vetted_deal_is_unranked_earns_nothing_and_enters_no_board():
    client, _ = guest_client()
    pooled_layout_deal(NEAR_WIN, suits=1)
    game = new_game(client, 1)
    assert game["ranked"] is False

    won = ok(act(client, game["id"], "move", from_=1, to=0))

    assert won["status"] == "won"
    assert won["coins"]["eligible"] is False
    assert CoinEntry.objects.count() == 0
    assert LeaderboardEntry.objects.count() == 0


def test_a_guest_daily_is_not_a_ranked_attempt(clock):
    client, _ = guest_client()
    today = clock.now.astimezone(UTC).date()
    deal = pooled_layout_deal(NEAR_WIN, suits=2)
    DailyChallenge.objects.create(date=today, deal=deal, nonce="0" * 32, commitment="0" * 64)

    daily = ok(client.post("/api/v1/daily/play", {}, format="json"), 201)

    assert (daily["kind"], daily["ranked"]) == ("daily", False)


def test_claiming_keeps_the_token_and_the_games_which_stay_unranked():
    client, body = guest_client()
    pooled_layout_deal(NEAR_WIN, suits=1)
    game = new_game(client, 1)

    claimed = ok(client.post(CLAIM, {"username": "alice", "password": PASSWORD}, format="json"))

    assert claimed == {"username": "alice", "is_guest": False}
    me = ok(client.get(ME_URL))  # the same token
    assert (me["username"], me["is_guest"]) == ("alice", False)
    kept = Game.objects.get(pk=game["id"])
    assert (kept.player.username, kept.ranked) == ("alice", False)
    # The password signs in from another device: a token of its own, for the same player.
    token = ok(APIClient().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD}))
    elsewhere = APIClient(HTTP_AUTHORIZATION=f"Bearer {token['token']}")
    assert ok(elsewhere.get(ME_URL))["username"] == "alice"
    assert ok(client.get(ME_URL))["username"] == "alice"  # the guest's token still works
    pooled_layout_deal(NEAR_WIN, suits=1)
    assert new_game(client, 1)["ranked"] is True  # from now on an ordinary player


def test_a_claim_needs_a_free_name_and_a_good_password(make_user):
    make_user("alice")
    client, body = guest_client()

    refused(
        client.post(CLAIM, {"username": "ALICE", "password": PASSWORD}, format="json"),
        409,
        "username_taken",
    )
    short = client.post(CLAIM, {"username": "bob", "password": "short"}, format="json")
    assert short.status_code == 400
    assert User.objects.get(username=body["username"]).is_guest  # nothing changed


def test_only_a_guest_may_claim(player_client):
    refused(
        player_client.post(CLAIM, {"username": "bobby", "password": PASSWORD}, format="json"),
        409,
        "not_a_guest",
    )
    assert APIClient().post(CLAIM, {"username": "bobby", "password": PASSWORD}).status_code == 401


def test_guests_are_throttled_per_address_with_registration(set_throttle_rate):
    set_throttle_rate("auth", "2/min")
    client = APIClient()
    assert client.post(GUEST).status_code == 201
    assert client.post("/api/v1/auth/register", {}).status_code == 400

    assert client.post(GUEST).status_code == 429


def test_a_guest_and_its_first_deal_come_back_from_one_request():
    """A first visit in one round trip: `POST /auth/guest {suits}` answers the guest's token
    and its first game exactly as `POST /games` would (and as reading it back gives)."""
    deal = pooled_layout_deal(NEAR_WIN, suits=1)
    client = APIClient()
    body = ok(client.post(GUEST, {"suits": 1}, format="json"), 201)

    game = body["game"]
    assert body["is_guest"] is True and game["status"] == "in_progress"
    assert game["suits"] == 1 and game["ranked"] is False and game["version"] == 0
    saved = Game.objects.get(pk=game["id"])
    assert saved.deal_id == deal.pk and saved.player.username == body["username"]
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert ok(client.get(f"/api/v1/games/{game['id']}")) == game
    # Nothing hidden comes along: face-down cards only as counts, no stock order, no seed.
    assert "seed" not in game and "stock" not in game


def test_a_guest_is_made_even_when_no_deal_can_be_had():
    body = ok(APIClient().post(GUEST, {"suits": 2}, format="json"), 201)  # no 2-suit deal pooled
    assert body["game"] is None and body["token"]
    assert not Game.objects.exists()


def test_without_suits_no_game_is_dealt():
    body = ok(APIClient().post(GUEST, {}, format="json"), 201)
    assert "game" not in body and not Game.objects.exists()


@pytest.mark.parametrize(
    "body", [{"suits": 3}, {"suits": "1"}, {"suits": 2.5}, [1], {"suits": None}]
)
def test_a_bad_first_deal_is_400_and_makes_no_guest(body):
    response = APIClient().post(GUEST, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] in ("invalid", "unknown_fields", "not_an_object")
    assert not User.objects.filter(is_guest=True).exists()


def test_a_first_deal_comes_with_at_most_each_guest_made(set_throttle_rate):
    """Bounded by the `auth` rate (per client address): one deal per guest made."""
    set_throttle_rate("auth", "2/min")
    set_throttle_rate("pool", "1/min")  # a new guest has taken no deal yet
    client = APIClient()
    assert client.post(GUEST, {"suits": 2}, format="json").status_code == 201
    assert client.post(GUEST, {"suits": 2}, format="json").status_code == 201
    assert client.post(GUEST, {"suits": 2}, format="json").status_code == 429
