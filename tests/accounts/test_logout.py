"""POST /auth/logout (the token in use) and POST /auth/logout-everywhere (every token)."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import device_token_issue, personal_token_create
from tests.conftest import token_of

pytestmark = pytest.mark.django_db

ME = reverse("accounts:me")
LOGOUT = reverse("accounts:logout")
EVERYWHERE = reverse("accounts:logout-everywhere")


def _client(api_client, secret):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api_client


def _session_of(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session.create()
    assert session.session_key
    return session.session_key


def test_logout_revokes_the_token_in_use_only(auth_client, api_client, user):
    other = device_token_issue(user=user, device="phone").secret
    client = auth_client(user)

    response = client.post(LOGOUT)

    assert response.status_code == 204
    assert client.get(ME).status_code == 401  # refused at once
    assert _client(api_client, other).get(ME).status_code == 200


def test_a_personal_token_may_sign_itself_out(api_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=1)
    client = _client(api_client, pat.secret)

    assert client.post(LOGOUT).status_code == 204

    assert not ApiToken.objects.filter(pk=pat.token.pk).exists()


def test_logout_everywhere_revokes_every_token_and_session(
    auth_client, api_client, make_user, user
):
    phone = device_token_issue(user=user, device="phone").secret
    pat = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=9)
    session = _session_of(user)
    bystander = make_user()
    their_session = _session_of(bystander)
    client = auth_client(user)

    assert client.post(EVERYWHERE).status_code == 204

    assert client.get(ME).status_code == 401
    for secret in (phone, pat.secret):
        assert _client(api_client, secret).get(ME).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()
    assert not Session.objects.filter(pk=session).exists()
    assert Session.objects.filter(pk=their_session).exists()  # another player's: untouched
    assert _client(api_client, token_of(bystander)).get(ME).status_code == 200


def test_a_personal_token_cannot_sign_out_everywhere(api_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=9)

    response = _client(api_client, pat.secret).post(EVERYWHERE)

    assert response.status_code == 403
    assert response.json()["code"] == "first_party_only"
    assert ApiToken.objects.filter(user=user).count() == 2


def test_logout_needs_a_token(api_client):
    response = api_client.post(LOGOUT)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
