"""The daily's page after an attempt, in a real browser at desktop and phone sizes: a lost
attempt is told its place, the share of lower results and the day's scores with its bin
marked, and can copy a spoiler-free share; the open day's board offers no replay of another's
game (its row says "after the close") and marks the player's own row; the close has a time
zone and a countdown; the commitment folds under "Why it is fair"; the title keeps the date
whole; the player page lists the day in its calendar with the streak."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import Game
from leaderboard.daily_results import result_record
from leaderboard.ranking import entry_record
from tests.browser.test_daily_days import challenge
from tests.browser.web import DEVICES, open_page, sign_in
from tests.browser_plugin import assert_no_console_errors

pytestmark = pytest.mark.django_db(transaction=True)


def ended(player, day: str, *, won: bool, score: int) -> Game:
    """An ended ranked attempt, kept as a finishing game's transaction keeps it."""
    from leaderboard.models import DailyChallenge

    now = timezone.now()
    game = Game.objects.create(
        player=player,
        deal=DailyChallenge.objects.get(date=day).deal,
        suits=2,
        kind=Game.Kind.DAILY,
        daily_date=day,
        ranked=True,
        status=Game.Status.WON if won else Game.Status.LOST,
        end_reason="won" if won else "resigned",
        snapshot={},
        score=score,
        actions=120 if won else 25,
        runs_removed=8 if won else 0,
        started_at=now - timedelta(minutes=9),
        finished_at=now,
        elapsed_ms=540_000,
    )
    game.refresh_from_db()  # its daily_date a date, as a finishing game's is
    with transaction.atomic():  # as the finishing action's (the streak row is locked)
        if won:
            entry_record(game)
        result_record(game)
    return game


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_after_a_lost_attempt_the_page_says_where_it_stands(
    live_server, new_page, make_user, device
) -> None:
    day = challenge(0)
    loser, winner = make_user(username="lost_player"), make_user(username="won_player")
    ended(winner, day, won=True, score=1180)
    ended(loser, day, won=False, score=475)
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, loser)
    page.add_init_script(
        "window.copied = []; Object.defineProperty(navigator, 'clipboard', {value: "
        "{writeText: async (t) => { window.copied.push(t); }}}); delete navigator.share;"
    )
    open_page(page, f"{live_server.url}/daily")
    page.wait_for_selector(".standing")

    text = page.inner_text(".daily")
    assert "Your ranked attempt: lost, score 475, 2nd of 2 so far." in text
    assert "Better than 0% of today's players." in text and "1 of 2 won (50%)." in text
    assert page.inner_text(".distribution li.mine").startswith("300–499")
    assert "Played 1 day in a row" in page.inner_text(".streaks")

    # The open day's board: the winner's row, no replay of it before the close.
    page.wait_for_selector("table.board")
    assert page.locator("table.board a", has_text="Replay").count() == 0
    assert "after the close" in page.inner_text("table.board")

    # The close in the player's time zone with a countdown; the commitment folded.
    clock = page.inner_text(".close-clock")
    assert re.search(r"\(\S+\), in (\d+ h \d+ min|\d+ min|\d+ s)", clock), clock
    assert not page.is_visible(".fair .hash")
    page.click(".fair summary")
    assert page.is_visible(".fair .hash")
    title = page.locator("h1 .nowrap")
    assert title.inner_text() == day
    box = title.bounding_box()
    assert box is not None and box["height"] < 60  # one line: the date is never broken

    page.click("button.share")
    page.wait_for_function("window.copied.length === 1")
    shared = page.evaluate("window.copied[0]")
    assert shared.splitlines()[1:3] == [
        "Not won · 25 actions · score 475",
        "Place 2 of 2 so far · better than 0% of the day's players",
    ]
    assert shared.endswith(f"/daily/{day}")

    open_page(page, f"{live_server.url}/players/{loser.username}")
    page.wait_for_selector(".calendar-days li")
    assert page.inner_text(".calendar-days li.lost").endswith("lost, score 475, 2nd of 2")
    assert_no_console_errors(page)


def test_the_winner_sees_their_own_row_marked_and_may_replay_it(
    live_server, new_page, make_user
) -> None:
    day = challenge(0)
    winner = make_user(username="won_player")
    ended(winner, day, won=True, score=1180)
    page = new_page(**DEVICES["desktop"])
    sign_in(page, live_server.url, winner)
    open_page(page, f"{live_server.url}/daily")
    page.wait_for_selector("table.board tr.mine")
    mine = page.locator("table.board tr.mine")
    assert mine.locator(".you").inner_text() == "you"
    assert mine.locator("a", has_text="Replay").count() == 1
    assert_no_console_errors(page)


def test_a_resigned_attempt_offers_the_dailys_practice_not_a_replay(
    live_server, new_page, make_user
) -> None:
    """Its deal stays the server's until the close: "Replay this deal" could only answer "No
    such game"; the daily's page practises it."""
    from games.services import game_resign
    from leaderboard.services import daily_play

    day = challenge(0)
    player = make_user(username="resigned_player")
    game, _ = daily_play(player=player, day=timezone.now().date())
    assert game.daily_date is not None and game.daily_date.isoformat() == day
    game_resign(player=player, game_id=str(game.id))
    page = new_page(**DEVICES["desktop"])
    sign_in(page, live_server.url, player)
    open_page(page, f"{live_server.url}/play/{game.id}")
    page.wait_for_selector(".notice")
    assert page.locator(".notice button", has_text="Replay this deal").count() == 0
    page.click(".notice a:has-text('Practice it from the daily page')")
    page.wait_for_selector(".daily .attempt button:has-text('Practice this deal')")
    assert_no_console_errors(page)
