"""POST /auth/token: a first-party sign-in per device, with an expiry that slides with use."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.limits import MAX_DEVICE_TOKENS
from accounts.models import ApiToken
from base import authentication
from base.tokens import looks_like_a_token, secret_hash
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

URL = reverse("accounts:token")
ME = reverse("accounts:me")


def _sign_in(client, user, **extra):
    response = client.post(URL, {"username": user.username, "password": PASSWORD, **extra})
    assert response.status_code == 200, response.json()
    return response.json()


def _me(api_client, secret):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api_client.get(ME)


def test_right_credentials_return_a_new_device_token(api_client, user):
    body = _sign_in(api_client, user, device="alice-laptop")

    token = ApiToken.objects.get(key_hash=secret_hash(body["token"]))
    assert (token.user, token.kind, token.name) == (user, "device", "alice-laptop")
    assert body == {
        "token": body["token"],
        "expires": token.expires.isoformat().replace("+00:00", "Z"),
        "device": "alice-laptop",
    }
    assert body["token"].startswith("spd_dev_") and looks_like_a_token(body["token"])
    days = (token.expires - timezone.now()).total_seconds() / 86400
    assert 29.9 < days <= 30  # FIRST_PARTY_TOKEN_DAYS
    assert _me(api_client, body["token"]).status_code == 200
    user.refresh_from_db()
    assert user.last_login is not None


def test_only_the_hash_of_the_secret_is_stored(api_client, user):
    secret = _sign_in(api_client, user)["token"]

    stored = ApiToken.objects.values_list("key_hash", flat=True)
    assert secret not in " ".join(stored)
    assert secret_hash(secret) in stored


def test_signing_in_again_on_a_device_replaces_its_token(api_client, user):
    first = _sign_in(api_client, user, device="phone")["token"]
    other = _sign_in(api_client, user, device="laptop")["token"]

    second = _sign_in(api_client, user, device="phone")["token"]

    assert _me(api_client, first).status_code == 401  # replaced, refused at once
    assert _me(api_client, second).status_code == 200
    assert _me(api_client, other).status_code == 200  # another device: untouched
    names = ApiToken.objects.filter(user=user).values_list("name", flat=True)
    assert sorted(names) == ["laptop", "phone", "tests"]


def test_without_a_device_each_sign_in_is_a_new_device(api_client, user):
    one, two = _sign_in(api_client, user), _sign_in(api_client, user)

    assert (one["device"], two["device"]) == ("Unknown device", "Unknown device 2")
    assert _me(api_client, one["token"]).status_code == 200
    assert _me(api_client, two["token"]).status_code == 200


def test_past_the_device_limit_the_least_recently_used_is_signed_out(api_client, user):
    secrets = [
        _sign_in(api_client, user, device=f"d{n}")["token"] for n in range(MAX_DEVICE_TOKENS + 1)
    ]

    # The fixture's sign-in and d0 (never used, the oldest) went; d1..d20 stay.
    names = set(ApiToken.objects.filter(user=user).values_list("name", flat=True))
    assert names == {f"d{n}" for n in range(1, MAX_DEVICE_TOKENS + 1)}
    assert _me(api_client, secrets[0]).status_code == 401
    assert _me(api_client, secrets[-1]).status_code == 200


def test_the_username_is_case_insensitive(api_client, make_user):
    make_user("Alice")

    response = api_client.post(URL, {"username": "aLICE", "password": PASSWORD})

    assert response.status_code == 200
    assert ApiToken.objects.filter(user__username="Alice").count() == 2


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
    assert ApiToken.objects.filter(user=user).count() == 1  # the fixture's only


def test_an_inactive_user_gets_no_token(api_client, make_user):
    user = make_user(is_active=False)

    response = api_client.post(URL, {"username": user.username, "password": PASSWORD})

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "alice"}, "password"),
        ({"username": "a", "password": "b", "device": ""}, "device"),
    ],
)
def test_missing_or_empty_fields_are_400(api_client, body, field):
    response = api_client.post(URL, body)

    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_an_expired_token_is_refused(api_client, user):
    secret = _sign_in(api_client, user)["token"]
    ApiToken.objects.filter(key_hash=secret_hash(secret)).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    authentication.forget_all()

    response = _me(api_client, secret)

    assert response.status_code == 401
    assert response.json() == {
        "code": "invalid_token",
        "detail": "The token has expired; sign in again.",
    }


def test_a_cached_token_is_refused_once_it_expires(api_client, user, monkeypatch):
    secret = _sign_in(api_client, user)["token"]
    token = ApiToken.objects.get(key_hash=secret_hash(secret))
    assert _me(api_client, secret).status_code == 200  # cached now
    real = authentication.time.time
    monkeypatch.setattr(authentication.time, "monotonic", lambda: 0.0)  # the entry stays fresh
    monkeypatch.setattr(authentication.time, "time", lambda: token.expires.timestamp() + 1)

    assert _me(api_client, secret).status_code == 401
    monkeypatch.setattr(authentication.time, "time", real)


def test_use_slides_the_expiry_written_at_most_once_a_minute(api_client, user, monkeypatch):
    secret = _sign_in(api_client, user)["token"]
    token = ApiToken.objects.get(key_hash=secret_hash(secret))
    start = timezone.now().timestamp()
    now = [start]
    monkeypatch.setattr(authentication.time, "time", lambda: now[0])

    assert _me(api_client, secret).status_code == 200  # never used: written now
    token.refresh_from_db()
    first_use, first_expiry = token.last_used, token.expires
    assert first_use is not None and abs(first_use.timestamp() - start) < 1

    now[0] += 30  # within the minute: used, not written
    assert _me(api_client, secret).status_code == 200
    token.refresh_from_db()
    assert (token.last_used, token.expires) == (first_use, first_expiry)

    now[0] += 31  # past the minute: written, and the expiry moves on with it
    authentication.forget_all()  # (also read again from the database: the same rule)
    assert _me(api_client, secret).status_code == 200
    token.refresh_from_db()
    assert token.last_used.timestamp() == pytest.approx(start + 61, abs=0.01)
    assert token.expires - first_expiry == timedelta(seconds=61)


def test_a_used_token_is_not_written_on_each_request(auth_client, user):
    client = auth_client(user)
    assert client.get(ME).status_code == 200  # looked up and written (never used before)

    statements = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(ME).status_code == 200
        statements += [q["sql"] for q in captured.captured_queries]
    assert not [s for s in statements if "accounts_apitoken" in s]
