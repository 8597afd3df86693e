import pytest
from django.urls import reverse

from tests.conftest import token_of

pytestmark = pytest.mark.django_db

URL = reverse("accounts:me")


def test_me_shows_the_callers_profile(auth_client, make_user):
    user = make_user("alice", is_staff=True)

    response = auth_client(user).get(URL)

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "alice"
    assert body["is_staff"] is True
    assert body["date_joined"].startswith(user.date_joined.strftime("%Y-%m-%dT%H:%M"))


def test_no_token_is_401_not_authenticated(api_client):
    response = api_client.get(URL)

    assert response.status_code == 401
    assert response.json() == {
        "code": "not_authenticated",
        "detail": "Authentication credentials were not provided.",
    }
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.parametrize(
    "header",
    [
        "Bearer 0123456789abcdef0123456789abcdef01234567",  # well-formed, unknown
        "Bearer",  # no token
        "Bearer two words",
    ],
)
def test_a_bad_token_is_401_invalid_token(api_client, user, header):
    api_client.credentials(HTTP_AUTHORIZATION=header)

    response = api_client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_the_token_of_an_inactive_user_is_401(auth_client, make_user):
    user = make_user(is_active=False)

    response = auth_client(user).get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_another_scheme_is_not_authenticated(api_client, user):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token_of(user)}")

    response = api_client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
