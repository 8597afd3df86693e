"""Managing the account is for the account's own sign-ins, decided in one place: a view
declares `required_scopes = FIRST_PARTY` (the scope `account`) and the scope permission
(base/permissions.py) refuses every other token with 403 `first_party_only`, before the
handler runs. Held here once over every operation that declares it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from oauth2_provider.models import AccessToken, Application
from rest_framework.test import APIRequestFactory

from accounts.models import ApiToken, User
from accounts.services import personal_token_create
from base.permissions import ACCOUNT, FIRST_PARTY, HasRequiredScopes, declared_scopes
from base.scopes import SCOPES
from tests.conftest import ROOT, token_of
from tests.test_scopes import TABLE


def _first_party_operations() -> list[tuple[str, str]]:
    """(method, path) of every routed operation whose scope check asks for FIRST_PARTY."""
    generator = SchemaGenerator()
    generator.parse(None, True)
    found = []
    factory = APIRequestFactory()
    for path, _regex, method, view in generator._get_paths_and_endpoints():
        view.request = view.initialize_request(getattr(factory, method.lower())(path))
        checked = any(isinstance(p, HasRequiredScopes) for p in view.get_permissions())
        if checked and declared_scopes(view, method) == FIRST_PARTY:
            found.append((method.lower(), path))
    return sorted(found)


OPERATIONS = _first_party_operations()


def test_the_operations_found_are_the_scope_tables_account_rows():
    assert sorted(op for op, scopes in TABLE.items() if scopes == [ACCOUNT]) == OPERATIONS


def _personal(user: User) -> str:
    """A personal access token holding every scope there is."""
    return personal_token_create(
        user=user, name="all", scopes=list(SCOPES), expires_in_days=1
    ).secret


def _personal_given_account(user: User) -> str:
    """A personal token whose scopes were edited by hand to name `account` too (the admin can):
    still no sign-in."""
    secret = _personal(user)
    ApiToken.objects.filter(user=user, kind="personal").update(scope=" ".join([*SCOPES, ACCOUNT]))
    return secret


def _oauth(user: User) -> str:
    """An app's access token granted every scope, and `account` too (no app can ask for it:
    made here by hand)."""
    app = Application.objects.create(
        user=user,
        name="app",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="https://app.example/callback",
    )
    secret = "spa_" + "a" * 43
    token = AccessToken(
        user=user,
        application=app,
        scope=" ".join([*SCOPES, ACCOUNT]),
        expires=timezone.now() + timedelta(hours=1),
    )
    token.token = secret
    token.save()
    return secret


NOT_SIGN_INS: dict[str, Callable[[User], str]] = {
    "personal": _personal,
    "personal+account": _personal_given_account,
    "oauth": _oauth,
}


def _state(user: User) -> tuple[Any, ...]:
    user.refresh_from_db()
    tokens = sorted(ApiToken.objects.filter(user=user).values_list("pk", "scope"))
    return (user.username, user.email, user.password, tokens, AccessToken.objects.count())


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", path)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(NOT_SIGN_INS))
@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_a_token_that_is_no_sign_in_is_refused_and_changes_nothing(
    api_client, user, method, path, kind
):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {NOT_SIGN_INS[kind](user)}")
    before = _state(user)

    answer = getattr(api_client, method)(_concrete(path), {}, format="json")

    assert answer.status_code == 403, answer.content
    assert answer.json() == {
        "code": "first_party_only",
        "detail": "Only a first-party sign-in (POST /auth/token) may do this, not an app's token.",
        "scopes": [ACCOUNT],
    }
    assert answer["WWW-Authenticate"].endswith('error="insufficient_scope", scope="account"')
    assert _state(user) == before


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_a_sign_in_passes_the_check(api_client, user, method, path):
    """The device token gets past the permission: whatever the handler answers then (a body
    it refuses, no such app), it is not `first_party_only`."""
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")

    answer = getattr(api_client, method)(_concrete(path), {}, format="json")

    if answer.status_code >= 400:
        assert answer.json()["code"] != "first_party_only"


def test_no_handler_decides_it_again():
    """The token's kind is read by the permission alone (and by the sign-in's expiry, which
    slides with use: base/authentication.py); no view or service asks it."""
    allowed = {
        "accounts/models.py",  # defines it
        "base/permissions.py",  # decides access by it
        "base/authentication.py",  # a sign-in's expiry slides with use
    }
    apps = ("accounts", "coins", "games", "leaderboard", "oauth", "preferences", "races", "web")
    readers = {
        str(path.relative_to(ROOT))
        for package in ("base", "spider_api", *apps)
        for path in (ROOT / package).rglob("*.py")
        if "is_first_party" in path.read_text()
    }
    assert readers == allowed
