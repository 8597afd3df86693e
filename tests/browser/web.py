"""Helpers for the web client's browser tests: sign a player in, set up small deals, drive the
table like a person (taps at a card's visible corner, drags with the mouse), and save
screenshots when WEB_SCREENSHOTS names a directory (that is how docs/screenshots is made)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from games.models import Deal
from tests.conftest import token_of
from tests.games.api.helpers import pooled_layout_deal

# The sizes the client is tried at: a phone held upright and sideways, and a desktop.
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}

# A 1-suit layout the hint-follower wins in four moves (turning two face-down cards).
SHORT_WIN = ["|KsQsJsTs9s8s", "2s|7s6s5s", "As|4s3s"]
# A layout with one move to make (9s onto Ts) and one refusal to try (9s onto 8s... or Ks).
TWO_MOVES = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks"]
# No move and no deal from the start: every top card is two ranks from the others.
STUCK = ["|Ks", "|Ks", "|Js", "|Js", "|9s", "|9s", "|7s", "|7s", "|5s", "|5s"]

# Chromium logs every HTTP error answer to fetch as a console error of its own ("Failed to
# load resource"); a test that provokes a refusal on purpose allows exactly those.
NETWORK_ERROR = "Failed to load resource: the server responded with a status of"


def layout_deal(columns: list[str], suits: int = 1) -> Deal:
    return pooled_layout_deal(columns, suits=suits)


def sign_in(page: Any, base: str, user: Any) -> None:
    """Put the player's token where the client keeps it (what logging in does). One-tap is
    turned off (tap a card, then a column: the tests name where each move goes)."""
    page.goto(f"{base}/login")
    page.wait_for_selector("body[data-ready]")
    page.evaluate(
        "([token, name]) => { localStorage.setItem('spider.token', token);"
        " localStorage.setItem('spider.user', name);"
        " localStorage.setItem('spider.onetap', 'off'); }",
        [token_of(user), user.username],
    )


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]")


def card(page: Any, col: int, count: int) -> Any:
    """The face-up card of column ``col`` with ``count`` cards from it to the top."""
    return page.locator(f'.column[data-col="{col}"] .card.up[data-count="{count}"]')


def tap_card(page: Any, col: int, count: int) -> None:
    card(page, col, count).click(position={"x": 6, "y": 4})  # its corner shows under the next


def tap_column(page: Any, col: int) -> None:
    page.locator(f'.column[data-col="{col}"]').click(position={"x": 6, "y": 4})


def drag(page: Any, col: int, count: int, to: int) -> None:
    source = card(page, col, count).bounding_box()
    target = page.locator(f'.column[data-col="{to}"]').bounding_box()
    page.mouse.move(source["x"] + 6, source["y"] + 4)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 30, steps=6)
    page.mouse.up()


def column_cards(page: Any, col: int) -> list[str]:
    return page.eval_on_selector_all(
        f'.column[data-col="{col}"] .card.up', "cards => cards.map(c => c.dataset.card)"
    )


def stat(page: Any, name: str) -> str:
    return page.locator(f".stat-{name} dd").inner_text()


def wait_stat(page: Any, name: str, value: str) -> None:
    page.wait_for_function(
        "([name, value]) => document.querySelector(`.stat-${name} dd`)?.textContent === value",
        arg=[name, value],
    )


def wait_confirmed(page: Any, version: int) -> None:
    """Until the table shows the server's answer at ``version`` (a move is drawn before it)."""
    page.wait_for_function(
        "v => document.querySelector('.table')?.dataset.version === v", arg=str(version)
    )


def screenshot(page: Any, name: str, *, full_page: bool = True) -> None:
    """``full_page=False``: what the screen shows (a page as long as the rulebook)."""
    folder = os.environ.get("WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(250)  # let the toast and layout settle
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


# axe-core, from the npm registry (package.json's devDependencies; `make test` installs it).
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AXE_JS = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}"""


def axe_serious(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it is
    (the page's context needs ``bypass_csp=True``: axe is injected as a script)."""
    if not AXE.exists():
        message = "no axe-core: run `npm ci` (make test does)"
        if os.environ.get("BROWSER_TESTS") == "required":
            pytest.fail(message)
        pytest.skip(message)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(AXE_JS)
    return [
        f"{v['id']} ({v['impact']}): {v['nodes']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
