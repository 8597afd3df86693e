"""A first visit in one round trip: the guest and its first deal come back from one request
(`POST /auth/guest {suits}`, asked by boot.js while the modules load), and the table is drawn
from it with no other request to the game API, at desktop and phone sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

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


def test_a_late_boot_script_makes_no_second_guest(live_server, new_page) -> None:
    """boot.js is an async module: on a loaded machine the router can draw the play route
    before it runs. The first visit still makes one guest, and the table gets the one deal
    the pool holds (a second guest would take it, and the table would find the pool empty)."""
    pooled_deal(1, 11)
    page = new_page(**DEVICES["desktop"])
    held: dict[str, Any] = {}
    guests: list[str] = []

    def hold_boot(route: Any) -> None:
        # Kept until the router has asked for the guest; marked so the test knows it ran.
        held["boot"] = route

    def on_guest(route: Any) -> None:
        guests.append(route.request.post_data or "")
        boot = held.pop("boot", None)
        if boot is None:
            route.continue_()
            return
        held["guest"] = route  # the router's request waits until boot.js has run
        body = boot.fetch().text() + "\nwindow.spiderBootRan = true;\n"
        boot.fulfill(status=200, content_type="text/javascript", body=body)

    page.route(re.compile(r"/static/web/boot\.js"), hold_boot)
    page.route(re.compile(r"/api/v1/auth/guest$"), on_guest)
    page.goto(f"{live_server.url}/")
    page.wait_for_function("window.spiderBootRan === true")
    page.wait_for_timeout(200)  # boot.js's own request, if any, reaches the route
    held.pop("guest").continue_()
    page.wait_for_selector("body[data-ready]")

    assert len(guests) == 1, guests
    assert get_user_model().objects.filter(is_guest=True).count() == 1
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    assert page.locator(".column .card.up").count() == 10
    assert_no_console_errors(page)


def test_a_failed_boot_request_is_asked_once_more(live_server, new_page) -> None:
    """boot.js's request never reaches the server (a dropped connection): the play route asks
    once itself, and the table is drawn from that one guest's deal."""
    pooled_deal(1, 11)
    page = new_page(**DEVICES["desktop"])
    guests: list[str] = []

    def on_guest(route: Any) -> None:
        guests.append(route.request.post_data or "")
        if len(guests) == 1:
            route.abort()
        else:
            route.continue_()

    page.route(re.compile(r"/api/v1/auth/guest$"), on_guest)
    open_page(page, f"{live_server.url}/")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))

    assert len(guests) == 2, guests
    assert get_user_model().objects.filter(is_guest=True).count() == 1
    assert page.locator(".column .card.up").count() == 10
