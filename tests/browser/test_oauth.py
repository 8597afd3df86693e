"""The whole OAuth2 flow for real, in Chromium against the live server: a developer registers
an app on the apps page; a player sent to the authorization page signs in, comes back, sees
the app and its scopes and approves; the browser lands on the app's redirect URI (a small
HTTP server of the test) with the code, which buys tokens with the PKCE verifier. Then the
refusals (a wrong verifier, the code again, a redirect URI not registered, a denial), a game
played with the access token, 403 `insufficient_scope` on a race, a refresh that rotates, and
the token refused after its revocation."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from tests.browser.web import NETWORK_ERROR
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD
from tests.games.conftest import pooled_deal
from tests.oauth.helpers import pkce, query_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def app_server() -> Iterator[tuple[str, list[str]]]:
    """The app's side: a redirect URI on a free port of 127.0.0.1 that records every URL the
    browser is sent back to."""
    seen: list[str] = []

    class Callback(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802  (http.server's name)
            if self.path.startswith("/callback"):  # not the browser's /favicon.ico
                seen.append(self.path)
            body = b"<!doctype html><title>app</title><p id=back>back at the app</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Callback)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/callback", seen
    finally:
        server.shutdown()
        server.server_close()


def authorize_url(base: str, client_id: str, redirect: str, challenge: str, scope: str) -> str:
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect,
        "scope": scope,
        "state": "st-42",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    return f"{base}/oauth/authorize?{urlencode(query)}"


def register_on_the_apps_page(page: Any, base: str, redirect: str) -> str:
    page.goto(f"{base}/apps")
    page.wait_for_selector("body[data-ready='/apps']")
    page.fill("#app-name", "Spider Bot")
    page.fill("#app-redirects", redirect)
    page.click("#app-form button[type=submit]")
    client_id = page.locator(".app-created code.client-id").inner_text()
    page.wait_for_selector(f'.apps li[data-client="{client_id}"]')
    assert page.locator(".client-secret").count() == 0  # a public app: no secret
    return str(client_id)


def test_the_whole_flow_in_a_browser(live_server, new_page, make_user, app_server, settings):
    settings.POOL_AUTOFILL = False
    pooled_deal(1, 11)
    redirect, seen = app_server
    base = live_server.url
    player = make_user()
    page = new_page()

    # Sent to the authorization page signed out: to sign in first, and back.
    verifier, challenge = pkce()
    page.goto(f"{base}/login")
    page.wait_for_selector("body[data-ready]")
    page.evaluate("localStorage.setItem('spider.onetap', 'off')")
    page.fill("#username", player.username)
    page.fill("#password", PASSWORD)
    page.click("form.auth button[type=submit]")
    page.wait_for_selector("body[data-ready='/play']")
    client_id = register_on_the_apps_page(page, base, redirect)
    page.evaluate("localStorage.removeItem('spider.token')")  # signed out again

    page.goto(authorize_url(base, client_id, redirect, challenge, "game:play"))
    page.wait_for_selector("body[data-ready='/login']")
    page.fill("#username", player.username)
    page.fill("#password", PASSWORD)
    page.click("form.auth button[type=submit]")
    page.wait_for_selector("body[data-ready='/oauth/authorize']")
    assert page.locator("#oauth-title").inner_text() == "Spider Bot wants to act as you"
    scopes = page.locator(".oauth-scopes li").evaluate_all(
        "items => items.map(i => i.dataset.scope)"
    )
    assert scopes == ["game:play"]
    assert "moves, deals, undos" in page.locator(".oauth-scopes").inner_text()

    page.click("#oauth-approve")
    page.wait_for_selector("#back")  # at the app's redirect URI
    back = query_of(page.url)
    assert page.url.startswith(redirect) and back["state"] == "st-42"
    assert seen and seen[-1].startswith("/callback?")

    with httpx.Client(base_url=base, timeout=10) as http:

        def token(**form: str) -> httpx.Response:
            return http.post("/oauth/token", data={"client_id": client_id, **form})

        code = {"grant_type": "authorization_code", "code": back["code"], "redirect_uri": redirect}
        right = token(**code, code_verifier=verifier)
        assert right.status_code == 200, right.text
        tokens = right.json()
        assert tokens["scope"] == "game:play"

        # The app plays a game as the player with its access token.
        as_app = {"Authorization": f"Bearer {tokens['access_token']}"}
        game = http.post("/api/v1/games", json={"suits": 1}, headers=as_app)
        assert game.status_code == 201, game.text
        deal = http.post(
            f"/api/v1/games/{game.json()['id']}/actions",
            json={"type": "deal", "version": 0},
            headers=as_app,
        )
        assert deal.status_code == 200 and deal.json()["version"] == 1
        race = http.post("/api/v1/races", json={"suits": 1}, headers=as_app)
        assert race.status_code == 403
        assert race.json()["code"] == "insufficient_scope"
        assert race.json()["scopes"] == ["race:play"]
        assert 'error="insufficient_scope", scope="race:play"' in race.headers["WWW-Authenticate"]

        # A refresh rotates; the old refresh token is refused.
        fresh = token(grant_type="refresh_token", refresh_token=tokens["refresh_token"])
        assert fresh.status_code == 200, fresh.text
        rotated = fresh.json()
        assert rotated["refresh_token"] != tokens["refresh_token"]
        as_app = {"Authorization": f"Bearer {rotated['access_token']}"}
        read = http.get(f"/api/v1/games/{game.json()['id']}", headers=as_app)
        assert read.status_code == 200
        resign = http.post(f"/api/v1/games/{game.json()['id']}/resign", headers=as_app)
        assert resign.status_code == 200

        # The code presented again: refused, and every token of its exchange revoked (someone
        # else had the code), the rotated ones included: refused at once.
        again = token(**code, code_verifier=verifier)
        assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
        locked = http.post("/api/v1/games", json={"suits": 1}, headers=as_app)
        assert locked.status_code == 401 and locked.json()["code"] == "invalid_token"
        dead = token(grant_type="refresh_token", refresh_token=rotated["refresh_token"])
        assert dead.status_code == 400, dead.text

    # Denied: the app hears access_denied, with its state.
    page.goto(authorize_url(base, client_id, redirect, pkce()[1], "game:play race:play"))
    page.wait_for_selector("body[data-ready='/oauth/authorize']")
    assert page.locator(".oauth-scopes li").count() == 2
    page.click("#oauth-deny")
    page.wait_for_selector("#back")
    denied = query_of(page.url)
    assert denied["error"] == "access_denied" and denied["state"] == "st-42"
    assert denied["iss"] == base  # RFC 9207: which server answered, on errors too
    assert "code" not in denied

    # A redirect URI the app did not register: refused on the page, never followed.
    before = len(seen)
    page.goto(authorize_url(base, client_id, "http://127.0.0.1:9/evil", pkce()[1], "game:play"))
    page.wait_for_selector("body[data-ready='/oauth/authorize']")
    assert "redirect" in page.locator(".oauth-error").inner_text().lower()
    assert page.locator("#oauth-back").count() == 0
    assert page.locator("#oauth-approve").count() == 0
    assert len(seen) == before
    page.errors[:] = [e for e in page.errors if not e.startswith(NETWORK_ERROR)]  # the 400
    assert_no_console_errors(page)
