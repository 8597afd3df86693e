"""The "Analyse" link wherever a finished public game is shown, at desktop and phone
sizes: a leaderboard row, a closed day's page (the player's own attempt and the day's
board), a laid-open race table; and nowhere the server would refuse it: a daily win while
its day is open (on the suit board and the day's), the open day's attempt, a running race
(docs/rules.md#after-the-game-the-analysis)."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Analysis, Game
from leaderboard import services as daily_services
from tests.browser.web import DEVICES, open_page, screenshot, sign_in
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import act, ok
from tests.games.conftest import pooled_deal
from tests.leaderboard.helpers import line_of, play_service
from tests.races.conftest import start_race
from tests.races.test_race_api import WIN2

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _settings(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0
    settings.ANALYSIS_IN_THREAD = False  # inline, after the asking request's commit
    settings.ANALYSIS_PROBE_MAX_NODES = {1: 60_000, 2: 60_000, 4: 60_000}
    settings.ANALYSIS_MAX_NODES = 1_000_000
    settings.REVIEW_SAMPLE = 6
    settings.REVIEW_WORLD_SEARCH_NODES = {1: 10_000, 2: 10_000, 4: 10_000}
    settings.REVIEW_MAX_NODES = {1: 1_000_000, 2: 1_000_000, 4: 1_000_000}
    settings.ANALYSIS_PROOF_MAX_NODES = 20_000
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RACE_EVENTS_REDIS_URL = ""


def analyse_links(page) -> list[str]:
    """Where each "Analyse" on the page leads."""
    return page.eval_on_selector_all("a.analyse", "links => links.map(a => a.pathname + a.search)")


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def wait_analysed(page, game_id: str) -> str:
    """On the replay the link led to: the analysis asked for, done; its summary."""
    page.wait_for_url(re.compile(f"/replay/{game_id}\\?analyse=1$"))
    page.wait_for_function(
        "() => /^Analysed/.test(document.querySelector('.analysis-status')?.textContent)"
    )
    assert Analysis.objects.get(game_id=game_id).status == "done"
    return page.locator(".analysis-summary").inner_text()


@pytest.mark.parametrize("device", DEVICES)
def test_leaderboard_rows_and_a_closed_days_page_lead_to_the_analysis(
    live_server, new_page, make_user, device
) -> None:
    pooled_deal(1, 11)
    pooled_deal(2, 11)  # today's challenge
    winner = make_user("winner")
    casual = game_services.game_create(player=winner, suits=1)
    play_service(winner, casual.id, line_of(casual.id))
    player = make_user("alice")
    today = timezone.now().date()
    daily_services.daily_ensure(day=today)
    daily, _ = daily_services.daily_play(player=player, day=today)
    play_service(player, daily.id, line_of(daily.id))  # her ranked attempt, won
    casual_id, daily_id = str(casual.id), str(daily.id)
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, player)

    # The day is open: her win is on the 2-suit board and the day's, never analysable yet.
    open_page(page, f"{live_server.url}/leaderboard?suits=2")
    page.wait_for_selector("table.board tbody tr")
    assert "alice" in page.locator("table.board tbody").inner_text()
    assert analyse_links(page) == []
    open_page(page, f"{live_server.url}/daily")
    page.wait_for_selector("table.board tbody tr")
    assert "Your ranked attempt: won" in page.locator(".attempt").inner_text()
    assert analyse_links(page) == []
    # A casual win is public at once: its row offers the analysis.
    open_page(page, f"{live_server.url}/leaderboard?suits=1")
    page.wait_for_selector("table.board tbody tr")
    assert analyse_links(page) == [f"/replay/{casual_id}?analyse=1"]
    fits(page)
    screenshot(page, f"leaderboard-analyse-{device}")
    page.get_by_role("link", name="Analyse winner's game, rank 1").click()
    summary = wait_analysed(page, casual_id)
    assert summary.startswith(f"Won in {len(line_of(casual_id))} actions; the deal's par is")
    fits(page)

    # The day closes: its page offers her attempt's analysis, and its board rows theirs.
    real_now = timezone.now
    later = mock.patch(
        "django.utils.timezone.now", side_effect=lambda: real_now() + timedelta(days=1)
    )
    with later:
        open_page(page, f"{live_server.url}/daily/{today.isoformat()}")
        page.wait_for_selector("table.board tbody tr")
        mine = f"/replay/{daily_id}?analyse=1"
        assert analyse_links(page) == [mine, mine]  # her attempt, and her row on the board
        box = page.locator(".attempt-analysis")
        assert box.inner_text().startswith("Your ranked attempt: won, score")
        fits(page)
        screenshot(page, f"daily-closed-analyse-{device}")
        open_page(page, f"{live_server.url}/leaderboard?suits=2")
        page.wait_for_selector("table.board tbody tr")
        assert analyse_links(page) == [mine]
        open_page(page, f"{live_server.url}/daily/{today.isoformat()}")
        page.get_by_role("link", name="Analyse your attempt").click()
        summary = wait_analysed(page, daily_id)
    assert summary.startswith(f"Won in {len(line_of(daily_id))} actions")
    assert Game.objects.get(pk=daily_id).kind == "daily"
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", DEVICES)
def test_a_laid_open_race_table_leads_to_its_analysis(
    live_server, new_page, make_user, auth_client, device
) -> None:
    alice, bob = make_user("alice", is_staff=True), make_user("bob")
    a, b = auth_client(alice), auth_client(bob)
    table = start_race([a, b], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    page = new_page(**DEVICES[device])
    # No event stream here (the page reads the table when it opens; the stream's own tests
    # are test_races.py's): each connection is answered at once with no event.
    page.route(
        re.compile(r"/api/v1/races/[A-Z0-9]+/events"),
        lambda route: route.fulfill(
            status=200, headers={"Content-Type": "text/event-stream"}, body="retry: 60000\n\n"
        ),
    )
    sign_in(page, live_server.url, bob)

    # Running: nothing laid open, nothing to analyse (the others still play the deal).
    open_page(page, f"{live_server.url}/race/{code}")
    page.wait_for_selector(".race-own .card.up")
    assert page.locator(".laid-open").count() == 0
    assert analyse_links(page) == []

    for _ in range(2):  # alice wins: the 2s onto the 3s, the Ace it turned onto the 2s
        ok(act(a, games["alice"], "move", from_=1, to=0))
    open_page(page, f"{live_server.url}/race/{code}")
    page.wait_for_selector("#race-result-title")
    assert page.locator(".laid-open").count() == 2
    assert sorted(analyse_links(page)) == sorted(
        f"/replay/{games[p]}?analyse=1" for p in ("alice", "bob")
    )
    fits(page)
    screenshot(page, f"race-result-analyse-{device}")
    page.get_by_role("link", name="Analyse alice's game").click()
    summary = wait_analysed(page, games["alice"])
    assert summary.startswith("Won in 2 actions")
    page.go_back()
    page.wait_for_selector("#race-result-title")
    page.get_by_role("link", name="Analyse your game").click()
    summary = wait_analysed(page, games["bob"])  # lost at the race's end, before any move
    assert "A win was still there when the game ended" in summary
    assert_no_console_errors(page)
