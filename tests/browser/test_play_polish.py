"""The web client's polish items of issue 27 in a real browser, at desktop (1280x800) and
phone (390x844) sizes: guest play on a first visit and claiming the account, one tap to the
best place with glowing targets, confirmations for what ends a game, refusals shown on the
board, optimistic moves rolled back on refusal."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games.models import Game
from tests.browser.web import (
    DESKTOP,
    open_page,
    screenshot,
)
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_first_visit_deals_a_board_and_the_guest_can_claim_the_account(
    live_server, new_page, device
) -> None:
    pooled_deal(1, 11)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")

    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    assert page.locator("form.auth").count() == 0  # no sign-up form first
    assert page.locator("#account .guest").inner_text() == "Guest"
    game_id = page.url.rsplit("/", 1)[1]
    game = Game.objects.get(pk=game_id)
    assert game.player.is_guest and not game.ranked
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, f"guest-{device}")

    page.locator("#account a.claim").click()
    page.wait_for_selector("form.auth")
    page.fill("#username", f"claimer-{device}")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf"/play/{game_id}$"))  # the same game, resumed
    page.wait_for_selector(".column .card.up")
    assert page.locator("#account .me").inner_text() == f"claimer-{device}"
    user = User.objects.get(username=f"claimer-{device}")
    assert not user.is_guest and Game.objects.get(pk=game_id).player_id == user.pk
    assert_no_console_errors(page)
