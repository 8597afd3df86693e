"""Sign-ins and revocations at once, on PostgreSQL, from real threads (each its own client and
database connection), lined up with a barrier."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.limits import MAX_PERSONAL_TOKENS
from accounts.models import ApiToken
from accounts.services import personal_token_create
from tests.conftest import PASSWORD, token_of
from tests.games.api.test_concurrency import together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TOKEN = reverse("accounts:token")
TOKENS = reverse("accounts:tokens")
ME = reverse("accounts:me")


def _client(secret: str | None = None) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False
    if secret:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_one_device_signing_in_twice_at_once_keeps_one_token(user):
    body = {"username": user.username, "password": PASSWORD, "device": "phone"}

    answers = together(4, lambda i: _client().post(TOKEN, body))

    assert [a.status_code for a in answers] == [200] * 4
    assert ApiToken.objects.filter(user=user, name="phone").count() == 1
    working = [
        a.json()["token"] for a in answers if _client(a.json()["token"]).get(ME).status_code == 200
    ]
    assert len(working) == 1  # the last one made; the others were replaced


def test_personal_tokens_made_at_once_stop_at_the_limit(user):
    for n in range(MAX_PERSONAL_TOKENS - 2):
        personal_token_create(user=user, name=f"t{n}", scopes=["game:play"], expires_in_days=1)
    body = {"name": "new", "scopes": ["game:play"], "expires_in_days": 1}

    answers = together(4, lambda i: _client(token_of(user)).post(TOKENS, body))

    assert sorted(a.status_code for a in answers) == [201, 201, 409, 409]
    assert ApiToken.objects.filter(user=user, kind="personal").count() == MAX_PERSONAL_TOKENS


def test_a_password_change_and_a_sign_in_at_once_leave_no_old_token(user):
    """The sign-in either ends before the change (its token is revoked with the others) or
    after it (and fails with the old password): no token from the old password survives."""
    me = _client(token_of(user))
    change = {"current_password": PASSWORD, "new_password": "a brand new passphrase 7"}
    sign_in = {"username": user.username, "password": PASSWORD, "device": "laptop"}

    answers = together(
        2,
        lambda i: (
            me.post(reverse("accounts:password"), change)
            if i == 0
            else _client().post(TOKEN, sign_in)
        ),
    )

    assert answers[0].status_code == 204
    assert answers[1].status_code in (200, 401)
    assert list(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == ["tests"]
