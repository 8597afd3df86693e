"""A first visit in one round trip: the guest and its first deal come back from one request
(`POST /auth/guest {suits}`, asked by boot.js while the modules load), and the table is drawn
from it with no other request to the game API, at desktop and phone sizes."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.web import DEVICES, open_page
from tests.browser_plugin import assert_no_console_errors
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_table_comes_from_one_request(live_server, new_page, device) -> None:
    pooled_deal(1, 11)
    page = new_page(**DEVICES[device])
    asked: list[str] = []
    page.on(
        "request",
        lambda r: (
            asked.append(f"{r.method} {r.url.split('/api/v1', 1)[1]}")
            if "/api/v1/" in r.url
            else None
        ),
    )
    open_page(page, f"{live_server.url}/")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    drawn = list(asked)

    assert drawn[0] == "POST /auth/guest"
    # Nothing of the game was asked apart: no game list, no new game, no read of it.
    assert not [r for r in drawn if r.split("?")[0].split(" ")[1].startswith("/games")], drawn
    game = Game.objects.get(pk=page.url.rsplit("/", 1)[1])
    assert game.player.is_guest and game.suits == 1
    assert page.locator(".column .card.up").count() == 10  # the deal, face up on each column
    assert_no_console_errors(page)
