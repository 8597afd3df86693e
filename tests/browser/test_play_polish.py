"""The web client's finish in a real browser, at desktop (1280x800) and
phone (390x844) sizes: guest play on a first visit and claiming the account, one tap to the
best place with glowing targets, confirmations for what ends a game, refusals shown on the
board, optimistic moves rolled back on refusal."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games.models import Game
from preferences.models import PlayerSettings
from tests.browser.web import (
    DESKTOP,
    DEVICES,
    LANDSCAPE,
    NETWORK_ERROR,
    card,
    column_cards,
    layout_deal,
    open_page,
    screenshot,
    stat,
    tap_card,
    tap_column,
    wait_stat,
)
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)


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


# Every column holds a card, so each card has few places to go: the 9s fits only on the Ts
# (column 1), the 8s only on the 9s; a King fits nowhere (no empty column).
FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js"]
# Empty columns too: the 9s fits on the Ts and in six empty columns (the server picks the Ts).
SEVERAL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks"]


def guest_board(live_server, new_page, device: str, columns: list[str], **options):
    """A first visit (a guest) dealt ``columns``; one-tap as it comes unless told."""
    layout_deal(columns)
    page = new_page(**DEVICES[device])
    if "one_tap" in options:
        page.add_init_script(f"localStorage.setItem('spider.onetap', '{options['one_tap']}')")
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    return page


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_one_tap_moves_to_the_only_place_at_once(live_server, new_page, device) -> None:
    page = guest_board(live_server, new_page, device, FULL)

    def slow(route) -> None:
        page.wait_for_timeout(300)  # the answer comes late: the move shows meanwhile
        route.continue_()

    page.route("**/actions", slow)
    tap_card(page, 1, 1)  # the 9s: only the Ts takes it

    page.wait_for_function(
        "() => document.querySelectorAll('.column[data-col=\"0\"] .card.up').length === 2"
    )
    assert page.evaluate("document.querySelector('.table').dataset.version") == "0"  # unanswered
    assert column_cards(page, 0) == ["Ts", "9s"]
    wait_stat(page, "moves", "1")
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '1'")
    assert column_cards(page, 1) == ["Qs"]  # what it turned over came with the answer
    # Covered cards are strips big enough to tap, on a phone too.
    boxes = [card(page, 0, n).bounding_box() for n in (2, 1)]
    assert boxes[1]["y"] - boxes[0]["y"] >= (24 if device == "phone" else 17)
    screenshot(page, f"one-tap-{device}")
    assert_no_console_errors(page)


def test_one_tap_with_several_places_glows_them_and_the_server_picks(live_server, new_page):
    page = guest_board(live_server, new_page, "desktop", SEVERAL)

    tap_card(page, 1, 1)

    page.wait_for_selector(".column.glow")
    glowing = page.eval_on_selector_all(".column.glow", "cols => cols.map(c => +c.dataset.col)")
    assert set(glowing) == {0, 4, 5, 6, 7, 8, 9}
    wait_stat(page, "moves", "1")
    assert column_cards(page, 0) == ["Ts", "9s"]  # same suit first (docs/rules.md)
    assert_no_console_errors(page)


def test_one_tap_can_be_turned_off(live_server, new_page):
    page = guest_board(live_server, new_page, "desktop", FULL)
    page.locator("details.settings summary").click()
    page.locator("#one-tap").uncheck()

    tap_card(page, 1, 1)
    assert page.locator(".card.selected").count() == 1  # picked up, not moved
    assert stat(page, "moves") == "0"
    tap_column(page, 0)
    wait_stat(page, "moves", "1")
    # Kept with the (guest) account, not only on this device.
    page.wait_for_function("() => localStorage.getItem('spider.settings.pending') === null")
    assert PlayerSettings.objects.get(player=Game.objects.get().player).one_tap is False
    page.reload()
    page.wait_for_selector(".column .card.up")
    assert not page.locator("#one-tap").is_checked()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_refusal_shakes_the_cards_and_marks_the_column(live_server, new_page, device) -> None:
    page = guest_board(live_server, new_page, device, FULL)

    tap_card(page, 3, 1)  # a King: no column takes it

    page.wait_for_selector('.column[data-col="3"] .card.shake')
    refusal = page.locator('.table .refusal[data-col="3"]')  # beside the King's column
    refusal.wait_for()
    assert "column 4" in refusal.inner_text()
    page.locator("details.settings summary").click()
    assert page.locator(".refusal").count() == 0  # gone at the next action
    page.locator("#one-tap").uncheck()
    tap_card(page, 2, 1)  # the 8s onto the Ks of column 4: refused
    tap_column(page, 3)
    page.wait_for_selector('.column[data-col="3"].refused')
    page.wait_for_selector('.column[data-col="2"] .card.shake')
    refusal = page.locator('.table .refusal[data-col="3"]')  # beside the column refusing
    assert "8♠ cannot go on K♠ in column 4" in refusal.inner_text()
    screenshot(page, f"refused-shake-{device}")
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 422")] == []


def test_an_optimistic_move_is_rolled_back_when_the_server_refuses(live_server, new_page):
    page = guest_board(live_server, new_page, "desktop", FULL)
    refusal = {"code": "rank_mismatch", "detail": "refused by the test"}

    def refuse(route) -> None:
        page.wait_for_timeout(400)  # the board shows the move meanwhile
        route.fulfill(status=422, json=refusal)

    page.route("**/actions", refuse)
    tap_card(page, 1, 1)
    assert column_cards(page, 0) == ["Ts", "9s"]  # drawn at once

    page.wait_for_selector(".refusal")
    assert column_cards(page, 0) == ["Ts"] and column_cards(page, 1) == ["9s"]  # rolled back
    assert stat(page, "moves") == "0"
    page.wait_for_selector('.column[data-col="1"] .card.shake')
    assert Game.objects.get().actions == 0


def test_a_version_conflict_shows_the_servers_state(live_server, new_page):
    page = guest_board(live_server, new_page, "desktop", FULL)
    game_id = page.url.rsplit("/", 1)[1]
    # Another tab plays the 9s onto the Ts; this page does not know.
    page.evaluate(
        "id => fetch(`/api/v1/games/${id}/actions`, {method: 'POST', headers: {"
        "'Content-Type': 'application/json', Authorization: "
        "`Bearer ${localStorage.getItem('spider.token')}`}, body: JSON.stringify("
        "{type: 'move', from: 1, to: 0, count: 1})})",
        game_id,
    )
    tap_card(page, 2, 1)  # the 8s, sent with the old version: 409 with the game as it is
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '1'")
    assert column_cards(page, 0) == ["Ts", "9s"]  # the server's state, drawn
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 409")] == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_new_game_and_resign_ask_first(live_server, new_page, device) -> None:
    page = guest_board(live_server, new_page, device, FULL)
    first = page.url
    tap_card(page, 1, 1)
    wait_stat(page, "moves", "1")
    # The move is drawn before the answer: let the server's write end before this one (on
    # SQLite the two would meet on a locked table).
    page.wait_for_selector('.table[data-version="1"]')
    pooled_deal(1, 12)

    page.get_by_role("button", name="New game…").click()
    page.locator('.menu button[data-suits="1"]').click()
    dialog = page.get_by_role("alertdialog")
    dialog.wait_for()
    assert "counts as a loss" in dialog.inner_text()
    screenshot(page, f"confirm-new-game-{device}")
    dialog.get_by_role("button", name="Cancel").click()
    assert page.url == first and page.get_by_role("alertdialog").count() == 0

    page.locator(".menu button.danger").click()  # Resign this game (the menu is still open)
    page.get_by_role("alertdialog").get_by_role("button", name="Resign").click()
    page.wait_for_selector(".notice")
    assert Game.objects.get(pk=first.rsplit("/", 1)[1]).status == "lost"
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_sign_up_errors_sit_under_their_fields_once_each(live_server, new_page, device) -> None:
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/signup")
    assert page.locator("#password-help").inner_text().startswith("At least 8 characters")

    page.fill("#username", "a b")  # malformed, and a password too short: both said at once
    page.fill("#password", "short")
    page.click("button[type=submit]")

    page.wait_for_selector("#username[aria-invalid=true]")
    text = page.locator("#username-error").inner_text()
    assert text and "username" not in text.split()[0].lower()  # no raw field name first
    assert len(set(text.split(". "))) == len(text.split(". "))  # each message once
    assert page.get_attribute("#username", "aria-describedby") == "username-help username-error"
    screenshot(page, f"signup-errors-{device}")
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 400")] == []


def test_pick_ups_and_moves_are_announced(live_server, new_page) -> None:
    page = guest_board(live_server, new_page, "desktop", FULL, one_tap="off")
    live = page.locator('.game [aria-live="polite"][role="status"]')

    tap_card(page, 1, 1)
    assert live.inner_text() == "Picked up 9 of spades from column 2."
    tap_column(page, 0)
    page.wait_for_function(
        "() => document.querySelector('.game .visually-hidden[aria-live]')"
        ".textContent.startsWith('9 of spades to column 1')"
    )
    assert "column 2 turns over the queen of spades" in live.inner_text()
    assert_no_console_errors(page)


def test_keys_z_undoes_and_n_starts_a_new_game_after_asking(live_server, new_page) -> None:
    page = guest_board(live_server, new_page, "desktop", FULL)
    first = page.url
    tap_card(page, 1, 1)
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '1'")

    page.keyboard.press("z")
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '2'")
    assert column_cards(page, 0) == ["Ts"]
    tap_card(page, 1, 1)
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '3'")
    pooled_deal(1, 12)
    page.keyboard.press("n")
    page.get_by_role("alertdialog").get_by_role("button", name="New 1 suit game").click()
    page.wait_for_url(lambda url: url != first and "/play/" in url)
    page.wait_for_selector(".column .card.up")
    assert Game.objects.get(pk=first.rsplit("/", 1)[1]).status == "lost"
    assert_no_console_errors(page)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_win_is_celebrated_unless_motion_is_reduced(live_server, new_page, motion) -> None:
    layout_deal(["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"])
    page = new_page(**DESKTOP, reduced_motion=motion)
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")

    tap_card(page, 1, 1)  # the Ace onto the 2: the run completes, the game is won

    page.wait_for_selector(".overlay:not([hidden]) #win-title")
    assert page.locator(".overlay .celebrate .fall").count() == (24 if motion != "reduce" else 0)
    assert "show" not in (page.get_attribute("#toast", "class") or "")  # no run toast under it
    if motion != "reduce":
        screenshot(page, "win-celebration-desktop")
    assert_no_console_errors(page)


def test_phone_landscape_fits_and_long_columns_stay_readable(live_server, new_page) -> None:
    run = "KsQsJsTs9s8s7s6s5s4s3s2s"
    layout_deal([f"Qs|{run}{run}", "|As", "|Ks"])  # 24 face-up cards in one column
    page = new_page(**LANDSCAPE)
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")

    assert page.evaluate("document.documentElement.scrollWidth") <= 844
    tops = page.eval_on_selector_all(
        '.column[data-col="0"] .card.up', "cards => cards.map(c => c.getBoundingClientRect().top)"
    )
    steps = [b - a for a, b in zip(tops, tops[1:], strict=False)]
    assert min(steps) >= 17, steps  # a rank stays readable (19 px ranks here: 25 px steps)
    screenshot(page, "game-landscape")
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_replay_folds_hint_steps_and_steps_with_the_arrow_keys(
    live_server, new_page, device
) -> None:
    page = guest_board(live_server, new_page, device, FULL)
    game_id = page.url.rsplit("/", 1)[1]
    for version in (1, 3):  # a hint, then a move (one tap), twice
        page.get_by_role("button", name="Hint", exact=True).click()
        page.wait_for_selector(".hint-box .hint")
        tap_card(page, 1 if version == 1 else 2, 1)
        page.wait_for_function(
            "v => document.querySelector('.table').dataset.version === v", arg=str(version + 1)
        )
    page.get_by_role("button", name="New game…").click()
    page.locator(".menu button.danger").click()  # resign: a replay is of a finished game
    page.get_by_role("alertdialog").get_by_role("button", name="Resign").click()
    page.wait_for_selector(".notice")
    open_page(page, f"{live_server.url}/replay/{game_id}")
    caption = page.locator(".replay-step")
    assert page.locator(".hint-mark").count() == 2

    page.keyboard.press("ArrowRight")  # past the hint of step 1
    page.wait_for_function(
        "() => document.querySelector('.replay-step').textContent.startsWith('Step 2 of 4')"
    )
    assert page.locator('.column.target[data-col="0"]').count() == 1  # where the 9s went
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('.replay-step').textContent.startsWith('Step 4 of 4')"
    )
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "() => document.querySelector('.replay-step').textContent.startsWith('Step 2 of 4')"
    )
    assert "hints asked" in page.locator(".replay").inner_text()
    assert caption.count() == 1
    screenshot(page, f"replay-hints-{device}")
    assert_no_console_errors(page)
