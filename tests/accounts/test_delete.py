"""POST /me/delete: the password confirms it; the personal data goes, the results stay under
a tombstone name and every board still reads and verifies (docs/rules.md#deleting-an-account)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from accounts.models import User
from coins.models import CoinEntry
from games.models import Game, IdempotentRequest
from leaderboard.commitment import commit
from leaderboard.models import DailyChallenge, LeaderboardEntry
from races.models import Racer, Seat, TableEvent
from tests.conftest import PASSWORD
from tests.games.api.helpers import ok, refused
from tests.leaderboard.helpers import BOARD, daily_board
from tests.races.conftest import NEAR_WIN_LAYOUT, start_race

DELETE = "/api/v1/me/delete"
pytestmark = pytest.mark.django_db


def counts(player: User) -> tuple[int, int, int, int]:
    return (
        Game.objects.filter(player=player).count(),
        LeaderboardEntry.objects.filter(player=player).count(),
        CoinEntry.objects.filter(player=player).count(),
        Racer.objects.filter(player=player).count(),
    )


def test_a_wrong_password_deletes_nothing(history):
    before = counts(history.player)
    refused(
        history.client.post(DELETE, {"password": "not it"}, format="json"), 403, "wrong_password"
    )
    refused(history.client.post(DELETE, {}, format="json"), 403, "wrong_password")
    player = User.objects.get(pk=history.player.pk)
    assert (player.username, player.is_active) == ("alice", True)
    assert counts(player) == before
    assert history.client.get("/api/v1/me").status_code == 200


def test_deleting_keeps_the_results_under_a_tombstone_and_the_boards_verifiable(
    history, api_client
):
    from preferences.models import PlayerSettings

    player = history.player
    PlayerSettings.objects.create(player=player, sound=True)
    before = counts(player)
    top = api_client.get(BOARD, {"suits": 1}).json()["results"]  # cached now: must not stay
    assert "alice" in {row["player"] for row in top}

    response = history.client.post(DELETE, {"password": PASSWORD}, format="json")

    assert response.status_code == 200, response.content
    tombstone = response.json()["username"]
    assert tombstone.startswith("deleted-") and len(tombstone) == len("deleted-") + 10
    player = User.objects.get(pk=player.pk)
    assert player.username == tombstone
    assert (player.email, player.first_name, player.last_name) == ("", "", "")
    assert not player.has_usable_password() and not player.is_active
    assert player.last_login is None

    # Every result stays, and the running game has ended.
    assert counts(player) == before
    assert not Game.objects.filter(player=player, status="in_progress").exists()
    assert Game.objects.get(pk=history.in_progress).end_reason == "resigned"

    # The boards read, under the tombstone, and nothing anywhere still names the player.
    for board in (
        api_client.get(BOARD, {"suits": 1}).json()["results"],
        api_client.get(BOARD, {"suits": 2}).json()["results"],
        api_client.get(daily_board(timezone.now().date())).json()["results"],
    ):
        names = {row["player"] for row in board}
        assert tombstone in names and "alice" not in names
    race = history.rival_client.get(f"/api/v1/races/{history.race_code}").json()
    assert "alice" not in str(race) and tombstone in str(race)
    assert not LeaderboardEntry.objects.filter(username="alice").exists()
    assert not User.objects.filter(username__iexact="alice").exists()
    events = TableEvent.objects.annotate(text=Cast("data", TextField()))
    assert not events.filter(text__contains='"alice"').exists()
    assert events.filter(text__contains=f'"{tombstone}"').exists()
    assert not Seat.objects.filter(player=player).exists()  # stood up (the race is over)
    assert not IdempotentRequest.objects.filter(player=player).exists()
    assert not PlayerSettings.objects.filter(player=player).exists()

    # Every check of the boards, the games and the ledger still passes.
    for command in ("verify_leaderboard", "verify_games", "verify_coins"):
        out = io.StringIO()
        call_command(command, stdout=out)  # raises CommandError on any problem
    challenge = DailyChallenge.objects.select_related("deal").get()
    assert challenge.commitment == commit(
        day=challenge.date,
        suits=challenge.deal.suits,
        deal_version=challenge.deal.deal_version,
        seed=challenge.deal.seed,
        nonce=challenge.nonce,
    )

    # The token is refused, the password too, and the tombstone has no page.
    refused(history.client.get("/api/v1/me"), 401, "invalid_token")
    refused(
        api_client.post(
            "/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
        ),
        401,
        "invalid_credentials",
    )
    assert api_client.get(f"/api/v1/players/{tombstone}").status_code == 404

    # The name is free again: a new alice starts with nothing of the old one's.
    again = api_client.post(
        "/api/v1/auth/register", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert again.status_code == 201
    newcomer = User.objects.get(username="alice")
    assert counts(newcomer) == (0, 0, 0, 0)
    assert api_client.get("/api/v1/players/alice").json()["coins"]["balance"] == 0


def test_a_tombstone_name_cannot_be_registered(api_client, db):
    body = {"username": "Deleted-0123456789", "password": PASSWORD}
    answer = refused(api_client.post("/api/v1/auth/register", body, format="json"), 400, "invalid")
    assert "username" in answer["errors"]


def test_a_guest_deletes_without_a_password(api_client):
    guest = api_client.post("/api/v1/auth/guest", format="json").json()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {guest['token']}")
    response = api_client.post(DELETE, {}, format="json")
    assert response.status_code == 200
    assert not User.objects.filter(username=guest["username"]).exists()
    refused(api_client.get("/api/v1/me"), 401, "invalid_token")


def test_deleting_is_throttled(user, auth_client, set_throttle_rate):
    set_throttle_rate("account_delete", "2/hour")
    client = auth_client(user)
    for _ in range(2):
        refused(client.post(DELETE, {"password": "guess"}, format="json"), 403, "wrong_password")
    body = refused(client.post(DELETE, {"password": PASSWORD}, format="json"), 429, "throttled")
    assert body["retry_after"] > 0
    assert User.objects.get(pk=user.pk).is_active


def test_deleting_mid_race_resigns_the_race(make_user, auth_client, settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RACE_EVENTS_REDIS_URL = ""
    opener, leaver = make_user(is_staff=True), make_user()
    a, b = auth_client(opener), auth_client(leaver)
    table = start_race([a, b], layout=NEAR_WIN_LAYOUT)

    tombstone = ok(b.post(DELETE, {"password": PASSWORD}, format="json"))["username"]

    racer = Racer.objects.select_related("game", "race").get(player=leaver)
    assert (racer.state, racer.out_reason, racer.game.status) == ("out", "resigned", "lost")
    assert racer.race.status == "finished"  # the last one left racing won
    assert Racer.objects.get(player=opener).state == "won"
    seen = a.get(f"/api/v1/races/{table['code']}").json()
    assert leaver.username not in str(seen) and tombstone in str(seen)
