"""Nothing jumps, in a real browser at desktop and phone sizes: hints, toasts and notices come
and go without moving the table (the layout shifts Chromium reports while playing add up to
0, measured with a PerformanceObserver), and on a phone every control is a touch target of
at least 44x44 CSS px and the cards' ranks are readable."""

from __future__ import annotations

import pytest

from tests.browser.web import DEVICES, open_page, screenshot, wait_confirmed
from tests.browser_plugin import assert_no_console_errors
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

# Every layout shift the page reports, with what moved (whether or not input came just
# before: a hint asked for by a tap must not move the table either).
SHIFTS_JS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__shifts.push({
      value: e.value,
      sources: (e.sources || []).map((s) => s.node
        ? (s.node.className || s.node.nodeName) + ' ' + JSON.stringify(s.previousRect)
          + ' -> ' + JSON.stringify(s.currentRect) : '?'),
    });
  }
}).observe({ type: 'layout-shift', buffered: true });
"""


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def shifts(page) -> list[dict]:
    return page.evaluate("() => window.__shifts.splice(0)")


def play_with_hints(page, rounds: int) -> None:
    """Ask for a hint and tap its card (or the stock) ``rounds`` times; a next hint, an undo
    and a refused tap on the way."""
    hint_button = page.get_by_role("button", name="Hint", exact=True)
    for n in range(rounds):
        version = int(page.evaluate("document.querySelector('.table').dataset.version"))
        hint_button.click()
        hint = page.wait_for_selector(".hint-box .hint")
        if n == 1:
            page.get_by_role("button", name="Next hint", exact=True).click()
            page.wait_for_selector('.hint-box .hint[data-n="1"]')
            version += 1
        kind = hint.get_attribute("data-type")
        if kind == "move":
            frm, count = hint.get_attribute("data-from"), hint.get_attribute("data-count")
            page.locator(f'.column[data-col="{frm}"] .card.up[data-count="{count}"]').click(
                position={"x": 6, "y": 4}
            )
        elif kind == "deal":
            page.locator(".stock").click()
        else:
            break
        wait_confirmed(page, version + 2)
        page.wait_for_selector(".hint-box .hint", state="detached")
    page.get_by_role("button", name="Undo", exact=True).click()
    page.wait_for_timeout(300)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_hints_toasts_and_notices_never_move_the_table(live_server, new_page, device) -> None:
    pooled_deal(1, 11)
    page = new_page(**DEVICES[device])
    page.add_init_script(SHIFTS_JS)
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.wait_for_timeout(300)
    shifts(page)  # what the first drawing did is not play

    play_with_hints(page, 6)

    page.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_selector(".hint-box .hint")
    moved = shifts(page)
    assert sum(s["value"] for s in moved) == 0, moved
    screenshot(page, f"hint-{device}", full_page=False)
    assert_no_console_errors(page)


def test_phone_touch_targets_and_readable_cards(live_server, new_page) -> None:
    pooled_deal(1, 11)
    page = new_page(**DEVICES["phone"])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")

    small = page.evaluate(
        """() => [...document.querySelectorAll(
            'header a, header button, .game button, .stock, .game summary')]
          .filter((el) => el.offsetParent !== null)
          .map((el) => [el.textContent.trim().slice(0, 20), el.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([t, r]) => `${t}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == [], "\n".join(small)
    corner = page.evaluate(
        """() => {
          const card = document.querySelector('.card.up');
          const rank = card.querySelector('.corner');
          return { width: card.getBoundingClientRect().width,
                   font: parseFloat(getComputedStyle(rank).fontSize) };
        }"""
    )
    assert corner["width"] >= 34 and corner["font"] >= 14, corner
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
