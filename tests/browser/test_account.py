"""The account page in a real browser, at desktop (1280x800) and phone (390x844) sizes: your
data's download, deleting the account, the devices and personal tokens (a link opens the
creation form filled in, the secret is shown once, revoking it), changing the password,
signing out here and everywhere, and a forgotten password reset through the emailed link."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from tests.browser.web import DEVICES, NETWORK_ERROR, open_page, screenshot, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def _has(name: str) -> bool:
    try:
        reverse(name)
    except NoReverseMatch:
        return False
    return True


# The tokens, password and reset endpoints (GET/POST /me/tokens, /auth/logout,
# /me/password, /auth/password-reset): these tests run where they are served.
needs_tokens_api = pytest.mark.skipif(
    not _has("accounts:tokens"), reason="waits for the tokens API (GET/POST /me/tokens, ...)"
)


def _account(page, base: str) -> None:
    open_page(page, f"{base}/account")
    page.wait_for_selector("body[data-ready='/account']")


def _allow_missing_tokens_api(page) -> None:
    # Before the tokens API lands the page says its list cannot be read (a 404 Chromium logs).
    if not _has("accounts:tokens"):
        page.errors[:] = [e for e in page.errors if not e.startswith(NETWORK_ERROR)]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_your_data_downloads_as_ndjson(live_server, new_page, make_user, device, tmp_path):
    user = make_user()
    page = new_page(**DEVICES[device], accept_downloads=True)
    sign_in(page, live_server.url, user)
    _account(page, live_server.url)
    assert page.locator("h1").inner_text() == "Your account"

    with page.expect_download() as info:
        page.click("#export")
    download = info.value
    assert re.fullmatch(
        rf"spider-{user.username}-\d{{4}}-\d\d-\d\d\.ndjson", download.suggested_filename
    )
    target = Path(tmp_path) / download.suggested_filename
    download.save_as(target)
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    types = [line["type"] for line in lines]
    assert types[:2] == ["export", "profile"]
    assert set(types) <= {"export", "profile", "settings"}  # no game yet; the client's settings
    assert lines[1]["username"] == user.username
    screenshot(page, f"account-{device}")
    _allow_missing_tokens_api(page)
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_deleting_the_account_asks_first_then_signs_out(live_server, new_page, make_user, device):
    user = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, user)
    _account(page, live_server.url)

    page.fill("#delete-password", "not my password")
    page.click("#delete-form button[type=submit]")
    page.click(".confirm .dialog button.danger")
    page.wait_for_selector("#delete-form .form-errors p")
    assert "password is wrong" in page.locator("#delete-form .form-errors").inner_text()
    assert User.objects.get(pk=user.pk).is_active

    page.fill("#delete-password", PASSWORD)
    page.click("#delete-form button[type=submit]")
    page.click(".confirm .dialog button:not(.danger)")  # Cancel: nothing happens
    assert User.objects.get(pk=user.pk).is_active

    page.click("#delete-form button[type=submit]")
    page.click(".confirm .dialog button.danger")
    page.wait_for_selector("body[data-ready='/login']")
    gone = User.objects.get(pk=user.pk)
    assert gone.username.startswith("deleted-") and not gone.is_active
    assert page.evaluate("localStorage.getItem('spider.token')") is None
    page.errors[:] = [e for e in page.errors if not e.startswith(NETWORK_ERROR)]  # the 403
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_reset_link_without_its_parts_says_so(live_server, new_page, device):
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/reset?uid=abc")
    assert "incomplete" in page.locator("main").inner_text()
    page.click("text=ask for a new one")
    page.wait_for_selector("body[data-ready='/forgot']")
    assert page.locator("#email").is_visible()
    assert_no_console_errors(page)


@needs_tokens_api
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_token_link_fills_the_form_and_the_secret_shows_once(
    live_server, new_page, make_user, device
):
    user = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, user)
    open_page(
        page, f"{live_server.url}/account/tokens/new?name=my%20bot&scopes=game:play,race:play"
    )

    assert page.input_value("#token-name") == "my bot"
    checked = page.eval_on_selector_all(
        "input[name=scopes]:checked", "boxes => boxes.map(b => b.value)"
    )
    assert checked == ["game:play", "race:play"]
    page.uncheck("#scope-race-play")
    page.select_option("#token-expiry", "30")
    page.click("#token-form button[type=submit]")
    secret = page.locator("#token-secret").input_value()
    assert secret

    # The secret works, with its scopes: it plays, and it may not manage the account.
    from rest_framework.test import APIClient

    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert bot.get("/api/v1/games").status_code == 200
    assert bot.get("/api/v1/me/export").status_code == 403

    page.click("text=Back to your account")
    page.wait_for_selector("body[data-ready='/account']")
    row = page.locator("tr[data-kind=personal]")
    assert row.count() == 1 and "game:play" in row.inner_text()
    assert secret not in page.content()  # never shown again
    row.locator("button.revoke").click()
    page.click(".confirm .dialog button.danger")
    page.wait_for_selector("tr[data-kind=personal]", state="detached")
    assert bot.get("/api/v1/games").status_code == 401
    assert page.locator("tr[data-kind=device]").count() >= 1  # this device, marked
    assert "this device" in page.locator("tr[data-kind=device]").first.inner_text()
    assert_no_console_errors(page)


@needs_tokens_api
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_changing_the_password_and_signing_out_everywhere(live_server, new_page, make_user, device):
    user = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, user)
    _account(page, live_server.url)

    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", "a brand new passphrase 7")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector(".toast >> text=Password changed")
    user.refresh_from_db()
    assert user.check_password("a brand new passphrase 7")

    page.click("#sign-out-everywhere")
    page.click(".confirm .dialog button.danger")
    page.wait_for_selector("body[data-ready='/login']")
    assert page.evaluate("localStorage.getItem('spider.token')") is None
    assert_no_console_errors(page)


@needs_tokens_api
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_forgotten_password_is_reset_through_the_emailed_link(
    live_server, new_page, make_user, device, settings, tmp_path
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    user = make_user(email="alice@example.com")
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/login")
    page.click("text=Forgot your password?")
    page.wait_for_selector("body[data-ready='/forgot']")
    page.fill("#email", "alice@example.com")
    page.click("#forgot-form button[type=submit]")
    page.wait_for_selector("#forgot-form .notice:not(:empty)")

    mail = "".join(p.read_text() for p in Path(tmp_path).iterdir())
    link = re.search(r"https?://\S+/reset\?uid=[^&\s]+&token=\S+", mail)
    assert link, mail
    path = link.group(0).split("/reset", 1)[1]
    open_page(page, f"{live_server.url}/reset{path}")
    page.fill("#new-password", "another long passphrase 9")
    page.click("#reset-form button[type=submit]")
    page.wait_for_selector("body[data-ready='/login']")
    user.refresh_from_db()
    assert user.check_password("another long passphrase 9")
    assert_no_console_errors(page)
