"""The email a player may give, in a real browser at desktop and phone sizes: on sign-up
(a new account, or a guest claiming theirs), set, changed and removed on the account page
through `PATCH /me`; the forgot-password page says plainly what those who gave none can do;
the account page's dates say when in words ("never" for never), without seconds."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from tests.browser.web import DEVICES, NETWORK_ERROR, open_page, screenshot, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_new_account_gives_an_email_on_sign_up(live_server, new_page, device) -> None:
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/signup")
    assert "Optional" in page.locator("#email-help").inner_text()
    page.fill("#username", f"mailer-{device}")
    page.fill("#password", PASSWORD)
    page.fill("#email", "not an address")
    page.click("button[type=submit]")
    page.wait_for_selector(".form-errors p")  # refused by the server, nothing made
    assert not User.objects.filter(username=f"mailer-{device}").exists()

    page.fill("#email", f"mailer-{device}@example.com")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile("/play$"))
    assert User.objects.get(username=f"mailer-{device}").email == f"mailer-{device}@example.com"
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 400")] == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_guest_claiming_the_account_gives_an_email(live_server, new_page, device) -> None:
    pooled_deal(1, 11)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.locator("#account a.claim").click()
    page.wait_for_selector("form.auth #email")
    page.fill("#username", f"claimer-{device}")
    page.fill("#password", PASSWORD)
    page.fill("#email", f"claimer-{device}@example.com")
    page.click("button[type=submit]")
    page.wait_for_selector(".column .card.up")  # the game resumed: claimed, then the email set
    user = User.objects.get(username=f"claimer-{device}")
    assert not user.is_guest
    assert user.email == f"claimer-{device}@example.com"
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_account_page_sets_and_removes_the_email(
    live_server, new_page, make_user, device
) -> None:
    user = make_user(email="")
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, user)
    open_page(page, f"{live_server.url}/account")
    page.wait_for_selector("body[data-ready='/account']")
    page.wait_for_selector("#email-form")
    assert "cannot be reset" in page.locator("#email-help").inner_text()
    page.fill("#email", "me@example.com")
    page.locator("#email-form button").click()
    page.wait_for_function(
        "() => document.querySelector('#email-help').textContent.includes('sent here')"
    )
    user.refresh_from_db()
    assert user.email == "me@example.com"

    page.reload()
    page.wait_for_function("() => document.querySelector('#email')?.value === 'me@example.com'")
    delete_text = page.locator("#delete-form p.small").inner_text()
    assert "email (if you gave one)" in delete_text
    # Dates in words: no seconds anywhere, and "never" for a token never used.
    tokens = page.locator(".tokens").first.inner_text()
    assert not re.search(r"\d:\d\d:\d\d", tokens) and "—" not in tokens
    screenshot(page, f"account-email-{device}")

    page.fill("#email", "")
    page.locator("#email-form button").click()
    page.wait_for_function(
        "() => document.querySelector('#email-help').textContent.includes('None yet')"
    )
    user.refresh_from_db()
    assert user.email == ""
    assert_no_console_errors(page)


def test_forgot_password_says_the_options_without_an_email(live_server, new_page) -> None:
    page = new_page(**DEVICES["phone"])
    open_page(page, f"{live_server.url}/forgot")
    said = page.locator("#no-email").inner_text()
    assert "Gave no email?" in said and "account page" in said
    assert_no_console_errors(page)
