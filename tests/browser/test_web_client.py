"""The web client in a real browser (headless Chromium), against the live server: sign-up and
log-in, a game won by following hints, tap-tap, drag and drop, double-click, undo, a refused
move, a reload resuming, the daily challenge and its check, a leaderboard opening a replay, a
player's page, the phone viewport; no console errors on any page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Game
from leaderboard import services as daily_services
from tests.browser.web import (
    DESKTOP,
    NETWORK_ERROR,
    PHONE,
    SHORT_WIN,
    STUCK,
    TWO_MOVES,
    column_cards,
    drag,
    layout_deal,
    open_page,
    screenshot,
    sign_in,
    stat,
    tap_card,
    tap_column,
    wait_confirmed,
    wait_stat,
)
from tests.browser_plugin import assert_no_console_errors
from tests.conftest import PASSWORD
from tests.games.conftest import pooled_deal
from tests.leaderboard.helpers import line_of, play_service

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    """The tests put the deals they need into the pool; nothing vets in the background."""
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def start_game(page, base: str) -> None:
    open_page(page, f"{base}/play")
    page.locator('button[data-suits="1"]').click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")


def test_sign_up_log_out_and_log_in(live_server, new_page, make_user) -> None:
    make_user("taken")
    page = new_page(**DESKTOP)
    open_page(page, f"{live_server.url}/signup")
    screenshot(page, "signup-desktop")

    page.fill("#username", "taken")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    # The server's refusal, in its own words.
    page.wait_for_selector("#username[aria-invalid=true]")  # said under the field now
    assert "taken" in page.locator("#username-error").inner_text()

    page.fill("#username", "newcomer")
    page.click("button[type=submit]")
    page.wait_for_selector(".welcome")  # no game yet: the choice of suits
    assert page.locator("#account .me").inner_text() == "newcomer"
    screenshot(page, "new-game-desktop")

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile("/login$"))
    assert page.evaluate("localStorage.getItem('spider.token')") is None
    page.fill("#username", "newcomer")
    page.fill("#password", "wrong password")
    page.click("button[type=submit]")
    page.wait_for_selector(".form-errors p")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector(".welcome")
    assert page.locator("#account .me").inner_text() == "newcomer"
    # The refusals asked for (409 username_taken, 401 invalid_credentials), nothing else.
    assert [e for e in page.errors if not re.match(f"{NETWORK_ERROR} 40[19]", e)] == []


def follow_hints(page, limit: int = 30) -> int:
    """Ask for a hint and play it through the page, until the game is won."""
    for played in range(limit):
        if page.locator(".overlay:not([hidden])").count():
            return played
        page.get_by_role("button", name="Hint", exact=True).click()
        hint = page.wait_for_selector(".hint-box .hint")
        kind = hint.get_attribute("data-type")
        assert kind in ("move", "deal"), hint.inner_text()
        # The server's answer, not the move drawn ahead of it (a win's dialog follows the answer).
        version = page.evaluate("document.querySelector('.table').dataset.version")
        if kind == "deal":
            page.locator(".stock").click()
        else:
            tap_card(
                page, int(hint.get_attribute("data-from")), int(hint.get_attribute("data-count"))
            )
            tap_column(page, int(hint.get_attribute("data-to")))
        page.wait_for_function(
            "v => document.querySelector('.table').dataset.version !== v", arg=version
        )
    raise AssertionError("the hints did not win the game")


def test_a_one_suit_game_won_by_following_hints(live_server, new_page, make_user) -> None:
    layout_deal(SHORT_WIN)
    player = make_user()
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, player)
    start_game(page, live_server.url)
    screenshot(page, "short-game-desktop")

    played = follow_hints(page)

    assert played == 4
    dialog = page.get_by_role("dialog")
    assert dialog.get_by_role("heading").inner_text() == "You won!"
    game = Game.objects.get(player=player)
    assert game.status == "won" and game.hints == 4
    assert dialog.locator(".win-score").inner_text() == str(game.score)
    # 1 suit, hints taken (no perfect bonus): 10 coins, the ledger's figure on the screen
    assert dialog.locator(".win-coins").inner_text() == "+10"
    assert "190 left today; balance 10" in dialog.locator(".coins-note").inner_text()
    page.wait_for_function("() => document.querySelector('.place').textContent.includes('1st')")
    assert "1st on the 1 suit leaderboard" in dialog.locator(".place").inner_text()
    screenshot(page, "win-desktop")
    assert_no_console_errors(page)


def test_tap_tap_drag_and_drop_double_click_and_undo(live_server, new_page, make_user) -> None:
    layout_deal(TWO_MOVES)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)

    drag(page, 1, 1, 0)  # 9s onto Ts
    wait_stat(page, "moves", "1")
    # The move is drawn before the server answers; only the answer says what turned over.
    page.wait_for_selector('.table[data-version="1"]')
    assert column_cards(page, 0) == ["Ts", "9s"]
    assert page.locator('.column[data-col="1"]').get_attribute("aria-label") == (
        "Column 2: queen of spades"  # the card under it turned face up
    )

    page.get_by_role("button", name="Undo").click()
    wait_stat(page, "moves", "2")
    # The 9s is back; the queen it uncovered stays face up (a seen card is not hidden again).
    assert column_cards(page, 0) == ["Ts"] and column_cards(page, 1) == ["Qs", "9s"]

    tap_card(page, 1, 1)
    assert page.locator(".card.selected").count() == 1
    tap_column(page, 0)
    wait_stat(page, "moves", "3")
    assert column_cards(page, 0) == ["Ts", "9s"]

    # A double-click lets the server choose where the 8s goes: onto the 9s.
    page.locator('.column[data-col="2"] .card.up').dblclick(position={"x": 6, "y": 4})
    wait_stat(page, "moves", "4")
    assert column_cards(page, 0) == ["Ts", "9s", "8s"]
    assert_no_console_errors(page)


def test_keyboard_play(live_server, new_page, make_user) -> None:
    layout_deal(TWO_MOVES)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)

    page.locator('.column[data-col="0"]').focus()
    page.keyboard.press("2")  # column 2
    page.keyboard.press("Enter")  # picks up its top card, the 9s
    assert page.locator('.column[data-col="1"] .card.selected').count() == 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # onto column 1's 10s
    wait_stat(page, "moves", "1")
    assert column_cards(page, 0) == ["Ts", "9s"]

    page.keyboard.press("u")
    wait_stat(page, "moves", "2")
    assert column_cards(page, 0) == ["Ts"]
    page.keyboard.press("h")
    hint = page.locator(".hint-box .hint")
    hint.wait_for()
    assert hint.get_attribute("data-type") == "move"
    assert page.locator(".card.hinted").count() >= 1
    page.keyboard.press("Shift+H")  # the next hint: n=1 (N is a new game now)
    page.wait_for_selector('.hint-box .hint[data-n="1"]')
    assert stat(page, "hints") == "2"
    assert_no_console_errors(page)


def test_the_stuck_notice_offers_the_same_deal_again(live_server, new_page, make_user) -> None:
    layout_deal(STUCK)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)
    first = page.url

    notice = page.locator(".notice.stuck")
    assert "stuck" in notice.inner_text()
    notice.get_by_role("button", name="Replay this deal").click()
    page.wait_for_url(lambda url: url != first and "/play/" in url)
    page.wait_for_selector(".column .card.up")
    assert [column_cards(page, i) for i in range(10)] == [[c[1:]] for c in STUCK]
    assert "stuck" in page.locator(".notice.stuck").inner_text()
    assert_no_console_errors(page)


def test_a_refused_move_shows_the_servers_sentence(live_server, new_page, make_user) -> None:
    layout_deal(TWO_MOVES)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)

    tap_card(page, 2, 1)  # the 8s onto the Ks: not one rank lower
    tap_column(page, 3)

    refusal = page.locator('.refusal[data-col="3"]')  # said beside the column refusing
    refusal.wait_for()
    assert "8♠" in refusal.inner_text() and "K♠" in refusal.inner_text()
    assert stat(page, "moves") == "0" and column_cards(page, 3) == ["Ks"]
    screenshot(page, "refused-desktop")
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 422")] == []


def test_a_503_is_waited_out_and_the_move_retried_once(live_server, new_page, make_user) -> None:
    """The server says "busy, retry in 1 s" (what a PostgreSQL restart answers): the page says
    so, waits, and sends the same request again (same Idempotency-Key), which lands once."""
    layout_deal(TWO_MOVES)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)
    sent: list[dict] = []

    def busy_once(route) -> None:
        sent.append(route.request.headers)
        if len(sent) == 1:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"code": "database_unavailable", "detail": "Restarting.", "retry_after": 1}',
            )
        else:
            route.continue_()

    page.route("**/api/v1/games/*/actions", busy_once)
    tap_card(page, 1, 1)
    tap_column(page, 0)

    assert "trying again in 1 s" in page.locator(".toast.warn").inner_text()
    wait_confirmed(page, 1)  # the move is drawn at once; this waits for the server's answer
    assert column_cards(page, 0) == ["Ts", "9s"]
    assert len(sent) == 2 and sent[0]["idempotency-key"] == sent[1]["idempotency-key"]
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 503")] == []


def test_a_reload_or_another_device_resumes_the_game(live_server, new_page, make_user) -> None:
    layout_deal(TWO_MOVES)
    player = make_user()
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, player)
    start_game(page, live_server.url)
    tap_card(page, 1, 1)
    tap_column(page, 0)
    wait_stat(page, "moves", "1")
    page.wait_for_selector('.table[data-version="1"]')  # the server has it, not only the page
    url = page.url

    page.reload()
    page.wait_for_selector(".column .card.up")
    assert page.url == url and stat(page, "moves") == "1"
    assert column_cards(page, 0) == ["Ts", "9s"]

    other = new_page(**PHONE)  # another device: its own storage, the same player
    sign_in(other, live_server.url, player)
    open_page(other, f"{live_server.url}/")
    other.wait_for_selector(".column .card.up")
    assert other.url == url and column_cards(other, 0) == ["Ts", "9s"]

    # The other device moves; the first one, acting on its old version, is told and catches up.
    tap_card(other, 2, 1)
    tap_column(other, 0)
    wait_stat(other, "moves", "2")
    page.get_by_role("button", name="Undo").click()
    page.locator(".toast.warn").wait_for()
    wait_stat(page, "moves", "2")
    assert column_cards(page, 0) == ["Ts", "9s", "8s"]
    assert_no_console_errors(other)
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 409")] == []


def test_the_phone_viewport_plays_with_taps(live_server, new_page, make_user) -> None:
    layout_deal(TWO_MOVES)
    page = new_page(**PHONE)
    sign_in(page, live_server.url, make_user())
    start_game(page, live_server.url)

    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    corner = page.locator('.column[data-col="0"] .card.up .corner')
    assert float(corner.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px")) >= 11
    card_box = page.locator('.column[data-col="0"] .card.up').bounding_box()
    assert card_box["width"] >= 30

    page.locator('.column[data-col="1"] .card.up').tap(position={"x": 6, "y": 4})
    page.locator('.column[data-col="0"]').tap(position={"x": 6, "y": 4})
    wait_stat(page, "moves", "1")
    assert column_cards(page, 0) == ["Ts", "9s"]
    assert_no_console_errors(page)


def test_the_daily_attempt_its_board_and_a_past_days_check(
    live_server, new_page, make_user
) -> None:
    pooled_deal(2, 11)
    pooled_deal(2, 13)
    yesterday = timezone.now().date() - timedelta(days=1)
    daily_services.daily_ensure(day=timezone.now().date())  # the worker makes it ahead
    past = daily_services.daily_ensure(day=yesterday)
    player = make_user()
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, player)

    open_page(page, f"{live_server.url}/daily")
    page.get_by_text("Why it is fair").click()  # the commitment, folded under the note
    assert len(page.locator(".commitment .hash").inner_text()) == 64
    page.get_by_role("button", name="Play your ranked attempt").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    assert "daily ranked" in stat(page, "game")
    game = Game.objects.get(player=player)
    assert game.kind == "daily" and game.ranked

    play_service(player, game.id, line_of(game.id))  # the rest of the attempt, quickly
    open_page(page, f"{live_server.url}/daily")
    page.wait_for_selector("table.board")
    assert player.username in page.locator("table.board tbody").inner_text()
    assert page.get_by_role("button", name="Practice this deal").is_visible()
    screenshot(page, "daily-won-desktop")

    open_page(page, f"{live_server.url}/daily/{yesterday.isoformat()}")
    page.get_by_role("button", name="Check it").click()
    result = page.locator(".check-result.good")
    result.wait_for()
    assert "matches the commitment" in result.inner_text()
    assert f"Par: {past.deal.par} actions" in page.locator(".par").inner_text()
    screenshot(page, "daily-past-desktop")
    assert_no_console_errors(page)


def test_a_day_not_made_yet_can_still_be_played(live_server, new_page, make_user) -> None:
    """GET /daily never makes the challenge (503 daily_not_ready); playing it does."""
    pooled_deal(2, 11)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())

    open_page(page, f"{live_server.url}/daily")
    assert "challenge" in page.locator(".daily p").first.inner_text()
    page.get_by_role("button", name="Play your ranked attempt").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    assert "daily ranked" in stat(page, "game")
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 503")] == []


def test_a_leaderboard_entry_opens_its_replay(live_server, new_page, make_user) -> None:
    pooled_deal(1, 11)
    winner = make_user("winner")
    game = game_services.game_create(player=winner, suits=1)
    play_service(winner, game.id, line_of(game.id))
    steps = len(line_of(game.id))
    page = new_page(**DESKTOP)

    open_page(page, f"{live_server.url}/leaderboard?suits=1")
    row = page.locator("table.board tbody tr").first
    assert "winner" in row.inner_text()
    row.get_by_role("link", name=re.compile("^Replay")).click()
    page.wait_for_url(re.compile(f"/replay/{game.id}$"))
    page.wait_for_selector(".replay .column .card")
    assert page.locator(".replay-step").inner_text() == f"The deal ({steps} steps follow)"

    page.get_by_role("button", name="Next step").click()
    page.wait_for_function(
        "() => document.querySelector('.replay-step').textContent.startsWith('Step 1')"
    )
    page.get_by_role("button", name="Last step").click()
    page.wait_for_function(
        f"() => document.querySelector('.replay-step').textContent.startsWith('Step {steps} of')"
    )
    assert page.locator(".replay .card.up").count() == 0  # every run left the table

    open_page(page, f"{live_server.url}/players/winner")
    page.wait_for_selector(".mode")
    text = page.locator(".player").inner_text()
    assert "winner" in text and "1st" in text
    assert "Coins: 20 (20 earned today" in text  # a perfect 1-suit win: 10 + 10 bonus
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_every_page_loads_without_console_errors(live_server, new_page, make_user, device) -> None:
    """Each page with something on it (a game in progress, a win on the board, a replay):
    no console error, nothing wider than the screen; WEB_SCREENSHOTS keeps a picture of each."""
    pooled_deal(1, 11)
    pooled_deal(2, 11)  # today's challenge
    pooled_deal(2, 13)
    winner = make_user("winner")
    won = game_services.game_create(player=winner, suits=1)
    play_service(winner, won.id, line_of(won.id))
    player = make_user("alice")
    daily_services.daily_ensure(day=timezone.now().date())
    game = game_services.game_create(player=player, suits=2)
    play_service(player, game.id, line_of(game.id)[:12])
    page = new_page(**(PHONE if device == "phone" else DESKTOP))
    sign_in(page, live_server.url, player)
    width = page.viewport_size["width"]

    pages = {
        "game": "/",
        "daily": "/daily",
        "leaderboard": "/leaderboard?suits=1",
        "replay": f"/replay/{won.id}",
        "player": "/players/winner",
        "race-lobby": "/race",
        "login": "/login",
    }
    for name, path in pages.items():
        open_page(page, f"{live_server.url}{path}")
        if name == "replay":
            for _ in range(25):
                page.get_by_role("button", name="Next step").click()
            page.wait_for_function(
                "() => document.querySelector('.replay-step').textContent.startsWith('Step 25')"
            )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        screenshot(page, f"{name}-{device}")
    assert_no_console_errors(page)
