"""GET/PATCH /api/v1/me/settings: a player's client settings, kept with the account."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from base import scopes
from preferences.models import PlayerSettings
from preferences.views import PlayerSettingsApi
from tests.conftest import PASSWORD, token_of

URL = "/api/v1/me/settings"
DEFAULTS = {
    "four_colours": False,
    "look": "felt",
    "one_tap": True,
    "sound": False,
    "deal_over_gap": False,
}

pytestmark = pytest.mark.django_db


def test_a_player_who_never_chose_gets_the_defaults_and_no_row_is_written(auth_client, user):
    response = auth_client(user).get(URL)

    assert response.status_code == 200
    assert response.json() == DEFAULTS
    assert not PlayerSettings.objects.exists()


def test_a_change_keeps_the_other_settings_and_is_read_back(auth_client, user):
    client = auth_client(user)

    first = client.patch(URL, {"four_colours": True, "sound": True}, format="json")
    second = client.patch(URL, {"look": "classic"}, format="json")

    assert first.status_code == 200
    assert first.json() == {**DEFAULTS, "four_colours": True, "sound": True}
    expected = {**DEFAULTS, "four_colours": True, "look": "classic", "sound": True}
    assert second.json() == expected
    assert client.get(URL).json() == expected


def test_settings_are_each_players_own(auth_client, make_user):
    alice, bob = make_user("alice"), make_user("bob")

    auth_client(alice).patch(URL, {"one_tap": False}, format="json")

    assert auth_client(alice).get(URL).json()["one_tap"] is False
    assert auth_client(bob).get(URL).json() == DEFAULTS


def test_a_guest_keeps_settings_and_claiming_the_account_keeps_them(api_client):
    made = api_client.post("/api/v1/auth/guest").json()
    guest = APIClient()
    guest.credentials(HTTP_AUTHORIZATION=f"Bearer {made['token']}")

    assert guest.patch(URL, {"four_colours": True}, format="json").status_code == 200
    claimed = guest.post(
        "/api/v1/auth/claim",
        {"username": "claimer", "password": PASSWORD},
        format="json",
    )

    assert claimed.status_code == 200
    assert guest.get(URL).json()["four_colours"] is True


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"look": "neon"}, "look", "invalid"),
        ({"four_colours": "yes"}, "four_colours", "invalid"),
        ({"sound": 1}, "sound", "invalid"),
        ({"one_tap": None}, "one_tap", "invalid"),
        ({"colour": True}, "colour", "unknown_field"),  # no such setting: refused, not dropped
        ({"sound": True, "volume": 5}, "volume", "unknown_field"),
    ],
)
def test_a_wrong_value_or_an_unknown_setting_is_400_and_changes_nothing(
    auth_client, user, body, field, code
):
    client = auth_client(user)

    response = client.patch(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == code
    assert field in response.json()["errors"]
    assert client.get(URL).json() == DEFAULTS


@pytest.mark.parametrize("body", [{}, [], "sound", 5])
def test_a_body_that_names_no_setting_is_400(auth_client, user, body):
    response = auth_client(user).patch(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_no_token_is_401(api_client):
    assert api_client.get(URL).status_code == 401
    assert api_client.patch(URL, {"sound": True}, format="json").status_code == 401


def test_reading_needs_profile_read_and_changing_profile_write():
    assert PlayerSettingsApi.required_scopes == {
        "GET": (scopes.PROFILE_READ,),
        "PATCH": (scopes.PROFILE_WRITE,),
    }


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_changes_at_once_each_keep_their_own_setting(make_user):
    """Two devices change different settings at the same moment (the first change creates
    the row): both changes stand."""
    user = make_user()
    token = token_of(user)
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def change(body: dict[str, object]) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        barrier.wait()
        try:
            answers.append(client.patch(URL, body, format="json").status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=change, args=(body,))
        for body in ({"sound": True}, {"four_colours": True})
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert answers == [200, 200]
    row = PlayerSettings.objects.get(player=user)
    assert (row.sound, row.four_colours) == (True, True)


def test_the_gamelake_end_game_is_a_setting_and_a_bad_value_changes_nothing(auth_client, user):
    client = auth_client(user)
    assert client.patch(URL, {"deal_over_gap": "yes"}, format="json").status_code == 400
    assert client.get(URL).json()["deal_over_gap"] is False
    answer = client.patch(URL, {"deal_over_gap": True}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {**DEFAULTS, "deal_over_gap": True}
    assert PlayerSettings.objects.get(player=user).deal_over_gap is True
