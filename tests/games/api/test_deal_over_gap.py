"""The table rule deal_over_gap through the API (docs/rules.md#deal-over-a-gap): chosen at
POST /games, shown on every representation of the game, refused clearly when malformed,
honoured by the deal, the hints, the stuck flag, the replay checks and the leaderboard."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import services
from games.integrity import replay_problem
from games.models import Game
from leaderboard.models import LeaderboardEntry
from leaderboard.verify import verify_entries
from tests.games.api.helpers import (
    GAMES_URL,
    act,
    actions_url,
    game_record,
    game_url,
    layout_json,
    new_game,
    ok,
    refused,
    snapshot_of,
)
from tests.leaderboard.helpers import line_of, play_service

pytestmark = pytest.mark.django_db

# Seven runs gone: K Q J of spades on the table and T..A in the stock. Only a deal over
# the nine empty columns goes on, then nine moves win.
ENDGAME = layout_json(["|KsQsJs"], stock="Ts9s8s7s6s5s4s3s2sAs")
WIN = [{"type": "move", "from": i, "to": 0, "count": 1} for i in range(1, 10)]


def endgame(client: Any, gap: bool | None) -> dict[str, Any]:
    body: dict[str, Any] = {"layout": ENDGAME}
    if gap is not None:
        body["deal_over_gap"] = gap
    return new_game(client, 1, **body)


def test_the_rule_is_chosen_at_creation_and_shown_everywhere(stock_pool, player_client):
    stock_pool(1, 2)
    standard = new_game(player_client, 1)
    assert standard["deal_over_gap"] is False  # off when omitted
    ok(act(player_client, standard["id"], "deal"))  # so the next game abandons it, not drops it
    game = new_game(player_client, 1, deal_over_gap=True)
    assert game["deal_over_gap"] is True
    assert ok(player_client.get(game_url(game["id"])))["deal_over_gap"] is True
    listed = ok(player_client.get(GAMES_URL))["results"]
    assert [g["deal_over_gap"] for g in listed] == [True, False]  # newest first
    assert ok(player_client.get(actions_url(game["id"])))["deal_over_gap"] is True
    assert snapshot_of(game["id"])["deal_over_gap"] is True
    assert "deal_over_gap" not in snapshot_of(standard["id"])
    assert Game.objects.get(pk=game["id"]).deal_over_gap


@pytest.mark.parametrize("bad", ["yes", 1, 0, "true", None, [], {}])
def test_a_bad_value_is_a_400_and_changes_nothing(stock_pool, player_client, bad):
    stock_pool(1, 1)
    running = new_game(player_client, 1)
    before = game_record(running["id"])
    body = refused(
        player_client.post(GAMES_URL, {"suits": 1, "deal_over_gap": bad}, format="json"),
        400,
        "invalid",
    )
    assert "deal_over_gap" in body["errors"]
    assert game_record(running["id"]) == before  # the game in progress was not abandoned
    assert Game.objects.count() == 1


def test_a_game_won_only_with_the_rule(staff_client):
    standard = endgame(staff_client, None)
    refused(act(staff_client, standard["id"], "deal"), 422, "empty_column_blocks_deal")
    assert standard["stuck"] is False  # moves are left: only the deal is refused

    game = endgame(staff_client, True)
    dealt = ok(act(staff_client, game["id"], "deal"))
    assert dealt["deals_left"] == 0
    assert all(c["cards"] for c in dealt["columns"])
    for move in WIN:
        state = ok(staff_client.post(actions_url(game["id"]), move, format="json"))
    assert state["status"] == "won" and state["deal_over_gap"] is True
    assert replay_problem(Game.objects.get(pk=game["id"])) is None  # replayed under its rule
    position = ok(staff_client.get(f"{game_url(game['id'])}/positions/1"))
    assert position["deal_over_gap"] is True
    assert all(c["cards"] for c in position["columns"])


def test_the_rule_changes_the_hint(staff_client):
    standard = endgame(staff_client, False)
    answer = ok(staff_client.post(f"{game_url(standard['id'])}/hint", {}, format="json"))
    assert answer["action"] is None
    assert answer["reason"] == "no useful move: undo or start a new game"

    game = endgame(staff_client, True)
    answer = ok(staff_client.post(f"{game_url(game['id'])}/hint", {}, format="json"))
    assert answer["action"]["type"] == "deal"
    assert answer["reason"] == "deals: no useful move left"


def test_the_rule_changes_the_stuck_flag(staff_client):
    # The table cleared with a deal still in the stock: no move, and the deal only over gaps.
    empty = layout_json([], stock="Ts9s8s7s6s5s4s3s2sAs")
    standard = new_game(staff_client, 1, layout=empty)
    assert standard["stuck"] is True
    game = new_game(staff_client, 1, layout=empty, deal_over_gap=True)
    assert game["stuck"] is False
    assert ok(act(staff_client, game["id"], "deal"))["stuck"] is False


def test_a_vetted_deal_wins_under_the_rule_and_its_entry_says_so(stock_pool, player, api_client):
    """A deal won under the standard rules is won under deal_over_gap too (its vetted line
    plays as it is); the public board shows each entry's rule and verifies it."""
    stock_pool(1, 1)
    game = services.game_create(player=player, suits=1, deal_over_gap=True)
    assert game.ranked
    won = play_service(player, game.id, line_of(game.id))
    assert won.status == Game.Status.WON
    entry = LeaderboardEntry.objects.get(game=won)
    assert entry.deal_over_gap
    assert list(verify_entries()) == []
    rows = ok(api_client.get("/api/v1/leaderboard?suits=1"))["results"]
    assert [r["deal_over_gap"] for r in rows] == [True]


@pytest.mark.parametrize("gap", [False, True])
def test_the_analysis_searches_under_the_games_rule(
    staff_client, api_client, settings, django_capture_on_commit_callbacks, gap
):
    settings.ANALYSIS_IN_THREAD = False
    settings.ANALYSIS_PROBE_MAX_NODES = {1: 20_000, 2: 20_000, 4: 20_000}
    settings.ANALYSIS_MAX_NODES = 200_000
    settings.REVIEW_SAMPLE = 6
    settings.REVIEW_WORLD_SEARCH_NODES = {1: 10_000, 2: 10_000, 4: 10_000}
    settings.REVIEW_MAX_NODES = {1: 1_000_000, 2: 1_000_000, 4: 1_000_000}
    settings.ANALYSIS_PROOF_MAX_NODES = 20_000
    game = endgame(staff_client, gap)
    ok(staff_client.post(f"{game_url(game['id'])}/resign"))
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(f"{game_url(game['id'])}/analysis")
    result = ok(api_client.get(f"{game_url(game['id'])}/analysis"))["result"]
    assert result["start_winnable"] is gap
    if not gap:  # every position searched: three cards can never fill ten columns
        assert result["start"]["exhaustive"] is True
        return
    line = result["solver_line"]
    assert line["position"].endswith(" deal_over_gap")  # its tables replay under the rule
    assert line["actions"][0] == {"type": "deal"} and line["length"] == 10
    assert line["positions"][-1]["won"] is True


def test_a_won_games_par_is_the_deals_line_shortened_under_its_rule(
    stock_pool, player, auth_client, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_IN_THREAD = False
    settings.ANALYSIS_PROBE_MAX_NODES = {1: 20_000, 2: 20_000, 4: 20_000}
    settings.REVIEW_SAMPLE = 6
    settings.REVIEW_WORLD_SEARCH_NODES = {1: 10_000, 2: 10_000, 4: 10_000}
    settings.REVIEW_MAX_NODES = {1: 1_000_000, 2: 1_000_000, 4: 1_000_000}
    (deal,) = stock_pool(1, 1)
    game = services.game_create(player=player, suits=1, deal_over_gap=True)
    play_service(player, game.id, line_of(game.id))
    client = auth_client(player)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{game_url(game.id)}/analysis")
    result = ok(client.get(f"{game_url(game.id)}/analysis"))["result"]
    assert result["outcome"] == "won"
    assert result["par"] <= deal.par  # the rule only adds ways: never a longer par
    assert result["over_par"] == result["length"] - result["par"]


def test_the_export_carries_each_games_rule(stock_pool, player_client):
    stock_pool(1, 1)
    game = new_game(player_client, 1, deal_over_gap=True)
    ok(player_client.patch("/api/v1/me/settings", {"deal_over_gap": True}, format="json"))
    response = player_client.get("/api/v1/me/export")
    assert response.status_code == 200
    lines = [json.loads(x) for x in b"".join(response.streaming_content).splitlines()]
    (exported,) = [x for x in lines if x["type"] == "game"]
    assert exported["id"] == game["id"] and exported["deal_over_gap"] is True
    (settings_line,) = [x for x in lines if x["type"] == "settings"]
    assert settings_line["deal_over_gap"] is True
