"""A guest names itself on the account page (the rules of a username, a name taken said
plainly) and reaches its statistics from the header, at desktop and phone sizes."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from tests.browser.web import DEVICES, NETWORK_ERROR, axe_serious, open_page, screenshot
from tests.browser_plugin import assert_no_console_errors
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_guest_chooses_a_name_and_reaches_its_statistics(
    live_server, new_page, make_user, device
) -> None:
    pooled_deal(1, 11)
    make_user("taken-name")
    page = new_page(**DEVICES[device], bypass_csp=True)
    open_page(page, f"{live_server.url}/")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    assert page.locator("#account .me.guest").inner_text() == "Guest"

    page.locator("#account a.account-link").click()
    page.wait_for_selector("body[data-ready='/account'] #name-form")
    assert axe_serious(page) == []
    page.fill("#guest-name", "Taken-Name")
    page.click("#name-form button[type=submit]")
    error = page.locator("#name-form .form-errors")
    error.filter(has_text="taken").wait_for()
    assert error.inner_text() == "That username is taken; choose another."
    page.fill("#guest-name", f"owl_{device}")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector(f".toast >> text=You play as owl_{device}.")
    assert page.locator("#account .me.guest").inner_text() == f"owl_{device}"
    user = User.objects.get(username=f"owl_{device}")
    assert user.is_guest
    screenshot(page, f"account-guest-{device}")

    if device == "phone":  # the header is one row there: its statistics from the account page
        page.locator("#my-stats").click()
    else:
        page.locator("#account .me.guest").click()  # its statistics
    page.wait_for_selector(f"body[data-ready='/players/owl_{device}']")
    assert page.locator("h1").inner_text() == f"owl_{device}"
    assert page.locator(".player .mode").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.errors[:] = [e for e in page.errors if not e.startswith(NETWORK_ERROR)]  # the 409
    assert_no_console_errors(page)
