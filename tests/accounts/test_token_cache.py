"""The per-process token cache (spider_api.authentication): a known token costs no query, and
any change to the token or its user is seen by the very next request."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

from spider_api import authentication

pytestmark = pytest.mark.django_db

URL = reverse("accounts:me")


def _token_lookups(client) -> tuple[int, int]:
    """(status, statements that read authtoken_token) of one GET /me."""
    with CaptureQueriesContext(connection) as captured:
        status = client.get(URL).status_code
    return status, sum("authtoken_token" in q["sql"] for q in captured.captured_queries)


def test_a_known_token_is_not_looked_up_again(auth_client, user):
    client = auth_client(user)

    assert _token_lookups(client) == (200, 1)
    assert _token_lookups(client) == (200, 0)
    assert _token_lookups(client) == (200, 0)


def test_a_deleted_token_is_refused_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).status_code == 200

    user.auth_token.delete()  # logged out, or revoked in the admin

    response = client.get(URL)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_a_replaced_token_refuses_the_old_and_accepts_the_new(auth_client, api_client, user):
    old_client = auth_client(user)
    assert old_client.get(URL).status_code == 200

    user.auth_token.delete()
    new = Token.objects.create(user=user)

    assert old_client.get(URL).status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {new.key}")
    assert api_client.get(URL).status_code == 200


def test_a_deactivated_user_is_refused_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).status_code == 200

    user.is_active = False
    user.save()

    assert client.get(URL).status_code == 401


def test_a_password_change_or_new_rights_are_seen_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).json()["is_staff"] is False

    user.set_password("another long password 2")
    user.is_staff = True
    user.save()

    status, lookups = _token_lookups(client)
    assert (status, lookups) == (200, 1)  # read again from the database
    assert client.get(URL).json()["is_staff"] is True


def test_an_entry_expires_after_the_ttl(auth_client, user, monkeypatch):
    client = auth_client(user)
    now = [1000.0]
    monkeypatch.setattr(authentication.time, "monotonic", lambda: now[0])
    assert _token_lookups(client) == (200, 1)

    now[0] += 9.9
    assert _token_lookups(client) == (200, 0)
    now[0] += 0.2  # past TOKEN_CACHE_SECONDS (10)
    assert _token_lookups(client) == (200, 1)


def test_no_cache_with_a_ttl_of_zero(auth_client, user, settings):
    settings.TOKEN_CACHE_SECONDS = 0
    client = auth_client(user)

    assert _token_lookups(client) == (200, 1)
    assert _token_lookups(client) == (200, 1)


def test_each_request_gets_its_own_user_object(auth_client, user):
    """The cached user is copied out: what one request caches on it is not another's."""
    key = user.auth_token.key
    auth = authentication.BearerTokenAuthentication()

    first, _ = auth.authenticate_credentials(key)
    second, _ = auth.authenticate_credentials(key)

    assert first == second and first is not second
    first.first_name = "changed"
    assert second.first_name != "changed"
