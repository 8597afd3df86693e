"""Every word right, in a real browser at desktop and phone sizes: a guest's win says it does
not rank because they play as a guest and offers to sign up; the daily offers signed-out
visitors and guests a practice game, not a ranked attempt they cannot have, and never an
"Analyse" the server would refuse; refusals read as sentences, without a field's API name; a
stuck hint says "no useful move" once."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from games.models import Game
from leaderboard import services as daily_services
from tests.browser.web import (
    DEVICES,
    NETWORK_ERROR,
    layout_deal,
    open_page,
    screenshot,
    sign_in,
    tap_card,
)
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import NEAR_WIN
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

# Moves exist, none useful: the hint says so.
NO_USEFUL = ["|9s8s", "|9s", "|Ks", "|Ks", "|Js", "|Js", "|5s", "|5s", "|3s", "|3s"]
FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js"]


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def first_visit(live_server, new_page, device: str, columns: list[str]):
    layout_deal(columns)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    return page


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_guests_win_says_why_it_does_not_rank_and_offers_sign_up(
    live_server, new_page, device
) -> None:
    page = first_visit(live_server, new_page, device, NEAR_WIN)
    tap_card(page, 1, 1)  # the As onto the 2s: the run leaves, the table is empty: won

    place = page.locator(".dialog .place")
    place.wait_for()
    page.wait_for_function("() => document.querySelector('.dialog .place').textContent")
    assert "does not rank because you play as a guest" in place.inner_text()
    assert "replay" not in place.inner_text()
    assert place.locator("a").get_attribute("href") == "/signup"
    screenshot(page, f"win-guest-{device}")
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_daily_offers_visitors_and_guests_a_practice_game(
    live_server, new_page, device
) -> None:
    pooled_deal(2, 11)
    daily_services.daily_ensure(day=timezone.now().date())
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/daily")

    attempt = page.locator(".attempt")
    attempt.wait_for()
    text = attempt.inner_text()
    assert "as a guest" in text and "practice" in text and "ranked attempt" in text
    screenshot(page, f"daily-visitor-{device}")
    assert page.get_by_role("button", name="Play your ranked attempt").count() == 0
    page.get_by_role("button", name="Play as practice").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    game = Game.objects.get()
    assert game.kind == "daily" and not game.ranked and game.player.is_guest
    assert "daily practice" in page.locator(".stat-game dd").inner_text()

    # Today's daily, lost: no "Analyse" (the server refuses it until the day closes).
    page.get_by_role("button", name="New game…").click()
    page.get_by_role("button", name="Resign this game").click()
    page.locator(".confirm .danger").click()
    page.wait_for_selector(".notice .buttons")
    assert page.locator(".analyse").count() == 0

    open_page(page, f"{live_server.url}/daily")  # a guest now, with a game played
    text = page.locator(".attempt").inner_text()
    assert "You play as a guest" in text
    assert page.get_by_role("button", name="Play your ranked attempt").count() == 0
    assert "Practise" not in page.locator("main").inner_text()
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_refusals_are_sentences_without_field_names(
    live_server, new_page, make_user, device
) -> None:
    page = first_visit(live_server, new_page, device, FULL)
    tap_card(page, 3, 1)  # a Ks with nowhere to go: the server says so
    refusal = page.locator(".refusal")
    refusal.wait_for()
    words = refusal.inner_text()
    assert words.startswith("No column can take") and words.endswith("."), words

    user = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, user)
    open_page(page, f"{live_server.url}/account")
    page.fill("#current-password", "not my password at all")
    page.fill("#new-password", "a brand new passphrase 7")
    page.locator("#password-form button[type=submit]").click()
    errors = page.locator("#password-form .form-errors")
    errors.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('#password-form .form-errors').textContent"
    )
    said = errors.inner_text()
    assert "current_password" not in said and said[0].isupper(), said
    assert [e for e in page.errors if not e.startswith(NETWORK_ERROR)] == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_stuck_hint_says_no_useful_move_once(live_server, new_page, device) -> None:
    page = first_visit(live_server, new_page, device, NO_USEFUL)
    page.get_by_role("button", name="Hint", exact=True).click()
    hint = page.locator(".hint-box .hint")
    hint.wait_for()
    said = hint.inner_text()
    assert len(re.findall("no useful move", said, re.IGNORECASE)) == 1, said
    assert_no_console_errors(page)
