"""The GameLake end game in the web client: a setting (with its one-line explanation) that
deals new games under the table rule deal_over_gap, said on the table while it is on."""

from __future__ import annotations

import pytest

from games.models import Game
from preferences.models import PlayerSettings
from tests.browser.web import DESKTOP, open_page, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import pooled_layout_deal

pytestmark = pytest.mark.django_db(transaction=True)

STOCK = "Ts9s8s7s6s5s4s3s2sAs"  # K Q J on the table: only a deal over the gaps goes on


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


def test_the_setting_deals_new_games_under_the_rule_and_the_table_says_so(
    live_server, new_page, make_user
) -> None:
    pooled_layout_deal(["|KsQsJs"], stock=STOCK)
    pooled_layout_deal(["|KsQsJs"], stock=STOCK)
    player = make_user()
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/play")
    page.locator('button[data-suits="1"]').click()
    page.wait_for_selector('.card[data-card="Js"]')
    assert page.locator(".stat-rules").count() == 0  # the standard rules: nothing said
    page.locator("details.settings summary").click()
    box = page.locator("#gamelake-end-game")
    assert not box.is_checked()
    assert "fewer than ten cards" in page.locator(".setting-note").inner_text()
    box.check()
    page.wait_for_function("() => localStorage.getItem('spider.settings.pending') === null")
    assert PlayerSettings.objects.get(player=player).deal_over_gap is True

    # A new game: the one in play has no action, so nothing to confirm.
    page.get_by_role("button", name="New game…").click()
    page.locator('.menu button[data-suits="1"]').click()
    page.wait_for_function("() => document.querySelector('.stat-rules') !== null")
    assert page.locator(".stat-rules dd").inner_text() == "GameLake end game"
    game = Game.objects.get(player=player, status="in_progress")
    assert game.deal_over_gap
    page.get_by_role("button", name="Deal", exact=True).click()  # over the nine gaps
    page.wait_for_selector('.card[data-card="As"]')
    assert Game.objects.get(pk=game.pk).actions == 1
    assert_no_console_errors(page)


@pytest.mark.parametrize("gap", [False, True])
def test_the_stuck_banner_follows_the_games_rule(live_server, new_page, make_user, gap) -> None:
    """The table cleared with a deal still in the stock: stuck under the standard rules, the
    deal over the gaps under the GameLake end game."""
    pooled_layout_deal([], stock=STOCK)
    player = make_user()
    PlayerSettings.objects.create(player=player, deal_over_gap=gap)
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/play")
    page.wait_for_function(  # the account's settings read (not this device's defaults)
        "g => JSON.parse(localStorage.getItem('spider.settings') || '{}').deal_over_gap === g",
        arg=gap,
    )
    page.locator('button[data-suits="1"]').click()
    page.wait_for_selector(".stat-game")
    if not gap:
        banner = page.locator(".notice.stuck")
        banner.wait_for()
        assert "this deal is stuck" in banner.inner_text()
        return
    assert page.locator(".stat-rules dd").inner_text() == "GameLake end game"
    assert page.locator(".notice.stuck").count() == 0
    page.get_by_role("button", name="Deal", exact=True).click()
    page.wait_for_selector('.card[data-card="As"]')
    assert_no_console_errors(page)
