"""The game screen on a phone, in a real browser: a one-row header (at most 56 px), cards as
wide as ten columns allow, nothing cut off by the screen's edges, from 360 to 430 px wide
and on its side; a desktop keeps its layout."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.web import (
    DESKTOP,
    LANDSCAPE,
    PHONE,
    layout_deal,
    open_page,
    screenshot,
    sign_in,
)
from tests.browser_plugin import assert_no_console_errors

pytestmark = pytest.mark.django_db(transaction=True)

SIZES: dict[str, dict[str, Any]] = {
    "phone": PHONE,  # 390 x 844
    "small-phone": {**PHONE, "viewport": {"width": 360, "height": 740}},
    "large-phone": {**PHONE, "viewport": {"width": 430, "height": 932}},
    "landscape": LANDSCAPE,
    "desktop": DESKTOP,
}
COLUMNS = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Qs", "|Js", "|Ts", "|9s", "|8s", "|7s"]

# Every control's box, and the header's; a control "cut" is one the screen's edge crosses
# (partly on screen): one wholly below the fold is reached by scrolling, as a page is.
MEASURE_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const controls = [...document.querySelectorAll(
    'header a, header button, .game button, .game summary, .game a')]
    .filter((el) => el.offsetParent !== null && box(el).width > 0);
  const cut = controls.filter((el) => {
    const b = box(el);
    return b.left < -0.5 || b.right > innerWidth + 0.5
      || (b.top < innerHeight - 0.5 && b.bottom > innerHeight + 0.5);
  }).map((el) => `${el.tagName} ${el.textContent.trim()} ${JSON.stringify(box(el))}`);
  const header = box(document.querySelector('header.top'));
  const middles = [...document.querySelectorAll('header.top a, header.top button')]
    .filter((el) => el.offsetParent !== null).map((el) => (box(el).top + box(el).bottom) / 2);
  const column = box(document.querySelector('.column'));
  const card = box(document.querySelector('.column .card.up'));
  return { cut, header: header.height, columnWidth: column.width,
    headerSpread: Math.max(...middles) - Math.min(...middles), cardWidth: card.width,
    tableWidth: box(document.querySelector('.columns')).width,
    scrollWidth: document.documentElement.scrollWidth };
}"""


def measure(page: Any) -> dict[str, Any]:
    return page.evaluate(MEASURE_JS)


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("who", ["guest", "player"])
def test_the_header_is_one_row_and_nothing_is_cut_off(
    live_server, new_page, size, who, user
) -> None:
    layout_deal(COLUMNS)
    page = new_page(**SIZES[size])
    if who == "player":
        sign_in(page, live_server.url, user)
        open_page(page, f"{live_server.url}/play")
        page.get_by_role("button", name="New 1 suit").click()
    else:
        open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.wait_for_timeout(200)  # the table laid out again once measured
    width = SIZES[size]["viewport"]["width"]
    figures = measure(page)

    assert figures["scrollWidth"] <= width, figures
    assert figures["cut"] == [], figures["cut"]
    assert figures["headerSpread"] < 8, figures  # one row: every link's middle on one line
    if size != "desktop":
        assert figures["header"] <= 56, figures
    if width <= 430:
        # Ten columns across the screen: a card is a tenth of it but for the gaps (3 px each).
        assert figures["cardWidth"] >= (width - 4 - 9 * 3) / 10 - 0.5, figures
    # The leaderboard's link is named as it reads: "Board" on a phone (axe: the name holds
    # the visible label), "Leaderboard" elsewhere.
    short = width <= 430
    name = "Board" if short else "Leaderboard"
    assert page.get_by_role("link", name=name, exact=True).count() == 1
    if who == "guest":
        assert page.locator("#account a.claim").is_visible()
    else:
        assert page.get_by_role("button", name="Sign out").is_visible()
    screenshot(page, f"layout-{size}-{who}", full_page=False)
    assert_no_console_errors(page)
