"""The OAuth2 flow through the API and DOT's endpoints: the authorization request the web
client's page reads and answers, the code for a token with PKCE (S256 only), refresh tokens
that rotate, revocation, and the scopes the tokens carry."""

from __future__ import annotations

import base64

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from oauth2_provider.models import AccessToken, Application

from base import oauth
from tests.games.conftest import pooled_deal
from tests.oauth.helpers import (
    REDIRECT,
    approve,
    authorization_query,
    exchange,
    form_post,
    pkce,
    query_of,
    refresh,
    register_app,
    tokens_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(auth_client, user):
    return auth_client(user)


def bearer(api_client, token: str):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api_client


def test_the_page_reads_the_app_and_the_scopes_asked(player, user):
    app = register_app(player, name="Spider Stats")
    _, challenge = pkce()

    response = player.get(
        "/api/v1/oauth/authorization?"
        + authorization_query(app["client_id"], challenge, scope="game:play race:play")
    )

    assert response.status_code == 200
    assert response.json() == {
        "app": {"client_id": app["client_id"], "name": "Spider Stats", "owner": user.username},
        "scopes": [
            {
                "name": "game:play",
                "description": "Start games, list yours and play them: moves, deals, undos, "
                "hints, resigning, analysis.",
            },
            {
                "name": "race:play",
                "description": "Create and join races, and play and watch them as you.",
            },
        ],
        "redirect_uri": REDIRECT,
    }


def test_approved_the_code_buys_a_token_once(player, api_client):
    app = register_app(player)
    verifier, challenge = pkce()
    back = approve(player, authorization_query(app["client_id"], challenge, state="s-1"))

    assert back.startswith(REDIRECT + "?")
    answer = query_of(back)
    assert answer["state"] == "s-1" and answer["code"]
    assert answer["iss"] == "http://testserver"  # RFC 9207: which server answered

    right = exchange(api_client, app["client_id"], answer["code"], verifier)
    assert right.status_code == 200, right.content
    tokens = right.json()
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "game:play"
    assert tokens["access_token"].startswith(oauth.ACCESS_PREFIX)
    assert tokens["refresh_token"].startswith(oauth.REFRESH_PREFIX)
    assert tokens["expires_in"] == 3600

    again = exchange(api_client, app["client_id"], answer["code"], verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_denied_the_app_hears_access_denied(player):
    app = register_app(player)
    _, challenge = pkce()

    back = approve(player, authorization_query(app["client_id"], challenge), allow=False)

    assert back.startswith(REDIRECT + "?")
    assert query_of(back)["error"] == "access_denied"
    assert query_of(back)["state"] == "xyz"
    assert "code" not in query_of(back)


@pytest.mark.parametrize(
    ("change", "error", "redirects"),
    [
        # Never sent back to a redirect URI the app did not register, nor for an unknown client.
        ({"redirect_uri": "https://evil.example/cb"}, "invalid_request", False),
        ({"client_id": "no-such-client"}, "invalid_request", False),
        # The app hears of the others at its redirect URI.
        ({"challenge": None}, "invalid_request", True),  # no PKCE
        ({"method": "plain"}, "invalid_request", True),  # PKCE plain: S256 only
        ({"scope": "game:play admin"}, "invalid_scope", True),
        ({"scope": "account"}, "invalid_scope", True),  # first-party only, never granted
    ],
)
def test_a_bad_authorization_request_is_refused(player, change, error, redirects):
    app = register_app(player)
    _, challenge = pkce()
    options = {k: v for k, v in change.items() if k not in ("client_id", "challenge")}
    query = authorization_query(
        change.get("client_id", app["client_id"]), change.get("challenge", challenge), **options
    )

    for response in (
        player.get(f"/api/v1/oauth/authorization?{query}"),
        player.post(f"/api/v1/oauth/authorization?{query}", {"allow": True}, format="json"),
    ):
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["code"] == "invalid_authorization_request"
        assert body["error"] == error, body
        if redirects:
            assert query_of(body["redirect_to"])["error"] == error
            assert body["redirect_to"].startswith(REDIRECT)
        else:
            assert body["redirect_to"] is None
    assert not AccessToken.objects.exists()


def test_the_token_plays_within_its_scopes(player, api_client, settings):
    settings.POOL_AUTOFILL = False
    pooled_deal(1, 11)
    tokens = tokens_for(player, api_client, scope="game:play")
    app_client = bearer(api_client, tokens["access_token"])

    created = app_client.post("/api/v1/games", {"suits": 1}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    deal = app_client.post(
        f"/api/v1/games/{game['id']}/actions", {"type": "deal", "version": 0}, format="json"
    )
    assert deal.status_code == 200 and deal.json()["version"] == 1

    race = app_client.post("/api/v1/races", {"suits": 1}, format="json")
    assert race.status_code == 403
    assert race.json() == {
        "code": "insufficient_scope",
        "detail": "This token does not allow this: it needs race:play.",
        "scopes": ["race:play"],
    }
    assert race["WWW-Authenticate"] == (
        'Bearer realm="api", error="insufficient_scope", scope="race:play"'
    )
    me = app_client.get("/api/v1/me")  # profile:read was not asked for
    assert me.status_code == 403 and me.json()["scopes"] == ["profile:read"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/apps"),
        ("post", "/api/v1/apps"),
        ("delete", "/api/v1/apps/anything"),
        ("get", "/api/v1/oauth/authorization"),
        ("post", "/api/v1/auth/claim"),
    ],
)
def test_managing_the_account_is_for_first_party_tokens_only(player, api_client, method, path):
    every = "profile:read profile:write game:play race:play daily:play"
    tokens = tokens_for(player, api_client, scope=every)

    response = getattr(bearer(api_client, tokens["access_token"]), method)(path, {}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "first_party_only"
    assert response.json()["scopes"] == ["account"]


def test_a_refresh_rotates_and_an_old_refresh_token_is_refused(player, api_client):
    first = tokens_for(player, api_client, scope="profile:read")

    second = refresh(api_client, first["client_id"], first["refresh_token"])
    assert second.status_code == 200, second.content
    rotated = second.json()
    assert rotated["refresh_token"] != first["refresh_token"]
    assert rotated["access_token"] != first["access_token"]
    assert rotated["scope"] == "profile:read"
    assert bearer(api_client, first["access_token"]).get("/api/v1/me").status_code == 401
    assert bearer(api_client, rotated["access_token"]).get("/api/v1/me").status_code == 200

    api_client.credentials()
    replay = refresh(api_client, first["client_id"], first["refresh_token"])
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    # The replay of a used refresh token revoked its whole family (reuse protection).
    assert bearer(api_client, rotated["access_token"]).get("/api/v1/me").status_code == 401
    api_client.credentials()
    assert refresh(api_client, first["client_id"], rotated["refresh_token"]).status_code == 400


def test_a_revoked_token_is_refused_at_once_in_this_process(player, api_client):
    tokens = tokens_for(player, api_client, scope="profile:read")
    assert bearer(api_client, tokens["access_token"]).get("/api/v1/me").status_code == 200
    api_client.credentials()

    revoked = form_post(
        api_client,
        "/oauth/revoke",
        {"token": tokens["access_token"], "client_id": tokens["client_id"]},
    )

    assert revoked.status_code == 200
    response = bearer(api_client, tokens["access_token"]).get("/api/v1/me")
    assert response.status_code == 401 and response.json()["code"] == "invalid_token"


def test_a_token_is_looked_up_once_per_cache_bound(player, api_client, monkeypatch):
    tokens = tokens_for(player, api_client, scope="profile:read")
    client = bearer(api_client, tokens["access_token"])
    now = [1000.0]
    monkeypatch.setattr(oauth.time, "monotonic", lambda: now[0])

    def lookups() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            status = client.get("/api/v1/me").status_code
        return status, sum("oauth2_provider_accesstoken" in q["sql"] for q in captured)

    assert lookups()[0] == 200 and lookups() == (200, 0)
    # Revoked by another process: no signal reaches this one's cache (a raw delete here).
    with connection.cursor() as cursor:
        cursor.execute("UPDATE oauth2_provider_refreshtoken SET access_token_id = NULL")
        cursor.execute("DELETE FROM oauth2_provider_accesstoken")
    now[0] += 9.9
    assert lookups() == (200, 0)  # within TOKEN_CACHE_SECONDS (10): still answered
    now[0] += 0.2
    assert client.get("/api/v1/me").status_code == 401  # past it: refused


def test_an_unknown_or_malformed_access_token_is_invalid_token(api_client, db):
    for token in (oauth.ACCESS_PREFIX + "x" * 43, oauth.ACCESS_PREFIX + "é", "spa_" + "a" * 300):
        response = bearer(api_client, token).get("/api/v1/me")
        assert response.status_code == 401, token
        assert response.json()["code"] == "invalid_token"
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_a_confidential_app_authenticates_with_its_secret(player, api_client):
    app = register_app(player, confidential=True)
    secret = app["client_secret"]
    assert secret and Application.objects.get().client_secret != secret  # kept hashed
    verifier, challenge = pkce()

    def code() -> str:
        return query_of(approve(player, authorization_query(app["client_id"], challenge)))["code"]

    without = exchange(api_client, app["client_id"], code(), verifier)
    assert without.status_code == 401 and without.json()["error"] == "invalid_client"
    basic = base64.b64encode(f"{app['client_id']}:{secret}".encode()).decode()
    with_secret = exchange(
        api_client, app["client_id"], code(), verifier, HTTP_AUTHORIZATION=f"Basic {basic}"
    )
    assert with_secret.status_code == 200, with_secret.content
