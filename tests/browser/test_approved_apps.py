"""The account page lists the apps a player approved (name, who made it, what each may do,
when it last acted) and revokes one, whose tokens stop at once; and a device signed in from
the log-in form is listed by the browser it is ("Chrome on Linux"), at desktop and phone
sizes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.devices import device_label
from base.scopes import SCOPES
from tests.browser.web import DEVICES, axe_serious, open_page, screenshot, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD, token_of
from tests.oauth.helpers import (
    approve,
    authorization_query,
    exchange,
    pkce,
    query_of,
    register_app,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _approved_app(owner, player, scope: str) -> tuple[dict, str]:
    """An app of ``owner``'s that ``player`` approved for ``scope``: (app, access token)."""
    owner_client, player_client = APIClient(), APIClient()
    owner_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(owner)}")
    player_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(player)}")
    app = register_app(owner_client, name="Spider Stats")
    verifier, challenge = pkce()
    query = authorization_query(app["client_id"], challenge, scope=scope)
    code = query_of(approve(player_client, query))["code"]
    tokens = exchange(APIClient(), app["client_id"], code, verifier).json()
    return app, tokens["access_token"]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_an_approved_app_is_listed_and_revoked(live_server, new_page, make_user, device):
    owner, player = make_user(), make_user()
    app, access = _approved_app(owner, player, "profile:read game:play")
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    assert bot.get("/api/v1/games").status_code == 200

    page = new_page(**DEVICES[device], bypass_csp=True)
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/account")
    row = page.locator(f'tr[data-app="{app["client_id"]}"]')
    row.wait_for()
    text = row.inner_text()
    assert "Spider Stats" in text and f"by {owner.username}" in text
    assert SCOPES["profile:read"] in text and SCOPES["game:play"] in text
    if device == "phone":
        assert row.locator("button.revoke").bounding_box()["height"] >= 44
    screenshot(page, f"account-apps-{device}")
    assert axe_serious(page) == []

    row.locator("button.revoke").click()
    page.click(".confirm .dialog button.danger")
    page.wait_for_selector(".toast >> text=Spider Stats revoked.")
    page.wait_for_selector(f'tr[data-app="{app["client_id"]}"]', state="detached")
    assert "None." in page.locator(".app-list").inner_text()
    assert bot.get("/api/v1/games").status_code == 401  # at once
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_device_is_listed_by_its_browser(live_server, new_page, make_user, device):
    player = make_user()
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/login")
    page.fill("#username", player.username)
    page.fill("#password", PASSWORD)
    page.click("form.auth button[type=submit]")
    page.wait_for_function("() => localStorage.getItem('spider.token')")
    open_page(page, f"{live_server.url}/account")
    mine = page.locator("tr[data-kind=device]", has_text="this device")
    mine.wait_for()
    expected = device_label(page.evaluate("navigator.userAgent"))
    assert expected != "Unknown device" and " on " in expected
    assert mine.locator("td").first.inner_text().startswith(expected)
    assert "device-" not in page.locator(".token-list").inner_text()
    assert_no_console_errors(page)
