import pytest
from django.urls import reverse

from accounts.models import ApiToken, User
from base.tokens import secret_hash

pytestmark = pytest.mark.django_db

URL = reverse("accounts:register")
PASSWORD = "a perfectly fine passphrase"


def test_register_creates_the_user_and_returns_a_working_token(api_client):
    response = api_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert response.status_code == 201
    body = response.json()
    token = ApiToken.objects.get(user__username="alice")
    assert body == {
        "username": "alice",
        "token": body["token"],
        "expires": token.expires.isoformat().replace("+00:00", "Z"),
        "device": token.name,
    }
    assert token.key_hash == secret_hash(body["token"]) and token.kind == "device"
    assert body["token"].startswith("spd_dev_") and token.name == "Unknown device"  # no User-Agent
    assert User.objects.get(username="alice").check_password(PASSWORD)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert api_client.get(reverse("accounts:me")).json()["username"] == "alice"


@pytest.mark.parametrize("taken", ["alice", "ALICE", "Alice"])
def test_a_username_taken_in_any_case_is_409(api_client, make_user, taken):
    make_user("alice")

    response = api_client.post(URL, {"username": taken, "password": PASSWORD})

    assert response.status_code == 409
    assert response.json() == {
        "code": "username_taken",
        "detail": "That username is taken; choose another.",
    }
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short", "too short"),
        ("password123", "too common"),
        ("83749201746", "entirely numeric"),
        ("Alice!!!", "too similar to the username"),
    ],
)
def test_passwords_must_pass_the_password_validators(api_client, password, message):
    response = api_client.post(URL, {"username": "alice", "password": password})

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["detail"].startswith("Invalid input: password: ")
    assert any(message in m for m in body["errors"]["password"])
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["al", "a" * 31, "alice smith", "alice@home", "élise", ""])
def test_malformed_usernames_are_400(api_client, username):
    response = api_client.post(URL, {"username": username, "password": PASSWORD})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "username" in response.json()["errors"]
    assert not User.objects.exists()


def test_missing_fields_are_listed(api_client):
    response = api_client.post(URL, {})

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "detail": "Invalid input: username: This field is required.",
        "errors": {
            "username": ["This field is required."],
            "password": ["This field is required."],
        },
    }


def test_wrong_types_are_400(api_client):
    response = api_client.post(URL, {"username": ["alice"], "password": {"x": 1}})

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"username", "password"}


def test_a_body_that_is_not_an_object_is_400(api_client):
    response = api_client.post(URL, ["alice", PASSWORD])

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "non_field_errors" in response.json()["errors"]


def test_malformed_json_is_400(api_client):
    response = api_client.post(URL, data='{"username": "alice",', content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    assert response.json()["detail"].startswith("JSON parse error")


def test_the_password_is_not_trimmed(api_client):
    api_client.post(URL, {"username": "alice", "password": f" {PASSWORD} "})

    assert User.objects.get().check_password(f" {PASSWORD} ")


def test_a_stale_token_does_not_block_registration(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-real-token")

    response = api_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert response.status_code == 201
