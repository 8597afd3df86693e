"""The post-game analysis in a real browser: from a lost game's end, "Analyse";
the replay jumps to the turning point with the move that lost it marked, and the solver's
way through is stepped with the replay's own controls to a win
(docs/rules.md#after-the-game-the-analysis)."""

from __future__ import annotations

import re

import pytest

from games.models import Analysis, Deal
from tests.browser.web import (
    DESKTOP,
    DEVICES,
    open_page,
    screenshot,
    sign_in,
    tap_card,
    tap_column,
)
from tests.browser_plugin import assert_no_console_errors
from tests.games.api.helpers import pooled_layout_deal
from tests.solver.test_analysis import WIN

pytestmark = pytest.mark.django_db(transaction=True)

# tests/solver/test_analysis.py's TRAP: moving the Ace onto the 2 (column 2 to column 1)
# completes the run too early and loses the deal; WIN is its known win, stored as the deal's
# vetted line (the beam does not find it from the start within these budgets).
TRAP_COLUMNS = ["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As", "|Ks", "|Qs", "|Js"]
TRAP_STOCK = "Ts9s8s7s6s5s4s3s2sAs"


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


def caption_starts(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('.replay-step')?.textContent.startsWith(t)", arg=text
    )


def lose_the_trap(page, base: str) -> str:
    """Play the losing move of the trap deal and resign: the lost game's id."""
    deal = pooled_layout_deal(TRAP_COLUMNS, stock=TRAP_STOCK)
    Deal.objects.filter(pk=deal.pk).update(solver_line=[a.to_json() for a in WIN])
    open_page(page, f"{base}/play")
    page.locator('button[data-suits="1"]').click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}$"))
    page.wait_for_selector(".column .card.up")
    game_id = page.url.rsplit("/", 1)[1]
    tap_card(page, 1, 1)  # the Ace onto the 2: the run goes off the table
    tap_column(page, 0)
    page.wait_for_function("() => document.querySelector('.table').dataset.version === '1'")
    page.get_by_role("button", name="New game…").click()
    page.locator(".menu button.danger").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Resign").click()
    page.wait_for_selector(".notice")
    return game_id


def test_a_lost_game_analysed_shows_the_turning_point_and_plays_the_way_through(
    live_server, new_page, make_user
) -> None:
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    game_id = lose_the_trap(page, live_server.url)
    # The first answer is held back as "pending" (as while a worker searches): the page says
    # so and reads the analysis again until it is done.
    seen = []

    def pending_first(route) -> None:
        seen.append(route.request.method)
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch()
        route.fulfill(
            response=response,
            status=202,
            json={**response.json(), "status": "pending", "result": None},
        )

    page.route(re.compile(r"/api/v1/games/[0-9a-f-]+/analysis$"), pending_first)
    page.locator(".notice").get_by_role("link", name="Analyse").click()
    page.wait_for_url(f"{live_server.url}/replay/{game_id}?analyse=1")
    page.wait_for_function(
        "() => /pending/.test(document.querySelector('.analysis-status')?.textContent)"
        " || /Analysed/.test(document.querySelector('.analysis-status')?.textContent)"
    )
    caption_starts(page, "Turning point, step 0 of")
    assert seen[0] == "POST" and "GET" in seen  # asked once, then read until done
    assert Analysis.objects.get(game_id=game_id).status == "done"
    # The move that lost it: the Ace of column 2 (marked) onto column 1 (the target).
    assert page.locator('.column[data-col="1"] .card.hinted').count() == 1
    assert page.locator('.column.target[data-col="0"]').count() == 1
    summary = page.locator(".analysis-summary").inner_text()
    assert "the move that lost it: move the card from column 2 to column 1" in summary
    assert "every reachable position was searched" in summary  # proved lost, said so
    screenshot(page, "analysis-desktop")

    result = Analysis.objects.get(game_id=game_id).result
    assert result is not None
    line = result["solver_line"]
    length = line["length"]
    page.get_by_role("button", name="Play the way through").click()
    caption_starts(page, f"The way through from step 0: {length} actions to a win")
    next_step = page.get_by_role("button", name="Next step")
    for n in range(1, length + 1):
        next_step.click()
        caption_starts(page, f"Way through, step {n} of {length}:")
    assert page.locator(".replay-step").inner_text().endswith("· won")
    assert page.locator(".column .card").count() == 0  # every run off the table
    page.keyboard.press("ArrowLeft")  # the keys step the way through too
    caption_starts(page, f"Way through, step {length - 1} of {length}:")
    page.keyboard.press("Home")
    caption_starts(page, "The way through from step 0")
    screenshot(page, "analysis-way-desktop")
    page.get_by_role("button", name="Back to the game").click()
    caption_starts(page, "Turning point, step 0 of")
    assert_no_console_errors(page)


def test_a_failed_analysis_says_why(live_server, new_page, make_user) -> None:
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    game_id = lose_the_trap(page, live_server.url)
    open_page(page, f"{live_server.url}/replay/{game_id}")
    page.route(
        re.compile(r"/api/v1/games/[0-9a-f-]+/analysis$"),
        lambda route: route.fulfill(
            status=200,
            json={
                "game": game_id,
                "status": "failed",
                "reason": "solver_bug: a test's reason",
                "requested_at": None,
                "finished_at": None,
                "nodes": 0,
                "seconds": 0.1,
                "result": None,
            },
        ),
    )
    page.get_by_role("button", name="Analyse").click()
    status = page.locator(".analysis-status")
    page.wait_for_function(
        "() => /failed/.test(document.querySelector('.analysis-status')?.textContent)"
    )
    assert status.inner_text() == "The analysis failed: solver_bug: a test's reason."
    caption_starts(page, "The deal")  # the replay stays where it was
    assert_no_console_errors(page)


def test_an_unsettled_stretch_is_said_and_no_move_is_blamed(
    live_server, new_page, make_user
) -> None:
    """Where the budget proved no loss right after the last win, the page names no move: it
    says where a win was found, where (if anywhere) a loss was proved, and how many
    positions between stayed open."""
    page = new_page(**DESKTOP)
    sign_in(page, live_server.url, make_user())
    game_id = lose_the_trap(page, live_server.url)
    open_page(page, f"{live_server.url}/replay/{game_id}")

    def unsettled(route) -> None:  # the real answer, as a budget too small to prove gives it
        response = route.fetch()
        body = response.json()
        if body.get("result"):
            body["result"].update(turning_point=None, proved_loss=None, unsettled=1)
        route.fulfill(response=response, json=body)

    page.route(re.compile(r"/api/v1/games/[0-9a-f-]+/analysis$"), unsettled)
    page.get_by_role("button", name="Analyse").click()
    page.wait_for_function(
        "() => /unsettled/.test(document.querySelector('.analysis-summary')?.textContent)"
    )
    text = page.locator(".analysis-summary").inner_text()
    assert "A win was found from step 0" in text
    assert "No loss was proved after it." in text
    assert "The position between stayed unsettled" in text
    assert "lost it" not in text
    assert page.get_by_role("button", name="The turning point").is_hidden()
    assert_no_console_errors(page)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_move_review_draws_the_chance_and_says_each_move_in_words(
    live_server, new_page, make_user, device
) -> None:
    """The move review under the analysis: its summary, said to be an estimate; the graph of
    the chance over the game; and on the step a move was played from, that move's review in
    the issue's words (the trap's losing move: no win left in any world drawn)."""
    page = new_page(**DEVICES[device])
    sign_in(page, live_server.url, make_user())
    game_id = lose_the_trap(page, live_server.url)
    open_page(page, f"{live_server.url}/replay/{game_id}?analyse=1")
    page.wait_for_selector(".move-review .chance-graph")
    result = Analysis.objects.get(game_id=game_id).result
    assert result is not None
    review = result["review"]
    summary = page.locator(".move-review p").inner_text()
    assert summary.startswith("Move review, an estimate from the cards you could see:")
    # The graph: a point at each position with a share, within the page's width.
    known = [c for c in review["chances"] if c["chance"]["share"] is not None]
    assert page.locator(".chance-graph circle.point").count() == len(known) >= 1
    box = page.locator(".chance-graph").bounding_box()
    assert box is not None and 0 < box["width"] <= page.viewport_size["width"]
    graded = [m for m in review["moves"] if m["grade"]]
    assert page.locator(".chance-graph .grade-mark").count() == len(graded)
    caption_starts(page, "Turning point, step 0 of")
    (move,) = review["moves"]
    line = page.locator(".review-move").inner_text()
    assert line == f"Estimate: {move['sentence']}"
    assert line.startswith("Estimate: This move left no win in any of the 6 ways the hidden")
    screenshot(page, f"move-review-{device}")
    assert_no_console_errors(page)
