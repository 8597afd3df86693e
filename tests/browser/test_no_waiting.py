"""Nothing a player does waits for the network, in a real browser at desktop and phone sizes:
a move, a one-tap, a deal and an undo are drawn before the server answers (a deal as ten
face-down cards, turned over only by the answer); taps made before an answer are drawn on the
table the first one predicted and sent one after the other, each with the version it expects;
a refusal rolls the table back to the server's; a tap on the hinted card goes where the hint
says. The one-tap destination the client works out is the server's, position for position."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.actions import DEAL
from games.engine.board import Board
from games.engine.deal import deal_layout
from games.engine.errors import IllegalAction
from games.engine.view import public_view
from tests.browser.web import (
    DEVICES,
    NETWORK_ERROR,
    card,
    column_cards,
    layout_deal,
    open_page,
    screenshot,
    stat,
    tap_card,
    wait_confirmed,
)
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import pooled_layout_deal

pytestmark = pytest.mark.django_db(transaction=True)

# Each card has one place to go: the 9s (column 2) only onto the Ts, then the 8s (column 3)
# only onto that 9s; column 2 turns over a Qs, column 3 a Js.
FULL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks", "|Ks", "|Ks", "|Qs", "|Qs", "|Js", "|Js"]
# The 9s fits on the Ts and in six empty columns: one tap takes it onto the Ts.
SEVERAL = ["Ks|Ts", "Qs|9s", "Js|8s", "|Ks"]
# Ten cards left in the stock: one deal.
STOCK = "As2s3s4s5s6s7s8s9sTs"


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def first_visit(live_server, new_page, device: str, columns: list[str], stock: str = ""):
    """A guest's first visit dealt ``columns`` (one-tap on, as it comes)."""
    pooled_layout_deal(columns, stock=stock) if stock else layout_deal(columns)
    page = new_page(**DEVICES[device])
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    return page


def version(page) -> str:
    return page.evaluate("document.querySelector('.table').dataset.version")


def held_answers(page, delay_ms: int = 500, refuse: set[int] | None = None) -> list[dict]:
    """Every action the page sends, in the order sent; each answered ``delay_ms`` late (those
    whose position in that order is in ``refuse``: refused, 422)."""
    sent: list[dict] = []

    def handle(route) -> None:
        sent.append(route.request.post_data_json)
        page.wait_for_timeout(delay_ms)
        if refuse and len(sent) - 1 in refuse:
            route.fulfill(status=422, json={"code": "rank_mismatch", "detail": "Refused here."})
        else:
            route.continue_()

    page.route("**/actions", handle)
    return sent


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_an_undo_is_drawn_before_the_answer(live_server, new_page, device) -> None:
    page = first_visit(live_server, new_page, device, FULL)
    tap_card(page, 1, 1)  # the 9s onto the Ts; column 2 turns over its Qs
    wait_confirmed(page, 1)
    assert column_cards(page, 1) == ["Qs"]
    held_answers(page)

    page.get_by_role("button", name="Undo", exact=True).click()

    # At once: the 9s back on column 2, on the Qs that stays face up (docs/rules.md#undo).
    assert column_cards(page, 1) == ["Qs", "9s"] and column_cards(page, 0) == ["Ts"]
    assert version(page) == "1" and stat(page, "moves") == "2"
    wait_confirmed(page, 2)
    assert column_cards(page, 1) == ["Qs", "9s"] and column_cards(page, 0) == ["Ts"]
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_destination_is_moved_to_as_the_finger_comes_down(live_server, new_page, device) -> None:
    """One-tap off: cards picked up, then a press on a face-up card of another column moves
    them there at once, before the press ends (and the lift does nothing more)."""
    layout_deal(FULL)
    page = new_page(**DEVICES[device])
    page.add_init_script("localStorage.setItem('spider.onetap', 'off')")
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    sent = held_answers(page)
    tap_card(page, 1, 1)  # the 9s picked up
    assert page.locator(".card.selected").count() == 1
    ten = card(page, 0, 1).bounding_box()

    page.mouse.move(ten["x"] + 6, ten["y"] + 4)
    page.mouse.down()
    assert column_cards(page, 0) == ["Ts", "9s"]  # drawn while the press is held
    page.mouse.up()

    wait_confirmed(page, 1)
    assert column_cards(page, 0) == ["Ts", "9s"] and column_cards(page, 1) == ["Qs"]
    assert page.locator(".card.selected").count() == 0
    assert sent == [{"type": "move", "from": 1, "to": 0, "count": 1, "version": 0}]
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_deal_is_drawn_face_down_and_turned_over_by_the_answer(
    live_server, new_page, device
) -> None:
    page = first_visit(live_server, new_page, device, FULL, stock=STOCK)
    faces = page.locator(".card.up").count()
    held_answers(page)

    page.locator(".stock").click()

    # At once: ten cards face down on the columns, no face shown before the server says it.
    assert page.locator(".card.back.dealt").count() == 10
    assert page.locator(".card.up").count() == faces
    assert version(page) == "0" and "Stock empty" in page.locator(".stock").inner_text()
    screenshot(page, f"deal-face-down-{device}")
    wait_confirmed(page, 1)
    assert page.locator(".card.back.dealt").count() == 0
    assert page.locator(".card.up").count() == faces + 10
    assert column_cards(page, 0)[-1] == "As" and column_cards(page, 9)[-1] == "Ts"

    page.get_by_role("button", name="Undo", exact=True).click()

    # At once: the ten cards back in the stock (flying there), the table as before the deal.
    assert page.locator(".card.up").count() == faces and version(page) == "1"
    assert "Deal (1 left)" in page.locator(".stock").inner_text()
    assert page.locator(".card.back.flying").count() == 10
    wait_confirmed(page, 2)
    assert page.locator(".card.up").count() == faces
    page.wait_for_selector(".card.back.flying", state="detached")
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_taps_chain_each_sent_in_turn_with_its_version(live_server, new_page, device) -> None:
    page = first_visit(live_server, new_page, device, FULL)
    sent = held_answers(page)

    tap_card(page, 1, 1)  # the 9s onto the Ts ...
    tap_card(page, 2, 1)  # ... and the 8s onto that 9s, before the first answer

    assert column_cards(page, 0) == ["Ts", "9s", "8s"]  # both drawn at once
    assert version(page) == "0" and stat(page, "moves") == "2"
    wait_confirmed(page, 2)
    assert column_cards(page, 0) == ["Ts", "9s", "8s"]
    assert column_cards(page, 1) == ["Qs"] and column_cards(page, 2) == ["Js"]
    assert sent == [
        {"type": "move", "from": 1, "to": 0, "count": 1, "version": 0},
        {"type": "move", "from": 2, "to": 0, "count": 1, "version": 1},
    ]
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_refusal_in_a_chain_rolls_back_to_the_servers_table(
    live_server, new_page, device
) -> None:
    page = first_visit(live_server, new_page, device, FULL)
    held_answers(page, refuse={1})

    tap_card(page, 1, 1)
    tap_card(page, 2, 1)
    assert column_cards(page, 0) == ["Ts", "9s", "8s"]

    page.wait_for_selector(".refusal")
    assert page.locator(".refusal").inner_text() == "Refused here."
    wait_confirmed(page, 1)
    # The first move stands (the server took it), the second is back where it came from.
    assert column_cards(page, 0) == ["Ts", "9s"] and column_cards(page, 2) == ["8s"]
    assert stat(page, "moves") == "1"
    assert [e for e in page.errors if not e.startswith(f"{NETWORK_ERROR} 422")] == []


def test_a_refusal_of_the_first_drops_the_taps_after_it(live_server, new_page) -> None:
    page = first_visit(live_server, new_page, "desktop", FULL)
    sent = held_answers(page, refuse={0})

    tap_card(page, 1, 1)
    tap_card(page, 2, 1)

    page.wait_for_selector(".refusal")
    page.wait_for_function("() => document.querySelectorAll('.card.up').length === 10")
    assert column_cards(page, 0) == ["Ts"] and column_cards(page, 1) == ["9s"]
    assert column_cards(page, 2) == ["8s"] and stat(page, "moves") == "0"
    page.wait_for_timeout(600)
    assert len(sent) == 1  # the second was drawn on a refused move: never sent


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_one_tap_is_drawn_at_once_where_the_server_puts_it(live_server, new_page, device) -> None:
    page = first_visit(live_server, new_page, device, SEVERAL)
    sent = held_answers(page)

    tap_card(page, 1, 1)  # the 9s: onto the Ts (same suit, onto a card beats an empty column)

    assert column_cards(page, 0) == ["Ts", "9s"] and version(page) == "0"
    wait_confirmed(page, 1)
    assert column_cards(page, 0) == ["Ts", "9s"]
    assert sent == [{"type": "move", "from": 1, "to": 0, "count": 1, "version": 0}]
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_tap_on_the_hinted_card_goes_where_the_hint_says(live_server, new_page, device) -> None:
    page = first_visit(live_server, new_page, device, SEVERAL)

    def elsewhere(route) -> None:
        answer = route.fetch().json()
        # A hint (doctored here) naming another legal place than one tap's: an empty column.
        answer["action"] = {"type": "move", "from": 1, "to": 5, "count": 1}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/hint", elsewhere)
    page.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_selector('.hint-box .hint[data-to="5"]')
    sent = held_answers(page, delay_ms=0)

    tap_card(page, 1, 1)

    wait_confirmed(page, 2)  # the hint counted, then the move
    assert column_cards(page, 5) == ["9s"] and column_cards(page, 0) == ["Ts"]
    assert sent == [{"type": "move", "from": 1, "to": 5, "count": 1, "version": 1}]
    assert_no_console_errors(page)


def positions(count: int, rnd: random.Random) -> list[Board]:
    """Boards along random games of 1, 2 and 4 suits (random moves, a deal now and then)."""
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(deal_layout(rnd.choice([1, 2, 4]), rnd.randrange(1, 2**63)))
        for _ in range(rnd.randrange(10, 120)):
            moves = board.legal_moves()
            if board.can_deal() and (not moves or rnd.random() < 0.08):
                board.play(DEAL)
            elif moves:
                board.play(rnd.choice(moves))
            else:
                break
            if board.won:
                break
        if not board.won:
            boards.append(board)
    return boards


def test_the_clients_one_tap_is_the_servers_over_many_positions(live_server, new_page) -> None:
    """Every column and every count that lifts (and no count) of 300 positions: the client's
    choice (rules.js, oneTapChoice) is the server's (games/engine/onetap.py)."""
    cases = []
    for board in positions(300, random.Random(41)):
        view = public_view(board)
        for src, column in enumerate(view["columns"]):
            for count in [None, *range(1, len(column["cards"]) + 1)]:
                try:
                    _, dst, n = board.resolve_move(src, None, count)
                    want = {"to": dst, "count": n}
                except IllegalAction:
                    want = None
                cases.append({"view": view, "src": src, "count": count, "want": want})
    page = new_page()
    open_page(page, f"{live_server.url}/rules")
    got = page.evaluate(
        """async (cases) => {
          const { oneTapChoice } = await import('/static/web/rules.js');
          return cases.map((c) => oneTapChoice(c.view, c.src, c.count ?? undefined));
        }""",
        cases,
    )
    assert len(got) == len(cases) > 3000
    pairs = zip(cases, got, strict=True)
    wrong = [(c["src"], c["count"], c["want"], g) for c, g in pairs if c["want"] != g]
    assert wrong == []
    assert sum(c["want"] is not None for c in cases) > 500  # many real choices among them
