"""A guest chooses its name (`POST /me/name`): checked as a username is, unique in any letter
case, clear JSON errors; it stays a guest, its statistics are on its player page, and it may
claim the account under that name later."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db
URL = "/api/v1/me/name"


@pytest.fixture
def guest() -> APIClient:
    client = APIClient()
    body = client.post("/api/v1/auth/guest").json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    return client


def test_a_guest_chooses_a_name_and_stays_a_guest(guest):
    response = guest.post(URL, {"username": "Night_Owl-7"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json() == {"username": "Night_Owl-7", "is_guest": True}
    me = guest.get("/api/v1/me").json()
    assert me["username"] == "Night_Owl-7" and me["is_guest"] is True
    # The statistics: its player page, as anyone's.
    player = APIClient().get("/api/v1/players/Night_Owl-7")
    assert player.status_code == 200 and player.json()["username"] == "Night_Owl-7"
    # Again, another name: the old one is free.
    assert guest.post(URL, {"username": "owl"}, format="json").status_code == 200
    assert not User.objects.filter(username="Night_Owl-7").exists()
    # Claimed under the chosen name, the guest is an ordinary player.
    claimed = guest.post(
        "/api/v1/auth/claim",
        {"username": "owl", "password": "a perfectly fine passphrase"},
        format="json",
    )
    assert claimed.json() == {"username": "owl", "is_guest": False}


def test_a_name_taken_in_any_case_is_409(guest, make_user):
    make_user("alice")
    response = guest.post(URL, {"username": "ALICE"}, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "code": "username_taken",
        "detail": "That username is taken; choose another.",
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"username": "ab"}, "Ensure this field has at least 3 characters."),
        ({"username": "x" * 31}, "Ensure this field has no more than 30 characters."),
        ({"username": "two words"}, "A username is 3 to 30 letters, digits, '_' or '-'."),
        ({"username": "émile"}, "A username is 3 to 30 letters, digits, '_' or '-'."),
        ({"username": "deleted-abc"}, "A username may not start with 'deleted-'."),
        ({}, "This field is required."),
        ({"username": 7}, "Not a valid string."),
    ],
)
def test_a_bad_name_is_400_with_the_field(guest, body, message):
    response = guest.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert message in response.json()["errors"]["username"]
    assert response.json()["detail"].startswith("Invalid input: username: ")


def test_a_claimed_account_keeps_its_name(auth_client, user):
    response = auth_client(user).post(URL, {"username": "newname"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "not_a_guest"
    user.refresh_from_db()
    assert user.username != "newname"


def test_an_apps_token_may_not_rename(user):
    from accounts.services import personal_token_create
    from base.scopes import SCOPES

    pat = personal_token_create(user=user, name="t", scopes=list(SCOPES), expires_in_days=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {pat.secret}")
    response = client.post(URL, {"username": "other"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "first_party_only"


def test_signed_out_is_401():
    assert APIClient().post(URL, {"username": "someone"}, format="json").status_code == 401
