"""The daily's past days in a real browser, at desktop (1280x800) and phone (390x844) sizes: "Past
days" lists only days that had a challenge (GET /daily/days), with the older and the newer day
to step to; a closed day's deal is practised (unranked); and that 2-suit game, told "no
useful move" by a hint, is flagged stuck."""

from __future__ import annotations

import itertools
import re
from datetime import date, timedelta

import pytest
from django.utils import timezone

from games.engine import DEAL_VERSION
from games.models import Deal, Game, seed_to_db
from leaderboard.models import DailyChallenge
from tests.browser.web import DESKTOP, DEVICES, open_page, screenshot, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import layout_notation

pytestmark = pytest.mark.django_db(transaction=True)

# A 2-suit deal with moves left but none useful (the 8s only steps between the two 9s).
NO_USEFUL_2 = ["|9s8s", "|9s", "|Kh", "|Kh", "|Jh", "|Jh", "|5s", "|5s", "|3h", "|3h"]
_seeds = itertools.count(30_000_000)


def today() -> date:
    return timezone.now().date()


def challenge(offset: int, columns: list[str] | None = None) -> str:
    """A challenge row ``offset`` days from today; returns its date."""
    day = today() + timedelta(days=offset)
    deal = Deal(
        suits=2,
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.DEALT,
        vetted=True,
    )
    if columns:
        deal.layout_notation = layout_notation(2, columns, "")
    else:
        deal.seed_db = seed_to_db(next(_seeds))
    deal.save()
    DailyChallenge.objects.create(date=day, deal=deal, nonce="00", commitment="0" * 64)
    return day.isoformat()


def drawn(page, day: str) -> None:
    """Wait until the page of ``day`` is drawn: the address changes first, and until then
    the previous day's page (its buttons and links) is still the one shown. The day's
    navigation is the last thing drawn."""
    page.wait_for_url(re.compile(rf"/daily/{day}$"))
    page.wait_for_function(
        """d => document.querySelector('.day-nav') !== null
            && [...document.querySelectorAll('h2')]
                .some((e) => e.textContent === `The board of ${d}`)""",
        arg=day,
    )


def listed(page) -> list[str]:
    return page.eval_on_selector_all(".days li a", "links => links.map(a => a.textContent)")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_past_days_list_only_real_days_both_ways_and_practise_one(
    live_server, new_page, make_user, device
) -> None:
    # Days -2, -4 and -6..-8 had no challenge: they must not be listed.
    days = {n: challenge(n) for n in (0, -1, -5, -9)}
    days[-3] = challenge(-3, NO_USEFUL_2)
    player = make_user()
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, player)

    open_page(page, f"{live_server.url}/daily/{days[-1]}")
    page.wait_for_selector(".days li")
    assert listed(page) == [days[-3], days[-5], days[-9]]
    assert page.locator(".day-nav .older").inner_text() == f"← {days[-3]}"
    assert page.locator(".day-nav .newer").inner_text() == "Today →"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, f"daily-days-{device}")

    page.locator(".day-nav .older").click()  # back a day that exists (not -2)
    drawn(page, days[-3])
    assert page.locator(".day-nav .newer").inner_text() == f"{days[-1]} →"
    assert listed(page) == [days[-5], days[-9]]
    page.locator(".day-nav .newer").click()  # and forward again
    drawn(page, days[-1])
    page.locator(".day-nav .older").click()
    drawn(page, days[-3])

    page.get_by_role("button", name="Practice this deal").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    game = Game.objects.get(player=player)
    assert (game.kind, game.ranked, game.suits) == ("casual", False, 2)
    assert game.deal_id == DailyChallenge.objects.get(date=days[-3]).deal_id

    page.get_by_role("button", name="Hint", exact=True).click()  # a 2-suit "no useful move"
    banner = page.locator(".notice.stuck")
    banner.wait_for()
    assert "No useful move" in banner.inner_text()
    assert page.locator(".table.stuck").count() == 1
    screenshot(page, f"daily-practice-stuck-{device}")
    assert_no_console_errors(page)


def test_today_has_nothing_newer_and_older_days_page_on(live_server, new_page, make_user):
    for n in (0, *range(-1, -10, -1)):  # today and nine days before it
        challenge(n)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())

    open_page(page, f"{live_server.url}/daily/{today().isoformat()}")
    page.wait_for_selector(".days li")
    assert page.locator(".day-nav .newer").count() == 0
    assert len(listed(page)) == 7
    page.get_by_role("button", name="Older days").click()
    page.wait_for_function("() => document.querySelectorAll('.days li').length === 9")
    assert page.get_by_role("button", name="Older days").is_hidden()
    assert listed(page)[-1] == (today() - timedelta(days=9)).isoformat()
    assert_no_console_errors(page)
