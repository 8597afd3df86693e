"""Accessibility, in a real browser at desktop and phone sizes: axe-core (from the npm
registry) finds no serious or critical violation on any page; the columns and cards have
roles a screen reader announces; a confirmation dialog keeps the focus inside it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from leaderboard import services as daily_services
from tests.browser.web import (
    DEVICES,
    axe_serious,
    layout_deal,
    open_page,
    sign_in,
    tap_card,
    tap_column,
    wait_confirmed,
)
from tests.browser_plugin import assert_no_console_errors
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = ["/daily", "/leaderboard", "/rules", "/race", "/login", "/signup", "/forgot"]
SIGNED_IN = ["/account", "/apps", "/account/tokens/new"]


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_no_serious_violation_on_any_page(live_server, new_page, make_user, device) -> None:
    pooled_deal(1, 11)
    pooled_deal(2, 13)
    daily_services.daily_ensure(day=timezone.now().date())
    page = new_page(**DEVICES[device], bypass_csp=True)
    found: dict[str, list[str]] = {}

    open_page(page, f"{live_server.url}/")  # a first visit: a guest's table
    page.wait_for_selector(".column .card.up")
    found["/ (the game)"] = axe_serious(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_selector(".hint-box .hint")
    found["/ (a hint)"] = axe_serious(page)
    for path in PAGES:
        open_page(page, f"{live_server.url}{path}")
        found[path] = axe_serious(page)

    user = make_user()
    page = new_page(**DEVICES[device], bypass_csp=True)
    sign_in(page, live_server.url, user)
    for path in [*SIGNED_IN, f"/players/{user.username}"]:
        open_page(page, f"{live_server.url}{path}")
        found[path] = axe_serious(page)
    assert {path: v for path, v in found.items() if v} == {}


FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js"]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_columns_and_cards_have_roles_and_dialogs_keep_the_focus(
    live_server, new_page, device
) -> None:
    layout_deal(FULL)
    page = new_page(**DEVICES[device])
    page.add_init_script("localStorage.setItem('spider.onetap', 'off')")
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")

    first = page.get_by_role("list", name="Column 1: 1 face-down: 10 of spades")
    assert first.get_by_role("listitem").count() == 2
    assert first.get_by_role("listitem", name="10 of spades").count() == 1
    assert first.get_by_role("listitem", name="face-down card").count() == 1
    assert page.get_by_role("list").count() >= 10

    tap_card(page, 1, 1)
    tap_column(page, 0)
    wait_confirmed(page, 1)
    page.get_by_role("button", name="New game…").click()
    page.locator('.menu button[data-suits="1"]').click()
    dialog = page.get_by_role("alertdialog")
    dialog.wait_for()
    for key in ["Tab"] * 5 + ["Shift+Tab"] * 5:
        page.keyboard.press(key)
        assert page.evaluate(
            "() => Boolean(document.activeElement.closest('[role=alertdialog]'))"
        ), key
    page.keyboard.press("Escape")
    assert page.get_by_role("alertdialog").count() == 0
    assert_no_console_errors(page)
