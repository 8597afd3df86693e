"""The apps a player approved: listed with their scopes and last use, revoked one by one (every
token ends at once), first-party sign-ins only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant, RefreshToken
from rest_framework.test import APIClient

from base.scopes import SCOPES
from tests.oauth.helpers import (
    approve,
    authorization_query,
    exchange,
    pkce,
    query_of,
    refresh,
    register_app,
)

pytestmark = pytest.mark.django_db
URL = "/api/v1/me/approved-apps"


def approve_app(player, anonymous, client_id: str, scope: str) -> dict:
    """``player`` approves the app ``client_id`` for ``scope``: the token endpoint's answer."""
    verifier, challenge = pkce()
    query = authorization_query(client_id, challenge, scope=scope)
    code = query_of(approve(player, query))["code"]
    response = exchange(anonymous, client_id, code, verifier)
    assert response.status_code == 200, response.content
    return response.json()


def bearer(client, token: str):
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def apps(auth_client, make_user):
    """Two apps of bob's, for alice to approve."""
    bob = make_user()
    owner = auth_client(bob)
    return bob, register_app(owner, name="Stats"), register_app(owner, name="Bot")


def test_a_player_sees_the_apps_they_approved_with_scopes_and_last_use(
    auth_client, make_user, api_client, apps
):
    bob, stats, bot = apps
    alice = make_user()
    client = auth_client(alice)
    assert client.get(URL).json() == []

    approve_app(client, api_client, stats["client_id"], "profile:read game:play")
    tokens = approve_app(client, api_client, bot["client_id"], "race:play")

    listed = client.get(URL).json()
    assert [a["app"]["name"] for a in listed] == ["Bot", "Stats"]  # most recently used first
    assert listed[0]["app"] == {"client_id": bot["client_id"], "name": "Bot", "owner": bob.username}
    assert listed[1]["scopes"] == [
        {"name": "profile:read", "description": SCOPES["profile:read"]},
        {"name": "game:play", "description": SCOPES["game:play"]},
    ]
    assert listed[0]["approved"] and listed[0]["last_used"]
    # Nobody else sees them: not bob (who registered the apps), not another player.
    assert auth_client(bob).get(URL).json() == []

    # A use moves "last used" on (written once a minute at most: the token looks old here).
    AccessToken.objects.filter(application__client_id=stats["client_id"]).update(
        updated=timezone.now() - timedelta(hours=1)
    )
    AccessToken.objects.filter(application__client_id=bot["client_id"]).update(
        updated=timezone.now() - timedelta(hours=2)
    )
    assert [a["app"]["name"] for a in client.get(URL).json()] == ["Stats", "Bot"]
    assert bearer(api_client, tokens["access_token"]).get("/api/v1/races/ABCDEFGH").status_code
    assert [a["app"]["name"] for a in client.get(URL).json()] == ["Bot", "Stats"]
    used = client.get(URL).json()[0]["last_used"]
    assert abs(timezone.datetime.fromisoformat(used) - timezone.now()) < timedelta(minutes=1)


def test_an_app_whose_tokens_are_all_dead_is_not_listed(auth_client, user, api_client, apps):
    _bob, stats, _bot = apps
    client = auth_client(user)
    approve_app(client, api_client, stats["client_id"], "game:play")
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert len(client.get(URL).json()) == 1  # its refresh token still hands out access
    RefreshToken.objects.update(revoked=timezone.now())
    assert client.get(URL).json() == []


def test_revoking_an_app_ends_its_access_and_refresh_tokens_at_once(
    auth_client, user, api_client, apps, client
):
    _bob, stats, bot = apps
    me = auth_client(user)
    tokens = approve_app(me, api_client, stats["client_id"], "profile:read")
    kept = approve_app(me, api_client, bot["client_id"], "profile:read")
    # A code approved but not yet exchanged is ended with the rest.
    verifier, challenge = pkce()
    code = query_of(approve(me, authorization_query(stats["client_id"], challenge)))["code"]
    app_client = bearer(api_client, tokens["access_token"])
    assert app_client.get("/api/v1/me").status_code == 200  # cached from now on

    assert me.delete(f"{URL}/{stats['client_id']}").status_code == 204

    assert app_client.get("/api/v1/me").status_code == 401  # at once: the cache heard of it
    assert refresh(client, stats["client_id"], tokens["refresh_token"]).json()["error"] == (
        "invalid_grant"
    )
    assert exchange(client, stats["client_id"], code, verifier).status_code == 400
    assert not Grant.objects.filter(application__client_id=stats["client_id"]).exists()
    assert [a["app"]["name"] for a in me.get(URL).json()] == ["Bot"]
    assert bearer(APIClient(), kept["access_token"]).get("/api/v1/me").status_code == 200
    assert me.delete(f"{URL}/{stats['client_id']}").status_code == 404  # nothing left to end


def test_another_players_approval_is_not_found(auth_client, make_user, api_client, apps):
    _bob, stats, _bot = apps
    alice, eve = make_user(), make_user()
    tokens = approve_app(auth_client(alice), api_client, stats["client_id"], "game:play")

    response = auth_client(eve).delete(f"{URL}/{stats['client_id']}")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert auth_client(eve).delete(f"{URL}/no-such-app").status_code == 404
    assert bearer(api_client, tokens["access_token"]).get("/api/v1/games").status_code == 200


@pytest.mark.parametrize("method", ["get", "delete"])
def test_an_apps_token_can_neither_list_nor_revoke(auth_client, user, api_client, apps, method):
    _bob, stats, _bot = apps
    scopes = " ".join(SCOPES)  # every scope an app can hold
    tokens = approve_app(auth_client(user), api_client, stats["client_id"], scopes)
    path = URL if method == "get" else f"{URL}/{stats['client_id']}"

    response = getattr(bearer(api_client, tokens["access_token"]), method)(path)

    assert response.status_code == 403
    assert response.json()["code"] == "first_party_only" and response.json()["scopes"] == [
        "account"
    ]
    assert 'error="insufficient_scope"' in response["WWW-Authenticate"]
    assert AccessToken.objects.count() == 1  # revoked nothing


def test_a_personal_token_can_neither_list_nor_revoke(auth_client, user, api_client, apps):
    from accounts.services import personal_token_create

    pat = personal_token_create(user=user, name="t", scopes=list(SCOPES), expires_in_days=1)
    client = bearer(api_client, pat.secret)
    assert client.get(URL).status_code == 403
    assert client.delete(f"{URL}/{apps[1]['client_id']}").status_code == 403
