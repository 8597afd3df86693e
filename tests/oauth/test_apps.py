"""Registering third-party apps: the API (a player's own apps, the secret shown once), RFC 7591
dynamic registration, and the server's RFC 8414 metadata."""

from __future__ import annotations

import json

import pytest
from oauth2_provider.models import AccessToken, Application

from base.scopes import SCOPES
from tests.conftest import token_of
from tests.oauth.helpers import REDIRECT, register_app, tokens_for

pytestmark = pytest.mark.django_db


def test_a_player_registers_lists_and_deletes_their_apps(auth_client, make_user):
    alice, bob = make_user(), make_user()
    client = auth_client(alice)

    public = register_app(client, name="Phone app")
    confidential = register_app(client, name="Server app", confidential=True)

    assert public["client_secret"] is None and public["confidential"] is False
    assert len(confidential["client_secret"]) >= 64 and confidential["confidential"] is True
    assert public["redirect_uris"] == [REDIRECT]
    page = client.get("/api/v1/apps").json()
    assert [a["name"] for a in page["results"]] == ["Server app", "Phone app"]
    assert all("client_secret" not in a for a in page["results"])  # never again
    assert auth_client(bob).get("/api/v1/apps").json()["results"] == []

    # Only its owner deletes it.
    assert auth_client(bob).delete(f"/api/v1/apps/{public['client_id']}").status_code == 404
    assert client.delete(f"/api/v1/apps/{public['client_id']}").status_code == 204
    assert client.delete(f"/api/v1/apps/{public['client_id']}").status_code == 404
    assert [a["name"] for a in client.get("/api/v1/apps").json()["results"]] == ["Server app"]


def test_deleting_an_app_revokes_its_tokens(auth_client, user, api_client):
    client = auth_client(user)
    tokens = tokens_for(client, api_client, scope="profile:read")
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert api_client.get("/api/v1/me").status_code == 200

    assert client.delete(f"/api/v1/apps/{tokens['client_id']}").status_code == 204

    assert not AccessToken.objects.exists()
    assert api_client.get("/api/v1/me").status_code == 401  # at once: the cache heard of it


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "x", "redirect_uris": []}, "redirect_uris"),
        ({"name": "x", "redirect_uris": ["ftp://app.example/cb"]}, "redirect_uris"),
        ({"name": "x", "redirect_uris": ["https://app.example/cb#frag"]}, "redirect_uris"),
        ({"name": "x", "redirect_uris": ["not a uri"]}, "redirect_uris"),
        ({"name": "x" * 101, "redirect_uris": [REDIRECT]}, "name"),
        ({"name": "x", "redirect_uris": [REDIRECT] * 11}, "redirect_uris"),
        (
            {"name": "x", "redirect_uris": [REDIRECT, "https://a.example/" + "x" * 500]},
            "redirect_uris.1",
        ),
    ],
)
def test_a_bad_registration_is_refused_by_field(auth_client, user, body, field):
    response = auth_client(user).post("/api/v1/apps", body, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    errors = response.json()["errors"]
    assert field in errors, errors
    # as the schema has it: each field's path -> its sentences (an item's error flattened)
    assert all(isinstance(m, list) and all(isinstance(x, str) for x in m) for m in errors.values())
    assert not Application.objects.exists()


def test_a_player_has_at_most_so_many_apps(auth_client, user, settings):
    settings.OAUTH_APPS_PER_PLAYER = 2
    client = auth_client(user)
    register_app(client)
    register_app(client)

    response = client.post(
        "/api/v1/apps", {"name": "3", "redirect_uris": [REDIRECT]}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "too_many_apps"
    assert Application.objects.count() == 2


def test_the_server_metadata_names_the_endpoints_pkce_and_the_scopes(client, db):
    response = client.get("/.well-known/oauth-authorization-server")

    assert response.status_code == 200
    meta = response.json()
    base = "http://testserver"
    assert meta["issuer"] == base
    assert meta["authorization_endpoint"] == f"{base}/oauth/authorize"  # the web client's page
    assert meta["token_endpoint"] == f"{base}/oauth/token"
    assert meta["revocation_endpoint"] == f"{base}/oauth/revoke"
    assert meta["registration_endpoint"] == f"{base}/oauth/register"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["response_types_supported"] == ["code"]
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert meta["scopes_supported"] == sorted(SCOPES)
    assert "none" in meta["token_endpoint_auth_methods_supported"]
    assert meta["authorization_response_iss_parameter_supported"] is True
    # The page it names is the web client's.
    page = client.get("/oauth/authorize?client_id=x")
    assert page.status_code == 200 and b'id="main"' in page.content


def _dcr(client, **headers):
    body = {
        "client_name": "Registered on its own",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_method": "none",
    }
    return client.generic(
        "POST", "/oauth/register", json.dumps(body), content_type="application/json", **headers
    )


def test_dynamic_registration_takes_a_signed_in_players_token(client, user, api_client):
    response = _dcr(client, HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")

    assert response.status_code == 201, response.content
    app = Application.objects.get(client_id=response.json()["client_id"])
    assert app.user == user and app.client_type == Application.CLIENT_PUBLIC
    assert app.name == "Registered on its own"


def test_dynamic_registration_refuses_anyone_else(client, auth_client, user, api_client):
    tokens = tokens_for(auth_client(user), api_client, scope="game:play")
    before = Application.objects.count()

    for headers in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer " + "0" * 40},
        {
            "HTTP_AUTHORIZATION": f"Bearer {tokens['access_token']}"  # an app's token
        },
    ):
        response = _dcr(client, **headers)
        assert response.status_code == 401, headers

    assert Application.objects.count() == before
