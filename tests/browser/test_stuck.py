"""A stuck game in a real browser: the client shows "stuck" on the board when the server
says so (the state's ``stuck``, or a hint with no useful move), with the ways out, announced in
the live region; and it never suggests a move back to a position it has shown in this game,
whatever a hint says."""

from __future__ import annotations

import json

import pytest

from tests.browser.web import (
    DEVICES,
    STUCK,
    column_cards,
    layout_deal,
    open_page,
    screenshot,
    tap_card,
    tap_column,
    wait_confirmed,
)
from tests.browser_plugin import assert_no_console_errors

pytestmark = pytest.mark.django_db(transaction=True)


# Not stuck (the 8s may step over to the other 9s and back) but nothing is useful: no card is
# face down, the stock is out, and the step only renumbers the same cards.
NO_USEFUL = ["|9s8s", "|9s", "|Ks", "|Ks", "|Js", "|Js", "|5s", "|5s", "|3s", "|3s"]
LIVE = '.game .visually-hidden[aria-live="polite"]'


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def guest_game(live_server, new_page, device: str, columns: list[str]):
    layout_deal(columns)
    page = new_page(**DEVICES[device])
    page.add_init_script("localStorage.setItem('spider.onetap', 'off')")
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    return page


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_hint_with_no_useful_move_flags_the_game_stuck(live_server, new_page, device) -> None:
    page = guest_game(live_server, new_page, device, NO_USEFUL)
    assert page.locator(".notice.stuck").count() == 0  # the state is not stuck: moves exist

    page.get_by_role("button", name="Hint", exact=True).click()

    banner = page.locator(".notice.stuck")
    banner.wait_for()
    assert banner.get_attribute("role") == "alert"
    assert banner.locator(".stuck-badge").text_content() == "Stuck"
    assert "No useful move" in banner.inner_text()
    assert banner.get_by_role("button", name="New deal").is_visible()
    assert banner.get_by_role("button", name="Undo").count() == 0  # nothing to undo yet
    assert page.locator(".table.stuck").count() == 1
    assert page.locator('.hint-box .hint[data-type="none"]').count() == 1
    page.wait_for_function(f"() => document.querySelector('{LIVE}').textContent.includes('Stuck')")
    assert banner.bounding_box()["width"] <= page.viewport_size["width"]
    screenshot(page, f"stuck-no-useful-move-{device}")

    # A move is an action: the banner goes; asked again, it comes back, offering undo now.
    tap_card(page, 0, 1)
    tap_column(page, 1)
    wait_confirmed(page, 1)
    assert page.locator(".notice.stuck").count() == 0
    page.get_by_role("button", name="Hint", exact=True).click()
    banner.wait_for()
    undo = banner.get_by_role("button", name="Undo")
    assert undo.is_visible()
    undo.click()
    page.wait_for_function("() => !document.querySelector('.notice.stuck')")
    assert column_cards(page, 0) == ["9s", "8s"]
    assert_no_console_errors(page)


def test_a_hint_leading_back_is_not_suggested(live_server, new_page) -> None:
    """Should a hint name the move back to a position already shown (the server never does:
    docs/rules.md#hints), the client does not walk the circle: it says stuck instead."""
    page = guest_game(live_server, new_page, "desktop", NO_USEFUL)
    tap_card(page, 0, 1)  # the 8s onto the other 9s ...
    tap_column(page, 1)
    wait_confirmed(page, 1)

    def back(route) -> None:
        answer = route.fetch().json()
        # ... and a hint (doctored here) to move it back: the position the game started in.
        answer["action"] = {"type": "move", "from": 1, "to": 0, "count": 1, "version": 1}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/hint", back)
    page.get_by_role("button", name="Hint", exact=True).click()

    banner = page.locator(".notice.stuck")
    banner.wait_for()
    assert "leads back to a position already seen" in banner.inner_text()
    assert page.locator('.hint-box .hint[data-type="none"]').count() == 1
    assert page.locator(".column.target, .card.hinted").count() == 0
    assert_no_console_errors(page)


def test_a_stuck_state_is_said_on_the_board_and_in_the_live_region(live_server, new_page):
    page = guest_game(live_server, new_page, "phone", STUCK)

    banner = page.locator(".notice.stuck")
    banner.wait_for()
    assert "this deal is stuck" in banner.inner_text()
    assert banner.locator(".stuck-badge").is_visible()
    assert banner.get_by_role("button", name="Replay this deal").is_visible()
    assert page.locator(".table.stuck").count() == 1
    page.wait_for_function(f"() => document.querySelector('{LIVE}').textContent.includes('Stuck')")
    screenshot(page, "stuck-state-phone")
    assert_no_console_errors(page)
