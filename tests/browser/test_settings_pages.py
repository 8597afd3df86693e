"""Settings kept with the account (four colours, the look, one-tap, sound), the sounds made
with the Web Audio API, the rules page from the rulebook, a player's game history and losing
streaks, and the phone layouts of a race's laid-open tables and the daily's check: in
headless Chromium at desktop and phone sizes, landscape included."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from leaderboard import services as daily_services
from preferences.models import PlayerSettings
from tests.browser.web import (
    DESKTOP,
    LANDSCAPE,
    NETWORK_ERROR,
    PHONE,
    layout_deal,
    open_page,
    screenshot,
    sign_in,
    tap_card,
    tap_column,
    wait_confirmed,
)
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import token_of
from tests.games.api.helpers import pooled_layout_deal
from tests.games.conftest import pooled_deal

pytestmark = pytest.mark.django_db(transaction=True)

DEVICES = {"desktop": DESKTOP, "phone": PHONE, "landscape": LANDSCAPE}

# A 4-suit table with one card of each suit face up, every column filled (a deal is allowed):
# the 8c goes on the 9d; the 7s on no K.
SUITED = ["Kh|Th", "Qh|9d", "Jh|8c", "|7s", "|Ks", "|Kd", "|Qd", "|Qc", "|Jd", "|Jc"]
# 1 suit, every column filled: the 9s fits only on the Ts.
FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js"]
# Two moves: 2s onto 3s (the As turns over), then As onto 2s completes a run; a K is left.
RUN = ["|KsQsJsTs9s8s7s6s5s4s3s", "As|2s", "|Ks"]
# The same without the K: the run leaves the table empty, the game is won.
WIN = ["|KsQsJsTs9s8s7s6s5s4s3s", "As|2s"]

# Counts the oscillators and noise buffers the page's Web Audio graph makes.
AUDIO_PROBE = """
window.__audio = {oscillators: 0, buffers: 0};
const NativeAudioContext = window.AudioContext;
window.AudioContext = class extends NativeAudioContext {
  createOscillator() { window.__audio.oscillators += 1; return super.createOscillator(); }
  createBufferSource() { window.__audio.buffers += 1; return super.createBufferSource(); }
};
"""


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def colour(page: Any, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).color")


def open_settings(page: Any) -> None:
    page.locator("details.settings summary").click()


def saved(player: Any) -> dict[str, Any]:
    row = PlayerSettings.objects.filter(player=player).first()
    if row is None:
        return {}
    return {k: getattr(row, k) for k in ("four_colours", "look", "one_tap", "sound")}


def wait_saved(page: Any) -> None:
    """Until no change waits to be saved with the account."""
    page.wait_for_function("() => localStorage.getItem('spider.settings.pending') === null")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_settings_apply_at_once_and_follow_the_account_to_another_device(
    live_server, new_page, make_user, device
) -> None:
    layout_deal(SUITED, suits=4)
    player = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/play")
    page.locator('button[data-suits="4"]').click()
    page.wait_for_selector('.card[data-card="9d"]')

    # Two colours by default: diamonds as red as hearts, clubs as black as spades.
    assert colour(page, '[data-card="9d"]') == colour(page, '[data-card="Th"]')
    assert colour(page, '[data-card="8c"]') == colour(page, '[data-card="7s"]')
    felt = page.eval_on_selector(".table", "el => getComputedStyle(el).backgroundImage")
    open_settings(page)
    assert not page.locator("#four-colours").is_checked()
    assert page.locator("#sound").is_checked() is False

    page.locator("#four-colours").check()  # applied at once, before the server answers
    assert colour(page, '[data-card="9d"]') != colour(page, '[data-card="Th"]')
    assert colour(page, '[data-card="8c"]') != colour(page, '[data-card="7s"]')
    page.locator("#look").select_option("classic")
    assert page.evaluate("document.documentElement.dataset.look") == "classic"
    classic = page.eval_on_selector(".table", "el => getComputedStyle(el).backgroundImage")
    assert classic != felt
    back = page.eval_on_selector(".card.back", "el => getComputedStyle(el).backgroundImage")
    assert "179, 32, 42" in back  # the classic red backs
    wait_saved(page)
    assert saved(player) == {
        "four_colours": True,
        "look": "classic",
        "one_tap": False,
        "sound": False,
    }  # one-tap off: sign_in turned it off on this device, and that was saved too
    screenshot(page, f"settings-classic-four-colours-{device}")

    # Another device, the same player: the account's settings, not this device's defaults.
    other = new_page(**DESKTOP)
    other.goto(f"{live_server.url}/login")
    other.evaluate(
        "([t, n]) => { localStorage.setItem('spider.token', t); localStorage.setItem("
        "'spider.user', n); }",
        [token_of(player), player.username],
    )
    open_page(other, f"{live_server.url}/play")
    other.wait_for_function("() => document.documentElement.classList.contains('four-colours')")
    assert other.evaluate("document.documentElement.dataset.look") == "classic"
    open_settings(other)
    assert other.locator("#four-colours").is_checked()
    assert not other.locator("#one-tap").is_checked()
    other.locator("#four-colours").uncheck()
    wait_saved(other)
    assert saved(player)["four_colours"] is False

    page.reload()  # the first device reads the account again
    page.wait_for_selector('.card[data-card="9d"]')
    page.wait_for_function("() => !document.documentElement.classList.contains('four-colours')")
    assert colour(page, '[data-card="9d"]') == colour(page, '[data-card="Th"]')
    assert_no_console_errors(page)
    assert_no_console_errors(other)


def test_a_guests_settings_are_kept_with_the_guest_account(live_server, new_page) -> None:
    layout_deal(FULL)
    page = new_page(**PHONE)
    open_page(page, f"{live_server.url}/")  # a first visit: a guest, playing at once
    page.wait_for_selector(".column .card.up")
    open_settings(page)
    assert page.locator("#one-tap").is_checked()  # the default: one tap moves

    page.locator("#one-tap").uncheck()
    page.locator("#sound").check()
    wait_saved(page)

    game = Game.objects.get()
    assert game.player.is_guest
    assert saved(game.player) == {
        "four_colours": False,
        "look": "felt",
        "one_tap": False,
        "sound": True,
    }
    tap_card(page, 1, 1)  # one-tap off at once: the 9s is picked up, not moved
    assert page.locator(".card.selected").count() == 1
    assert_no_console_errors(page)


def test_sounds_are_made_with_web_audio_only_when_sound_is_on(
    live_server, new_page, make_user
) -> None:
    pooled_layout_deal(SUITED, suits=4, stock="As2s3s4s5s6s7s8s9sTs")
    player = make_user()
    page = new_page(**DESKTOP)
    page.add_init_script(AUDIO_PROBE)
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/play")
    page.locator('button[data-suits="4"]').click()
    page.wait_for_selector('.card[data-card="9d"]')
    audio = "() => window.__audio"
    sounds = "() => document.documentElement.dataset.sounds || '0'"

    # Sound off (the default): a move makes no sound at all, not even an audio context.
    tap_card(page, 2, 1)  # the 8c onto the 9d
    tap_column(page, 1)
    wait_confirmed(page, 1)
    assert page.evaluate(audio) == {"oscillators": 0, "buffers": 0}
    assert page.evaluate(sounds) == "0"

    open_settings(page)
    page.locator("#sound").check()  # on at once
    tap_card(page, 3, 1)  # the 7s onto a K: refused
    tap_column(page, 4)
    page.wait_for_function("() => document.documentElement.dataset.sound === 'refusal'")
    assert page.evaluate(audio)["oscillators"] == 1
    page.locator('button[aria-keyshortcuts="D"]').click()
    page.wait_for_function("() => document.documentElement.dataset.sound === 'deal'")
    assert page.evaluate(audio)["buffers"] == 4  # a rustle: four bursts of noise
    wait_confirmed(page, 2)

    page.locator("#sound").uncheck()  # off at once: the next refusal is silent
    heard = page.evaluate(sounds)
    tap_card(page, 4, 1)  # the 5s just dealt onto the 4s just dealt: refused
    tap_column(page, 3)
    page.wait_for_selector(".card.shake")
    assert page.evaluate(sounds) == heard
    page.locator("#sound").check()

    # A completed run, then a win: each its own notes.
    layout_deal(RUN)
    page.locator("button", has_text="New game…").click()
    page.locator('.menu button[data-suits="1"]').click()
    page.get_by_role("button", name="New 1 suit game").click()  # confirmed: it ends this one
    page.wait_for_selector('.column[data-col="2"] .card.up[data-card="Ks"]')
    before = page.evaluate(audio)["oscillators"]
    tap_card(page, 1, 1)  # the 2s onto the 3s
    tap_column(page, 0)
    wait_confirmed(page, 1)
    assert page.evaluate("document.documentElement.dataset.sound") == "move"
    tap_card(page, 1, 1)  # the As, turned over, onto the 2s: the run leaves
    tap_column(page, 0)
    page.wait_for_function("() => document.documentElement.dataset.sound === 'run'")
    assert page.evaluate(audio)["oscillators"] == before + 1 + 1 + 4  # two ticks, four notes

    layout_deal(WIN)
    page.locator("button", has_text="New game…").click()
    page.locator('.menu button[data-suits="1"]').click()
    page.get_by_role("button", name="New 1 suit game").click()
    page.wait_for_selector('.column[data-col="2"] .slot')  # the deal of two columns
    tap_card(page, 1, 1)
    tap_column(page, 0)
    wait_confirmed(page, 1)
    tap_card(page, 1, 1)
    tap_column(page, 0)
    page.wait_for_selector("#win-title")
    page.wait_for_function("() => document.documentElement.dataset.sound === 'win'")
    page.errors = [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 422")]
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_rules_page_is_the_rulebook_linked_from_how_to_play(
    live_server, new_page, device
) -> None:
    layout_deal(FULL)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    page.locator("details.help summary").click()

    page.locator("details.help a", has_text="The full rules").click()
    page.wait_for_url(re.compile(r"/rules$"))
    page.wait_for_selector(".rulebook h1")

    assert page.locator(".rulebook h1").inner_text() == "The rules of play"
    # The rulebook's own sections, each with the anchor the code cites.
    for anchor in ("guests", "one-tap-destination", "undo", "daily-challenge", "races"):
        assert page.locator(f".rulebook #{anchor}").count() == 1
    # A link to a section moves there without drawing the page again.
    page.evaluate("document.querySelector('.rulebook').dataset.mark = 'kept'")
    page.locator(".rules-contents a", has_text="Guests").click()
    page.wait_for_url(re.compile(r"/rules#guests$"))
    assert page.evaluate("document.querySelector('.rulebook').dataset.mark") == "kept"
    top = page.eval_on_selector("#guests", "el => el.getBoundingClientRect().top")
    assert 0 <= top < 80
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, f"rules-{device}", full_page=False)
    page.reload()  # a shared link to a section opens there
    page.wait_for_selector(".rulebook #guests")
    page.wait_for_function(
        "() => document.getElementById('guests').getBoundingClientRect().top < 80"
    )
    assert_no_console_errors(page)


def finish_games(player: Any, outcomes: list[str]) -> list[str]:
    """Play ``outcomes`` ("won" or "lost") through the API, oldest first; their ids."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(player)}")
    ids = []
    for outcome in outcomes:
        layout_deal(WIN)
        game = client.post("/api/v1/games", {"suits": 1}, format="json").json()
        move = {"type": "move", "from": 1, "to": 0}
        assert (
            client.post(
                f"/api/v1/games/{game['id']}/actions", {**move, "version": 0}, format="json"
            ).status_code
            == 200
        )
        if outcome == "won":
            answer = client.post(
                f"/api/v1/games/{game['id']}/actions", {**move, "version": 1}, format="json"
            )
            assert answer.json()["status"] == "won"
        else:
            assert client.post(f"/api/v1/games/{game['id']}/resign").status_code == 200
        ids.append(game["id"])
    return ids


@pytest.mark.parametrize("device", ["desktop", "phone", "landscape"])
def test_a_players_page_lists_their_games_and_losing_streaks(
    live_server, new_page, make_user, device
) -> None:
    player = make_user("streaky")
    ids = finish_games(player, ["won", "lost", "lost", "lost", "won", "lost", "lost"])
    layout_deal(WIN)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(player)}")
    running = client.post("/api/v1/games", {"suits": 1}, format="json").json()["id"]
    page = new_page(**DEVICES[device])  # anyone, signed out
    open_page(page, f"{live_server.url}/players/streaky")

    mode = page.locator(".mode").first
    rows = dict(
        zip(mode.locator("dt").all_inner_texts(), mode.locator("dd").all_inner_texts(), strict=True)
    )
    assert rows["Losing streak (longest)"] == "2 (3)"
    assert rows["Win streak (best)"] == "0 (1)"
    listed = page.locator("table.games tbody tr")
    assert listed.count() == 7
    assert [listed.nth(i).get_attribute("data-game") for i in range(7)] == ids[::-1]
    assert page.locator(f'[data-game="{running}"]').count() == 0  # in play: never listed
    assert listed.nth(0).locator(".result").inner_text() == "Lost (resigned)"
    assert listed.nth(2).locator(".result").inner_text().startswith("Won")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, f"player-games-{device}")

    listed.nth(2).get_by_role("link", name=re.compile("^Replay")).click()
    page.wait_for_url(re.compile(rf"/replay/{ids[4]}$"))
    page.wait_for_selector(".replay .table .card")
    assert_no_console_errors(page)


def test_older_games_come_a_page_at_a_time(live_server, new_page, make_user) -> None:
    player = make_user("busy")
    ids = finish_games(player, ["lost"] * 12)
    page = new_page(**DESKTOP)
    open_page(page, f"{live_server.url}/players/busy")

    assert page.locator("table.games tbody tr").count() == 10
    page.get_by_role("button", name="Older games").click()
    page.wait_for_function("() => document.querySelectorAll('table.games tbody tr').length === 12")
    assert page.locator("table.games tbody tr").last.get_attribute("data-game") == ids[0]
    assert page.get_by_role("button", name="Older games").is_hidden()
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["phone", "landscape"])
def test_the_daily_check_fits_a_phone(live_server, new_page, make_user, device) -> None:
    pooled_deal(2, 11)
    yesterday = timezone.now().date() - timedelta(days=1)
    daily_services.daily_ensure(day=yesterday)
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, make_user())

    open_page(page, f"{live_server.url}/daily/{yesterday.isoformat()}")
    page.get_by_role("button", name="Check it").click()
    result = page.locator(".check-result.good")
    result.wait_for()

    assert "matches the commitment" in result.inner_text()
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = result.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    screenshot(page, f"daily-check-{device}")
    assert_no_console_errors(page)


# A race's layout with long columns and many face-down cards, to be read laid open.
LONG = [
    "9s8s7s6s5s|KsQsJsTs9s8s7s6s5s4s3s2s",
    "KsQsJsTs|AsKsQsJsTs",
    "4s3s2s|As",
    "|Ks",
]


@pytest.mark.parametrize("device", ["phone", "landscape"])
def test_a_races_laid_open_tables_read_on_a_phone(
    live_server, new_page, make_user, settings, device
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    alice, bob = make_user("alice", is_staff=True), make_user("bob")
    clients = []
    for user in (alice, bob):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
        clients.append(client)
    a, b = clients
    layout = {
        "columns": [layout_column(c) for c in LONG] + [{"down": [], "up": []}] * 6,
        "stock": [],
    }
    code = a.post("/api/v1/races", {"suits": 1, "layout": layout}, format="json").json()["code"]
    assert b.post(f"/api/v1/races/{code}/sit", {}, format="json").status_code == 200
    assert b.post(f"/api/v1/races/{code}/ready", {}, format="json").status_code == 200
    assert a.post(f"/api/v1/races/{code}/start", {}, format="json").status_code == 200
    from races.services import races_tick

    races_tick()  # the cards turn over
    assert b.post(f"/api/v1/races/{code}/resign", {}, format="json").status_code == 200

    page = new_page(**DEVICES[device])
    # The race is over: its event stream has nothing to say (the test's WSGI server does not
    # serve streams; tests/browser/test_races.py runs them for real).
    page.route(
        "**/events**",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=""),
    )
    sign_in(page, live_server.url, bob)
    open_page(page, f"{live_server.url}/race/{code}")
    page.wait_for_selector("#race-result-title")
    page.wait_for_selector(".laid-open .card.was-down")

    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for player in ("alice", "bob"):
        column = f'.laid-open[data-player="{player}"] .column[data-col="0"] .card'
        tops = page.eval_on_selector_all(column, "cs => cs.map(c => c.getBoundingClientRect().top)")
        assert len(tops) == 17  # the five face down, shown face up, and twelve face up
        steps = [round(q - p) for p, q in zip(tops, tops[1:], strict=False)]
        # Each card shows its whole corner, a rank with a few pixels to spare.
        corner = page.eval_on_selector(
            f"{column} .corner", "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        assert min(steps) >= corner + 6, (steps, corner)
    screenshot(page, f"race-laid-open-{device}")
    assert_no_console_errors(page)


def layout_column(text: str) -> dict[str, list[str]]:
    down, _, up = text.partition("|")
    return {
        "down": [down[i : i + 2] for i in range(0, len(down), 2)],
        "up": [up[i : i + 2] for i in range(0, len(up), 2)],
    }
