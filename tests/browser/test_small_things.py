"""The small things a player notices, in a real browser at desktop and phone sizes: the
player's own rows marked "you" on the boards with a "My place" that shows theirs; Replay and
Analyse as two separate controls (44 px on a phone); the win's falling suit signs behind the
dialog's text; no key help on a touch screen."""

from __future__ import annotations

import pytest

from bench.web import OVERLAPS_JS
from games import services as game_services
from games.models import Game
from tests.browser.web import (
    DESKTOP,
    DEVICES,
    PHONE,
    layout_deal,
    open_page,
    screenshot,
    sign_in,
)
from tests.browser_plugin import assert_no_console_errors
from tests.games.conftest import pooled_deal
from tests.leaderboard.helpers import line_of, play_service

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _settings(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


_seeds = iter(range(11, 99))


def win(player) -> str:
    pooled_deal(1, next(_seeds))  # each game its deal
    game = game_services.game_create(player=player, suits=1)
    play_service(player, game.id, line_of(game.id))
    return str(game.id)


LINKS_JS = """() => [...document.querySelectorAll('table.board td.links')].map((td) =>
  [...td.querySelectorAll('a')].map((a) => a.getBoundingClientRect().toJSON()))"""


@pytest.mark.parametrize("device", DEVICES)
def test_my_rows_are_marked_and_my_place_is_shown(live_server, new_page, make_user, device) -> None:
    for name in ("ann", "bob"):
        win(make_user(name))
    me = make_user("carol")
    win(me)
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, me)
    open_page(page, f"{live_server.url}/leaderboard?suits=1")
    page.wait_for_selector("table.board tbody tr")

    mine = page.locator("table.board tr.mine")
    assert mine.count() == 1 and "carol" in mine.inner_text() and "you" in mine.inner_text()
    page.get_by_role("button", name="My place").click()
    page.wait_for_selector("table.board tr[aria-current]")
    shown = page.locator("table.board tr[aria-current]")
    assert "carol" in shown.inner_text()
    assert page.evaluate("document.activeElement.textContent") == "carol"
    screenshot(page, f"leaderboard-my-place-{device}")

    # Replay and Analyse: two controls apart, each a finger's size on a phone.
    for links in page.evaluate(LINKS_JS):
        assert len(links) == 2, links
        replay, analyse = links
        assert analyse["x"] - (replay["x"] + replay["width"]) >= 4, links
        if device == "phone":
            assert min(replay["height"], analyse["height"], replay["width"]) >= 44, links
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert_no_console_errors(page)


def test_my_place_says_so_when_there_is_none(live_server, new_page, make_user) -> None:
    win(make_user("ann"))
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user("dora"))
    open_page(page, f"{live_server.url}/leaderboard?suits=1")
    page.get_by_role("button", name="My place").click()
    page.wait_for_function(
        "() => /no place on this board/.test(document.getElementById('toast').textContent)"
    )
    assert page.locator("table.board tr[aria-current]").count() == 0
    assert_no_console_errors(page)


# Every falling sign over the dialog is under it: what the page shows at its middle is the
# dialog's, never the sign's.
BEHIND_JS = """() => {
  const dialog = document.querySelector('.overlay .dialog');
  const d = dialog.getBoundingClientRect();
  let over = 0;
  let checked = 0;
  for (const bit of document.querySelectorAll('.celebrate .fall')) {
    const b = bit.getBoundingClientRect();
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    const r = 12; // inside its rounded corners
    if (x < d.left + r || x > d.right - r || y < d.top + r || y > d.bottom - r) continue;
    checked += 1;
    if (!dialog.contains(document.elementFromPoint(x, y))) over += 1;
  }
  return { over, checked };
}"""


@pytest.mark.parametrize("device", DEVICES)
def test_the_win_decoration_passes_behind_the_dialog(live_server, new_page, device) -> None:
    layout_deal(["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"])
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.locator('.column[data-col="1"] .card.up').click(position={"x": 6, "y": 4})
    page.wait_for_selector(".overlay:not([hidden]) #win-title")
    checked = 0
    for _ in range(12):  # over a second and a half of the fall
        found = page.evaluate(BEHIND_JS)
        assert found["over"] == 0, found
        checked += found["checked"]
        page.wait_for_timeout(130)
    assert checked > 0  # some sign did pass the dialog
    assert_no_console_errors(page)


def test_no_key_help_on_a_touch_screen(live_server, new_page, make_user) -> None:
    player = make_user("ed")
    game = win(player)
    for options, shown in ((PHONE, False), (DESKTOP, True)):
        page = new_page(**options)
        sign_in(page, live_server.url, player)
        open_page(page, f"{live_server.url}/replay/{game}")
        page.wait_for_selector(".replay h1")
        assert page.locator(".replay .keys-help").is_visible() is shown
        assert_no_console_errors(page)


@pytest.mark.parametrize("device", DEVICES)
def test_hint_shows_it_is_working_and_keys_are_for_keyboards(live_server, new_page, device) -> None:
    layout_deal(["Ks|Ts", "Qs|9s", "Js|8s", "|Ks"])
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")

    def slow(route) -> None:
        page.wait_for_timeout(600)  # a search on a slow server
        route.continue_()

    page.route("**/hint", slow)
    hint = page.locator(".controls").get_by_role("button", name="Hint", exact=True)
    before = hint.bounding_box()
    hint.click()
    page.wait_for_selector(".controls button.busy[aria-busy=true]")
    assert hint.bounding_box() == before  # the mark takes no room
    page.wait_for_selector(".hint-box .hint")
    page.wait_for_selector(".controls button.busy", state="detached")
    assert page.locator(".controls button[aria-busy]").count() == 0
    page.evaluate("document.querySelector('details.help').open = true")
    help_text = page.locator("details.help").inner_text()
    assert ("Keys:" in help_text) is (device == "desktop"), help_text
    assert ("and keys" in help_text) is (device == "desktop"), help_text
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", DEVICES)
def test_finish_plays_the_open_end_as_moves_the_server_checks(
    live_server, new_page, device
) -> None:
    # Every card face up and no stock: the open end, won in two moves.
    layout_deal(["|KsQsJsTs", "|9s8s7s6s5s", "|4s3s2sAs"])
    page = new_page(**DEVICES[device])
    sent: list[dict] = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data_json) if r.url.endswith("/actions") else None,
    )
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    offer = page.locator(".finish-area .notice.finish")
    offer.wait_for()
    assert "2 moves" in offer.inner_text()
    assert page.evaluate(OVERLAPS_JS) == 0  # the offer covers no control
    screenshot(page, f"finish-offer-{device}", full_page=False)
    offer.get_by_role("button", name="Finish").click()

    page.wait_for_selector(".overlay:not([hidden]) #win-title")
    game = Game.objects.get()
    assert game.status == "won" and game.actions == 2
    assert [(a["type"], a["from"], a["to"]) for a in sent] == [("move", 1, 0), ("move", 2, 0)]
    assert_no_console_errors(page)


def test_no_finish_while_a_card_is_face_down(live_server, new_page) -> None:
    layout_deal(["|KsQsJsTs", "2s|9s8s7s6s5s", "|4s3sAs"])
    page = new_page(**DESKTOP)
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.wait_for_timeout(300)
    assert page.locator(".finish-area .notice").count() == 0
    assert_no_console_errors(page)
