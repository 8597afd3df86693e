"""An OAuth2 client's side of the flow, for the tests: PKCE, the authorization request the
web client's page passes on, the token endpoint's form posts."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

REDIRECT = "https://app.example/callback"


def pkce() -> tuple[str, str]:
    """(verifier, S256 challenge) as RFC 7636 makes them."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorization_query(
    client_id: str,
    challenge: str | None,
    *,
    scope: str = "game:play",
    redirect_uri: str = REDIRECT,
    state: str = "xyz",
    method: str = "S256",
) -> str:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "scope": scope,
        "state": state,
    }
    if challenge is not None:
        params |= {"code_challenge": challenge, "code_challenge_method": method}
    return urlencode(params)


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def register_app(client: Any, *, confidential: bool = False, name: str = "Tester") -> Any:
    response = client.post(
        "/api/v1/apps",
        {"name": name, "redirect_uris": [REDIRECT], "confidential": confidential},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def approve(client: Any, query: str, allow: bool = True) -> str:
    """The player's answer on the authorization page: the URL the browser is sent to."""
    response = client.post(f"/api/v1/oauth/authorization?{query}", {"allow": allow}, format="json")
    assert response.status_code == 200, response.content
    return str(response.json()["redirect_to"])


def form_post(client: Any, path: str, data: dict[str, str], **headers: str) -> Any:
    """A form post, as OAuth2 clients send to the token and revocation endpoints."""
    body = urlencode(data)
    kind = "application/x-www-form-urlencoded"
    return client.generic("POST", path, body, content_type=kind, **headers)


def exchange(
    client: Any,
    client_id: str,
    code: str,
    verifier: str,
    *,
    redirect_uri: str | None = REDIRECT,
    **headers: str,
) -> Any:
    """POST /oauth/token, grant authorization_code (a public client: no secret, unless
    ``headers`` authenticate it); ``redirect_uri`` None: left out."""
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": client_id,
        "code_verifier": verifier,
    }
    return form_post(
        client, "/oauth/token", {k: v for k, v in form.items() if v is not None}, **headers
    )


def refresh(client: Any, client_id: str, refresh_token: str) -> Any:
    return form_post(
        client,
        "/oauth/token",
        {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id},
    )


def tokens_for(player_client: Any, anonymous: Any, *, scope: str = "game:play") -> dict[str, Any]:
    """A public app of the player's, approved for ``scope``: the token endpoint's answer
    (with the app's `client_id` added)."""
    app = register_app(player_client)
    verifier, challenge = pkce()
    code = query_of(
        approve(player_client, authorization_query(app["client_id"], challenge, scope=scope))
    )["code"]
    response = exchange(anonymous, app["client_id"], code, verifier)
    assert response.status_code == 200, response.content
    return {**response.json(), "client_id": app["client_id"]}
