import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

URL = reverse("accounts:token")


def test_right_credentials_return_the_users_token(api_client, user):
    response = api_client.post(URL, {"username": user.username, "password": PASSWORD})

    assert response.status_code == 200
    assert response.json() == {"token": user.auth_token.key}
    user.refresh_from_db()
    assert user.last_login is not None


def test_the_username_is_case_insensitive(api_client, make_user):
    user = make_user("Alice")

    response = api_client.post(URL, {"username": "aLICE", "password": PASSWORD})

    assert response.json() == {"token": user.auth_token.key}


def test_a_user_without_a_token_gets_one(api_client, user):
    user.auth_token.delete()

    response = api_client.post(URL, {"username": user.username, "password": PASSWORD})

    assert response.status_code == 200
    user.refresh_from_db()
    assert response.json() == {"token": user.auth_token.key}


@pytest.mark.parametrize(
    "credentials",
    [
        {"username": "player-x", "password": PASSWORD},  # no such user
        {"username": "USER", "password": "wrong password"},  # USER: the fixture's username
    ],
)
def test_bad_credentials_are_401_invalid_credentials(api_client, user, credentials):
    credentials = {
        **credentials,
        "username": credentials["username"].replace("USER", user.username),
    }

    response = api_client.post(URL, credentials)

    assert response.status_code == 401
    assert response.json() == {
        "code": "invalid_credentials",
        "detail": "Wrong username or password.",
    }
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_an_inactive_user_gets_no_token(api_client, make_user):
    user = make_user(is_active=False)

    response = api_client.post(URL, {"username": user.username, "password": PASSWORD})

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"


def test_missing_fields_are_400(api_client):
    response = api_client.post(URL, {"username": "alice"})

    assert response.status_code == 400
    assert response.json()["errors"] == {"password": ["This field is required."]}
