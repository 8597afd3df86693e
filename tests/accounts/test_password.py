"""POST /me/password, and a password set anywhere else (the admin, `set_password`): every
other token and session of the player ends."""

import pytest
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, User
from accounts.services import device_token_issue, personal_token_create
from tests.conftest import PASSWORD, token_of

pytestmark = pytest.mark.django_db

ME = reverse("accounts:me")
URL = reverse("accounts:password")
TOKEN = reverse("accounts:token")
NEW = "a brand new passphrase 7"


def _client(api_client, secret):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api_client


def test_a_new_password_keeps_this_token_and_revokes_the_others(auth_client, api_client, user):
    phone = device_token_issue(user=user, device="phone").secret
    pat = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=9)
    client = auth_client(user)

    response = client.post(URL, {"current_password": PASSWORD, "new_password": NEW})

    assert response.status_code == 204
    assert client.get(ME).status_code == 200  # the token in use
    for secret in (phone, pat.secret):
        assert _client(api_client, secret).get(ME).status_code == 401
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert list(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == ["tests"]
    # Signing in with the new password gives a new token, not an old one back.
    signed_in = Client().post(
        TOKEN, {"username": user.username, "password": NEW}, content_type="application/json"
    )
    assert signed_in.status_code == 200 and signed_in.json()["token"] != phone


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"current_password": "not it at all", "new_password": NEW}, "current_password"),
        ({"current_password": PASSWORD, "new_password": "password"}, "new_password"),
        ({"current_password": PASSWORD, "new_password": "12345678901"}, "new_password"),
    ],
)
def test_a_wrong_current_or_a_weak_new_password_is_400_and_changes_nothing(
    auth_client, user, body, field
):
    device_token_issue(user=user, device="phone")

    response = auth_client(user).post(URL, body)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and field in response.json()["errors"]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert ApiToken.objects.filter(user=user).count() == 2


def test_a_personal_token_cannot_change_the_password(api_client, user):
    pat = personal_token_create(
        user=user, name="bot", scopes=list(("game:play",)), expires_in_days=9
    )

    response = _client(api_client, pat.secret).post(
        URL, {"current_password": PASSWORD, "new_password": NEW}
    )

    assert response.status_code == 403
    assert response.json()["code"] == "first_party_only"
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_set_password_anywhere_revokes_every_token(auth_client, user):
    client = auth_client(user)
    assert client.get(ME).status_code == 200

    user.set_password(NEW)
    user.save()

    assert client.get(ME).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()


def test_a_password_set_in_the_admin_revokes_every_token(auth_client, make_user, user):
    admin = make_user("admin", is_staff=True, is_superuser=True)
    client = auth_client(user)
    assert client.get(ME).status_code == 200
    browser = Client()
    browser.force_login(admin)

    response = browser.post(
        reverse("admin:auth_user_password_change", args=[user.pk]),
        {"password1": NEW, "password2": NEW, "usable_password": "true"},
    )

    assert response.status_code == 302, response.content[:2000]
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert client.get(ME).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()


def test_other_saves_and_a_hash_upgrade_at_sign_in_revoke_nothing(auth_client, settings, user):
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    client = auth_client(user)
    user.first_name = "Alice"
    user.save()
    # A hash made with another hasher is upgraded at the next sign-in: not a new password.
    User.objects.filter(pk=user.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))
    signed_in = Client().post(
        TOKEN,
        {"username": user.username, "password": PASSWORD, "device": "laptop"},
        content_type="application/json",
    )
    assert signed_in.status_code == 200
    user.refresh_from_db()
    assert user.password.startswith("md5$")  # upgraded to the first of PASSWORD_HASHERS

    assert client.get(ME).status_code == 200
    assert ApiToken.objects.filter(user=user).count() == 2


def test_email_can_be_set_and_removed(auth_client, user):
    client = auth_client(user)

    response = client.patch(ME, {"email": "Alice@Example.COM"})

    assert response.status_code == 200 and response.json()["email"] == "Alice@example.com"
    assert client.get(ME).json()["email"] == "Alice@example.com"
    assert client.patch(ME, {"email": ""}).json()["email"] == ""
    assert client.patch(ME, {"email": "not an email"}).status_code == 400


def test_a_personal_token_cannot_change_the_email(api_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["profile:write"], expires_in_days=9)

    response = _client(api_client, pat.secret).patch(ME, {"email": "mallory@example.com"})

    assert response.status_code == 403
    user.refresh_from_db()
    assert user.email == ""
    assert token_of(user)
