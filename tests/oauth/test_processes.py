"""Revocation reaches every web process within the documented bound: two real servers
(uvicorn processes on the test database) each cache an app's access token; revoked through
one, it is refused there at once and by the other within TOKEN_CACHE_SECONDS."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.conftest import token_of
from tests.oauth.helpers import REDIRECT, authorization_query, pkce, query_of
from tests.races.streams import stream_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.slow]

BOUND = 3  # TOKEN_CACHE_SECONDS of both servers


def _tokens(base: str, first_party: str) -> tuple[str, str]:
    """(client_id, access token) of a public app approved for profile:read, through ``base``."""
    player = {"Authorization": f"Bearer {first_party}"}
    with httpx.Client(base_url=base, timeout=10) as http:
        app = http.post(
            "/api/v1/apps", json={"name": "Two", "redirect_uris": [REDIRECT]}, headers=player
        ).json()
        verifier, challenge = pkce()
        query = authorization_query(app["client_id"], challenge, scope="profile:read")
        back = http.post(
            f"/api/v1/oauth/authorization?{query}", json={"allow": True}, headers=player
        ).json()["redirect_to"]
        tokens = http.post(
            "/oauth/token",
            data={
                "grant_type": "authorization_code",
                "code": query_of(back)["code"],
                "redirect_uri": REDIRECT,
                "client_id": app["client_id"],
                "code_verifier": verifier,
            },
        )
        assert tokens.status_code == 200, tokens.text
        return app["client_id"], tokens.json()["access_token"]


def test_a_revoked_token_is_refused_by_every_process_within_the_bound(tmp_path, user):
    env = {"TOKEN_CACHE_SECONDS": str(BOUND)}
    with (
        stream_server(tmp_path, name="web-a", **env) as a,
        stream_server(tmp_path, name="web-b", **env) as b,
    ):
        client_id, token = _tokens(a, token_of(user))
        as_app = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{a}/api/v1/me", headers=as_app).status_code == 200
        assert httpx.get(f"{b}/api/v1/me", headers=as_app).status_code == 200  # b caches it

        revoked = httpx.post(f"{a}/oauth/revoke", data={"token": token, "client_id": client_id})
        at = time.monotonic()
        assert revoked.status_code == 200

        assert httpx.get(f"{a}/api/v1/me", headers=as_app).status_code == 401  # at once
        # b answers from its cache until its entry expires, then asks the database.
        statuses = []
        while time.monotonic() - at < BOUND + 2:
            statuses.append(httpx.get(f"{b}/api/v1/me", headers=as_app).status_code)
            if statuses[-1] == 401:
                break
            time.sleep(0.1)
        refused_after = time.monotonic() - at
        assert statuses[-1] == 401, statuses
        assert refused_after <= BOUND + 1, refused_after  # + a poll and a request
        assert statuses[0] == 200  # the cache is why it took that long: b had not asked again
