"""Messages beside what they are about, in a real browser at desktop and phone sizes: a refused
move is said in a bubble under the column it concerns, gone at the next action; a toast
(the game moved on elsewhere) floats at the foot of the screen; no message ever covers a
control (a link, a button, a summary, a counter) and none moves the page (layout shift 0)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.web import OVERLAPS_JS
from tests.browser.web import (
    DEVICES,
    NETWORK_ERROR,
    layout_deal,
    open_page,
    screenshot,
    tap_card,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Every column holds a card: the Kings (columns 4 to 6, and the last) fit nowhere.
FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Ks"]
SHIFTS_JS = """
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shift += e.value;
}).observe({ type: 'layout-shift', buffered: true });
"""
BUBBLE_JS = """() => {
  const bubble = document.querySelector('.refusal').getBoundingClientRect();
  const col = document.querySelector(`.column[data-col="${
    document.querySelector('.refusal').dataset.col}"]`);
  const last = col.lastElementChild.getBoundingClientRect();
  const table = document.querySelector('.table').getBoundingClientRect();
  return { bubble: bubble.toJSON(), column: col.getBoundingClientRect().toJSON(),
    last: last.toJSON(), table: table.toJSON() };
}"""


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def covered(page: Any) -> int:
    return int(page.evaluate(OVERLAPS_JS))


@pytest.mark.parametrize("device", DEVICES)
def test_a_refusal_sits_under_its_column_and_covers_no_control(
    live_server, new_page, device
) -> None:
    layout_deal(FULL)
    page = new_page(**DEVICES[device])
    page.add_init_script(SHIFTS_JS)
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.wait_for_timeout(300)
    page.evaluate("() => { window.__shift = 0; }")  # the first drawing is not play

    for col in (3, 5, 9):  # Kings with nowhere to go: the server says why
        tap_card(page, col, 1)
        page.wait_for_selector(f'.refusal[data-col="{col}"]')
        for wait in (0, 150, 600):
            page.wait_for_timeout(wait)
            assert covered(page) == 0
        at = page.evaluate(BUBBLE_JS)
        bubble, column, last, table = at["bubble"], at["column"], at["last"], at["table"]
        assert bubble["y"] >= last["y"] + last["height"]  # under the column's last card
        assert bubble["y"] - (last["y"] + last["height"]) < 12  # right under it
        assert bubble["x"] <= column["x"] + column["width"] / 2 <= bubble["x"] + bubble["width"]
        assert (
            table["x"] <= bubble["x"]
            and bubble["x"] + bubble["width"] <= table["x"] + table["width"]
        )
        assert page.locator("#toast.show").count() == 0  # no toast besides
        if col == 9:
            screenshot(page, f"refusal-beside-{device}", full_page=False)
        page.locator(".stats").click()  # the next action, wherever: the bubble goes
        assert page.locator(".refusal").count() == 0
    assert page.evaluate("window.__shift") == 0
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 422")] == []


@pytest.mark.parametrize("device", DEVICES)
def test_a_toast_floats_at_the_foot_over_no_control(live_server, new_page, device) -> None:
    layout_deal(FULL)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    game_id = page.url.rsplit("/", 1)[1]
    # Another tab plays the 9s onto the Ts; this page does not know: its next move is a 409.
    page.evaluate(
        "id => fetch(`/api/v1/games/${id}/actions`, {method: 'POST', headers: {"
        "'Content-Type': 'application/json', Authorization: "
        "`Bearer ${localStorage.getItem('spider.token')}`}, body: JSON.stringify("
        "{type: 'move', from: 1, to: 0, count: 1})})",
        game_id,
    )
    tap_card(page, 2, 1)
    page.wait_for_selector("#toast.show.warn")
    page.wait_for_timeout(300)  # slid in
    toast = page.locator("#toast").bounding_box()
    assert toast["y"] + toast["height"] <= page.viewport_size["height"]
    assert toast["y"] > page.viewport_size["height"] / 2  # at the foot, not over the header
    assert covered(page) == 0
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 409")] == []
